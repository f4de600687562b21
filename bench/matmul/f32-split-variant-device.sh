#!/usr/bin/env bash
# The f32 split-K kernel as the f32 small-grid kernel's own small-grid
# variant (`<name>__split_k`, a ladder of small-grid variants), checked and
# timed in one device call: split-min-parts-device.sh's steps with f32
# settings. `new` is bench/matmul/kernels.mlir as the tree compiles it;
# `old` is the same cubin with mm_f32_f32_rr's `smallgrid ...__split_k`
# metadata line blanked (strip-metadata-lines.py), so the runtime stops at
# the unsplit small-grid kernel as before: the same kernels, byte for byte.
# Here:
#   ninja -C build tilec-matmul-bench tilec_runtime_tests tilec_kernel_wrapper_tests
#   mkdir -p .device/parts && cp build/bin/tilec-matmul-bench \
#     build/runtime/test/tilec_runtime_tests \
#     build/test/kernel-wrappers/tilec_kernel_wrapper_tests .device/parts/ && strip .device/parts/*
#   build/bin/tilec bench/matmul/kernels.mlir -o .device/parts/matmul.cubin
#   cp .device/parts/matmul.cubin .device/parts/new.cubin
#   python3 bench/matmul/strip-metadata-lines.py 'smallgrid mm_f32_f32_rr__split_k' \
#     .device/parts/matmul.cubin .device/parts/old.cubin
# There: bash bench/matmul/f32-split-variant-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
export OUT="${OUT:-/tmp/tilec-f32-split}"
# Ragged f32 shapes that take each rung: main, small-grid, split-K (K of
# 4 parts and more), split-K run unsplit (K under 4 parts), one row or
# column, K of 70001.
export CHECK_VARIANTS="${CHECK_VARIANTS:-mm_f32_f32_rr,mm_f32_f32_rc,mm_f32_f32_cr,mm_f32_f32_cc,mm_f32_f32_rr_acc,mm_f32_bf16_rr}"
export CHECK_SHAPES="${CHECK_SHAPES:-7x13x5,33x65x17,1x1x4097,31x4097x3000,65x129x8192,129x257x2049,200x136x1088,100x50x70001,128x128x65536,512x512x16384,1000x1003x517,1023x1025x4099,4096x128x4096}"
export MEMCHECK_VARIANTS="${MEMCHECK_VARIANTS:-mm_f32_f32_rr,mm_f32_f32_rr_acc,mm_f32_bf16_rr}"
export MEMCHECK_SHAPES="${MEMCHECK_SHAPES:-1x1x4097,31x4097x3000,129x257x2049}"
export BENCH_VARIANT="${BENCH_VARIANT:-mm_f32_f32_rr}"
export BENCH_SHAPES="${BENCH_SHAPES:-128x128x65536,256x256x16384,128x128x16384,512x512x8192,512x512x2048,512x512x1024,256x1024x4096,1024x1024x4096,512x1024x4096,768x768x4096,1024x1024x1024,4096x4096x4096}"
export ROUNDS="${ROUNDS:-1 2}"
exec bash bench/matmul/split-min-parts-device.sh
