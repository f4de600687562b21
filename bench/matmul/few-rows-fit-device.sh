#!/usr/bin/env bash
# The few-rows kernels' A copies fitted to A's rows (tilegpu.copy_bulk
# fit_rows: boxes of A's rows rounded up to 8, not 64-row boxes the copy
# engine fills with zeros past A's end) on the H200:
# 1. the runtime's and the wrappers' tests, every kernel path of new.cubin
#    (bench/matmul/kernels.mlir), float64 checks of every variant at
#    few-rows shapes (odd rows, ragged N and K, each few-rows rung),
#    memcheck;
# 2. `old` (the compiler before it) against `new`, cuBLAS in each process,
#    in alternating rounds.
# Here: old.cubin, new.cubin, the bench and the two test binaries
#   xz-packed in .device/fit.
# There: bash bench/matmul/few-rows-fit-device.sh   (carry .device/fit)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-fit}"; mkdir -p "$OUT"
source bench/steps.sh
D="${PARTS:-.device/fit}"; BIN="$D/tilec-matmul-bench"
device_parts "$D"
ALL_VARIANTS="$(grep -o '@mm_[a-z0-9_]*' bench/matmul/kernels.mlir | tr -d @ | paste -sd,)"
CHECK_SHAPES="${CHECK_SHAPES:-2x16897x1000,3x4097x4095,5x65537x64,7x1000x777,9x16897x1000,13x8191x2049,17x32768x513,31x4096x4100,33x16641x1025,47x12345x512,63x20000x130,64x4096x4096,64x14336x300}"
matmul_check_steps "$D" "$D/new.cubin" "$ALL_VARIANTS" "$CHECK_SHAPES" \
  mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_bf16_bf16_cc 3x4097x4095,9x16897x1000,33x16641x1025
[ -n "${SKIP_AB:-}" ] || AB_BUILDS="old new" matmul_ab_rounds "$BIN" "$D" mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  "${AB_SHAPES:-3x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,48x14336x4096,64x14336x4096,3x4096x4096,16x4096x4096,64x4096x4096,4x2048x32768,16x4096x14336,40x8192x4096,3x28672x4096,8x28672x4096,64x28672x4096}" \
  "1 2" 30
summary
tar czf /tmp/few-rows-fit.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/few-rows-fit.tgz "$OUT/"
