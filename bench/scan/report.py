#!/usr/bin/env python3
"""Ratios, combined JSON and chart of one scan-gpu.sh run (standard library
only: the GPU machine may have no matplotlib).

  report.py DIR [--steps name=STATUS,...]

reads DIR/tilec.json (tilec-scan-bench), DIR/cub.json (tilec-cub-scan) and
DIR/torch.json (torch_cumsum.py), any of which may be missing or partial,
and writes DIR/ratios.md (tables: per timed shape tilec, CUB and torch.cumsum
GB/s and us, tilec/CUB, tilec/torch, column scans (tilec's cols_f32 against
torch.cumsum(dim=0), rows "cols RxC") after the rows where either JSON has
them; the f32 linear recurrence, a scan with a
combiner region, tilec against CUB's InclusiveScan of float2 pairs; the
other timed 1-D single passes (a reverse f32 sum, a bf16 sum) against the
copy bound; the targets of issue 4 and issue 17's 1.05x; CUB's own checks and the copy bound; tilec's checks per
kernel), DIR/results.json (all of it in one file) and DIR/scan.svg (GB/s per
shape for the three sums). Exit status 1 if none of the three JSON files
could be read.
"""

import argparse
import datetime
import json
import os
import sys
from xml.sax.saxutils import escape

TIMED_1D = ["1048576", "16777216", "268435456"]
TIMED_ROWS = ["4096x4096", "65536x1024", "1024x65536", "3x1000003",
              "1048576x32", "262144x100", "65536x500"]
# Column scans (along 0): tilec's cols_f32, torch.cumsum(x, dim=0).
TIMED_COLS = ["4096x4096", "65536x1024", "1024x65536"]
# The recurrence (scan_rec_inc_f32, rows_rec_inc_f32; CUB 1-D only).
TIMED_REC = TIMED_1D + ["65536x1024", "1024x65536"]
LABELS = {"1048576": "2^20", "16777216": "2^24", "268435456": "2^28"}
COLORS = {"tilec": "#1f77b4", "CUB": "#ff7f0e", "torch": "#999999"}


def load(path):
    """The JSON at `path`, or None (missing, empty or cut short)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def label(shape):
    return f"{LABELS[shape]} ({shape})" if shape in LABELS else shape


def shown(r):
    """A ratio row's name: the shape, "cols RxC" for a column scan."""
    return f"cols {r['shape']}" if r.get("columns") else label(r["shape"])


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def cell(value, spec, status):
    """A table cell: the value, marked when its check failed."""
    s = fmt(value, spec)
    return s + (" (FAIL)" if status == "FAIL" and value is not None else "")


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def by_shape(rows, keep):
    """The rows that `keep` accepts, by shape."""
    return {r["shape"]: r for r in rows if keep(r)}


def measured(prefix, r):
    """us, GB/s and status of one implementation's row (None if missing)."""
    g = lambda k: None if r is None else r.get(k)
    return {prefix + "_us": g("us"), prefix + "_gb_per_s": g("gb_per_s"),
            prefix + "_status": g("status")}


def gb(r):
    return None if r is None else r.get("gb_per_s")


def collect(tilec, cub, torch):
    """One row per timed shape: tilec's f32 inclusive sum (scan_f32 or
    rows_f32), CUB's InclusiveSum f32 (1-D only), torch.cumsum; then, where
    tilec.json or torch.json has any, one row per column shape ("columns":
    true): tilec's cols_f32 against torch.cumsum(dim=0)."""
    tilec_t = by_shape(tilec or [], lambda r: r.get("gb_per_s") is not None
                       and r.get("kernel") in ("scan_f32", "rows_f32"))
    cub_t = by_shape((cub or {}).get("results", []), lambda r: r.get("impl") == "cub"
                     and r.get("op") == "InclusiveSum" and r.get("dtype") == "f32")
    torch_t = by_shape(torch or [], lambda r: r.get("gb_per_s") is not None
                       and not r.get("columns"))
    rows = []
    for shape in TIMED_1D + TIMED_ROWS:
        t, c, p = tilec_t.get(shape), cub_t.get(shape), torch_t.get(shape)
        rows.append({"shape": shape, "columns": False, **measured("tilec", t),
                     **measured("cub", c), **measured("torch", p),
                     "tilec_over_cub": ratio(gb(t), gb(c)),
                     "tilec_over_torch": ratio(gb(t), gb(p))})
    tilec_c = by_shape(tilec or [], lambda r: r.get("gb_per_s") is not None
                       and r.get("kernel") == "cols_f32")
    torch_c = by_shape(torch or [], lambda r: r.get("gb_per_s") is not None
                       and r.get("columns"))
    if tilec_c or torch_c:
        for shape in TIMED_COLS:
            t, p = tilec_c.get(shape), torch_c.get(shape)
            rows.append({"shape": shape, "columns": True, **measured("tilec", t),
                         **measured("cub", None), **measured("torch", p),
                         "tilec_over_cub": None,
                         "tilec_over_torch": ratio(gb(t), gb(p))})
    return rows


