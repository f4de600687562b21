"""The peer of examples/attention_block.mlir: torch SDPA (bf16, layout
[B, H, N, D]) timed with CUDA events, with the FlashAttention and cuDNN
backends each forced in turn (torch.nn.attention.sdpa_kernel), causal and
not. Prints a table; with --json FILE also writes the rows as JSON.

  python3 sdpa_peer.py [--json FILE] [--batch 4] [--heads 16] [--seq 4096]
                       [--dims 64,128]

TFLOP/s = 4 B H N^2 D (Q K^T and P V; half of it when causal) / time, the
FLOP count of tilec-run-examples' attention rows. Time: the median of 20
event-timed calls after warm-up. A backend that cannot run a shape (not
built, not supported on this GPU) gets its error string instead of a time.
Q, K and V are uniform in [-1, 1], as in tilec-run-examples. Each output is
also compared with a float32 math-backend SDPA of the same inputs (max abs
error, reported, not judged; the reference materializes the B H N^2 scores
in float32, about 4.3 GB at the default shape)."""
import argparse
import json

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION,
            "cudnn": SDPBackend.CUDNN_ATTENTION}
WARMUP, RUNS = 5, 20


def median_us(fn):
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(RUNS):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def run(backend, q, k, v, causal, ref):
    b, h, n, d = q.shape
    row = {"impl": f"torch-sdpa-{backend}", "backend": backend, "batch": b,
           "heads": h, "seq": n, "dim": d, "causal": causal,
           "shape": f"{b}x{h}x{n}x{d}", "us": None, "tflops": None,
           "max_abs_error": None, "error": ""}
    try:
        with sdpa_kernel(BACKENDS[backend]):
            def call():
                return F.scaled_dot_product_attention(q, k, v,
                                                      is_causal=causal)
            out = call()
            row["us"] = median_us(call)
        row["tflops"] = (4.0 * b * h * n * n * d / (2 if causal else 1)
                         / row["us"] * 1e-6)
        if ref is not None:
            row["max_abs_error"] = (out.float() - ref).abs().max().item()
    except Exception as e:  # backend not available, shape not supported
        row["error"] = f"{type(e).__name__}: {e}".strip()
    return row


def reference(q, k, v, causal):
    """float32 SDPA (math backend) of the same inputs; None if it fails."""
    try:
        with sdpa_kernel(SDPBackend.MATH):
            return F.scaled_dot_product_attention(q.float(), k.float(),
                                                  v.float(), is_causal=causal)
    except Exception as e:  # e.g. out of memory: N^2 scores in float32
        print(f"no reference: {type(e).__name__}: {e}")
        return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", help="write the rows here")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--heads", type=int, default=16)
    p.add_argument("--seq", type=int, default=4096)
    p.add_argument("--dims", default="64,128", help="head dims, comma-separated")
    args = p.parse_args()
    torch.manual_seed(20261123)
    device = torch.cuda.get_device_name()
    print(f"{device}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"cuDNN {torch.backends.cudnn.version()}")
    rows = []
    for d in (int(x) for x in args.dims.split(",")):
        shape = (args.batch, args.heads, args.seq, d)
        q, k, v = (torch.rand(shape, device="cuda", dtype=torch.bfloat16)
                   * 2 - 1 for _ in range(3))
        for causal in (False, True):
            ref = reference(q, k, v, causal)
            torch.cuda.empty_cache()
            for backend in BACKENDS:
                rows.append(run(backend, q, k, v, causal, ref))
            del ref
            torch.cuda.empty_cache()
    print(f"{'impl':<18} {'shape BxHxNxD':<14} {'causal':<6} {'time_us':>9} "
          f"{'TFLOP/s':>8} {'max_abs':>9}")
    for r in rows:
        if r["error"]:
            print(f"{r['impl']:<18} {r['shape']:<14} {str(r['causal']):<6} "
                  f"unavailable: {r['error'][:200]}")
        else:
            err = r["max_abs_error"]
            print(f"{r['impl']:<18} {r['shape']:<14} {str(r['causal']):<6} "
                  f"{r['us']:>9.1f} {r['tflops']:>8.1f} "
                  f"{'-' if err is None else f'{err:.2e}':>9}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": device, "torch": torch.__version__,
                       "cuda": torch.version.cuda,
                       "cudnn": torch.backends.cudnn.version(),
                       "results": rows}, f, indent=2)


if __name__ == "__main__":
    main()
