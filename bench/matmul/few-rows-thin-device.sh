#!/usr/bin/env bash
# The thin few-rows kernel (64x64 tiles on one warpgroup, K split, A's
# boxes fitted to A's rows), the 64x128 few-rows kernel's small-grid rung,
# on the H200:
# 1. the runtime's and the wrappers' tests, every kernel path of
#    thin.cubin (bench/matmul/kernels.mlir), float64 checks of every
#    variant at few-rows shapes on each rung (thin ones ragged), memcheck;
# 2. the JIT's tests (the lazy ladder compiles the thin kernel);
# 3. every example AOT against its float64 reference, and
#    examples/matmul.mlir's kernel at few-rows shapes;
# 4. `fit` (the compiler before the thin kernel) against `thin`, cuBLAS
#    in each process, in alternating rounds.
# Results go straight to $OUT (a call cut short keeps what ran).
# Here: fit.cubin.xz (.device/fit's new.cubin.xz), thin.cubin, the
#   bench, the runtime's and the wrappers' test binaries and the
#   examples' AOT runner (stripped), and every example's cubin in
#   cubins/, all xz-packed, in .device/thin; the JIT's tests, stripped and
#   packed, in .device/jit.
# There: bash bench/matmul/few-rows-thin-device.sh   (carry .device/thin),
#   then PARTS=.device/jit JIT_ONLY=1 bash bench/matmul/few-rows-thin-device.sh
#   (carry .device/jit).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-thin}"; mkdir -p "$OUT"
source bench/steps.sh
D="${PARTS:-.device/thin}"; BIN="$D/tilec-matmul-bench"
device_parts "$D"
# The JIT's tests when carried (with the repository, over the size limit
# of a call at times: then alone, JIT_ONLY=1).
[ -x "$D/tilec_jit_tests" ] &&
  QUIET_PATTERN='PASSED|FAILED|passed' quiet_step jit-tests "$D/tilec_jit_tests" --gtest_brief=1
[ -n "${JIT_ONLY:-}" ] && { summary; exit; }
unpack_parts "$D/cubins"
ALL_VARIANTS="$(grep -o '@mm_[a-z0-9_]*' bench/matmul/kernels.mlir | tr -d @ | paste -sd,)"
# Thin (N of 640 to 8447 at 1 to 64 rows), 64x128 (8448 to 16640), wide,
# split-K (under 640), ragged everywhere.
CHECK_SHAPES="${CHECK_SHAPES:-1x4096x4096,2x640x4095,3x4097x4095,7x1000x777,9x8191x2049,17x2000x4097,31x4096x4100,33x6000x1025,47x12345x512,63x20000x130,64x4096x4096,5x8448x4100,64x576x300,16x8447x64}"
matmul_check_steps "$D" "$D/thin.cubin" "$ALL_VARIANTS" "$CHECK_SHAPES" \
  mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_bf16_bf16_cc 17x2000x4097,33x6000x1025,5x8448x4100
quiet_step examples-aot "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --max-gflop 2 --json "$OUT/examples.json"
# examples/matmul.mlir's kernel is mm_bf16_bf16_rc: the bench's variant name.
QUIET_LINES=3 quiet_step matmul-example "$BIN" --cubin "$D/cubins/matmul.cubin" --check --fail-if-none \
  --shape 1x1x1,1x4096x4096,2x4097x1001,3x4097x4095,16x4096x4096,33x8191x513,64x2048x2048,64x8448x4096,8x28672x4096,65x257x1000,17x640x4097 \
  --json "$OUT/matmul-example.json"
AB_BUILDS="fit thin" matmul_ab_rounds "$BIN" "$D" mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  "${AB_SHAPES:-2x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,8x8192x4096,40x8192x4096,64x8192x4096,64x6144x4096,64x2048x8192,16x1024x4096,8x768x8192,16x4096x14336,4x2048x32768,16x14336x4096,8x28672x4096}" \
  "1 2" 50
summary
