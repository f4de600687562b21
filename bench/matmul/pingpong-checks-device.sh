#!/usr/bin/env bash
# Issue 17: checks of a ping-pong build of the matmul bench's kernels (every
# 16-bit kernel hinted `pingpong`): the checker's run of every variant and
# kernel path, float64 at ragged shapes (blocks with odd and even tile
# counts, so that either group closes the turns), memcheck and racecheck.
# Here: awk '/^tile.matmul/ && !/f32_f32/ {print $0 " pingpong"; next} {print}' \
#   bench/matmul/kernels.mlir > k.mlir; tilec k.mlir -o .device/ppf/pingpong.cubin
# There: bash bench/matmul/pingpong-checks-device.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-pingpong}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
BIN=.device/ppf/tilec-matmul-bench; chmod +x "$BIN"
CUBIN="${PINGPONG_CUBIN:-.device/ppf/pingpong.cubin}"
source bench/steps.sh  # quiet_step, summary
quiet_step check-all "$BIN" --cubin "$CUBIN" --check --fail-if-none
quiet_step check-ragged "$BIN" --cubin "$CUBIN" --check --fail-if-none \
  --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_bf16_bf16_cr,mm_f16_f16_cc,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_bf16_f32_cc \
  --shape 1x1x1,7x13x5,128x128x64,129x257x65,1000x1003x520,4096x4096x1,1031x2053x4099,8191x263x1024,2304x4096x520,3000x5000x4000,5000x3000x64,17x4099x333,4099x17x333,12800x128x64
quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$CUBIN" --check --variant mm_bf16_bf16_rc,mm_bf16_f32_rr_acc \
  --shape 1000x1008x520,129x264x65,1x8x8,2304x4096x200,1031x2056x136
quiet_step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$BIN" \
  --cubin "$CUBIN" --check --variant mm_bf16_bf16_rr,mm_bf16_f32_rr_acc \
  --shape 1031x2056x136,129x264x200
summary
