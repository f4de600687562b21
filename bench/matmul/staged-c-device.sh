#!/usr/bin/env bash
# A C whose rows TMA cannot describe (odd N in 16-bit, N = 1), staged for
# the bulk stores and copied back (launch metadata `repitch ARG:out` /
# `ARG:inout`), checked and timed in one device call:
# split-min-parts-device.sh's steps with odd-N shapes. `new` is
# bench/matmul/kernels.mlir as the tree compiles it; `old` is the same cubin
# with the written repitch entries blanked (strip-metadata-lines.py
# repitch:written), so a misaligned C sends the launch to the per-thread-copy
# twin as before.
# Here:
#   ninja -C build tilec-matmul-bench tilec_runtime_tests tilec_kernel_wrapper_tests
#   mkdir -p .device/parts && cp build/bench/matmul/tilec-matmul-bench \
#     build/runtime/test/tilec_runtime_tests \
#     build/test/tilec_kernel_wrapper_tests .device/parts/ && strip .device/parts/*
#   build/bin/tilec bench/matmul/kernels.mlir -o .device/parts/matmul.cubin
#   mv .device/parts/matmul.cubin .device/parts/new.cubin
# There: bash bench/matmul/staged-c-device.sh   (carry .device/parts; the
# JIT's tests run first where .device/jit/tilec_jit_tests.gz is carried)
set -uo pipefail
cd "$(dirname "$0")/../.."
export OUT="${OUT:-/tmp/tilec-staged-c}"
# Odd N (and N = 1) on every rung and layout, accumulating (C copied in
# too) or not, f32 C of odd N; the K-odd and aligned shapes as controls.
export CHECK_VARIANTS="${CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_bf16_cc,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_f16_f32_rc,mm_f32_f32_rr}"
export CHECK_SHAPES="${CHECK_SHAPES:-1x1x1,1x1x4097,7x13x5,33x7x5000,127x129x4097,300x301x9001,1000x1003x517,1031x2053x4099,4096x1x4096,2048x2047x64,4095x4097x33,8191x263x1025,100x50x70001,3001x5001x4001,1024x1024x1024}"
export MEMCHECK_VARIANTS="${MEMCHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc}"
export MEMCHECK_SHAPES="${MEMCHECK_SHAPES:-1x1x4097,129x257x2049,1031x2053x99}"
export BENCH_VARIANT="${BENCH_VARIANT:-mm_bf16_bf16_rr,mm_bf16_bf16_rc}"
export BENCH_SHAPES="${BENCH_SHAPES:-4095x4095x4095,4097x4097x4097,4096x4095x4096,3001x5001x4001,8191x3001x6001,8191x8191x8191,128x32767x4096,1000x1003x517,1024x1023x1025,127x129x4097,333x4097x4099,1x1x4097,1x4095x4096,4096x1x4096,8192x1x8192,4096x7x4096,4096x4096x4096,1000x1000x1000}"
export ROUNDS="${ROUNDS:-1 2}"
if [ -f .device/jit/tilec_jit_tests.gz ]; then
  mkdir -p "$OUT"
  gunzip -c .device/jit/tilec_jit_tests.gz > /tmp/tilec_jit_tests
  chmod +x /tmp/tilec_jit_tests
  PATH="/usr/local/cuda/bin:$PATH" /tmp/tilec_jit_tests > "$OUT/jit-tests.log" 2>&1
  echo "jit tests: exit $?"; grep -E "PASSED|FAILED" "$OUT/jit-tests.log"
  [ -n "${JIT_ONLY:-}" ] && exit 0
fi
# Checked as matmul.cubin, `old` made here: one cubin carried, within the
# call's 64 MiB.
cp -n .device/parts/new.cubin .device/parts/matmul.cubin
python3 bench/matmul/strip-metadata-lines.py repitch:written \
  .device/parts/new.cubin .device/parts/old.cubin || exit 1
exec bash bench/matmul/split-min-parts-device.sh
