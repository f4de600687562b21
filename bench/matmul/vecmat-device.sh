#!/usr/bin/env bash
# The vector-matrix kernel (C of one row or a few: `narrow NAME__vecmat`,
# the main kernel's first narrow line) on the H200: gemv-device.sh's steps
# at shapes of 1 to 4 rows, `old` being the cubin with its vecmat lines
# blanked (the small-grid and split-K kernels run, as before).
# Here: the matmul bench, the runtime's, the wrappers' and the JIT's tests
# and kernels.mlir's cubin, xz-packed, in .device/parts (new.cubin.xz,
# tilec-matmul-bench.xz, tilec_runtime_tests.xz, tilec_kernel_wrapper_tests,
# tilec_jit_tests.xz).
# There: bash bench/matmul/vecmat-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
export NARROW_WORD=__vecmat
export CHECK_SHAPES="${CHECK_SHAPES:-1x1x1,1x4097x4095,1x7x5,1x70001x33,3x100x7,2x4097x1001,1x65537x33,1x129x10000,4x1031x1,1x8191x513,2x3x70001}"
export MEM_VARIANTS="${MEM_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f32_f32_rr,mm_f16_f32_cc_acc}"
export MEM_SHAPES="${MEM_SHAPES:-1x4095x4097,2x70001x33,1x3x100}"
export AB_SHAPES="${AB_SHAPES:-1x4096x4096,1x8192x8192,1x14336x4096,1x4096x14336,1x1024x4096,1x32000x4096,2x4096x4096,1x4095x4097,4x4096x4096}"
export AB_VARIANTS="${AB_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f32_f32_rr,mm_f32_f32_rc}"
exec bash bench/matmul/gemv-device.sh
