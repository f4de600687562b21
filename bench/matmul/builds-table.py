#!/usr/bin/env python3
"""Markdown table of matmul bench runs of several builds, from the
bench-BUILD-ROUND.json files of a folder (bench/matmul/streamk-variants-device.sh,
matmul_ab_rounds): per shape and build, the best time over the rounds and
the best tilec/cuBLAS ratio (the peer timed in the same process).

    python3 bench/matmul/builds-table.py FOLDER BUILD[,BUILD...]
"""
import collections
import glob
import json
import os
import sys


def main():
    folder, builds = sys.argv[1], sys.argv[2].split(",")
    runs = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(folder, "bench-*.json"))):
        build = os.path.basename(path)[len("bench-"):].rsplit("-", 1)[0]
        data = json.load(open(path))
        for r in data["results"] if isinstance(data, dict) else data:
            runs[(r["shape"], build)].append(r)
    shapes = sorted({s for s, _ in runs}, key=lambda s: [int(x) for x in s.split("x")])
    print("| shape | " + " | ".join(f"{b} ms, x cuBLAS" for b in builds) + " |")
    print("|---|" + "---:|" * len(builds))
    for shape in shapes:
        cells = []
        for build in builds:
            rs = [r for r in runs[(shape, build)] if r.get("tilec_ms")]
            if not rs:
                cells.append("-")
                continue
            best = min(r["tilec_ms"] for r in rs)
            ratio = max(r["ratio"] for r in rs)
            cells.append(f"{best:.4f}, {ratio:.3f}")
        print(f"| {shape} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
