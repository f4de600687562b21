#!/usr/bin/env python3
"""tilec's attention kernels beside their peers: merges the JSON of tilec's
runner (tilec-run-examples --json) with that of peers.py and writes a
markdown report, the merged rows as JSON and a chart in SVG. Plain python3
(standard library; matplotlib optional, for a PNG besides), no torch.

  python3 bench/attention/report.py --tilec tilec.json [--tilec more.json ...]
                                    --peers peers.json --out DIR
                                    [--roofs roofs.json]

Writes DIR/attention.md, DIR/attention-merged.json and DIR/attention.svg
(always: plain SVG written here), and DIR/attention.png where matplotlib
imports. The SVG has a panel per prefill head dim and causality (full,
causal): TFLOP/s against the sequence length n_q = n_kv on a log2 axis, a
line per implementation (tilec, flash, cudnn, efficient, triton), a gap
where one failed; and a panel of GB/s against n_kv per decode family where
decode rows exist. gqa and varlen rows are in the tables only. Its figures
are the merged rows' own, those of the table; a marker's tooltip gives the
figure.

tilec rows used: mode "aot" with a time, of kernels whose name holds d64,
d128 or d256 (the head dim) and "causal" when causal (attn_d64,
attn_d128_causal, ...), with dims [B, Hq, Hkv, Nq, Nkv]; other rows are left out. A row is
keyed on (B, Hq, Hkv, Nq, Nkv, D, causal) and matched to the peers' rows of
the same key; where several rows share a key (several --tilec files, a
repeated run), the fastest is taken.

Groups, one table each: decode (Nq == 1, or at most DECODE_ROWS = 16 query
rows against more keys: the rows tilec's split-key decode kernels take),
gqa (Hq != Hkv, the rest), prefill
(the rest, one table per head dim). Prefill and gqa compare TFLOP/s,
4 B Hq Nq Nkv D / time, half of it when causal (recomputed here from dims and
time for tilec and its peers alike); decode compares GB/s of K and V read
once, 2 * B Hkv Nkv D * 2 bytes / time. A ratio tilec/X is tilec's figure
over X's (> 1: tilec is faster); best-SDPA is the fastest of the three torch
SDPA backends that ran. A peer that failed shows "-" and its error in the
notes under the table.

varlen (packed sequences, layout thd), a table of its own after the
others: tilec rows of kernel attn_varlen (bf16, D 128, causal per
sequence: VARLEN_KERNELS, as kAttnVarlen in examples/run_examples.cpp),
mode "aot" with a time, dims (or shape) HqxHkvxNq0xNkv0xNq1xNkv1...; peer
rows of impl torch-sdpa-{flash,cudnn,efficient}-varlen (peers.py --preset
varlen) with the same shape string. Keyed on (Hq, Hkv, ((nq, nkv), ...),
D, causal), the fastest per key as above. TFLOP/s = sum over the sequences
of 4 Hq nq nkv D / time, half when causal (peers.py's varlen_flops, the
runner's raggedAttentionFlops: a tilec row whose runner flops differ gets a
warning). The peers' us includes the host's nested-tensor bookkeeping
(about 2 ms a call), so they are compared on us_queued (calls queued behind
a GPU sleep) where the row has one, else on us with a mark. best-SDPA there
is the fastest of flash and efficient: cudnn's varlen calls ran at a few
TFLOP/s (a fallback), shown but left out. Its merged rows: group "varlen",
shape, name (the peers'), batch = the number of sequences, n_q / n_kv = the
packed token counts, seq_lens_q / seq_lens_kv, flops; a peer's tflops is
the compared figure, tflops_us / tflops_queued those of us / us_queued,
timing "queued" or "us".

--roofs FILE (the JSON of tilec-matmul-bench --bench --roofs, as
bench/attention-gpu.sh's roofs step writes it in the same device call)
places every row of every table on the roofline measured there, as the
matmul and scan benches do: the roofs in a line above the tables, and per
row its arithmetic intensity (FLOP/B: the row's FLOPs, as its TFLOP/s count
them, per compulsory byte: Q, K and V read once and O written once at 2
bytes an element, 2 (2 B Hq Nq D + 2 B Hkv Nkv D), summed over the
sequences for varlen), the roof that bounds it (C: the bf16 tensor peak, or
M: FLOP/B x copy bandwidth, the lower), and the fraction of it tilec,
best-SDPA and triton reached; decode rows also the fraction of the copy
bandwidth tilec's and best-SDPA's K/V GB/s reach. Merged rows gain
compulsory_bytes, intensity, roof ("C" or "M"), roof_tflops,
tilec_roof_fraction, best_sdpa_roof_fraction, triton_roof_fraction (not
varlen) and, for decode, tilec_copy_fraction and best_sdpa_copy_fraction;
the merged JSON gains "roofs". Without --roofs the outputs are as before."""
import argparse
import json
import math
import os
import re
import sys
from xml.sax.saxutils import escape

PEERS = ("flash", "cudnn", "efficient", "triton")
SDPA = ("flash", "cudnn", "efficient")
PEER_IMPL = {"torch-sdpa-flash": "flash", "torch-sdpa-cudnn": "cudnn",
             "torch-sdpa-efficient": "efficient", "triton": "triton"}
# At most this many query rows against more keys take tilec's split-key
# decode kernels (tile-tiling's narrow variant); the report compares them
# as decode, in GB/s of K and V.
DECODE_ROWS = 16
GROUP_ORDER = ("prefill d64", "prefill d128", "prefill d256", "gqa", "decode",
               "varlen")
# Packed sequences: peers.py's varlen rows, and tilec's varlen kernels with
# their (head dim, causal) (examples/run_examples.cpp: kAttnVarlen is bf16,
# D 128, causal per sequence; attn_varlen_f16_d64 has an ALiBi score mod and
# a scale argument, no peer).
VARLEN_PEER_IMPL = {"torch-sdpa-flash-varlen": "flash",
                    "torch-sdpa-cudnn-varlen": "cudnn",
                    "torch-sdpa-efficient-varlen": "efficient"}
VARLEN_KERNELS = {"attn_varlen": (128, True)}
# Shown in the varlen table, not in its best-SDPA (see varlen_table).
VARLEN_NOT_BEST = ("cudnn",)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def load(path):
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, list):  # a bare list of rows
        data = {"results": data}
    return data


