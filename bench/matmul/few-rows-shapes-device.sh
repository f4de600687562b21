#!/usr/bin/env bash
# Few-rows tile shapes on the H200: bench/matmul/kernels.mlir compiled with
# the few-rows schedule set by an experiment build (its patch in the
# results folder), one cubin a schedule, named BUILD.cubin in $AB_BUILDS.
# For each: float64 checks at few-rows shapes, then every build timed at
# few-rows shapes in two alternating rounds, cuBLAS in each process.
# Here: the matmul bench and the cubins xz-packed in .device/parts.
# There: AB_BUILDS="base ..." bash bench/matmul/few-rows-shapes-device.sh
#   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-shapes}"; mkdir -p "$OUT"
source bench/steps.sh
D=.device/parts; BIN="$D/tilec-matmul-bench"
device_parts "$D"
CHECK_SHAPES="${CHECK_SHAPES:-64x4096x4096,7x4097x4095,33x2048x9000,64x129x1000}"
for build in $AB_BUILDS; do
  QUIET_LINES=2 quiet_step "check-$build" "$BIN" --cubin "$D/$build.cubin" --check \
    --fail-if-none --variant mm_bf16_bf16_rc,mm_bf16_bf16_rr,mm_f16_f32_rr_acc \
    --shape "$CHECK_SHAPES" --json "$OUT/check-$build.json"
done
matmul_ab_rounds "$BIN" "$D" mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  "${SHAPES:-64x4096x4096,32x4096x4096,16x4096x4096,1x4096x4096,16x4096x512,8x28672x4096,64x14336x4096,16x4096x14336,4x2048x32768}" \
  "1 2" 20
summary
tar czf /tmp/few-rows-shapes.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/few-rows-shapes.tgz "$OUT/"
