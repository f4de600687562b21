#!/usr/bin/env bash
# Attention d128 with turns (ping-pong) by default and its `__short_rows`
# variant without them (at most 512 query rows, causal 1024), on the GPU
# machine. Expects, under .device (scripts/package-device.sh, then the PTX
# moved out to fit a call):
#   cubins/                      every example, compiled by the new build
#   tilec-run-examples-aot, tilec-run-examples.gz, tilec_runtime_tests,
#   tilec_kernel_wrapper_tests
#   cubins-var-old/attention.cubin   the build before
#   cubins-var-new/attention.cubin   = cubins/attention.cubin
# Checks: runtime and wrapper tests, every example AOT, the d128 examples
# JIT (the narrow chain compiled on first need), memcheck, racecheck and
# synccheck on both sides of the rules; then old and new in one process a
# kernel (SHORT_ROWS_KERNELS at SHORT_ROWS_SHAPES) and cuDNN at those
# shapes (causal or not as PEER_CAUSAL says: 1, 0 or "0 1").
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-short-rows}"
source bench/attention/runner-logs.sh
export TILEC_CACHE_DIR=/tmp/tilec-cache
gunzip -c "$D/tilec-run-examples.gz" > /tmp/tilec-run-examples && chmod +x /tmp/tilec-run-examples
chmod +x "$D/tilec_runtime_tests" "$D/tilec_kernel_wrapper_tests"
KERNELS="${SHORT_ROWS_KERNELS:-attn_d128_causal attn_bshd_f16_d128_causal}"
SHAPES="${SHORT_ROWS_SHAPES:-16x16x16x1024x1024,12x16x16x1536x1536,8x16x16x2048x2048,4x16x16x4096x4096,1x16x16x16384x16384,4x32x8x4096x4096}"

"$D/tilec_runtime_tests" --gtest_brief=1 > "$OUT/runtime-tests.log" 2>&1
echo "runtime tests rc=$?"; tail -3 "$OUT/runtime-tests.log"
"$D/tilec_kernel_wrapper_tests" --gtest_brief=1 > "$OUT/wrapper-tests.log" 2>&1
echo "wrapper tests rc=$?"; tail -3 "$OUT/wrapper-tests.log"
timeout 400 "$RUN" --cubin-dir "$D/cubins" --mode aot --json "$OUT/examples-aot.json" \
  > "$OUT/examples-aot.log" 2>&1
echo "examples aot rc=$?"; passes "$OUT/examples-aot.log"
timeout 400 /tmp/tilec-run-examples --cubin-dir "$D/cubins" --source-dir examples --mode jit \
  --only attn_d128,attn_d128_causal,attn_bshd_f16_d128_causal,attn_varlen,attn_documents \
  > "$OUT/examples-jit.log" 2>&1
echo "examples jit (d128) rc=$?"; passes "$OUT/examples-jit.log"
sanitize_examples "$D/cubins" "memcheck racecheck synccheck" \
  attn_d128_causal:1x2x2x1100x1300,1x2x2x1000x777 \
  attn_bshd_f16_d128_causal:2x3x1x1025x1025 attn_varlen:4x1x1x1x17x17x1000x1000x1300x1300 \
  attn_d128:1x2x2x500x700,1x2x2x513x600
ab_kernels "$KERNELS" "$SHAPES" old new
timeout 300 python3 bench/attention/peers.py --impls cudnn \
  --shapes "$(peer_shapes "$SHAPES" 128 "${PEER_CAUSAL:-1}")" \
  --json "$OUT/peers.json" > "$OUT/peers.log" 2>&1
echo "peers rc=$?"; grep -E "^(torch|triton)" "$OUT/peers.log"