def kernel_traits(name):
    """(head dim, causal) from a tilec kernel name, or None when the name
    names no head dim."""
    m = re.search(r"(?:^|[^0-9a-z])d(64|128|256)(?![0-9])", name.lower())
    if not m:
        return None
    return int(m.group(1)), "causal" in name.lower()


def flops(key):
    b, hq, _, nq, nkv, d, causal = key
    return 4.0 * b * hq * nq * nkv * d / (2 if causal else 1)


def kv_bytes(key):
    b, _, hkv, _, nkv, d, _ = key
    return 2.0 * b * hkv * nkv * d * 2


def is_decode(key):
    """A decode row: one query row, or a few (speculative decoding, say)
    against more keys; compared in GB/s of K and V like one row."""
    nq, nkv = key[3], key[4]
    return nq == 1 or (nq <= DECODE_ROWS and nkv > nq)


def group_of(key):
    b, hq, hkv, nq, nkv, d, causal = key
    if is_decode(key):
        return "decode"
    if hq != hkv:
        return "gqa"
    return f"prefill d{d}"


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x == x


def tilec_rows(paths):
    """{key: row} of the usable tilec rows (the fastest per key), with the
    number of rows read, used and skipped."""
    best, used, seen, devices = {}, 0, 0, []
    for path in paths:
        data = load(path)
        devices.append(data.get("device", "?"))
        for r in data.get("results", []):
            seen += 1
            name = r.get("kernel") or r.get("example") or ""
            traits = kernel_traits(name)
            dims = r.get("dims") or []
            time_us = r.get("time_us")
            if (r.get("mode") != "aot" or traits is None or len(dims) != 5
                    or not is_number(time_us) or time_us <= 0):
                continue
            used += 1
            d, causal = traits
            key = tuple(int(x) for x in dims) + (d, causal)
            keep_fastest(best, key, name, r, path)
    return best, {"read": seen, "used": used, "devices": devices}


def keep_fastest(best, key, name, r, path):
    """Records runner row `r` of kernel `name` (from `path`) under `key` in
    `best` unless a faster one is there."""
    row = {"kernel": name, "time_us": float(r["time_us"]),
           "tflops_runner": r.get("tflops"),
           "status": r.get("status", ""), "error": r.get("error", ""),
           "source": path}
    # The launched kernel's wave quantisation (runners since 2026-11-28).
    for field in ("launched", "programs", "waves"):
        if field in r:
            row[field] = r[field]
    if key not in best or row["time_us"] < best[key]["time_us"]:
        best[key] = row


def parse_varlen_shape(values):
    """(Hq, Hkv, ((nq0, nkv0), (nq1, nkv1), ...)) of a packed shape, given
    as "HqxHkvxNq0xNkv0x..." or as its list of numbers; None when it is
    not one."""
    try:
        if isinstance(values, str):
            values = values.split("x")
        values = [int(x) for x in values]
    except (TypeError, ValueError):
        return None
    if len(values) < 4 or len(values) % 2 or min(values[:2]) < 1:
        return None
    return (values[0], values[1],
            tuple(zip(values[2::2], values[3::2])))


def varlen_shape_string(hq, hkv, pairs):
    return "x".join(str(x) for x in [hq, hkv] + [n for p in pairs for n in p])


def varlen_flops(key):
    """Sum over the sequences of 4 Hq nq nkv D, half of it when causal
    (peers.py's varlen_flops for nq = nkv; the runner's
    raggedAttentionFlops)."""
    hq, _, pairs, d, causal = key
    return sum(4.0 * hq * nq * nkv * d for nq, nkv in pairs) / (
        2 if causal else 1)


def tilec_varlen_rows(paths):
    """{key: row} of the usable tilec rows of packed sequences (kernels in
    VARLEN_KERNELS, mode aot, a time; the fastest per key), keyed on
    (Hq, Hkv, ((nq, nkv), ...), D, causal), and the number used."""
    best, used = {}, 0
    for path in paths:
        for r in load(path).get("results", []):
            name = r.get("kernel") or r.get("example") or ""
            traits = VARLEN_KERNELS.get(name)
            shape = parse_varlen_shape(r.get("dims") or r.get("shape") or "")
            time_us = r.get("time_us")
            if (r.get("mode") != "aot" or traits is None or shape is None
                    or not is_number(time_us) or time_us <= 0):
                continue
            used += 1
            key = shape + traits
            flops = varlen_flops(key)
            if (is_number(r.get("flops")) and r["flops"] > 0
                    and abs(r["flops"] / flops - 1) > 1e-6):
                print(f"warning: {name} {varlen_shape_string(*shape)}: the "
                      f"runner counts {r['flops']:.6g} flops, "
                      f"{flops:.6g} here (D {traits[0]}, causal "
                      f"{traits[1]})", file=sys.stderr)
            keep_fastest(best, key, name, r, path)
    return best, used


def varlen_peer_row(r, path):
    """(key, peer row) of one of peers.py's varlen rows, or None."""
    shape = parse_varlen_shape(r.get("shape") or "")
    if shape is None and r.get("seq_lens"):
        shape = (int(r["heads"]), int(r["kv_heads"]),
                 tuple((int(n), int(n)) for n in r["seq_lens"]))
    if shape is None:
        return None
    key = shape + (int(r["dim"]), bool(r["causal"]))
    us = r.get("us") if is_number(r.get("us")) and r["us"] > 0 else None
    queued = (r.get("us_queued") if us is not None
              and is_number(r.get("us_queued")) and r["us_queued"] > 0
              else None)
    return key, {"us": us, "us_queued": queued,
                 "error": "" if us is not None else (r.get("error")
                                                     or "no time"),
                 "note": r.get("note", ""), "name": r.get("name"),
                 "max_abs_error": r.get("max_abs_error"),
                 "preset": r.get("preset"), "source": path}


