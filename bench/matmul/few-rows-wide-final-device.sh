#!/usr/bin/env bash
# After the wide few-rows kernel, on the H200: the JIT's tests (the lazy
# variants' ladder), then every example AOT against its float64 reference
# and examples/matmul.mlir's kernel at few-rows shapes, wide ones included
# (gemv-examples-device.sh).
# Here: the JIT's tests stripped and xz-packed in .device/parts, and
#   .device/ex as gemv-examples-device.sh says.
# There: bash bench/matmul/few-rows-wide-final-device.sh
#   (carry .device/parts .device/ex)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-wide-final}"; mkdir -p "$OUT"
source bench/steps.sh
D=.device/parts
device_parts "$D"
QUIET_PATTERN='PASSED|FAILED|passed' quiet_step jit-tests "$D/tilec_jit_tests" --gtest_brief=1
summary
export EXAMPLE_SHAPES="${EXAMPLE_SHAPES:-1x1x1,1x4096x4096,3x4097x4095,16x4096x4096,63x2048x2048,64x4096x4096,65x257x1000,8x28672x4096,1x28672x4096,17x16897x1001,64x20000x130,2x65537x64,5x32768x4095}"
OUT="$OUT/examples" bash bench/matmul/gemv-examples-device.sh
