#!/usr/bin/env bash
# Split-K's partial tiles added in groups of 8 (the last of a group adds
# its group's, the last group's adder the groups' sums) and the larger
# split cap that allows, checked and timed in one device call:
# split-min-parts-device.sh's steps over the 16-bit small-grid kernels and
# the f32 split-K variant. `old.cubin` and `new.cubin` are
# bench/matmul/split-groups.mlir compiled before and after the change;
# `matmul.cubin` is bench/matmul/kernels.mlir after it.
# Here:
#   ninja -C build tilec-matmul-bench tilec_runtime_tests tilec_kernel_wrapper_tests
#   mkdir -p .device/parts; strip -o .device/parts/NAME each of
#     build/bench/matmul/tilec-matmul-bench build/runtime/test/tilec_runtime_tests
#     build/test/tilec_kernel_wrapper_tests
#   OLD/tilec bench/matmul/split-groups.mlir -o .device/parts/old.cubin
#   build/bin/tilec bench/matmul/split-groups.mlir -o .device/parts/new.cubin
#   build/bin/tilec bench/matmul/kernels.mlir -o .device/parts/matmul.cubin
# There: bash bench/matmul/split-groups-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
export OUT="${OUT:-/tmp/tilec-split-groups}"
# Ragged shapes on every path: unsplit, one group (up to 8 splits), two
# groups (9 to 16), 16 groups (128 splits), a last group of one.
export CHECK_VARIANTS="${CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_bf16_cc,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_f32_f32_rr,mm_f32_f32_cc,mm_f32_f32_rr_acc,mm_f32_bf16_rr}"
export CHECK_SHAPES="${CHECK_SHAPES:-7x13x5,1x1x4097,31x4097x3000,65x129x8192,129x257x2049,200x136x1088,100x50x70001,128x128x65536,300x300x30000,7x13x70000,512x512x16384,1000x1003x517,1023x1025x4099,4096x128x4096}"
export MEMCHECK_VARIANTS="${MEMCHECK_VARIANTS:-mm_bf16_f32_rr_acc,mm_f32_f32_rr,mm_bf16_bf16_rc}"
export MEMCHECK_SHAPES="${MEMCHECK_SHAPES:-1x1x4097,65x129x8192,7x13x70000,300x300x30000}"
export BENCH_VARIANT="${BENCH_VARIANT:-mm_bf16_bf16_rr,mm_bf16_f32_rr_acc,mm_f32_f32_rr}"
export BENCH_SHAPES="${BENCH_SHAPES:-128x128x65536,64x64x131072,256x128x32768,256x256x16384,128x128x16384,512x512x16384,512x512x8192,1024x1024x2048,1024x1024x4096,4096x128x4096,256x1024x4096}"
export ROUNDS="${ROUNDS:-1 2}"
exec bash bench/matmul/split-min-parts-device.sh
