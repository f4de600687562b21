#!/usr/bin/env bash
# Issue 17, item 2: split-K in the small-grid matmul kernels, in one device
# call. Steps: the runtime's and the generated wrappers' GPU tests; the
# checker's built-in run of every variant at every kernel path; float64
# checks at small-grid shapes whose K splits in 2 to 32 parts (every input
# and output type, both layouts, accumulating or not, TMA and per-thread
# copies); memcheck and racecheck there; then timings against cuBLAS in the
# same process at small-grid shapes (split-K) and at two large ones (the
# main kernel, for reference), two rounds.
# Here: ninja -C build tilec-matmul-bench tilec_runtime_tests tilec_kernel_wrapper_tests,
#   then strip them into .device/ and tilec bench/matmul/kernels.mlir -o .device/bench/matmul.cubin
# There: bash bench/matmul/splitk-device.sh   (carry .device)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-splitk}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x .device/tilec-matmul-bench .device/tilec_runtime_tests .device/tilec_kernel_wrapper_tests
BIN=.device/tilec-matmul-bench
CUBIN=.device/bench/matmul.cubin
# M x N below half the SMs' worth of 128x256 tiles, K from 1 to 16384:
# splits of 512 elements, so 1 (K <= 512) to 32 parts, with partial steps.
SPLIT_SHAPES="${SPLIT_SHAPES:-200x136x1088,1024x1024x1024,1000x1003x5000,129x257x4099,512x512x16384,1x1x4097,65x129x8192,7x13x1030,640x384x2050,1024x1024x513}"
BENCH_SHAPES="${BENCH_SHAPES:-1024x1024x1024,1024x1024x4096,1024x1024x8192,512x512x16384,768x768x4096,512x1024x4096,2048x2048x2048,4096x4096x4096}"
source bench/steps.sh
QUIET_PATTERN='PASSED|FAILED|passed' quiet_step runtime .device/tilec_runtime_tests
QUIET_PATTERN='PASSED|FAILED|passed' quiet_step wrappers .device/tilec_kernel_wrapper_tests
quiet_step check-all "$BIN" --cubin "$CUBIN" --check --fail-if-none --json "$OUT/check-all.json"
QUIET_LINES=40 QUIET_PATTERN='^ *mm_|passed' quiet_step check-split "$BIN" --cubin "$CUBIN" --check --fail-if-none \
  --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_bf16_bf16_cc,mm_f16_f32_rc,mm_f32_f32_rr \
  --shape "$SPLIT_SHAPES" --json "$OUT/check-split.json"
quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$CUBIN" --check --variant mm_bf16_bf16_rc,mm_bf16_f32_rr_acc \
  --shape 200x136x1088,129x257x4099,7x13x1030,640x384x2050
quiet_step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$BIN" \
  --cubin "$CUBIN" --check --variant mm_bf16_bf16_rr --shape 200x136x1088,640x384x2050
for round in 1 2; do
  QUIET_PATTERN='^ *mm_' QUIET_LINES=100 quiet_step "bench-$round" \
    "$BIN" --cubin "$CUBIN" --bench --fail-if-none --variant mm_bf16_bf16_rr,mm_f16_f16_rr \
    --shape "$BENCH_SHAPES" --json "$OUT/bench-$round.json"
done
summary
