"""Counts the FFMAs of `cuobjdump -sass` listings that read two sources
from one register bank (bank = register number mod 2), not counting the
sources marked .reuse (served by the operand reuse caches). Such an FFMA
takes an extra cycle to dispatch (ncu's "dispatch stall").

  python3 bench/matmul/ffma-bank-conflicts.py kernel.sass ...
"""
import re
import sys

FFMA = re.compile(r"FFMA R\d+, " + ", ".join([r"(-?R\d+)(\.reuse)?"] * 3))


def conflicts(path):
    ffmas = conflicting = 0
    for line in open(path):
        m = FFMA.search(line)
        if not m:
            continue
        ffmas += 1
        sources = [(m.group(2 * i + 1), m.group(2 * i + 2)) for i in range(3)]
        banks = [int(reg.lstrip("-R")) % 2 for reg, reuse in sources
                 if not reuse and reg.lstrip("-") != "RZ"]
        conflicting += len(banks) - len(set(banks))
    return ffmas, conflicting


for path in sys.argv[1:]:
    ffmas, conflicting = conflicts(path)
    print(f"{path}: {ffmas} FFMA, {conflicting} bank conflicts")
