#!/usr/bin/env bash
# Accumulating and f32-output bf16 matmuls against cuBLAS (beta = 1, C in
# f32 where the kernel writes f32), two builds in alternating rounds, after
# float64 checks of the second build's accumulating kernels at ragged
# shapes (every kernel path) and memcheck.
# Here: tilec a file of mm_bf16_bf16_rr, mm_bf16_bf16_rr_acc, mm_bf16_f32_rr,
#   mm_bf16_f32_rr_acc (lines of bench/matmul/kernels.mlir) into
#   .device/acc/{old,new}.cubin; strip tilec-matmul-bench into .device/acc/.
# There: bash bench/matmul/accumulate-device.sh   (carry .device/acc)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-accumulate}"; mkdir -p "$OUT/raw"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/acc; BIN="$D/tilec-matmul-bench"; chmod +x "$BIN"
VARIANTS="mm_bf16_bf16_rr,mm_bf16_f32_rr,mm_bf16_bf16_rr_acc,mm_bf16_f32_rr_acc"
SHAPES="${SHAPES:-1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,3000x5000x4000}"
OUT_SAVED="$OUT"; OUT="$OUT/raw"
source bench/steps.sh
QUIET_LINES=3 quiet_step check-new "$BIN" --cubin "$D/new.cubin" --check --fail-if-none \
  --variant mm_bf16_bf16_rr_acc,mm_bf16_f32_rr_acc \
  --shape 1x1x1,7x13x5,129x257x65,1000x1003x517,1031x2053x4099,3000x5000x4000,4096x4096x1,640x384x2050,8191x263x1024
quiet_step memcheck-new compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$D/new.cubin" --check --variant mm_bf16_f32_rr_acc,mm_bf16_bf16_rr_acc \
  --shape 1000x1008x520,129x264x65,2304x4096x200
matmul_ab_rounds "$BIN" "$D" "$VARIANTS" "$SHAPES" "1 2" 40
summary
OUT="$OUT_SAVED"
tar czf "$OUT/accumulate.tgz" -C "$OUT/raw" . && rm -rf "$OUT/raw"
