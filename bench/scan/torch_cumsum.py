"""torch.cumsum on the scan bench's shapes (f32), timed with CUDA events in
the same device call as tilec-scan-bench: prints a table, writes JSON."""
import json
import sys

import torch

SHAPES = [(1 << 20,), (1 << 24,), (4096, 4096), (65536, 1024), (1024, 65536),
          (3, 1000003)]


def median_us(fn, runs):
    for _ in range(3):
        fn()
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


rows = []
for shape in SHAPES:
    x = torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1
    out = torch.empty_like(x)
    dim = len(shape) - 1
    us = median_us(lambda: torch.cumsum(x, dim=dim, out=out), 20)
    gbs = 2 * x.numel() * 4 / (us * 1e3)
    name = "x".join(str(d) for d in shape)
    rows.append({"shape": name, "us": us, "gb_per_s": gbs})
    print(f"torch.cumsum {name:<14} {us:10.1f} us {gbs:10.1f} GB/s")
if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as f:
        json.dump(rows, f, indent=1)
