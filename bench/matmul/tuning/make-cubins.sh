#!/usr/bin/env bash
# Compiles one cubin per schedule (block M,N,K / warps / stages) of the
# row-major matmul of DTYPE (bf16, f16 or f32; default bf16) into
# .device/tuning/ for the default arch (sm_90a: 16-bit dots run as wgmma, so
# K steps of 64); SCHEDULES="M N K warps stages;M N K warps stages;..."
# overrides the list.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
TILEC="${TILEC_BUILD_DIR:-$ROOT/build}/bin/tilec"
DEST="${TUNING_DIR:-$ROOT/.device/tuning}"; mkdir -p "$DEST"
T="${DTYPE:-bf16}"
IFS=';' read -ra schedules <<< "${SCHEDULES:-128 256 64 8 4;128 256 64 8 3;128 128 64 8 4;128 128 64 8 3;256 128 64 16 4;256 128 64 16 3}"
for s in "${schedules[@]}"; do
  set -- $s
  name="${T}_b$1x$2x$3_w$4_s$5"
  echo "tile.matmul @mm_${T}_${T}_rr a(row) b(row) block [$1, $2, $3] warps $4 stages $5 : (memref<?x?x$T>, memref<?x?x$T>, memref<?x?x$T>) -> ()" |
    "$TILEC" - -o "$DEST/$name.cubin"
done
ls "$DEST"
