#!/usr/bin/env python3
"""Per kernel and shape, the old/new A/B of a folder of
bench-{old,new}-ROUND.json: tilec ms (min-max over rounds), old / new time
(medians), and tilec / cuBLAS for each build. Usage: python3 table.py FOLDER"""
import glob, json, os, sys
from collections import defaultdict

folder = sys.argv[1]
runs = defaultdict(lambda: defaultdict(list))
for path in sorted(glob.glob(os.path.join(folder, "bench-*-*.json"))):
    build = os.path.basename(path).split("-")[1]
    for r in json.load(open(path))["results"]:
        runs[(r["kernel"], r["shape"])][build].append(r)

def span(values):
    return f"{min(values):.4f}-{max(values):.4f}"

def median(rows):
    times = sorted(r["tilec_ms"] for r in rows)
    return times[len(times) // 2]

print("| kernel | shape | old ms | new ms | old/new time | old/cuBLAS | new/cuBLAS |")
print("|---|---|---:|---:|---:|---:|---:|")
for (kernel, shape), by in runs.items():
    old, new = by["old"], by["new"]
    ratios = lambda rows: f"{min(r['ratio'] for r in rows):.2f}-{max(r['ratio'] for r in rows):.2f}"
    print(f"| {kernel} | {shape} | {span([r['tilec_ms'] for r in old])} | "
          f"{span([r['tilec_ms'] for r in new])} | {median(old) / median(new):.3f} | "
          f"{ratios(old)} | {ratios(new)} |")