def collect_recurrence(tilec, cub):
    """One row per timed shape of the f32 linear recurrence: tilec's
    scan_rec_inc_f32 or rows_rec_inc_f32 against CUB's InclusiveScan with
    the recurrence operator on float2 pairs (1-D only). Both GB/s count
    16 bytes an element (a, b read, the product and h written)."""
    tilec_t = by_shape(tilec or [], lambda r: r.get("gb_per_s") is not None
                       and r.get("kernel") in ("scan_rec_inc_f32", "rows_rec_inc_f32"))
    cub_t = by_shape((cub or {}).get("results", []), lambda r: r.get("impl") == "cub"
                     and r.get("op") == "RecurrenceScan")
    rows = []
    for shape in TIMED_REC:
        t, c = tilec_t.get(shape), cub_t.get(shape)
        rows.append({"shape": shape, **measured("tilec", t), **measured("cub", c),
                     "tilec_over_cub": ratio(gb(t), gb(c))})
    return rows


OTHER_1D = ["scan_add_inc_rev_f32", "scan_add_inc_bf16"]


def collect_other(tilec):
    """The other timed 1-D single passes (a reverse f32 sum, a bf16 sum):
    tilec only, GB/s of their own bytes."""
    return [r for r in tilec or [] if r.get("kernel") in OTHER_1D
            and r.get("gb_per_s") is not None]


def copy_bound(cub):
    out = {}
    for r in (cub or {}).get("results", []):
        if r.get("impl") in ("copy_float4", "memcpy_dtod"):
            out[r["impl"]] = r
    return out


def targets(rows):
    """Issue 4's targets, each with the measured ratio and whether it is met."""
    by = {r["shape"]: r for r in rows if not r.get("columns")}
    out = []

    def add(what, value, goal, met):
        out.append({"target": what, "measured": value, "goal": goal,
                    "met": None if value is None else met(value)})

    for shape in ("16777216", "268435456"):
        add(f"f32 inclusive add {LABELS[shape]}: tilec/CUB GB/s", by[shape]["tilec_over_cub"],
            ">= 1.0", lambda v: v >= 1.0)
    for shape in ("16777216", "268435456"):
        add(f"issue 17: f32 inclusive add {LABELS[shape]}: tilec/CUB GB/s",
            by[shape]["tilec_over_cub"], ">= 1.05", lambda v: v >= 1.05)
    r = by["1048576"]
    add("2^20 latency: tilec us / CUB us",
        ratio(r["tilec_us"], r["cub_us"]), "<= 1.0", lambda v: v <= 1.0)
    for shape in ("65536x1024", "1024x65536"):
        add(f"rows {shape}: tilec/torch GB/s", by[shape]["tilec_over_torch"],
            ">= 1.5", lambda v: v >= 1.5)
    return out


def check_summary(tilec):
    """Per kernel: cases, passed, worst relative error, first failure."""
    kernels = {}
    for r in tilec or []:
        k = kernels.setdefault(r["kernel"], {"kernel": r["kernel"], "cases": 0,
                                             "passed": 0, "worst_rel_error": None,
                                             "dtype": r.get("dtype"), "op": r.get("op"),
                                             "failures": []})
        k["cases"] += 1
        if r.get("status") == "PASS":
            k["passed"] += 1
        else:
            k["failures"].append(f"{r['shape']}: {r.get('error') or 'rel_error ' + str(r.get('rel_error'))}")
        e = r.get("rel_error")
        if e is not None and (k["worst_rel_error"] is None or e > k["worst_rel_error"]):
            k["worst_rel_error"] = e
    return list(kernels.values())


