#!/usr/bin/env python3
"""Chart and table of tilec-matmul-bench results (standard library only).

  plot.py BENCH.json --svg OUT.svg    grouped bars: TFLOP/s of tilec and cuBLAS
                                      per dtype and shape, ratio above each pair
  plot.py BENCH.json --table          markdown table of the bench on stdout
  plot.py CHECK.json --table          markdown summary of a --check run
"""

import argparse
import json
import sys
from xml.sax.saxutils import escape

TILEC_COLOR = "#1f77b4"
CUBLAS_COLOR = "#aaaaaa"


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def bench_table(data):
    lines = [
        f"{data.get('device', '?')}, CUDA driver {data.get('driver_version', '?')}, "
        f"cuBLAS {data.get('cublas_version', '?')}, {data.get('date', '?')}; "
        f"{data.get('timing', '')}",
        "",
        "| kernel | shape | tilec ms | tilec TFLOP/s | cuBLAS ms | cuBLAS TFLOP/s "
        "| tilec/cuBLAS | rel. err. vs cuBLAS | status |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in data["results"]:
        status = r["status"] + (f" ({r['error']})" if r.get("error") else "")
        lines.append(
            f"| {r['kernel']} | {r['shape']} | {fmt(r['tilec_ms'], '.3f')} "
            f"| {fmt(r['tilec_tflops'], '.1f')} | {fmt(r['cublas_ms'], '.3f')} "
            f"| {fmt(r['cublas_tflops'], '.1f')} | {fmt(r['ratio'], '.2f')} "
            f"| {fmt(r['rel_error_vs_cublas'], '.1e')} | {status} |")
    f32 = [r for r in data["results"] if r.get("cublas_default_tflops") is not None]
    if f32:
        lines += ["", "cuBLAS f32 is CUBLAS_COMPUTE_32F_PEDANTIC (no TF32); in the "
                  "default CUBLAS_COMPUTE_32F it reaches: " + ", ".join(
                      f"{r['shape']} {r['cublas_default_tflops']:.1f} TFLOP/s"
                      for r in f32)]
    return "\n".join(lines)


def check_table(data):
    by_variant = {}
    for r in data["results"]:
        by_variant.setdefault(r["variant"], []).append(r)
    lines = [
        f"{data.get('device', '?')}, {data.get('date', '?')}, seed {data.get('seed')}: "
        f"{data.get('passed')} passed, {data.get('failed')} failed, "
        f"{data.get('skipped')} skipped",
        "",
        "| variant | shapes | worst rel. error | tolerance | failed | status |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, rows in by_variant.items():
        ran = [r for r in rows if r["status"] != "SKIP"]
        errors = [r["rel_error"] for r in ran if r["rel_error"] is not None]
        failed = sum(r["status"] == "FAIL" for r in rows)
        status = "SKIP" if not ran else ("FAIL" if failed else "PASS")
        tol = ran[0]["tolerance"] if ran else None
        lines.append(f"| {name} | {len(ran)} | {fmt(max(errors) if errors else None, '.2e')} "
                     f"| {fmt(tol, '.0e')} | {failed} | {status} |")
    return "\n".join(lines)


def nice_step(top):
    """The smallest round grid step (1, 2 or 5 times a power of ten) that
    draws at most 8 lines up to `top`."""
    scale = 1e-3
    while True:
        for m in (1, 2, 5):
            if top / (m * scale) <= 8:
                return m * scale
        scale *= 10


def shape_label(shape):
    """'4096^3' for cubes, else the shape as given."""
    dims = shape.split("x")
    return f"{dims[0]}\u00b3" if len(set(dims)) == 1 else shape


def ratio_label(ratio):
    return f"{ratio:.2f}" if ratio >= 0.1 else f"{ratio:.3f}"


def panel_svg(rows, x_left, top, plot_h, group_w, bar_w):
    """One panel (own y scale): bars of tilec and cuBLAS per row, the ratio
    above each pair. Returns the SVG elements and the panel's width."""
    peak = max([r.get("tilec_tflops") or 0 for r in rows] +
               [r.get("cublas_tflops") or 0 for r in rows] + [1e-3])
    step = nice_step(peak)
    y_max = step * (int(peak / step) + 1)
    axis_w = 48
    width = axis_w + group_w * len(rows)
    left = x_left + axis_w

    def y(v):
        return top + plot_h - plot_h * v / y_max

    out = []
    v = 0.0
    while v <= y_max + 1e-9:
        out.append(f'<line x1="{left}" x2="{x_left + width}" y1="{y(v):.1f}" '
                   f'y2="{y(v):.1f}" stroke="#e5e5e5"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
        v += step
    for i, r in enumerate(rows):
        x0 = left + i * group_w + (group_w - 2 * bar_w) / 2
        for j, (key, color) in enumerate((("tilec_tflops", TILEC_COLOR),
                                          ("cublas_tflops", CUBLAS_COLOR))):
            value = r.get(key)
            x = x0 + j * bar_w
            if value is None:
                label = r["status"] if key == "tilec_tflops" else "-"
                out.append(f'<text x="{x + bar_w / 2:.1f}" y="{y(0) - 4:.1f}" '
                           f'text-anchor="middle" font-size="9" fill="#b00">{label}</text>')
                continue
            out.append(f'<rect x="{x:.1f}" y="{y(value):.1f}" width="{bar_w - 2}" '
                       f'height="{y(0) - y(value):.1f}" fill="{color}">'
                       f'<title>{key.split("_")[0]} {value:.1f} TFLOP/s</title></rect>')
        if r.get("ratio") is not None:
            tallest = max(r.get("tilec_tflops") or 0, r.get("cublas_tflops") or 0)
            out.append(f'<text x="{x0 + bar_w:.1f}" y="{y(tallest) - 5:.1f}" '
                       f'text-anchor="middle" font-weight="bold">'
                       f'{ratio_label(r["ratio"])}</text>')
        cx = left + i * group_w + group_w / 2
        out.append(f'<text x="{cx:.1f}" y="{top + plot_h + 15}" text-anchor="middle">'
                   f'{escape(r["dtype"])}</text>')
        out.append(f'<text x="{cx:.1f}" y="{top + plot_h + 29}" text-anchor="middle" '
                   f'font-size="9">{escape(shape_label(r["shape"]))}</text>')
    return out, width


def bench_svg(data):
    """Grouped bars, one panel (with its own scale) for the 16-bit types and
    one for f32, whose SIMT TFLOP/s would vanish next to tensor cores."""
    rows = data["results"]
    panels = [p for p in ([r for r in rows if r["dtype"] != "f32"],
                          [r for r in rows if r["dtype"] == "f32"]) if p]
    group_w, bar_w, top, plot_h, bottom, gap = 74, 26, 56, 300, 64, 24
    parts, x = [], 24
    for panel in panels:
        elements, width = panel_svg(panel, x, top, plot_h, group_w, bar_w)
        parts += elements
        x += width + gap
    width, height = x, top + plot_h + bottom
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="24" y="18" font-size="14">tilec vs cuBLAS matmul, TFLOP/s '
           f'(2MNK / median time)</text>',
           f'<text x="24" y="34" fill="#555">{escape(str(data.get("device", "")))}, '
           f'cuBLAS {escape(str(data.get("cublas_version", "")))}, '
           f'{escape(str(data.get("date", "")))}; above each pair: tilec / cuBLAS</text>',
           f'<text transform="translate(12,{top + plot_h / 2}) rotate(-90)" '
           f'text-anchor="middle">TFLOP/s</text>']
    out += parts
    ly = height - 14
    for k, (name, color) in enumerate((("tilec", TILEC_COLOR), ("cuBLAS", CUBLAS_COLOR))):
        lx = 72 + k * 90
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{color}"/>')
        out.append(f'<text x="{lx + 18}" y="{ly}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="output of tilec-matmul-bench --json")
    parser.add_argument("--svg", help="write the bar chart here (bench JSON)")
    parser.add_argument("--table", action="store_true", help="print a markdown table")
    args = parser.parse_args()
    with open(args.json) as f:
        data = json.load(f)
    mode = data.get("mode")
    if not args.svg and not args.table:
        parser.error("give --svg FILE and/or --table")
    if args.table:
        print(bench_table(data) if mode == "bench" else check_table(data))
    if args.svg:
        if mode != "bench":
            sys.exit(f"{args.json}: a chart needs bench results, not '{mode}'")
        with open(args.svg, "w") as f:
            f.write(bench_svg(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
