#!/usr/bin/env bash
# A/B of the staged single pass (tile-stage-windows) against the compiler
# before it, alternating, with CUB in the same call: scan_f32 (checked on
# the table's lengths, timed at 2^20, 2^24, 2^28), the small-grid rows
# 3x1000003 and 16x1000003, and the reverse f32, bf16 and recurrence single
# passes at 2^24 and 2^28.
#   here:  bash bench/scan/tuning/staged-ab.sh build OLD_TILEC [NAME=TILEC...]
#          (cubins in .device/staged-ab: before.cubin from OLD_TILEC,
#          after.cubin from build/bin/tilec, NAME.cubin from each extra)
#   there: bash bench/scan/tuning/staged-ab.sh run   (logs under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1
D=.device/staged-ab
case "${1:-}" in
build)
  [ $# -ge 2 ] || { echo "usage: staged-ab.sh build OLD_TILEC [NAME=TILEC...]" >&2; exit 2; }
  mkdir -p "$D"
  "$2" bench/scan/kernels.mlir -o "$D/before.cubin"
  build/bin/tilec bench/scan/kernels.mlir -o "$D/after.cubin"
  shift 2
  for extra in "$@"; do
    "${extra#*=}" bench/scan/kernels.mlir -o "$D/${extra%%=*}.cubin"
  done
  ls -la "$D" ;;
run)
  OUT="${OUT:-/tmp/tilec-staged-ab}"
  mkdir -p "$OUT"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  chmod +x .device/tilec-scan-bench .device/tilec-cub-scan
  mapfile -t cubins < <(ls "$D"/*.cubin)
  for round in 1 2; do
    for cubin in "${cubins[@]}"; do
      name="$(basename "$cubin" .cubin)"
      echo "== round $round, $name"
      .device/tilec-scan-bench --cubin "$cubin" --only scan_f32 \
        --json "$OUT/$name-$round.json" | grep -E "FAIL|1048576 |16777216 |268435456 " || true
      .device/tilec-scan-bench --cubin "$cubin" \
        --time-rows 3x1000003,16x1000003 | grep -E "FAIL|x1000003" || true
      # Reverse, 16-bit and region single passes.
      .device/tilec-scan-bench --cubin "$cubin" --time-lengths 16777216,268435456 \
        --only scan_add_inc_rev_f32,scan_add_inc_bf16,scan_rec_inc_f32 \
        --json "$OUT/$name-more-$round.json" | grep -E "FAIL|16777216 |268435456 " || true
    done
    .device/tilec-cub-scan --log2 20,24,28 --only sum | grep -E "InclusiveSum +f32" || true
  done 2>&1 | tee "$OUT/staged-ab.log" ;;
*) echo "usage: staged-ab.sh build|run" >&2; exit 2 ;;
esac
