#!/usr/bin/env bash
# Split-K with a sum kernel (`<name>__split_k`, the 16-bit small-grid
# kernel's own small-grid variant, and its then kernel `<name>__split_k_sum`)
# checked and timed in one device call: split-min-parts-device.sh's steps
# with few-tile, long-K shapes. `new` is bench/matmul/kernels.mlir as the
# tree compiles it; `old` is the same cubin with mm_bf16_bf16_rr's
# `smallgrid ...__split_k` metadata line blanked (strip-metadata-lines.py),
# so the runtime stops at the small-grid kernel and its adder as before.
# Here:
#   ninja -C build tilec-matmul-bench tilec_runtime_tests tilec_kernel_wrapper_tests
#   mkdir -p .device/parts && cp build/bench/matmul/tilec-matmul-bench \
#     build/runtime/test/tilec_runtime_tests \
#     build/test/tilec_kernel_wrapper_tests .device/parts/ && strip .device/parts/*
#   build/bin/tilec bench/matmul/kernels.mlir -o .device/parts/matmul.cubin
#   cp .device/parts/matmul.cubin .device/parts/new.cubin
#   python3 bench/matmul/strip-metadata-lines.py 'smallgrid mm_bf16_bf16_rr__split_k' \
#     .device/parts/matmul.cubin .device/parts/old.cubin
# There: bash bench/matmul/split-sum-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
export OUT="${OUT:-/tmp/tilec-split-sum}"
# Ragged 16-bit shapes on each rung: the sum kernel's splits (1 to 132,
# one row or column, K of 70001, accumulating), its launches under 4 parts
# (unsplit, no sum), the adder's and the main kernel's.
export CHECK_VARIANTS="${CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_bf16_cc,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_f16_f32_rc}"
export CHECK_SHAPES="${CHECK_SHAPES:-7x13x5,1x1x4097,33x65x2049,31x4097x3000,65x129x8192,129x257x2049,200x136x1088,100x50x70001,7x13x70000,128x128x65536,300x300x30000,512x512x16384,1000x1003x517,1023x1025x4099,4096x128x4096,1024x1024x4096}"
export MEMCHECK_VARIANTS="${MEMCHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_f32_rr_acc,mm_f16_f16_cr}"
export MEMCHECK_SHAPES="${MEMCHECK_SHAPES:-1x1x4097,31x4097x3000,129x257x2049}"
export BENCH_VARIANT="${BENCH_VARIANT:-mm_bf16_bf16_rr}"
export BENCH_SHAPES="${BENCH_SHAPES:-128x128x4096,128x128x16384,128x128x65536,64x64x131072,128x256x16384,256x128x32768,256x256x4096,256x256x16384,512x256x8192,512x512x2048,512x512x8192,512x512x16384,1024x512x4096,768x768x4096,4096x128x4096,1024x1024x2048,1024x1024x4096,1024x1024x1024}"
export ROUNDS="${ROUNDS:-1 2}"
# The JIT's tests first, where carried (strip and gzip build/runtime/jit/
# tilec_jit_tests into .device/jit/; ptxas from the CUDA toolkit).
if [ -f .device/jit/tilec_jit_tests.gz ]; then
  mkdir -p "$OUT"
  gunzip -c .device/jit/tilec_jit_tests.gz > /tmp/tilec_jit_tests
  chmod +x /tmp/tilec_jit_tests
  PATH="/usr/local/cuda/bin:$PATH" /tmp/tilec_jit_tests > "$OUT/jit-tests.log" 2>&1
  echo "jit tests: exit $?"; grep -E "PASSED|FAILED" "$OUT/jit-tests.log"
fi
exec bash bench/matmul/split-min-parts-device.sh
