#!/usr/bin/env bash
# 64x64 few-rows tiles (one warpgroup, 8 slots, K split) with A's boxes
# fitted to A's rows, against the compiler's 64x128 ones (`new`), where
# the 64x128 tiles split K (N of 2048 to 8192): whether the fitted boxes
# remove n64's loss at 32 rows and fewer
# (results/2026-12-03-h200-few-rows-shapes). n64.cubin comes from an
# experiment build (n64-experiment.patch in the results folder; wide
# tiles kept at 64x256) with TILEC_EXPERIMENT_FEW_ROWS=64,64,64,4,8,512.
# Float64 checks of n64 first, then two alternating rounds, cuBLAS in
# each process.
# Here: .device/fit as few-rows-fit-device.sh says, plus n64.cubin.xz.
# There: bash bench/matmul/few-rows-n64-device.sh   (carry .device/fit)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-n64}"; mkdir -p "$OUT"
source bench/steps.sh
D="${PARTS:-.device/fit}"; BIN="$D/tilec-matmul-bench"
device_parts "$D"
QUIET_LINES=3 quiet_step check-n64 "$BIN" --cubin "$D/n64.cubin" --check --fail-if-none \
  --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f32_rr_acc,mm_bf16_bf16_cc \
  --shape 3x4097x4095,16x2048x1000,33x8191x513,64x4096x4096,47x6000x2049 \
  --json "$OUT/check-n64.json"
AB_BUILDS="new n64" matmul_ab_rounds "$BIN" "$D" mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  "${AB_SHAPES:-2x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,33x4096x4096,48x4096x4096,64x4096x4096,8x8192x4096,16x8192x4096,40x8192x4096,64x8192x4096,16x6144x4096,64x6144x4096,8x2048x8192,64x2048x8192,16x4096x14336,4x2048x32768,16x14336x4096}" \
  "1 2" 40
summary
tar czf /tmp/few-rows-n64.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/few-rows-n64.tgz "$OUT/"