def load_roofs(path):
    """The roofs measured by tilec-matmul-bench --bench --roofs (the
    "roofs" object of its JSON, bench/roofs/Roofs.h) and the device it ran
    on; exits with a message where the file has no measured roofs (a bench
    run without --roofs writes them as null)."""
    data = load(path)
    roofs = data.get("roofs") or {}
    tensor, copy = roofs.get("tensor_bf16_tflops"), roofs.get("copy_gbs")
    if not (is_number(tensor) and tensor > 0 and is_number(copy) and copy > 0):
        sys.exit(f"report.py: {path} has no measured roofs (want \"roofs\": "
                 "{\"tensor_bf16_tflops\": ..., \"copy_gbs\": ...}, from "
                 "tilec-matmul-bench --bench --roofs bench/roofs/roofs.ptx)")
    fma = roofs.get("fma_f32_tflops")
    return {"tensor_bf16_tflops": float(tensor),
            "fma_f32_tflops": float(fma) if is_number(fma) else None,
            "copy_gbs": float(copy), "device": data.get("device", "?"),
            "source": path}


def varlen_time(p):
    """The time a varlen peer is compared on: us_queued where there is one
    (no host time), else us; None where it failed."""
    return p["us_queued"] if p["us_queued"] is not None else p["us"]


def peer_rows(paths):
    """{key: {peer: row}}: a key's row per peer; a timed row wins over a
    failed one, and the faster of two timed ones. Also the varlen rows,
    {varlen key: {peer: row}} (compared on varlen_time)."""
    out, varlen, devices = {}, {}, []
    for path in paths:
        data = load(path)
        devices.append(data.get("device", "?"))
        for r in data.get("results", []):
            if r.get("impl") in VARLEN_PEER_IMPL:
                got = varlen_peer_row(r, path)
                if got is None:
                    continue
                key, row = got
                peer = VARLEN_PEER_IMPL[r["impl"]]
                old = varlen.setdefault(key, {}).get(peer)
                new_t, old_t = varlen_time(row), old and varlen_time(old)
                if (old is None or (old_t is None and new_t is not None)
                        or (new_t is not None and new_t < old_t)):
                    varlen[key][peer] = row
                continue
            peer = PEER_IMPL.get(r.get("impl"))
            if peer is None:
                continue
            key = (int(r["batch"]), int(r["heads"]), int(r["kv_heads"]),
                   int(r["n_q"]), int(r["n_kv"]), int(r["dim"]),
                   bool(r["causal"]))
            us = r.get("us") if is_number(r.get("us")) and r["us"] > 0 else None
            row = {"us": us, "error": "" if us is not None
                   else (r.get("error") or "no time"),
                   "kv_expanded": bool(r.get("kv_expanded")),
                   "max_abs_error": r.get("max_abs_error"),
                   "preset": r.get("preset"), "source": path}
            if r.get("config"):
                row["config"] = r["config"]
            old = out.setdefault(key, {}).get(peer)
            if (old is None or (old["us"] is None and us is not None)
                    or (us is not None and us < old["us"])):
                out[key][peer] = row
    return out, varlen, devices


# ---------------------------------------------------------------------------
# Merging
# ---------------------------------------------------------------------------

def metric(key, us):
    """The group's figure for a time: GB/s of K/V for decode, else TFLOP/s."""
    if us is None:
        return None
    if is_decode(key):
        return kv_bytes(key) / us * 1e-3
    return flops(key) / us * 1e-6


def merge(tilec, peers):
    rows = []
    for key in sorted(set(tilec) | set(peers)):
        b, hq, hkv, nq, nkv, d, causal = key
        t = tilec.get(key)
        ps = peers.get(key, {})
        value = metric(key, t["time_us"]) if t else None
        row = {"group": group_of(key), "shape": f"{b}x{hq}x{hkv}x{nq}x{nkv}",
               "batch": b, "heads": hq, "kv_heads": hkv, "n_q": nq,
               "n_kv": nkv, "dim": d, "causal": causal,
               "metric": "kv_gbps" if is_decode(key) else "tflops",
               "matched": bool(t and ps), "tilec": None, "peers": {},
               "ratios": {}}
        if t:
            row["tilec"] = dict(t, tflops=metric_tflops(key, t["time_us"]),
                                kv_gbps=kv_bytes(key) / t["time_us"] * 1e-3)
        for peer in PEERS:
            p = ps.get(peer)
            if p is None:
                continue
            row["peers"][peer] = dict(
                p, tflops=metric_tflops(key, p["us"]),
                kv_gbps=(kv_bytes(key) / p["us"] * 1e-3
                         if p["us"] is not None else None))
            pv = metric(key, p["us"])
            row["ratios"][peer] = (value / pv if value is not None and pv
                                   else None)
        set_best_sdpa(row, value,
                      [(metric(key, ps[s]["us"]), s) for s in SDPA
                       if s in ps and ps[s]["us"] is not None])
        rows.append(row)
    return rows


def set_best_sdpa(row, value, candidates):
    """Records the fastest of `candidates` ((figure, backend) pairs) as
    the row's best SDPA backend, and tilec's ratio to it."""
    if candidates:
        best_value, best = max(candidates)
        row["best_sdpa"] = best
        row["ratios"]["best_sdpa"] = (value / best_value
                                      if value is not None else None)
    else:
        row["best_sdpa"] = None
        row["ratios"]["best_sdpa"] = None


def metric_tflops(key, us):
    return None if us is None else flops(key) / us * 1e-6


