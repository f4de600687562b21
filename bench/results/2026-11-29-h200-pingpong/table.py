#!/usr/bin/env python3
"""Prints the README's tables from the runner's JSON files here: TFLOP/s of
each build, and each build's ratio to the serial (default) schedule of the
same call."""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def table(prefix, title):
    print(f"\n{title}\n")
    for path in sorted(glob.glob(os.path.join(HERE, prefix + "attn_*.json"))):
        kernel = os.path.basename(path)[len(prefix):-5].removeprefix("ab-")
        rows = json.load(open(path))["results"]
        builds = list(dict.fromkeys(r["mode"].split("cubins-var-")[1] for r in rows))
        speed = {(r["shape"], r["mode"].split("cubins-var-")[1]): r["tflops"] for r in rows}
        status = {r["status"] for r in rows}
        print(f"{kernel} ({', '.join(sorted(status))}):\n")
        print("| shape | " + " | ".join(builds) + " | " +
              " | ".join(f"{b} / serial" for b in builds[1:]) + " |")
        print("|---|" + "---:|" * (2 * len(builds) - 1))
        for shape in dict.fromkeys(r["shape"] for r in rows):
            base = speed[(shape, "serial")]
            print(f"| {shape} | " +
                  " | ".join(f"{speed[(shape, b)]:.1f}" for b in builds) + " | " +
                  " | ".join(f"{speed[(shape, b)] / base:.3f}" for b in builds[1:]) + " |")
        print()


table("first-ab-", "First call: the slots refilled first thing in the iteration")
table("ab-", "Second call: the issuing warpgroup refills after passing the turn")
table("third-ab-", "Third call: key blocks of 64 (block [128, 64]), serial, overlapped, in turns")
