#!/usr/bin/env python3
"""Writes a copy of a cubin whose launch metadata has no `repitch` lines.

The A/B control for the runtime's staging copies (issue 17, item 5): the
same kernels, byte for byte, whose misaligned launches take the
per-thread-copy twin as before. Each `repitch ...` line of a metadata string
is overwritten in place by as many newlines (the parser skips empty lines),
so no offset in the ELF moves.

usage: strip-repitch.py IN.cubin OUT.cubin
"""
import re
import sys


def main():
    src, dst = sys.argv[1:3]
    data = bytearray(open(src, "rb").read())
    count = 0
    for match in re.finditer(rb"\nrepitch( [0-9]+:[xyz]:[0-9]+)+\n", bytes(data)):
        start, end = match.start() + 1, match.end()
        data[start:end] = b"\n" * (end - start)
        count += 1
    open(dst, "wb").write(bytes(data))
    print(f"{dst}: {count} repitch line(s) blanked")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