def merge_varlen(tilec, peers):
    """The varlen group's rows: one per packed shape, the peers' shapes
    first (in their order), then tilec's others. TFLOP/s recomputed from
    the times; a peer's "tflops" (the figure shown and compared) is that of
    varlen_time, "tflops_us" and "tflops_queued" are those of us and
    us_queued."""
    rows = []
    for key in dict.fromkeys(list(peers) + list(tilec)):
        hq, hkv, pairs, d, causal = key
        t = tilec.get(key)
        ps = peers.get(key, {})
        total = varlen_flops(key)

        def tf(us):
            return None if us is None else total / us * 1e-6

        names = [p["name"] for p in ps.values() if p.get("name")]
        tokens_q = sum(nq for nq, _ in pairs)
        tokens_kv = sum(nkv for _, nkv in pairs)
        row = {"group": "varlen", "shape": varlen_shape_string(hq, hkv, pairs),
               "name": names[0] if names else None,
               "batch": len(pairs), "heads": hq, "kv_heads": hkv,
               "n_q": tokens_q, "n_kv": tokens_kv, "dim": d, "causal": causal,
               "seq_lens_q": [nq for nq, _ in pairs],
               "seq_lens_kv": [nkv for _, nkv in pairs], "flops": total,
               "metric": "tflops", "matched": bool(t and ps), "tilec": None,
               "peers": {}, "ratios": {}}
        value = tf(t["time_us"]) if t else None
        if t:
            row["tilec"] = dict(t, tflops=value)
        for peer in SDPA:
            p = ps.get(peer)
            if p is None:
                continue
            pv = tf(varlen_time(p))
            row["peers"][peer] = dict(
                p, tflops=pv, tflops_us=tf(p["us"]),
                tflops_queued=tf(p["us_queued"]),
                timing=(None if p["us"] is None else
                        "queued" if p["us_queued"] is not None else "us"))
            row["ratios"][peer] = (value / pv if value is not None and pv
                                   else None)
        set_best_sdpa(row, value,
                      [(row["peers"][s]["tflops"], s) for s in SDPA
                       if s in row["peers"] and s not in VARLEN_NOT_BEST
                       and row["peers"][s]["tflops"] is not None])
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------
# Roofline (--roofs)
# ---------------------------------------------------------------------------

# Bytes of an element of Q, K, V and O: the timed kernels and peers are bf16
# (f16 alike).
ELEMENT_BYTES = 2


def compulsory_bytes(row):
    """Bytes any attention must move for a merged row: Q, K and V read once,
    O written once (O is Q's size). Packed sequences (varlen) count their
    tokens, the sum over the sequences."""
    if row["group"] == "varlen":
        tokens_q, tokens_kv = sum(row["seq_lens_q"]), sum(row["seq_lens_kv"])
    else:
        tokens_q = row["batch"] * row["n_q"]
        tokens_kv = row["batch"] * row["n_kv"]
    elements = (2 * row["heads"] * tokens_q + 2 * row["kv_heads"] * tokens_kv)
    return ELEMENT_BYTES * elements * row["dim"]


def row_flops(row):
    """The FLOPs the row's TFLOP/s count (half when causal)."""
    if row["group"] == "varlen":
        return row["flops"]
    return flops((row["batch"], row["heads"], row["kv_heads"], row["n_q"],
                  row["n_kv"], row["dim"], row["causal"]))


def fraction(value, of):
    return value / of if value is not None and of else None


def place_on_roofline(row, roofs):
    """Adds to a merged row where it stands on the roofline, as the matmul
    bench does (bench/matmul/matmul_bench.cpp, placeOnRoofline): its
    arithmetic intensity (FLOP a compulsory byte), the roof that bounds it
    ("C": the bf16 tensor peak, or "M": intensity x copy bandwidth, the
    lower), that roof in TFLOP/s and the fraction of it tilec, the best SDPA
    backend and triton reached. Decode rows, compared on K/V GB/s, also get
    the fraction of the copy bandwidth tilec and best-SDPA reached."""
    moved = compulsory_bytes(row)
    intensity = row_flops(row) / moved
    peak = roofs["tensor_bf16_tflops"]
    memory_roof = intensity * roofs["copy_gbs"] / 1e3
    row["compulsory_bytes"] = moved
    row["intensity"] = intensity
    row["roof"] = "M" if memory_roof < peak else "C"
    row["roof_tflops"] = min(peak, memory_roof)
    t, best = row["tilec"], row["best_sdpa"]
    sdpa = row["peers"][best] if best else None
    row["tilec_roof_fraction"] = fraction(t and t["tflops"],
                                          row["roof_tflops"])
    row["best_sdpa_roof_fraction"] = fraction(sdpa and sdpa["tflops"],
                                              row["roof_tflops"])
    if row["group"] != "varlen":  # no triton peer for packed sequences
        triton = row["peers"].get("triton")
        row["triton_roof_fraction"] = fraction(triton and triton["tflops"],
                                               row["roof_tflops"])
    if row["group"] == "decode":
        row["tilec_copy_fraction"] = fraction(t and t["kv_gbps"],
                                              roofs["copy_gbs"])
        row["best_sdpa_copy_fraction"] = fraction(sdpa and sdpa["kv_gbps"],
                                                  roofs["copy_gbs"])


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------

def tilec_cell(t, value_of, spec):
    """tilec's table cell: its figure, and its status where it did not pass."""
    if t is None:
        return "-"
    cell = fmt(value_of(t), spec)
    if t.get("status") not in ("PASS", "", None):
        cell += f" ({t['status']})"
    return cell


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def clean(text, limit=400):
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def group_key(name):
    return (GROUP_ORDER.index(name) if name in GROUP_ORDER
            else len(GROUP_ORDER), name)


def table(name, rows, roofs=None):
    decode = name == "decode"
    unit = "GB/s" if decode else "TFLOP/s"
    mixed_d = len({r["dim"] for r in rows}) > 1 or not name.startswith("prefill")
    notes = {}  # (peer, error) -> number

    def note(peer, error):
        return notes.setdefault((peer, error), len(notes) + 1)

    value_of = (lambda r: r["kv_gbps"]) if decode else (lambda r: r["tflops"])
    head = ["shape"] + (["d"] if mixed_d else []) + ["causal", f"tilec {unit}"]
    head += [f"{p} {unit}" for p in PEERS]
    head += [f"tilec/{p}" for p in PEERS] + ["tilec/best-SDPA"]
    if roofs:
        head += roof_head(("best-SDPA", "triton"), decode)
    align = ["---"] + (["---:"] if mixed_d else []) + ["---"]
    align += ["---:"] * (len(head) - len(align))
    lines = [f"### {name}", "", "| " + " | ".join(head) + " |",
             "|" + "|".join(align) + "|"]
    order = ((lambda r: (r["n_kv"], r["batch"], r["heads"], r["kv_heads"],
                         r["dim"])) if decode else
             (lambda r: (r["causal"], r["n_q"], r["n_kv"], r["batch"],
                         r["heads"], r["kv_heads"], r["dim"])))
    expanded = False
    for r in sorted(rows, key=order):
        t = r["tilec"]
        tilec = tilec_cell(t, value_of, ".0f" if decode else ".1f")
        cells = [r["shape"]] + ([str(r["dim"])] if mixed_d else [])
        cells += ["yes" if r["causal"] else "no", tilec]
        for peer in PEERS:
            p = r["peers"].get(peer)
            cell = missing_peer_cell(peer, p, note)
            if cell is None:
                cell = fmt(value_of(p), ".0f" if decode else ".1f")
                if p["kv_expanded"]:
                    cell += "*"
                    expanded = True
            cells.append(cell)
        cells += ratio_cells(r, PEERS)
        if roofs:
            cells += roof_cells(r, ("best_sdpa", "triton"), decode)
        lines.append("| " + " | ".join(cells) + " |")
    if expanded:
        lines += ["", "\\* K and V expanded with repeat_interleave before the "
                  "timed call (the backend rejected enable_gqa)."]
    if notes:
        lines += [""] + [f"- [{n}] {peer}: {error}"
                         for (peer, error), n in notes.items()]
    return lines