def markdown(rows, rec, other, tgts, bound, cub, tilec, torch, steps):
    lines = []
    device = (cub or {}).get("device")
    lines.append(f"# Scan benchmark{', ' + device if device else ''}, "
                 f"{datetime.date.today().isoformat()}")
    lines.append("")
    lines.append("f32 inclusive sums; GB/s = 2 * elements * 4 bytes / median time "
                 "(input read and output written once); tilec = scan_f32 / rows_f32 "
                 "(bench/scan/kernels.mlir), CUB = cub::DeviceScan::InclusiveSum called "
                 "directly, torch = torch.cumsum, all in the same device call."
                 + (" \"cols RxC\": every column scanned (along 0), tilec = cols_f32, "
                    "torch = torch.cumsum(x, dim=0)." if any(r.get("columns") for r in rows)
                    else ""))
    lines.append("")
    lines.append("| shape | tilec us | tilec GB/s | CUB us | CUB GB/s | torch us | torch GB/s "
                 "| tilec/CUB | tilec/torch |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        lines.append(
            f"| {shown(r)} | {cell(r['tilec_us'], '.1f', None)} "
            f"| {cell(r['tilec_gb_per_s'], '.1f', r['tilec_status'])} "
            f"| {cell(r['cub_us'], '.1f', None)} | {cell(r['cub_gb_per_s'], '.1f', r['cub_status'])} "
            f"| {cell(r['torch_us'], '.1f', None)} | {cell(r['torch_gb_per_s'], '.1f', r['torch_status'])} "
            f"| {fmt(r['tilec_over_cub'], '.3f')} | {fmt(r['tilec_over_torch'], '.3f')} |")
    if bound:
        lines.append("")
        parts = [f"{name} {fmt(r.get('gb_per_s'), '.1f')} GB/s ({fmt(r.get('us'), '.1f')} us, "
                 f"{r.get('status')})" for name, r in sorted(bound.items())]
        lines.append(f"Copy bound, {bound[next(iter(bound))].get('n')} f32 elements: " + "; ".join(parts))
    if any(r["tilec_gb_per_s"] is not None or r["cub_gb_per_s"] is not None for r in rec):
        lines.append("")
        lines.append("## Linear recurrence (a combiner region)")
        lines.append("")
        lines.append("h[t] = a[t] * h[t-1] + b[t], f32, inclusive; GB/s = 16 * elements / median "
                     "time (a and b read, the running product and h written once: the same "
                     "bytes as the copy bound's); tilec = scan_rec_inc_f32 / rows_rec_inc_f32 "
                     "(four f32 arrays), CUB = cub::DeviceScan::InclusiveScan with the "
                     "recurrence operator on float2 (a, b) pairs.")
        lines.append("")
        lines.append("| shape | tilec us | tilec GB/s | CUB us | CUB GB/s | tilec/CUB |")
        lines.append("|---|---:|---:|---:|---:|---:|")
        for r in rec:
            lines.append(
                f"| {label(r['shape'])} | {cell(r['tilec_us'], '.1f', None)} "
                f"| {cell(r['tilec_gb_per_s'], '.1f', r['tilec_status'])} "
                f"| {cell(r['cub_us'], '.1f', None)} "
                f"| {cell(r['cub_gb_per_s'], '.1f', r['cub_status'])} "
                f"| {fmt(r['tilec_over_cub'], '.3f')} |")
    if other:
        lines.append("")
        lines.append("## Other 1-D single passes")
        lines.append("")
        lines.append("GB/s = 2 * elements * element bytes / median time; "
                     "copy% = of the f32 copy bound above.")
        lines.append("")
        lines.append("| kernel | shape | us | GB/s | copy% |")
        lines.append("|---|---|---:|---:|---:|")
        copy = (bound.get("copy_float4") or {}).get("gb_per_s") if bound else None
        for r in other:
            lines.append(f"| {r['kernel']} | {label(r['shape'])} | {fmt(r.get('us'), '.1f')} "
                         f"| {cell(r.get('gb_per_s'), '.1f', r.get('status'))} "
                         f"| {fmt(None if not copy else 100 * r['gb_per_s'] / copy, '.1f')} |")
    lines.append("")
    lines.append("## Targets (issue 4; issue 17's 1.05x)")
    lines.append("")
    lines.append("| target | measured | goal | met |")
    lines.append("|---|---:|---|---|")
    for t in tgts:
        met = "-" if t["met"] is None else ("yes" if t["met"] else "no")
        lines.append(f"| {t['target']} | {fmt(t['measured'], '.3f')} | {t['goal']} | {met} |")
    if cub:
        lines.append("")
        lines.append("## CUB (tilec-cub-scan), checked against a host reference")
        lines.append("")
        lines.append("| op | type | n | us | GB/s | rel. error | tolerance | status |")
        lines.append("|---|---|---:|---:|---:|---:|---:|---|")
        for r in cub.get("results", []):
            lines.append(f"| {r.get('impl')} {r.get('op')} | {r.get('dtype')} | {r.get('n')} "
                         f"| {fmt(r.get('us'), '.1f')} | {fmt(r.get('gb_per_s'), '.1f')} "
                         f"| {fmt(r.get('rel_error'), '.2e')} | {fmt(r.get('tolerance'), '.1e')} "
                         f"| {r.get('status')} |")
    if torch:
        fails = [r for r in torch if r.get("status") != "PASS"]
        worst = max((r["rel_error"] for r in torch if r.get("rel_error") is not None), default=None)
        lines.append("")
        lines.append(f"torch.cumsum checks: {len(torch) - len(fails)} of {len(torch)} passed, "
                     f"worst rel. error {fmt(worst, '.2e')}"
                     + "".join(f"; FAIL {r['shape']} {r.get('error', '')}" for r in fails))
    summary = check_summary(tilec)
    if summary:
        total = sum(k["cases"] for k in summary)
        passed = sum(k["passed"] for k in summary)
        lines.append("")
        lines.append(f"## tilec checks: {passed} of {total} passed")
        lines.append("")
        lines.append("| kernel | type | op | cases | passed | worst rel. error | failures |")
        lines.append("|---|---|---|---:|---:|---:|---|")
        for k in summary:
            fails = "; ".join(k["failures"][:3]) + (" ..." if len(k["failures"]) > 3 else "")
            lines.append(f"| {k['kernel']} | {k['dtype']} | {k['op']} | {k['cases']} "
                         f"| {k['passed']} | {fmt(k['worst_rel_error'], '.2e')} "
                         f"| {fails.replace('|', '/')} |")
    if steps:
        lines.append("")
        lines.append("Steps: " + ", ".join(f"{k} {v}" for k, v in steps.items()))
    return "\n".join(lines) + "\n"


