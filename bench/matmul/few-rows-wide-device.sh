#!/usr/bin/env bash
# The wide few-rows kernel (64x256 tiles, the few-rows kernels' top rung)
# on the H200:
# 1. the JIT's (if carried), the runtime's and the wrappers' tests, every kernel path
#    of new.cubin (bench/matmul/kernels.mlir), float64 checks of every
#    variant at few-rows shapes that take the wide kernel (and ragged ones
#    that do not), memcheck;
# 2. `old` (the compiler before it) against `new`, and the experiment's
#    `n64` (64x64 few-rows tiles), cuBLAS in each process, in alternating
#    rounds, at wide shapes and controls.
# Here: the bench, the three test binaries and the cubins xz-packed in
#   .device/parts.
# There: bash bench/matmul/few-rows-wide-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-wide}"; mkdir -p "$OUT"
source bench/steps.sh
D=.device/parts; BIN="$D/tilec-matmul-bench"
device_parts "$D"
# The JIT's tests when carried (with the repository, over a call's limit
# at times).
[ -x "$D/tilec_jit_tests" ] &&
  QUIET_PATTERN='PASSED|FAILED|passed' quiet_step jit-tests "$D/tilec_jit_tests" --gtest_brief=1
ALL_VARIANTS="$(grep -o '@mm_[a-z0-9_]*' bench/matmul/kernels.mlir | tr -d @ | paste -sd,)"
CHECK_SHAPES="${CHECK_SHAPES:-8x28672x4096,1x28672x4096,2x16897x1000,64x20000x130,17x32768x513,5x65537x64,33x16641x1025,64x16640x300,3x4097x4095,64x4096x4096}"
matmul_check_steps "$D" "$D/new.cubin" "$ALL_VARIANTS" "$CHECK_SHAPES" \
  mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f32_rr_acc,mm_bf16_bf16_cc 17x32768x513,2x16897x1000
AB_BUILDS="old new n64" matmul_ab_rounds "$BIN" "$D" mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  "${AB_SHAPES:-8x28672x4096,16x28672x4096,32x28672x4096,64x28672x4096,1x28672x4096,8x18432x4096,16x17408x4096,8x65536x4096,4x32000x4096,16x14336x4096,64x14336x4096,48x4096x4096,64x6144x4096,64x2048x8192,40x8192x4096}" \
  "1 2" 30
summary
tar czf /tmp/few-rows-wide.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/few-rows-wide.tgz "$OUT/"
