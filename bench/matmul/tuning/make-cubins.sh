#!/usr/bin/env bash
# Compiles one cubin per bf16 schedule (block M,N,K / warps / stages) into
# .device/tuning/ for the default arch (sm_90a: wgmma, so K steps of 64);
# SCHEDULES="M N K warps stages" ... overrides the list.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
DEST="$ROOT/.device/tuning"; mkdir -p "$DEST"
for s in ${SCHEDULES:-"128 256 64 8 4" "128 256 64 8 3" "128 128 64 8 4" "128 128 64 8 3" "256 128 64 16 4" "256 128 64 16 3"}; do
  set -- $s
  name="b$1x$2x$3_w$4_s$5"
  echo "tile.matmul @mm_bf16_bf16_rr a(row) b(row) block [$1, $2, $3] warps $4 stages $5 : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()" |
    "${TILEC_BUILD_DIR:-$ROOT/build}/bin/tilec" - -o "$DEST/$name.cubin"
done
ls "$DEST"
