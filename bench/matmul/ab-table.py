#!/usr/bin/env python3
"""Tables of a folder of bench-BUILD-ROUND.json (tilec-matmul-bench
--bench, as the device scripts leave them), a row per kernel and shape.
With builds `old` and `new` (bench/matmul/split-min-parts-device.sh,
accumulate-device.sh): tilec ms per build (min-max over the rounds), old /
new time (medians), blocks launched, and tilec / cuBLAS per build. With
other builds (compare-device.sh's names): tilec / cuBLAS per build,
`default` first. With a list of builds (names may hold hyphens), those
builds in that order: the best time over the rounds and the best tilec /
cuBLAS per build (bench/matmul/streamk-variants-device.sh's folders).
Usage: python3 bench/matmul/ab-table.py [FOLDER [BUILD,BUILD,...]]"""
import glob
import json
import os
import sys
from collections import defaultdict

runs = defaultdict(lambda: defaultdict(list))
folder = sys.argv[1] if len(sys.argv) > 1 else "."
for path in sorted(glob.glob(os.path.join(folder, "bench-*-*.json"))):
    # bench-BUILD-ROUND.json: the build is all between the first and the
    # last hyphen.
    build = os.path.basename(path)[len("bench-"):].rsplit("-", 1)[0]
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
chosen = sys.argv[2].split(",") if len(sys.argv) > 2 else None

def shape_key(item):
    (kernel, shape), _ = item
    return kernel, [int(x) for x in shape.split("x")]

if chosen:
    print("| kernel | shape | " + " | ".join(f"{b} ms, x cuBLAS" for b in chosen)
          + " |")
    print("|---|---|" + "---:|" * len(chosen))
    for (kernel, shape), by in sorted(runs.items(), key=shape_key):
        cells = []
        for b in chosen:
            timed = [r for r in by[b] if r.get("tilec_ms")]
            cells.append(f"{min(r['tilec_ms'] for r in timed):.4f}, "
                         f"{max(r['ratio'] for r in timed):.3f}" if timed else "-")
        print(f"| {kernel} | {shape} | " + " | ".join(cells) + " |")
elif builds == ["new", "old"]:
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
