#!/usr/bin/env python3
"""Tests report.py's roofline (--roofs) on small synthetic inputs: a prefill,
a decode and a varlen row of tilec, peers for the first two, and roofs of
round numbers, so that the expected figures can be worked out by hand.
Plain python3 (standard library):

  python3 bench/attention/test_report.py
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report.py")
DEVICE = "Test GPU"
TENSOR_TFLOPS, COPY_GBS = 1000.0, 4000.0

# Prefill, full: 4 B H N^2 D = 2^39 FLOPs over 2 (2 B H N D + 2 B H N D)
# = 2^28 bytes: 2048 FLOP/B, so bound by the tensor peak (1000 TFLOP/s).
PREFILL = (4, 16, 16, 4096, 4096, 128)
PREFILL_FLOPS = 4.0 * 4 * 16 * 4096 * 4096 * 128
# Decode, GQA 32:8: 4 B Hq Nkv D = 2^32 FLOPs; K and V are 2^30 bytes, Q and
# O 2 * 2 B Hq D = 2^20: about 4 FLOP/B, bound by memory (4 x 4000 GB/s).
DECODE = (64, 32, 8, 1, 4096, 128)
DECODE_FLOPS = 4.0 * 64 * 32 * 4096 * 128
DECODE_KV_BYTES = 2.0 * 64 * 8 * 4096 * 128 * 2
DECODE_BYTES = DECODE_KV_BYTES + 2 * 2 * 64 * 32 * 128
# Packed sequences, two of 4096 tokens, causal (half the FLOPs), D 128:
# 16 * 4096 * 4096 * 128 * 2 FLOPs over 8 * 16 * 8192 * 128 bytes = 1024.
VARLEN = "16x16x4096x4096x4096x4096"
VARLEN_FLOPS = 2 * 4.0 * 16 * 4096 * 4096 * 128 / 2


def us_for_tflops(flops, tflops):
    return flops / (tflops * 1e6)


def us_for_gbps(nbytes, gbps):
    return nbytes / (gbps * 1e3)


def tilec_json():
    def row(kernel, dims, us):
        return {"kernel": kernel, "mode": "aot", "dims": dims, "time_us": us,
                "status": "PASS"}
    return {"device": DEVICE, "results": [
        dict(row("attn_d128", list(PREFILL[:5]),
                 us_for_tflops(PREFILL_FLOPS, 500)),
             launched="attn_d128", programs=512, waves=1.94),
        row("attn_d128", list(DECODE[:5]), us_for_gbps(DECODE_KV_BYTES, 3000)),
        row("attn_varlen", VARLEN, us_for_tflops(VARLEN_FLOPS, 256))]}


def peers_json():
    def row(impl, shape, us):
        b, hq, hkv, nq, nkv, d = shape
        return {"impl": impl, "batch": b, "heads": hq, "kv_heads": hkv,
                "n_q": nq, "n_kv": nkv, "dim": d, "causal": False, "us": us}
    return {"device": DEVICE, "results": [
        row("torch-sdpa-flash", PREFILL, us_for_tflops(PREFILL_FLOPS, 400)),
        row("torch-sdpa-cudnn", PREFILL, us_for_tflops(PREFILL_FLOPS, 600)),
        row("triton", PREFILL, us_for_tflops(PREFILL_FLOPS, 450)),
        row("torch-sdpa-flash", DECODE, us_for_gbps(DECODE_KV_BYTES, 2800)),
        row("torch-sdpa-cudnn", DECODE, us_for_gbps(DECODE_KV_BYTES, 3200))]}


def roofs_json(tensor=TENSOR_TFLOPS, copy=COPY_GBS):
    """As tilec-matmul-bench --bench --roofs writes it (writeBenchJson)."""
    return {"mode": "bench", "device": DEVICE,
            "roofs": {"tensor_bf16_tflops": tensor, "fma_f32_tflops": 60.0,
                      "copy_gbs": copy, "how": "test"},
            "results": []}


class ReportRoofsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        for name, data in (("tilec.json", tilec_json()),
                           ("peers.json", peers_json()),
                           ("roofs.json", roofs_json())):
            with open(os.path.join(self.dir, name), "w") as f:
                json.dump(data, f)

    def tearDown(self):
        self.tmp.cleanup()

    def run_report(self, out, *extra):
        """Runs report.py into self.dir/out; (exit status, merged JSON or
        None, attention.md or None)."""
        out = os.path.join(self.dir, out)
        proc = subprocess.run(
            [sys.executable, REPORT,
             "--tilec", os.path.join(self.dir, "tilec.json"),
             "--peers", os.path.join(self.dir, "peers.json"),
             "--out", out, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            return proc.returncode, None, None
        with open(os.path.join(out, "attention-merged.json")) as f:
            merged = json.load(f)
        with open(os.path.join(out, "attention.md")) as f:
            md = f.read()
        return 0, merged, md

    def with_roofs(self):
        rc, merged, md = self.run_report(
            "roofs", "--roofs", os.path.join(self.dir, "roofs.json"))
        self.assertEqual(rc, 0)
        rows = {r["group"]: r for r in merged["rows"]}
        return merged, rows, md

    def test_prefill_row(self):
        _, rows, md = self.with_roofs()
        r = rows["prefill d128"]
        self.assertAlmostEqual(r["intensity"], 2048.0)
        self.assertEqual(r["compulsory_bytes"], 2 ** 28)
        self.assertEqual(r["roof"], "C")
        self.assertAlmostEqual(r["roof_tflops"], TENSOR_TFLOPS)
        self.assertAlmostEqual(r["tilec_roof_fraction"], 0.5)
        self.assertAlmostEqual(r["best_sdpa_roof_fraction"], 0.6)  # cudnn
        self.assertAlmostEqual(r["triton_roof_fraction"], 0.45)
        self.assertNotIn("tilec_copy_fraction", r)
        self.assertIn("| 2048 | 1000 (C) | 50.0% | 60.0% | 45.0% | 1.94 |",
                      md)

    def test_decode_row(self):
        _, rows, md = self.with_roofs()
        r = rows["decode"]
        intensity = DECODE_FLOPS / DECODE_BYTES
        self.assertAlmostEqual(r["intensity"], intensity)
        self.assertAlmostEqual(intensity, 3.996, places=3)
        self.assertEqual(r["roof"], "M")
        self.assertAlmostEqual(r["roof_tflops"], intensity * COPY_GBS / 1e3)
        # Memory-bound: the fraction of the roof is the compulsory bytes'
        # rate over the copy bandwidth, a little above K and V's.
        scale = DECODE_BYTES / DECODE_KV_BYTES
        self.assertAlmostEqual(r["tilec_roof_fraction"], 0.75 * scale)
        self.assertAlmostEqual(r["best_sdpa_roof_fraction"], 0.8 * scale)
        self.assertIsNone(r["triton_roof_fraction"])  # not run
        self.assertAlmostEqual(r["tilec_copy_fraction"], 0.75)
        self.assertAlmostEqual(r["best_sdpa_copy_fraction"], 0.8)
        # A runner without the schedule fields: no waves.
        self.assertIn("| 4.00 | 16.0 (M) | 75.1% | 80.1% | - | 75.0% | "
                      "80.0% | - |", md)

    def test_varlen_row(self):
        _, rows, md = self.with_roofs()
        r = rows["varlen"]
        self.assertAlmostEqual(r["intensity"], 1024.0)
        self.assertEqual(r["roof"], "C")
        self.assertAlmostEqual(r["tilec_roof_fraction"], 0.256)
        self.assertIsNone(r["best_sdpa_roof_fraction"])  # no peer
        self.assertNotIn("triton_roof_fraction", r)
        self.assertIn("| 1024 | 1000 (C) | 25.6% | - |", md)

    def test_roofs_line(self):
        merged, _, md = self.with_roofs()
        self.assertEqual(merged["roofs"]["copy_gbs"], COPY_GBS)
        self.assertIn("bf16 tensor 1000.0 TFLOP/s, f32 FMA 60.0 TFLOP/s, "
                      "copy 4000 GB/s.", md)
        self.assertNotIn("another device", md)

    def test_memory_bound_prefill(self):
        # With a slow copy the prefill row falls under its memory roof.
        with open(os.path.join(self.dir, "roofs.json"), "w") as f:
            json.dump(roofs_json(copy=400.0), f)
        _, rows, _ = self.with_roofs()
        r = rows["prefill d128"]
        self.assertEqual(r["roof"], "M")
        self.assertAlmostEqual(r["roof_tflops"], 2048 * 0.4)

    def test_unmeasured_roofs_fail(self):
        # A bench run without --roofs writes them as null.
        with open(os.path.join(self.dir, "roofs.json"), "w") as f:
            json.dump(roofs_json(tensor=None, copy=None), f)
        rc, _, _ = self.run_report(
            "bad", "--roofs", os.path.join(self.dir, "roofs.json"))
        self.assertNotEqual(rc, 0)

    def test_without_roofs(self):
        rc, merged, md = self.run_report("plain")
        self.assertEqual(rc, 0)
        self.assertNotIn("roofs", merged)
        for r in merged["rows"]:
            self.assertFalse([k for k in r if "roof" in k or k in
                              ("intensity", "compulsory_bytes",
                               "tilec_copy_fraction")], r["group"])
        for text in ("FLOP/B", "% roof", "% copy", "Roofs measured"):
            self.assertNotIn(text, md)


class ReportDecodeRowsTest(unittest.TestCase):
    """A few query rows against more keys (speculative decoding) are decode
    rows, compared in GB/s of K and V; as many query rows as keys are not."""

    ROWS4 = (8, 32, 8, 4, 32768, 64)
    SQUARE16 = (2, 32, 8, 16, 16, 64)

    def test_query_rows(self):
        kv = 2.0 * 8 * 8 * 32768 * 64 * 2
        tilec = {"device": DEVICE, "results": [
            {"kernel": "attn_d64", "mode": "aot", "dims": list(shape[:5]),
             "time_us": us, "status": "PASS"}
            for shape, us in ((self.ROWS4, us_for_gbps(kv, 3500)),
                              (self.SQUARE16, 10.0))]}
        peers = {"device": DEVICE, "results": [
            {"impl": "torch-sdpa-cudnn", "batch": 8, "heads": 32,
             "kv_heads": 8, "n_q": 4, "n_kv": 32768, "dim": 64,
             "causal": False, "us": us_for_gbps(kv, 3000)}]}
        with tempfile.TemporaryDirectory() as tmp:
            for name, data in (("tilec.json", tilec), ("peers.json", peers)):
                with open(os.path.join(tmp, name), "w") as f:
                    json.dump(data, f)
            out = os.path.join(tmp, "out")
            subprocess.run([sys.executable, REPORT,
                            "--tilec", os.path.join(tmp, "tilec.json"),
                            "--peers", os.path.join(tmp, "peers.json"),
                            "--out", out], check=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            with open(os.path.join(out, "attention-merged.json")) as f:
                rows = {r["shape"]: r for r in json.load(f)["rows"]}
            with open(os.path.join(out, "attention.svg")) as f:
                svg = f.read()
        r = rows["8x32x8x4x32768"]
        self.assertEqual(r["group"], "decode")
        self.assertEqual(r["metric"], "kv_gbps")
        self.assertAlmostEqual(r["tilec"]["kv_gbps"], 3500.0)
        self.assertAlmostEqual(r["ratios"]["cudnn"], 3500.0 / 3000.0)
        self.assertEqual(rows["2x32x8x16x16"]["group"], "gqa")
        self.assertIn("4 query rows", svg)


if __name__ == "__main__":
    unittest.main()