def nice_step(top):
    scale = 1e-3
    while True:
        for m in (1, 2, 5):
            if top / (m * scale) <= 8:
                return m * scale
        scale *= 10


def svg(rows, bound, device):
    """Grouped bars: GB/s of tilec, CUB and torch per shape; dashed lines for
    the copy bound; tilec/CUB (1-D) or tilec/torch (rows) above each group."""
    series = [("tilec", "tilec_gb_per_s"), ("CUB", "cub_gb_per_s"), ("torch", "torch_gb_per_s")]
    values = [r[k] for r in rows for _, k in series if r[k] is not None]
    values += [b.get("gb_per_s") for b in bound.values() if b.get("gb_per_s") is not None]
    peak = max(values + [1.0])
    step = nice_step(peak)
    y_max = step * (int(peak / step) + 1)
    left, top, plot_h, group_w, bar_w, bottom = 64, 60, 320, 110, 28, 70
    width = left + group_w * len(rows) + 150
    height = top + plot_h + bottom

    def y(v):
        return top + plot_h - plot_h * v / y_max

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14">Scan, f32 inclusive sum: GB/s '
           f'(2 * n * 4 B / median time)</text>',
           f'<text x="{left}" y="38" fill="#555">{escape(device or "")}; above each group: '
           f'tilec/CUB (1-D) or tilec/torch (rows{", cols" if any(r.get("columns") for r in rows) else ""})</text>',
           f'<text transform="translate(16,{top + plot_h / 2}) rotate(-90)" '
           f'text-anchor="middle">GB/s</text>']
    v = 0.0
    while v <= y_max + 1e-9:
        out.append(f'<line x1="{left}" x2="{left + group_w * len(rows)}" y1="{y(v):.1f}" '
                   f'y2="{y(v):.1f}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
        v += step
    for i, r in enumerate(rows):
        x0 = left + i * group_w + (group_w - len(series) * bar_w) / 2
        tallest = 0
        for j, (name, key) in enumerate(series):
            value = r[key]
            x = x0 + j * bar_w
            if value is None:
                out.append(f'<text x="{x + bar_w / 2:.1f}" y="{y(0) - 4:.1f}" '
                           f'text-anchor="middle" font-size="9" fill="#888">-</text>')
                continue
            tallest = max(tallest, value)
            out.append(f'<rect x="{x:.1f}" y="{y(value):.1f}" width="{bar_w - 3}" '
                       f'height="{max(y(0) - y(value), 0.5):.1f}" fill="{COLORS[name]}">'
                       f'<title>{name} {value:.1f} GB/s</title></rect>')
            out.append(f'<text x="{x + (bar_w - 3) / 2:.1f}" y="{y(value) - 3:.1f}" '
                       f'text-anchor="middle" font-size="8">{value:.0f}</text>')
        rat = r["tilec_over_cub"] if r["tilec_over_cub"] is not None else r["tilec_over_torch"]
        if rat is not None:
            text = f"{rat:.2f}x" if rat >= 0.1 else f"{rat:.2g}x"
            out.append(f'<text x="{left + i * group_w + group_w / 2:.1f}" '
                       f'y="{y(tallest) - 14:.1f}" text-anchor="middle" font-weight="bold">'
                       f'{text}</text>')
        cx = left + i * group_w + group_w / 2
        out.append(f'<text x="{cx:.1f}" y="{top + plot_h + 16}" text-anchor="middle">'
                   f'{escape(("cols " if r.get("columns") else "") + LABELS.get(r["shape"], r["shape"]))}</text>')
    lines = sorted(((b["gb_per_s"], name) for name, b in bound.items()
                    if b.get("gb_per_s") is not None), reverse=True)
    for k, (g, name) in enumerate(lines):
        out.append(f'<line x1="{left}" x2="{left + group_w * len(rows)}" y1="{y(g):.1f}" '
                   f'y2="{y(g):.1f}" stroke="#2ca02c" stroke-dasharray="5,4"/>')
        # The higher line's label above it, the lower one's below.
        ty = y(g) - 4 if k == 0 else y(g) + 12
        out.append(f'<text x="{left + group_w * len(rows) + 6}" y="{ty:.1f}" '
                   f'fill="#2ca02c">{escape(name)} {g:.0f}</text>')
    ly = height - 20
    for k, (name, _) in enumerate(series):
        lx = left + k * 90
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{COLORS[name]}"/>')
        out.append(f'<text x="{lx + 18}" y="{ly}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", help="the run's output folder")
    parser.add_argument("--steps", default="", help="name=STATUS,... of the script's steps")
    args = parser.parse_args()
    d = args.dir
    tilec = load(os.path.join(d, "tilec.json"))
    cub = load(os.path.join(d, "cub.json"))
    torch = load(os.path.join(d, "torch.json"))
    steps = dict(s.split("=", 1) for s in args.steps.split(",") if "=" in s)
    rows = collect(tilec, cub, torch)
    rec = collect_recurrence(tilec, cub)
    bound = copy_bound(cub)
    tgts = targets(rows)
    with open(os.path.join(d, "ratios.md"), "w") as f:
        f.write(markdown(rows, rec, collect_other(tilec), tgts, bound, cub, tilec,
                         torch, steps))
    combined = {
        "date": datetime.date.today().isoformat(),
        "device": (cub or {}).get("device"),
        "steps": steps,
        "ratios": rows,
        "recurrence": rec,
        "targets": tgts,
        "copy_bound": bound,
        "tilec": tilec,
        "cub": cub,
        "torch": torch,
    }
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(combined, f, indent=1)
    with open(os.path.join(d, "scan.svg"), "w") as f:
        f.write(svg(rows, bound, (cub or {}).get("device")))
    if tilec is None and cub is None and torch is None:
        print(f"report: none of tilec.json, cub.json, torch.json in {d}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
