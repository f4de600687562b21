#!/usr/bin/env python3
"""Prints the README's table from the bench JSON here: TFLOP/s of the new
and old builds (both rounds) and the ratio of the round medians, and each to
cuBLAS in the same process."""
import json, statistics, pathlib
here = pathlib.Path(__file__).parent
rows = {}
for build in ("new", "old"):
    for rnd in (1, 2):
        for r in json.load(open(here / f"bench-{build}-{rnd}.json"))["results"]:
            key = (r["kernel"], r["shape"])
            rows.setdefault(key, {}).setdefault(build, []).append(
                (r["tilec_tflops"], r["ratio"]))
print("| kernel | shape | new | old | new / old | new / cuBLAS | old / cuBLAS |")
print("|---|---|---:|---:|---:|---:|---:|")
for (kernel, shape), b in rows.items():
    new = [t for t, _ in b["new"]]; old = [t for t, _ in b["old"]]
    print(f"| {kernel} | {shape} | {new[0]:.1f} / {new[1]:.1f} | "
          f"{old[0]:.1f} / {old[1]:.1f} | "
          f"{statistics.median(new) / statistics.median(old):.3f} | "
          f"{'-'.join(f'{q:.3f}' for q in sorted(r for _, r in b['new']))} | "
          f"{'-'.join(f'{q:.3f}' for q in sorted(r for _, r in b['old']))} |")
