#!/usr/bin/env python3
"""A/B table of the runner's JSON (ab_kernels in runner-logs.sh: the builds
of a kernel in one tilec-run-examples-aot process, modes
aot@.device/cubins-var-BUILD): a row per kernel and shape, each build's
time in us, the first build's time over each other's (above 1: faster) and
the kernel the runtime launched (a variant's name where one took the
shape). Markdown on stdout.

  python3 bench/attention/ab-table.py FOLDER_OR_JSON..."""
import glob
import json
import os
import sys

rows, builds = {}, []
paths = []
for arg in sys.argv[1:] or ["."]:
    paths += sorted(glob.glob(os.path.join(arg, "ab-*.json"))) if os.path.isdir(arg) else [arg]
for path in paths:
    for r in json.load(open(path))["results"]:
        build = r["mode"].split("cubins-var-")[-1]
        if build not in builds:
            builds.append(build)
        rows.setdefault((r["example"], r["shape"]), {})[build] = r

first = builds[0]
print("| kernel | shape | launched | " + " | ".join(f"{b} us" for b in builds) + " | "
      + " | ".join(f"{first} / {b}" for b in builds[1:]) + " | float64 |")
print("|---|---|---|" + "---:|" * (2 * len(builds) - 1) + "---|")
for (kernel, shape), by in rows.items():
    times = [by[b]["time_us"] if b in by else None for b in builds]
    speedups = [f"{times[0] / t:.3f}" if t and times[0] else "-" for t in times[1:]]
    status = "PASS" if all(r["status"] == "PASS" for r in by.values()) else "FAIL"
    print(f"| {kernel} | {shape} | {by[first].get('launched', '')} | "
          + " | ".join(f"{t:.1f}" if t else "-" for t in times) + " | "
          + " | ".join(speedups) + f" | {status} |")
