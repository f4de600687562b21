#!/usr/bin/env bash
# Issue 17, f32 (SIMT) matmul: the schedule sweep of the cubins in
# $TUNING_DIR (sweep.sh, against cuBLAS SGEMM in the same process), then
# Nsight Compute's details page (stall reasons, shared-memory wavefronts,
# issue slots) of each cubin named in $PROFILE at 4096^3.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT="${OUT:-/tmp/tilec-f32}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
DIR="${TUNING_DIR:-.device/f32}"
export BENCH_BIN="${BENCH_BIN:-$DIR/tilec-matmul-bench}"
VARIANT=mm_f32_f32_rr SHAPES="${SHAPES:-2048x2048x2048,4096x4096x4096,8192x8192x8192}" \
  TUNING_DIR="$DIR" OUT="$OUT" bash bench/matmul/tuning/sweep.sh
for name in ${PROFILE:-}; do
  ncu --set full -k regex:^mm_f32_f32_rr\$ --launch-skip 3 --launch-count 1 \
    "$BENCH_BIN" --cubin "$DIR/$name.cubin" --bench --variant mm_f32_f32_rr \
    --shape 4096x4096x4096 > "$OUT/ncu-$name.txt" 2>&1
  grep -E "Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Bank Conflict|wavefront" "$OUT/ncu-$name.txt" | head -20
done
(cd "$OUT" && ls ncu-*.txt >/dev/null 2>&1 && tar czf ncu.tar.gz ncu-*.txt && rm -f ncu-*.txt)
exit 0
