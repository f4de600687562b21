#!/usr/bin/env bash
# Small-grid matmul shapes (fewer 128x256 tiles than half the SMs, or few
# columns) under several schedules: the default cubin (its split-K
# small-grid kernel) against hinted builds (persistent, clusters of two,
# a producer warp, the hinted tile), cuBLAS in each process.
# Here: tilec each `tile.matmul @mm_bf16_bf16_rr ... block [..] warps W
#   stages S` into .device/sched/<name>.cubin (default.cubin: no hints),
#   strip tilec-matmul-bench into .device/sched/.
# There: bash bench/matmul/smallgrid-schedules-device.sh   (carry .device/sched)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-smallgrid}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
DIR="${SCHED_DIR:-.device/sched}"
chmod +x "$DIR/tilec-matmul-bench"
SHAPES="${SHAPES:-1024x1024x1024,1024x1024x4096,1024x1024x8192,512x512x16384,512x1024x4096,768x768x4096,4096x128x4096,8192x96x4096,2048x2048x2048,16384x64x4096}"
for round in ${ROUNDS:-1}; do
  for cubin in "$DIR"/*.cubin; do
    name=$(basename "$cubin" .cubin)
    "$DIR/tilec-matmul-bench" --cubin "$cubin" --bench --variant mm_bf16_bf16_rr \
      --shape "$SHAPES" --json "$OUT/$name-$round.json" > "$OUT/$name-$round.log" 2>&1
    echo "== $name round $round (exit $?)"
    grep -E "^mm_|passed" "$OUT/$name-$round.log" | awk '{print $2, $3, $5, $7, $NF}'
  done
done
tar czf /tmp/sched.tgz -C "$OUT" . && rm -f "$OUT"/*.json "$OUT"/*.log && mv /tmp/sched.tgz "$OUT"/
