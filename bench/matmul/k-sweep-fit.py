#!/usr/bin/env python3
"""Per-tile and per-K-step cost of a matmul kernel and of cuBLAS, from a
sweep of K at fixed M and N (bench JSON files of one build): the best time
at each K, fitted as time = waves x (fixed + steps x step), steps = K / 64,
waves = ceil(tiles / blocks) of the 128x256 tiles on the persistent grid.

    python3 bench/matmul/k-sweep-fit.py WAVES FILE.json...
"""
import json
import sys


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum(
        (x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def main():
    waves = float(sys.argv[1])
    best = {}
    for path in sys.argv[2:]:
        data = json.load(open(path))
        for r in data["results"] if isinstance(data, dict) else data:
            t, c = best.get(r["k"], (1e9, 1e9))
            best[r["k"]] = (min(t, r["tilec_ms"]), min(c, r["cublas_ms"]))
    ks = sorted(best)
    steps = [k / 64 for k in ks]
    print("| K | tilec us | cuBLAS us |")
    print("|---:|---:|---:|")
    for k in ks:
        print(f"| {k} | {best[k][0] * 1000:.1f} | {best[k][1] * 1000:.1f} |")
    for name, i in (("tilec", 0), ("cuBLAS", 1)):
        fixed, step = fit(steps, [best[k][i] * 1000 for k in ks])
        print(f"\n{name}: {fixed / waves:.2f} us a tile besides its K steps, "
              f"{step / waves:.3f} us a K step of a tile")


if __name__ == "__main__":
    main()
