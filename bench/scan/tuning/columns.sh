#!/usr/bin/env bash
# Column scans on the H200: every column kernel of the bench cubin checked
# on its ragged shapes, then cols_f32 timed on column shapes from each cubin
# of COLUMN_CUBINS (name=path pairs: variants of the column single pass
# built here from cols_f32 alone), with torch.cumsum(dim=0) for scale. Over
# the tree packed by scripts/package-device.sh; results under $OUT
# (default /tmp/columns).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
OUT="${OUT:-/tmp/columns}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
SHAPES="${COLUMN_SHAPES:-4096x4096,65536x1024,1024x65536,16384x16384,262144x256,1000003x3}"
BENCH=.device/tilec-scan-bench
chmod +x "$BENCH"
"$BENCH" --cubin .device/bench/scan.cubin --no-time \
  --only "$(grep -o '^tile.scan @cols_[a-z0-9_]*' bench/scan/kernels.mlir | sed 's/tile.scan @//' | paste -sd, -)" \
  --json "$OUT/checks.json" > "$OUT/checks.log" 2>&1
echo "checks rc=$? ($(grep -c PASS "$OUT/checks.log") PASS lines)"
tail -3 "$OUT/checks.log"
for entry in main=.device/bench/scan.cubin ${COLUMN_CUBINS:-}; do
  name="${entry%%=*}"
  "$BENCH" --cubin "${entry#*=}" --only cols_f32 --time-cols "$SHAPES" \
    --json "$OUT/time-$name.json" > "$OUT/time-$name.log" 2>&1
  echo "== $name (rc=$?)"
  cat "$OUT/time-$name.log" | tail -12
done
python3 - "$SHAPES" <<'PY' > "$OUT/torch.log" 2>&1
import sys, torch
for shape in sys.argv[1].split(","):
    r, c = map(int, shape.split("x"))
    x = torch.randn(r, c, device="cuda")
    for _ in range(3): torch.cumsum(x, dim=0)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(); start.record()
    for _ in range(20): torch.cumsum(x, dim=0)
    end.record(); torch.cuda.synchronize()
    us = start.elapsed_time(end) * 1e3 / 20
    print(f"torch cols {shape}: {us:.1f} us, {8 * r * c / us / 1e3:.1f} GB/s")
PY
cat "$OUT/torch.log"
