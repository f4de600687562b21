"""torch.cumsum on the scan bench's timed shapes (f32, inclusive), timed with
CUDA events in the same device call as tilec-scan-bench and tilec-cub-scan:
prints a table, writes JSON (a list of rows; `shape`, `us`, `gb_per_s` as
before, plus what the other fields say). 1-D shapes and rows scan along the
last dimension; the column shapes (tilec's cols_f32) along dim 0: their
rows say "dim": 0 and "columns": true (the others "columns": false), and
print as "cols RxC".

  python3 torch_cumsum.py [OUT.json]

Each shape is first checked against a float64 cumsum of the same input
(relative L2 error; the f32 bound of tilec-scan-bench: 1e-5 up to 2^24
elements a scan, growing as the square root of the length beyond; a
column's length is its number of rows), so
that a broken peer shows; the exit status is 1 if a check fails.
GB/s = 2 * elements * 4 / time (the input read and the output written once);
the median of event-timed calls after warm-up (fewer calls at 2^28)."""
import json
import math
import sys

import torch

SHAPES = [(1 << 20,), (1 << 24,), (1 << 28,), (4096, 4096), (65536, 1024),
          (1024, 65536), (3, 1000003), (1 << 20, 32), (262144, 100),
          (65536, 500)]
# Scanned along dim 0 (every column), as tilec-scan-bench's cols_f32.
COLUMN_SHAPES = [(4096, 4096), (65536, 1024), (1024, 65536)]


def tolerance(length):
    knee = float(1 << 24)
    return 1e-5 if length <= knee else 1e-5 * math.sqrt(length / knee)


def runs_for(n):
    return 10 if n > (1 << 26) else 50 if n > (1 << 22) else 200


def median_us(fn, runs):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def main():
    torch.manual_seed(20261121)
    rows = []
    failed = 0
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}")
    cases = [(shape, len(shape) - 1) for shape in SHAPES]
    cases += [(shape, 0) for shape in COLUMN_SHAPES]
    for shape, dim in cases:
        name = "x".join(str(d) for d in shape)
        columns = len(shape) == 2 and dim == 0
        row = {"impl": "torch", "shape": name, "dtype": "f32",
               "n": math.prod(shape), "dim": dim, "columns": columns,
               "us": None, "gb_per_s": None, "rel_error": None,
               "tolerance": tolerance(shape[dim]), "status": "FAIL",
               "error": ""}
        try:
            x = torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1
            out = torch.full_like(x, float("nan"))  # poisoned
            torch.cumsum(x, dim=dim, out=out)
            ref = torch.cumsum(x.double(), dim=dim)
            diff = (out.double() - ref).norm().item()
            norm = ref.norm().item()
            rel = diff / max(norm, 1e-300)
            del ref
            row["rel_error"] = rel if math.isfinite(rel) else None
            ok = math.isfinite(rel) and rel <= row["tolerance"]
            row["runs"] = runs_for(x.numel())
            us = median_us(lambda: torch.cumsum(x, dim=dim, out=out), row["runs"])
            row["us"] = us
            row["gb_per_s"] = 2 * x.numel() * 4 / (us * 1e3)
            row["status"] = "PASS" if ok else "FAIL"
            del x, out
            torch.cuda.empty_cache()
        except Exception as e:  # keep going: the other shapes still count
            row["error"] = f"{type(e).__name__}: {e}"
        failed += row["status"] != "PASS"
        rows.append(row)
        us = "-" if row["us"] is None else f"{row['us']:10.1f}"
        gbs = "-" if row["gb_per_s"] is None else f"{row['gb_per_s']:10.1f}"
        rel = "-" if row["rel_error"] is None else f"{row['rel_error']:.2e}"
        shown = ("cols " if columns else "") + name
        print(f"torch.cumsum {shown:<19} {us:>10} us {gbs:>10} GB/s "
              f"rel_err {rel}  {row['status']} {row['error']}", flush=True)
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            json.dump(rows, f, indent=1)
    print(f"{len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