def missing_peer_cell(peer, p, note):
    """The cell of a peer that did not run ("-") or failed ("- [n]", its
    error as note n); None when it ran."""
    if p is None:
        return "-"
    if p["us"] is None:
        return f"- [{note(peer, clean(p['error']))}]"
    return None


def ratio_cells(row, peers):
    """tilec/peer for each of `peers`, then tilec/best-SDPA naming it."""
    best = row["ratios"].get("best_sdpa")
    return ([fmt(row["ratios"].get(peer), ".2f") for peer in peers] +
            ["-" if best is None else f"{best:.2f} ({row['best_sdpa']})"])


def roof_head(peers, decode):
    """The roofline columns' heads (see place_on_roofline): intensity, the
    bounding roof, the fraction of it tilec and `peers` reached and, for
    decode, the fraction of the copy bandwidth."""
    head = ["FLOP/B", "roof TFLOP/s", "tilec % roof"]
    head += [f"{p} % roof" for p in peers]
    if decode:
        head += ["tilec % copy", f"{peers[0]} % copy"]
    # Wave quantisation of the kernel tilec launched: programs over the
    # blocks resident at once (a partly empty last wave idles the GPU).
    head += ["tilec waves"]
    return head


def roof_cells(row, peers, decode):
    """The roofline cells of a merged row, as roof_head; `peers` are the
    prefixes of the row's *_roof_fraction fields."""
    cells = [fmt_figure(row["intensity"]),
             f"{fmt_figure(row['roof_tflops'])} ({row['roof']})"]
    cells += [fmt_percent(row[f"{p}_roof_fraction"])
              for p in ("tilec",) + peers]
    if decode:
        cells += [fmt_percent(row["tilec_copy_fraction"]),
                  fmt_percent(row[f"{peers[0]}_copy_fraction"])]
    t = row["tilec"]
    cells += [fmt(t.get("waves") if t else None, ".2f")]
    return cells


def fmt_figure(value):
    """Three significant figures or more: decode's intensity is about 4,
    prefill's in the thousands."""
    return fmt(value, ".0f" if value >= 100 else ".1f" if value >= 10
               else ".2f")


def fmt_percent(value):
    return "-" if value is None else f"{100 * value:.1f}%"


def varlen_lengths(row, limit=10):
    """The sequence lengths, briefly: runs of equal ones as "count x n",
    "nq:nkv" where they differ."""
    items = []
    for nq, nkv in zip(row["seq_lens_q"], row["seq_lens_kv"]):
        text = str(nq) if nq == nkv else f"{nq}:{nkv}"
        if items and items[-1][0] == text:
            items[-1][1] += 1
        else:
            items.append([text, 1])
    parts = [text if n == 1 else f"{n} x {text}" for text, n in items]
    if len(parts) > limit:
        parts = parts[:limit] + ["..."]
    return ", ".join(parts)


def span(values, spec):
    """"a-b" of the numbers (one figure when they round alike)."""
    lo, hi = format(min(values), spec), format(max(values), spec)
    return lo if lo == hi else f"{lo}-{hi}"


def varlen_table(rows, roofs=None):
    """The varlen group: one row per packed shape; the peers compared on
    their queued time where they have one (see the notes it writes)."""
    notes = {}  # (peer, text) -> number

    def note(peer, text):
        return notes.setdefault((peer, text), len(notes) + 1)

    head = (["name", "sequences", "tokens", "lengths", "causal",
             "tilec TFLOP/s"] + [f"{p} TFLOP/s" for p in SDPA]
            + [f"tilec/{p}" for p in SDPA] + ["tilec/best-SDPA"])
    if roofs:
        head += roof_head(("best-SDPA",), False)
    lines = ["### varlen", "", "| " + " | ".join(head) + " |",
             "|---|---:|---:|---|---|" + "---:|" * (len(head) - 5)]
    host = False
    for r in rows:
        t = r["tilec"]
        tilec = tilec_cell(t, lambda row: row["tflops"], ".1f")
        tokens = (str(r["n_q"]) if r["n_q"] == r["n_kv"]
                  else f"{r['n_q']}:{r['n_kv']}")
        cells = [r["name"] or "-", str(r["batch"]), tokens,
                 varlen_lengths(r), "yes" if r["causal"] else "no", tilec]
        for peer in SDPA:
            p = r["peers"].get(peer)
            cell = missing_peer_cell(peer, p, note)
            if cell is None:
                cell = fmt(p["tflops"], ".1f")
                if p["timing"] != "queued":
                    host = True
                    why = clean(p.get("note") or "no us_queued in the row")
                    cell += f"\u2020 [{note(peer, why)}]"
            cells.append(cell)
        cells += ratio_cells(r, SDPA)
        if roofs:
            cells += roof_cells(r, ("best_sdpa",), False)
        lines.append("| " + " | ".join(cells) + " |")
    timed = [p for r in rows for p in r["peers"].values()
             if p["us"] is not None and p["us_queued"] is not None]
    overhead = (f" (us - us_queued here: "
                f"{span([(p['us'] - p['us_queued']) / 1000 for p in timed], '.1f')}"
                f" ms a call)" if timed else "")
    lines += ["", "Packed sequences (layout thd): shapes "
              "HqxHkvxNq0xNkv0xNq1xNkv1...; sequences, tokens (Nq:Nkv where "
              "they differ) and lengths are those of the packed shape; the "
              "name is the peers' (peers.py --preset varlen). TFLOP/s = sum "
              "over the sequences of 4 Hq Nq_i Nkv_i D / time, half when "
              "causal (peers.py's varlen_flops), recomputed from the times. "
              "tilec: attn_varlen (bf16, D 128, causal per sequence).", "",
              "The peers (torch SDPA on jagged nested tensors) are compared "
              "on us_queued, the mean time of 20 calls queued behind a GPU "
              "sleep: their us (the median of event-timed calls) includes "
              f"the nested-tensor bookkeeping on the host{overhead}. tilec's "
              "time (the median of 20 event-timed launches) has none."]
    if host:
        lines += ["", "\u2020 No us_queued: the figure is from us, host "
                  "time included."]
    shown = [p["tflops_us"] for r in rows for s, p in r["peers"].items()
             if s in VARLEN_NOT_BEST and p["tflops_us"] is not None]
    excluded = ", ".join(VARLEN_NOT_BEST)
    lines += ["", f"best-SDPA: the fastest of "
              f"{', '.join(s for s in SDPA if s not in VARLEN_NOT_BEST)}; "
              f"{excluded} is shown but left out of it: its varlen calls "
              "take a fallback path, not a fused varlen kernel"
              + (f" ({span(shown, '.1f')} TFLOP/s from us here)"
                 if shown else "") + "."]
    if notes:
        lines += [""] + [f"- [{n}] {peer}: {text}"
                         for (peer, text), n in notes.items()]
    return lines


