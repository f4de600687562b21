#!/usr/bin/env python3
"""Prints the old/new A/B in a folder of bench-{old,new}-ROUND.json (as
bench/matmul/split-min-parts-device.sh leaves them): tilec ms per round
(min-max), old / new time (medians), blocks launched, and tilec / cuBLAS
per build. Usage: python3 bench/matmul/ab-table.py [FOLDER]"""
import glob
import json
import os
import sys
from collections import defaultdict

runs = defaultdict(lambda: defaultdict(list))
blocks = {}
folder = sys.argv[1] if len(sys.argv) > 1 else "."
for path in sorted(glob.glob(os.path.join(folder, "bench-*-*.json"))):
    build = os.path.basename(path).split("-")[1]
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
