#!/usr/bin/env bash
# 1-D single pass variants on the H200 (results: bench/scan/results/
# 2026-11-22-h200-ticket-prefetch): each cubin of TICKET_CUBINS
# (name=path pairs, built here from bench/scan/kernels.mlir's 1-D scans)
# checked on ragged lengths and timed at 2^20, 2^24 and 2^28, between two
# runs of CUB's sums in the same call. Over the tree packed by
# scripts/package-device.sh; results under $OUT (default /tmp/ticket).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
OUT="${OUT:-/tmp/ticket}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x .device/tilec-scan-bench .device/tilec-cub-scan
ONLY="${TICKET_ONLY:-scan_f32,scan_rev_i32,scan_add_exc_rev_f32,scan_rec_inc_f32,scan_segsum_exc_rev_i32,scan_segmax_inc_i32f16}"
cub() { .device/tilec-cub-scan --only sum > "$OUT/cub-$1.log" 2>&1; grep "InclusiveSum.*f32" "$OUT/cub-$1.log"; }
cub before
for entry in ${TICKET_CUBINS:-main=.device/bench/scan.cubin}; do
  name="${entry%%=*}"
  .device/tilec-scan-bench --cubin "${entry#*=}" --only "$ONLY" \
    --shapes 1,31,33,1000,1048583,1048576,16777216,268435456 \
    --json "$OUT/$name.json" > "$OUT/$name.log" 2>&1
  echo "== $name rc=$? $(tail -1 "$OUT/$name.log")"
  grep -E "^scan_f32 +(1048576|16777216|268435456) " "$OUT/$name.log"
done
cub after