def roofs_lines(roofs, tilec_devices):
    """The measured roofs and how the roofline columns read them: lines
    above the tables."""
    fma = roofs["fma_f32_tflops"]
    lines = [f"Roofs measured on {roofs['device']} by tilec-matmul-bench "
             f"--roofs ({roofs['source']}): bf16 tensor "
             f"{roofs['tensor_bf16_tflops']:.1f} TFLOP/s, "
             + (f"f32 FMA {fma:.1f} TFLOP/s, " if fma is not None else "")
             + f"copy {roofs['copy_gbs']:.0f} GB/s.", "",
             "FLOP/B: the row's FLOPs (those of its TFLOP/s) per compulsory "
             "byte, Q, K and V read once and O written once at 2 bytes an "
             "element. roof: the lower of the bf16 tensor peak (C, "
             "compute-bound) and FLOP/B x the copy bandwidth (M, "
             "memory-bound). X % roof: X's TFLOP/s over the roof "
             "(best-SDPA: the row's fastest SDPA backend); decode's X % "
             "copy: X's K/V GB/s over the copy bandwidth."]
    # Roofs of another GPU would misplace every row.
    if roofs["device"] not in tilec_devices:
        lines += ["", "**The roofs were measured on another device than "
                  "tilec's.**"]
    return lines


