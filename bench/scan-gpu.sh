#!/usr/bin/env bash
# The scan benchmark on the GPU machine (after scripts/package-device.sh):
# tilec's scans of bench/scan/kernels.mlir, checked against float64 and
# timed, then torch.cumsum on the same shapes in the same call; prints the
# ratios. Results under $OUT (default /tmp/tilec-scan).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-scan}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
chmod +x .device/tilec-scan-bench
passed=0; failed=0
if .device/tilec-scan-bench --cubin .device/bench/scan.cubin --json "$OUT/tilec.json" |
   tee "$OUT/tilec.log"; then passed=$((passed+1)); else failed=$((failed+1)); fi
if python3 bench/scan/torch_cumsum.py "$OUT/torch.json" | tee "$OUT/torch.log"; then
  passed=$((passed+1)); else failed=$((failed+1)); fi
python3 - "$OUT" <<'PY' | tee "$OUT/ratios.md"
import json, sys
out = sys.argv[1]
tilec = {r["shape"]: r for r in json.load(open(f"{out}/tilec.json"))
         if r["gb_per_s"] is not None}
torch = {r["shape"]: r for r in json.load(open(f"{out}/torch.json"))}
print("| shape | tilec GB/s | torch.cumsum GB/s | tilec / torch | tilec us | torch us |")
print("|---|---:|---:|---:|---:|---:|")
for shape, t in tilec.items():
    p = torch.get(shape)
    if p:
        print(f"| {shape} | {t['gb_per_s']:.1f} | {p['gb_per_s']:.1f} | "
              f"{t['gb_per_s'] / p['gb_per_s']:.3f} | {t['us']:.1f} | {p['us']:.1f} |")
PY
# The reverse scans start their first piece before the buffer: memcheck
# them (and a forward row scan) on ragged shapes.
if compute-sanitizer --tool memcheck --error-exitcode 9 .device/tilec-scan-bench \
     --cubin .device/bench/scan.cubin --only scan_rev_i32,rows_rev_f32,rows_i32 \
     > "$OUT/memcheck.log" 2>&1; then passed=$((passed+1)); else failed=$((failed+1)); fi
tail -3 "$OUT/memcheck.log"
echo "$passed passed, $failed failed"
