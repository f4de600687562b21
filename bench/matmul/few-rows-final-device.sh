#!/usr/bin/env bash
# The few-rows kernel (C of at most 64 rows: `narrow NAME__few_rows`, the
# main kernel's first narrow line) in bench/matmul/kernels.mlir's cubin, on
# the H200: gemv-device.sh's steps (the JIT's, the runtime's and the
# wrappers' tests, every variant at every kernel path, float64 checks at
# ragged shapes of 1 to 65 rows, memcheck) and `old` (the same cubin with
# its few-rows lines blanked: the kernels the launch took before run)
# against `new` at decode shapes, cuBLAS in each process.
# Here: the matmul bench, the runtime's, the wrappers' and the JIT's tests
# and kernels.mlir's cubin, xz-packed, in .device/parts (new.cubin.xz,
# tilec-matmul-bench.xz, tilec_runtime_tests.xz, tilec_kernel_wrapper_tests,
# tilec_jit_tests.xz).
# There: bash bench/matmul/few-rows-final-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
export NARROW_WORD=__few_rows
export CHECK_SHAPES="${CHECK_SHAPES:-1x1x1,3x4097x4095,64x129x10000,17x8191x513,63x2048x2048,64x1x70001,33x70001x33,5x3x7,65x257x1000,2x1030x4096,48x520x9000,64x2x4097,7x4096x130}"
export MEM_VARIANTS="${MEM_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f32_rr_acc,mm_f16_f16_cr}"
export MEM_SHAPES="${MEM_SHAPES:-3x4097x4095,64x129x1000,33x1030x2100}"
export AB_SHAPES="${AB_SHAPES:-1x4096x4096,4x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,16x14336x4096,16x4096x14336,16x8192x8192,64x14336x4096,8x28672x4096,32x1024x4096,65x4096x4096}"
export AB_VARIANTS="${AB_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cc,mm_f16_f32_rr_acc}"
exec bash bench/matmul/gemv-device.sh
