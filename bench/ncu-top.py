#!/usr/bin/env python3
"""The instructions of a kernel with the most stall samples, from Nsight
Compute's source page (--page source --csv --print-source sass); used by
bench/matmul/profile-device.sh and bench/attention/ncu-source-run.sh.

    python3 bench/ncu-top.py SOURCE.csv [N]

Prints the N instructions with the most samples (share of all, the stall
reasons that dominate them) and the samples by opcode.
"""
import csv
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    path, top = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12
    rows = list(csv.reader(open(path, errors="replace")))
    head = next((i for i, r in enumerate(rows)
                 if "Source" in r and any("Sampling" in c for c in r)), None)
    if head is None:
        print("no source table in", path)
        return
    columns = rows[head]
    body = [r for r in rows[head + 1:] if len(r) == len(columns)]
    source = columns.index("Source")
    samples = next(i for i, c in enumerate(columns)
                   if c.startswith("Warp Stall Sampling (All"))
    reasons = [(i, c) for i, c in enumerate(columns)
               if c.startswith("stall_") or c.startswith("smsp__pcsamp")]
    total = sum(number(r[samples]) for r in body) or 1
    print(f"{len(body)} instructions, {total:.0f} samples")
    for r in sorted(body, key=lambda r: -number(r[samples]))[:top]:
        why = sorted(((number(r[i]), c) for i, c in reasons), reverse=True)[:2]
        why = ", ".join(f"{c.replace('smsp__pcsamp_warps_issue_stalled_', '')} {v:.0f}"
                        for v, c in why if v)
        print(f"{100 * number(r[samples]) / total:5.1f}%  {r[source][:70]:70} {why}")
    kinds = {}
    for r in body:
        words = r[source].split()
        if not words:
            continue
        op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
        kinds[op.split(".")[0]] = kinds.get(op.split(".")[0], 0) + number(r[samples])
    print("by opcode:", ", ".join(
        f"{k} {100 * v / total:.1f}%"
        for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:12]))


if __name__ == "__main__":
    main()