def markdown(rows, tilec_info, peer_devices, roofs=None):
    lines = ["# Attention: tilec and its peers", ""]
    lines.append(f"tilec: {', '.join(dict.fromkeys(tilec_info['devices']))}; "
                 f"peers: {', '.join(dict.fromkeys(peer_devices))}.")
    if set(tilec_info["devices"]) != set(peer_devices):
        lines.append("")
        lines.append("**The tilec and peer files name different devices.**")
    matched = sum(1 for r in rows if r["matched"])
    lines += ["", f"{tilec_info['used']} tilec rows used of "
              f"{tilec_info['read']} read; {matched} shapes matched with "
              f"peers, {len(rows) - matched} on one side only.", "",
              "TFLOP/s = 4 B Hq Nq Nkv D / time (half when causal); decode "
              "GB/s = 2 B Hkv Nkv D * 2 bytes of K and V / time; both "
              "recomputed from the times. Shapes are BxHqxHkvxNqxNkv. "
              "tilec/X > 1: tilec is faster. A \"-\" without a note: not "
              "measured.", ""]
    if roofs:
        lines += roofs_lines(roofs, tilec_info["devices"]) + [""]
    groups = {}
    for r in rows:
        groups.setdefault(r["group"], []).append(r)
    for name in sorted(groups, key=group_key):
        lines += (varlen_table(groups[name], roofs) if name == "varlen"
                  else table(name, groups[name], roofs)) + [""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Chart
# ---------------------------------------------------------------------------

IMPLS = ("tilec",) + PEERS
# (colour, marker, line width, legend label) per implementation.
SVG_STYLE = {
    "tilec": ("#1f77b4", "circle", 2.6, "tilec"),
    "flash": ("#d62728", "square", 1.6, "flash (FlashAttention-2, torch SDPA)"),
    "cudnn": ("#2ca02c", "up", 1.6, "cudnn (torch SDPA)"),
    "efficient": ("#9467bd", "down", 1.6, "efficient (torch SDPA)"),
    "triton": ("#ff7f0e", "diamond", 1.6, "triton"),
}


def nice_ceiling(top, ticks=8):
    """(ceiling, step): a step of 1, 2, 2.5 or 5 times a power of ten that
    cuts 0..top into about `ticks` parts, and top rounded up to it."""
    if not top or top <= 0:
        return 1.0, 0.2
    raw = top / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    ceiling = math.ceil(top / step - 1e-9) * step
    return ceiling, step


def chart_panels(rows):
    """The chart's panels: (title, unit, x label, {x: row}) for each prefill
    group and causality (square shapes, n_q == n_kv; x = n_q), then each
    decode family (x = n_kv). gqa is left out (one length only)."""
    panels = []
    prefill = [r for r in rows if r["group"].startswith("prefill")
               and r["n_q"] == r["n_kv"]]
    for group in sorted({r["group"] for r in prefill}, key=group_key):
        for causal in (False, True):
            mine = [r for r in prefill
                    if r["group"] == group and r["causal"] == causal]
            if mine:
                panels.append((f"{group}, {'causal' if causal else 'full'}",
                               "TFLOP/s", "sequence length N (n_q = n_kv)",
                               mine, "n_q"))
    decode = [r for r in rows if r["group"] == "decode"]
    family = lambda r: (r["dim"], r["heads"], r["kv_heads"], r["batch"],
                        r["n_q"], r["causal"])
    for fam in sorted({family(r) for r in decode}):
        d, hq, hkv, b, nq, causal = fam
        mine = [r for r in decode if family(r) == fam]
        panels.append((f"decode d{d}, {hq}:{hkv} heads, batch {b}"
                       + (f", {nq} query rows" if nq > 1 else "")
                       + (", causal" if causal else ""),
                       "GB/s", f"K/V length n_kv (n_q = {nq})", mine, "n_kv"))
    out = []
    for title, unit, xlabel, mine, xkey in panels:
        by_x = {}
        for r in sorted(mine, key=lambda r: (r[xkey], r["batch"])):
            if r[xkey] in by_x:
                print(f"chart: {title}: several rows at {xkey} {r[xkey]}, "
                      f"{by_x[r[xkey]]['shape']} drawn, {r['shape']} not",
                      file=sys.stderr)
                continue
            by_x[r[xkey]] = r
        out.append((title, unit, xlabel, by_x))
    return out


def chart_value(row, impl, unit):
    """The figure the table shows for an implementation in a row (the same
    field of the merged row), or None where it failed or was not run."""
    src = row["tilec"] if impl == "tilec" else row["peers"].get(impl)
    if src is None:
        return None
    value = src.get("kv_gbps" if unit == "GB/s" else "tflops")
    return value if is_number(value) else None


def svg_marker(kind, x, y, color, tip):
    r = 4.0
    if kind == "circle":
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"'
    elif kind == "square":
        shape = (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
                 f'height="{2 * r:.1f}"')
    else:
        k = r * 1.25
        pts = {"up": [(0, -k), (k, k * 0.8), (-k, k * 0.8)],
               "down": [(0, k), (k, -k * 0.8), (-k, -k * 0.8)],
               "diamond": [(0, -k), (k, 0), (0, k), (-k, 0)]}[kind]
        shape = '<polygon points="%s"' % " ".join(
            f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in pts)
    return (f'{shape} fill="{color}" stroke="white" stroke-width="0.8">'
            f'<title>{escape(tip)}</title></{shape.split()[0][1:]}>')


def plot_svg(rows, path, devices=()):
    """Writes an SVG chart of the merged rows (standard library only): a
    panel per prefill group and causality, TFLOP/s against the sequence
    length on a log2 axis, a line per implementation, and a panel per decode
    family in GB/s where decode rows exist. The figures are the merged rows'
    own (those of the table); a missing one leaves a gap. False when there
    is nothing to draw."""
    panels = chart_panels(rows)
    if not panels:
        print("chart skipped: no prefill or decode rows")
        return False
    # One y scale per unit, shared by its panels.
    scale = {}
    for title, unit, xlabel, by_x in panels:
        for r in by_x.values():
            for impl in IMPLS:
                v = chart_value(r, impl, unit)
                if v is not None:
                    scale[unit] = max(scale.get(unit, 0.0), v)
    scale = {unit: nice_ceiling(top) for unit, top in scale.items()}

    cols = 2 if len(panels) > 1 else 1
    nrows = (len(panels) + cols - 1) // cols
    pw, ph = 520, 330                      # a panel
    ml, mr, mt, mb = 64, 18, 34, 50        # its plot area's margins
    head, legend_h, foot = 58, 30 * ((len(IMPLS) + 2) // 3), 48
    width = cols * pw + 20
    height = head + legend_h + nrows * ph + foot
    devs = list(dict.fromkeys(d for d in devices if d))
    units = sorted(scale, key=lambda u: u != "TFLOP/s")
    title = (f"Attention on {', '.join(devs) or 'an unnamed GPU'}: "
             f"{' and '.join(units)} by sequence length (higher is better)")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" '
           'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">',
           f'<title>{escape(title)}</title>',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2:.1f}" y="30" font-size="17" '
           f'font-weight="bold" text-anchor="middle">{escape(title)}</text>']

    # Legend, three entries a line.
    for i, impl in enumerate(IMPLS):
        color, marker, lw, label = SVG_STYLE[impl]
        x = 30 + (i % 3) * ((width - 60) / 3)
        y = head + 12 + 28 * (i // 3)
        out.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 34:.1f}" '
                   f'y2="{y:.1f}" stroke="{color}" stroke-width="{lw}"/>')
        out.append(svg_marker(marker, x + 17, y, color, label))
        out.append(f'<text x="{x + 42:.1f}" y="{y + 4.5:.1f}" '
                   f'font-size="13">{escape(label)}</text>')

    for n, (ptitle, unit, xlabel, by_x) in enumerate(panels):
        ox = 10 + (n % cols) * pw
        oy = head + legend_h + (n // cols) * ph
        x0, x1 = ox + ml, ox + pw - mr
        y0, y1 = oy + mt, oy + ph - mb      # top and bottom of the plot area
        top, step = scale.get(unit, (1.0, 0.2))
        xs = sorted(by_x)
        lo, hi = math.log2(xs[0]), math.log2(xs[-1])
        pad = 0.35 if hi > lo else 1.0

        def px(v):
            return x0 + (math.log2(v) - lo + pad) / (hi - lo + 2 * pad) * (x1 - x0)

        def py(v):
            return y1 - v / top * (y1 - y0)

        out.append(f'<g><text x="{(x0 + x1) / 2:.1f}" y="{oy + 20:.1f}" '
                   f'font-size="14" font-weight="bold" text-anchor="middle">'
                   f'{escape(ptitle)}</text>')
        # y gridlines and labels
        k = 0
        while k * step <= top + 1e-9:
            v = k * step
            y = py(v)
            out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x1}" y2="{y:.1f}" '
                       f'stroke="{"#888" if k == 0 else "#ddd"}" '
                       'stroke-width="1"/>')
            out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" font-size="11" '
                       f'text-anchor="end">{v:g}</text>')
            k += 1
        # x ticks at the lengths present
        for v in xs:
            x = px(v)
            out.append(f'<line x1="{x:.1f}" y1="{y0}" x2="{x:.1f}" y2="{y1}" '
                       'stroke="#eee" stroke-width="1"/>')
            out.append(f'<line x1="{x:.1f}" y1="{y1}" x2="{x:.1f}" '
                       f'y2="{y1 + 5}" stroke="#888" stroke-width="1"/>')
            out.append(f'<text x="{x:.1f}" y="{y1 + 18}" font-size="11" '
                       f'text-anchor="middle">{v}</text>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" '
                   f'height="{y1 - y0}" fill="none" stroke="#888"/>')
        out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{y1 + 38}" '
                   f'font-size="12" text-anchor="middle">{escape(xlabel)}'
                   '</text>')
        cy = (y0 + y1) / 2
        out.append(f'<text x="{ox + 16}" y="{cy:.1f}" font-size="12" '
                   f'text-anchor="middle" transform="rotate(-90 {ox + 16} '
                   f'{cy:.1f})">{escape(unit)}</text>')
        # a line per implementation, broken where a figure is missing
        for impl in IMPLS:
            color, marker, lw, label = SVG_STYLE[impl]
            runs, run, points = [], [], []
            for v in xs:
                value = chart_value(by_x[v], impl, unit)
                if value is None:
                    if run:
                        runs.append(run)
                    run = []
                    continue
                run.append((px(v), py(value)))
                spec = ".0f" if unit == "GB/s" else ".1f"
                points.append((px(v), py(value),
                               f"{impl}, {ptitle}, {by_x[v]['shape']}: "
                               f"{fmt(value, spec)} {unit}"))
            if run:
                runs.append(run)
            out.append(f'<g class="{impl}">')
            for seg in runs:
                if len(seg) > 1:
                    out.append('<polyline fill="none" stroke="%s" '
                               'stroke-width="%s" stroke-linejoin="round" '
                               'points="%s"/>' % (color, lw, " ".join(
                                   f"{x:.1f},{y:.1f}" for x, y in seg)))
            for x, y, tip in points:
                out.append(svg_marker(marker, x, y, color, tip))
            out.append('</g>')
        out.append('</g>')

    notes = ("Figures as in attention.md: TFLOP/s = 4 B Hq Nq Nkv D / time "
             "(half when causal), decode GB/s = 2 B Hkv Nkv D * 2 bytes / "
             "time, recomputed from the times.",
             "A gap in a line: that implementation failed or was not run. "
             "gqa rows: attention.md only.")
    for i, note in enumerate(notes):
        out.append(f'<text x="20" y="{height - 26 + 15 * i}" font-size="11" '
                   f'fill="#444">{escape(note)}</text>')
    out.append('</svg>')
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return True


