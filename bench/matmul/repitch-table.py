#!/usr/bin/env python3
"""Markdown table of a repitch A/B (bench/matmul/repitch-device.sh): for each
kernel and shape, tilec / cuBLAS with the staging copies (new) and without
(old, the per-thread-copy twins), new / old, and the waves and tile fill of
the kernel that ran (new), from the bench JSON files of one round.

usage: repitch-table.py NEW.json OLD.json
"""
import json
import sys


def rows(path):
    return {(r["kernel"], r["shape"]): r
            for r in json.load(open(path))["results"] if r["status"] == "PASS"}


def main():
    new, old = rows(sys.argv[1]), rows(sys.argv[2])
    print("| kernel | shape | tilec TFLOP/s | cuBLAS TFLOP/s | tilec / cuBLAS "
          "| before / cuBLAS | after / before | waves | tile fill |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for key, n in new.items():
        o = old.get(key)
        if not o:
            continue
        print(f"| {key[0]} | {key[1]} | {n['tilec_tflops']:.1f} "
              f"| {n['cublas_tflops']:.1f} | {n['ratio']:.3f} | {o['ratio']:.3f} "
              f"| {o['tilec_ms'] / n['tilec_ms']:.2f} | {n['waves']:.2f} "
              f"| {n['tile_fill']:.3f} |")


if __name__ == "__main__":
    main()
