#!/usr/bin/env python3
"""Whether two cubins hold the same kernels, as the GPU runs them.

    python3 scripts/compare-cubins.py A.cubin B.cubin

For each kernel: its SASS (.text.K), its attributes and parameters
(.nv.info.K, records compared with the symbols they name instead of
symbol-table indices, which change with the order ptxas meets the
kernels), its constant bank 0 and its shared memory size; and the sizes of
the module's initialised globals (the launch metadata). Exits 1 and names
what differs. Used to check that a change to how tilec drives LLVM and
ptxas (partitions, threads) leaves the code as it was.
"""
import struct
import sys


def read_elf(path):
    data = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    heads = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)
             for i in range(shnum)]
    names_at = heads[shstrndx][4]

    def cstring(offset):
        return data[offset:data.index(b'\0', offset)].decode()

    sections = {}
    for name, kind, _, _, offset, size in heads:
        sections[cstring(names_at + name)] = (
            b'' if kind == 8 else data[offset:offset + size], size)
    # Symbol index -> name (a section's symbol: the section's name).
    symtab, strtab = sections['.symtab'][0], sections['.strtab'][0]
    symbols = []
    for at in range(0, len(symtab), 24):
        name, info, _, shndx = struct.unpack_from('<IBBH', symtab, at)
        if info & 0xf == 3 and shndx < len(heads):  # STT_SECTION
            symbols.append(cstring(names_at + heads[shndx][0]))
        else:
            symbols.append(strtab[name:strtab.index(b'\0', name)].decode())
    return sections, symbols


# .nv.info attributes whose payload starts with a symbol index.
SYMBOL_FIRST = {0x0a}  # EIATTR_PARAM_CBANK


def info_records(blob, symbols):
    records, at = [], 0
    while at + 4 <= len(blob):
        form, attr, value = blob[at], blob[at + 1], struct.unpack_from(
            '<H', blob, at + 2)[0]
        at += 4
        if form == 4:  # EIFMT_SVAL: `value` bytes follow
            payload = blob[at:at + value]
            at += value
            if attr in SYMBOL_FIRST and len(payload) >= 4:
                index, = struct.unpack_from('<I', payload)
                payload = (symbols[index], payload[4:])
            records.append((attr, payload))
        else:
            records.append((attr, value))
    return records


def main(a_path, b_path):
    (a, a_symbols), (b, b_symbols) = read_elf(a_path), read_elf(b_path)
    kernels = sorted(n[6:] for n in a if n.startswith('.text.'))
    differences = []
    if kernels != sorted(n[6:] for n in b if n.startswith('.text.')):
        differences.append('the kernels')
    for k in kernels:
        for prefix in ('.text.', '.nv.constant0.', '.nv.shared.'):
            if a.get(prefix + k) != b.get(prefix + k):
                differences.append(prefix + k)
        info = '.nv.info.' + k
        if (info in a) != (info in b) or (
                info in a and info_records(a[info][0], a_symbols) !=
                info_records(b[info][0], b_symbols)):
            differences.append(info)
    for name in ('.nv.global.init', '.nv.global'):
        if (a.get(name) or (b'', 0))[1] != (b.get(name) or (b'', 0))[1]:
            differences.append(name + ' size')
    for what in differences:
        print('differs:', what)
    print(f'{len(kernels)} kernels, {len(differences)} differences')
    return 1 if differences else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