def plot(rows, path):
    """TFLOP/s against the sequence length of the prefill rows, one panel
    per (d, causal), a line per implementation. False when matplotlib does
    not import."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:
        print(f"attention.png skipped: matplotlib does not import ({e}); "
              "attention.svg is written without it")
        return False
    prefill = [r for r in rows if r["group"].startswith("prefill")
               and r["n_q"] == r["n_kv"]]
    panels = sorted({(r["dim"], r["causal"]) for r in prefill})
    if not panels:
        print("plot skipped: no prefill rows")
        return False
    cols = 2 if len(panels) > 1 else 1
    nrows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6.5 * cols, 4.2 * nrows),
                             squeeze=False)
    styles = {"tilec": ("#1f77b4", "o", 2.4), "flash": ("#d62728", "s", 1.4),
              "cudnn": ("#2ca02c", "^", 1.4),
              "efficient": ("#9467bd", "v", 1.4),
              "triton": ("#ff7f0e", "D", 1.4)}
    for ax, (d, causal) in zip(axes.flat, panels):
        mine = [r for r in prefill if r["dim"] == d and r["causal"] == causal]
        for impl in ("tilec",) + PEERS:
            points = []
            for r in mine:
                src = r["tilec"] if impl == "tilec" else r["peers"].get(impl)
                if src is not None and src.get("tflops") is not None:
                    points.append((r["n_q"], src["tflops"]))
            if not points:
                continue
            points.sort()
            color, marker, width = styles[impl]
            ax.plot([p[0] for p in points], [p[1] for p in points],
                    label=impl, color=color, marker=marker, linewidth=width)
        ax.set_xscale("log", base=2)
        ax.set_title(f"prefill d{d}, {'causal' if causal else 'not causal'}")
        ax.set_xlabel("sequence length N (batch 16384 / N in the preset)")
        ax.set_ylabel("TFLOP/s")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tilec", action="append", required=True,
                   help="JSON of tilec's runner (repeatable)")
    p.add_argument("--peers", action="append", required=True,
                   help="JSON of peers.py (repeatable)")
    p.add_argument("--out", required=True, help="folder for the report")
    p.add_argument("--roofs", help="JSON of tilec-matmul-bench --bench "
                   "--roofs (its \"roofs\" object): each row placed on that "
                   "roofline")
    args = p.parse_args()
    roofs = load_roofs(args.roofs) if args.roofs else None
    tilec, tilec_info = tilec_rows(args.tilec)
    tilec_varlen, used = tilec_varlen_rows(args.tilec)
    tilec_info["used"] += used
    peers, peers_varlen, peer_devices = peer_rows(args.peers)
    rows = merge(tilec, peers) + merge_varlen(tilec_varlen, peers_varlen)
    if roofs:
        for row in rows:
            place_on_roofline(row, roofs)
    os.makedirs(args.out, exist_ok=True)
    md = markdown(rows, tilec_info, peer_devices, roofs)
    md_path = os.path.join(args.out, "attention.md")
    with open(md_path, "w") as f:
        f.write(md + "\n")
    json_path = os.path.join(args.out, "attention-merged.json")
    merged = {"tilec_devices": tilec_info["devices"],
              "peer_devices": peer_devices,
              "tilec_files": args.tilec, "peer_files": args.peers}
    if roofs:  # (absent without --roofs: the file stays as it was)
        merged["roofs"] = roofs
    merged["rows"] = rows
    with open(json_path, "w") as f:
        json.dump(merged, f, indent=2)
    print(md)
    print(f"wrote {md_path}")
    print(f"wrote {json_path}")
    svg_path = os.path.join(args.out, "attention.svg")
    if plot_svg(rows, svg_path, tilec_info["devices"] + peer_devices):
        print(f"wrote {svg_path}")
    png_path = os.path.join(args.out, "attention.png")
    if plot(rows, png_path):
        print(f"wrote {png_path}")
    if not tilec and not tilec_varlen:
        print("warning: no usable tilec rows (mode aot, a time, a kernel "
              "named with d64/d128/d256 and five dims, or attn_varlen)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
