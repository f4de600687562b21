#!/usr/bin/env python3
"""Prints the README's table from the bench JSON here: tilec / cuBLAS of the
`after` cubin (narrow lines kept) and the `before` cubin (the same kernels,
narrow lines blanked by bench/matmul/strip-metadata-lines.py) in each of
the two alternating rounds, with each build's tile fill."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(name):
    return {r["shape"]: r
            for r in json.load(open(os.path.join(HERE, name)))["results"]}


runs = {f"{b}-{k}": rows(f"bench-{b}-{k}.json")
        for b in ("before", "after") for k in (1, 2)}
print("| shape | before (fill) | after (fill) | after / before time |")
print("|---|---:|---:|---:|")
for shape in runs["after-1"]:
    cells = []
    for build in ("before", "after"):
        ratios = [runs[f"{build}-{k}"][shape]["ratio"] for k in (1, 2)]
        fill = runs[f"{build}-1"][shape]["tile_fill"]
        cells.append(f"{min(ratios):.2f}-{max(ratios):.2f} ({fill:.2f})")
    speedup = sum(runs[f"before-{k}"][shape]["tilec_ms"] /
                  runs[f"after-{k}"][shape]["tilec_ms"] for k in (1, 2)) / 2
    print(f"| {shape} | {cells[0]} | {cells[1]} | {speedup:.2f}x |")
