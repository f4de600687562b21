#!/usr/bin/env bash
# The few-rows sum kernel at 4 splits' slabs a step (new.cubin) on the H200:
# float64 checks of 8 variants (both layouts, accumulating) where the few-rows kernel splits K more
# than 4 ways (its loop of several steps: 10 to 16 tiles, long K) and at
# 4 splits, memcheck there, then `new` against `slabs8` (8 slabs a step)
# at a few shapes, cuBLAS in each process, two alternating rounds.
# Here: the matmul bench and both cubins of bench/matmul/kernels.mlir
#   xz-packed in .device/parts.
# There: bash bench/matmul/sum-slabs-check-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-sum-slabs}"; mkdir -p "$OUT"
source bench/steps.sh
D=.device/parts; BIN="$D/tilec-matmul-bench"
device_parts "$D"
SHAPES="4x2048x32768,16x1280x16384,5x1408x20000,64x1664x9000,17x1536x5000,63x2048x2048,3x4097x4095"
QUIET_LINES=3 quiet_step check "$BIN" --cubin "$D/new.cubin" --check --fail-if-none \
  --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_bf16_bf16_cc,mm_f16_f32_rc,mm_f16_f32_rr_acc \
  --shape "$SHAPES" --json "$OUT/check.json"
quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$D/new.cubin" --check --variant mm_bf16_bf16_rr,mm_f16_f32_rr_acc \
  --shape 16x1280x16384,5x1408x4100
AB_BUILDS="slabs8 new" matmul_ab_rounds "$BIN" "$D" mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  "16x4096x4096,32x4096x4096,4x2048x32768,16x1280x16384" "1 2" 8
summary
tar czf /tmp/sum-slabs.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/sum-slabs.tgz "$OUT/"
