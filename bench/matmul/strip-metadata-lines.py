#!/usr/bin/env python3
"""Writes a copy of a cubin whose launch metadata has no lines of one kind.

The A/B control for a runtime choice that a metadata line asks for: the
same kernels, byte for byte, launched as if the line were absent. With
`repitch`, misaligned launches take the per-thread-copy twin as before the
runtime's staging copies (issue 17, item 5); with `narrow`, a matmul whose
C has few columns takes the main kernel, not its narrow variant; with
`waits`, a then kernel launches after the kernel before it has ended. Each
`KEY ...` line of a metadata string is overwritten in place by as many
newlines (the parser skips empty lines), so no offset in the ELF moves.
KEY `repitch:written` blanks only the written entries of repitch lines
(`ARG:out`, `ARG:inout`) with spaces (the parser skips repeated ones): a
misaligned C sends the launch to the twin, as before C was staged.
KEY:WORD blanks only the KEY lines whose first word (the kernel named)
ends in WORD: `narrow:__gemv` leaves a matmul without its GEMV kernel.

usage: strip-metadata-lines.py KEY IN.cubin OUT.cubin
"""
import re
import sys


def main():
    key, src, dst = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    count = 0
    if key == "repitch:written":
        entry = re.compile(rb" \d+:(?:in)?out(?=[ \n])")
        for line in re.finditer(rb"\nrepitch [^\n\x00]*\n", bytes(data)):
            for match in entry.finditer(bytes(data), line.start(), line.end()):
                data[match.start():match.end()] = b" " * (match.end() - match.start())
                count += 1
        open(dst, "wb").write(bytes(data))
        print(f"{dst}: {count} written repitch entr(y/ies) blanked")
        return 0 if count else 1
    # KEY alone on its line (`waits`) or followed by its words; KEY:WORD
    # only the KEY lines whose first word ends in WORD (`narrow:__gemv`).
    key, _, word = key.partition(":")
    first = rb" \S*" + re.escape(word.encode()) + rb"(?= |\n)" if word else b""
    line = (rb"\n" + re.escape(key.encode()) + first +
            rb"(?: [^\n\x00]*)?\n")
    for match in re.finditer(line, bytes(data)):
        start, end = match.start() + 1, match.end()
        data[start:end] = b"\n" * (end - start)
        count += 1
    open(dst, "wb").write(bytes(data))
    print(f"{dst}: {count} {key} line(s) blanked")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
