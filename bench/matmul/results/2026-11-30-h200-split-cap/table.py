#!/usr/bin/env python3
"""Prints the old/new A/B of this folder: tilec ms per round (min-max),
new / old speed, blocks launched, and tilec / cuBLAS per build."""
import glob
import json
from collections import defaultdict

runs = defaultdict(lambda: defaultdict(list))
blocks = {}
for path in sorted(glob.glob("bench-*-*.json")):
    build = path.split("-")[1]
    for r in json.load(open(path))["results"]:
        runs[r["shape"]][build].append(r)
        blocks[(r["shape"], build)] = r["blocks"]

def span(values, fmt="{:.4f}"):
    return fmt.format(min(values)) + "-" + fmt.format(max(values))

print("| shape | blocks old/new | old ms | new ms | old/new time | old/cuBLAS | new/cuBLAS |")
print("|---|---|---:|---:|---:|---:|---:|")
for shape, by in runs.items():
    old, new = by["old"], by["new"]
    med = lambda rs: sorted(r["tilec_ms"] for r in rs)[len(rs) // 2]
    print(f"| {shape} | {blocks[(shape, 'old')]}/{blocks[(shape, 'new')]} "
          f"| {span([r['tilec_ms'] for r in old])} | {span([r['tilec_ms'] for r in new])} "
          f"| {med(old) / med(new):.3f} "
          f"| {span([r['ratio'] for r in old], '{:.2f}')} "
          f"| {span([r['ratio'] for r in new], '{:.2f}')} |")
