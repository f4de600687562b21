#!/usr/bin/env python3
"""Tables of a folder of bench-BUILD-ROUND.json (tilec-matmul-bench
--bench, as the device scripts leave them), a row per kernel and shape.
With builds `old` and `new` (bench/matmul/split-min-parts-device.sh,
accumulate-device.sh): tilec ms per build (min-max over the rounds), old /
new time (medians), blocks launched, and tilec / cuBLAS per build. With
other builds (compare-device.sh's names): tilec / cuBLAS per build,
`default` first. Usage: python3 bench/matmul/ab-table.py [FOLDER]"""
import glob
import json
import os
import sys
from collections import defaultdict

runs = defaultdict(lambda: defaultdict(list))
folder = sys.argv[1] if len(sys.argv) > 1 else "."
for path in sorted(glob.glob(os.path.join(folder, "bench-*-*.json"))):
    build = os.path.basename(path).split("-")[1]
    for r in json.load(open(path))["results"]:
        runs[(r["kernel"], r["shape"])][build].append(r)

def span(values, fmt="{:.4f}"):
    return fmt.format(min(values)) + "-" + fmt.format(max(values))

def ratios(rows):
    return span([r["ratio"] for r in rows], "{:.3f}")

def median(rows):
    times = sorted(r["tilec_ms"] for r in rows)
    return times[len(times) // 2]

builds = sorted({b for by in runs.values() for b in by},
                key=lambda b: (b != "default", b))
if builds == ["new", "old"]:
    print("| kernel | shape | blocks old/new | old ms | new ms | old/new time "
          "| old/cuBLAS | new/cuBLAS |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for (kernel, shape), by in runs.items():
        old, new = by["old"], by["new"]
        print(f"| {kernel} | {shape} | {old[0]['blocks']}/{new[0]['blocks']} "
              f"| {span([r['tilec_ms'] for r in old])} "
              f"| {span([r['tilec_ms'] for r in new])} "
              f"| {median(old) / median(new):.3f} | {ratios(old)} | {ratios(new)} |")
else:
    print("| kernel | shape | " + " | ".join(builds) + " |")
    print("|---|---|" + "---:|" * len(builds))
    for (kernel, shape), by in runs.items():
        print(f"| {kernel} | {shape} | "
              + " | ".join(ratios(by[b]) if by[b] else "-" for b in builds) + " |")
