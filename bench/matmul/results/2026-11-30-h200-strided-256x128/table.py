#!/usr/bin/env python3
"""tilec / cuBLAS per build (min-max over the rounds) from this folder's
bench-BUILD-ROUND.json. Usage: python3 table.py [FOLDER]"""
import glob, json, os, sys
from collections import defaultdict

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
ratios = defaultdict(lambda: defaultdict(list))
for path in sorted(glob.glob(os.path.join(folder, "bench-*-*.json"))):
    build = os.path.basename(path).split("-")[1]
    for r in json.load(open(path))["results"]:
        ratios[(r["kernel"], r["shape"])][build].append(r["ratio"])
builds = ["default", "s256x4", "s256x3"]
print("| kernel | shape | " + " | ".join(builds) + " |")
print("|---|---|" + "---:|" * len(builds))
for (kernel, shape), by in ratios.items():
    cells = [f"{min(by[b]):.3f}-{max(by[b]):.3f}" for b in builds]
    print(f"| {kernel} | {shape} | " + " | ".join(cells) + " |")
