#!/usr/bin/env python3
"""Medians of pieces.log (pieces.sh's output): time in us per variant, kernel
and length, with CUB's median and the ratio CUB time / tilec time."""
import re, statistics, sys
from collections import defaultdict
times = defaultdict(list)
variant = None
for line in open(sys.argv[1] if len(sys.argv) > 1 else "pieces.log"):
    m = re.match(r"== round \d+, (\S+)", line)
    if m:
        variant = m.group(1); continue
    f = line.split()
    if len(f) >= 5 and f[0] == "cub":
        times[("cub", "scan_f32", f[3])].append(float(f[4]))
    elif len(f) >= 5 and variant and re.match(r"^(scan|rows)_", f[0]):
        times[(variant, f[0], f[1])].append(float(f[3]))
cub = {k[2]: statistics.median(v) for k, v in times.items() if k[0] == "cub"}
print("| variant | kernel | size | runs | median us | CUB / tilec |")
print("|---|---|---|---:|---:|---:|")
for (var, kernel, size), v in sorted(times.items()):
    if var == "cub":
        continue
    med = statistics.median(v)
    ratio = f"{cub[size] / med:.3f}" if kernel == "scan_f32" and size in cub else ""
    print(f"| {var} | {kernel} | {size} | {len(v)} | {med:.1f} | {ratio} |")
for size, t in sorted(cub.items()):
    print(f"| CUB | InclusiveSum f32 | {size} | {len(times[('cub','scan_f32',size)])} | {t:.1f} | |")
