#!/usr/bin/env bash
# Matmul kernels without their per-thread-copy twin: the runtime copies
# every operand TMA rejects into rows it takes (rows that repeat, overlap
# or run backwards included, by its copy kernels), and refuses what no
# copy mends. Checks in one device call: the JIT's tests (A of stride 0,
# overlapping and backwards rows; a C of repeated rows refused), the
# runtime's GPU tests (the copy kernels on such rows and on a pitch of
# 2^31 + 4 bytes) and the wrappers', the checker's every kernel path,
# float64 checks at odd shapes and memcheck on bench/matmul/kernels.mlir as
# compiled now, and every example but attention.mlir AOT against its
# float64 reference.
# Here:
#   ninja -C build tilec-matmul-bench tilec_runtime_tests \
#     tilec_kernel_wrapper_tests tilec_jit_tests tilec-run-examples-aot
#   mkdir -p .device/parts/cubins && cp build/bench/matmul/tilec-matmul-bench \
#     build/runtime/test/tilec_runtime_tests build/test/tilec_kernel_wrapper_tests \
#     build/examples/tilec-run-examples-aot .device/parts/ && strip .device/parts/tilec*
#   strip -o .device/parts/tilec_jit_tests build/runtime/jit/tilec_jit_tests &&
#     xz -9e -T2 .device/parts/tilec_jit_tests   (gzip leaves it too large to carry)
#   build/bin/tilec bench/matmul/kernels.mlir -o .device/parts/new.cubin
#   for f in examples/*.mlir; do [ "$f" = examples/attention.mlir ] ||
#     build/bin/tilec "$f" -o .device/parts/cubins/$(basename "$f" .mlir).cubin; done
# There: bash bench/matmul/no-twin-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-no-twin}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILEC_CACHE_DIR="$(mktemp -d)"
D=.device/parts
source bench/steps.sh
[ -f "$D/tilec_jit_tests.xz" ] && unpack_xz "$D/tilec_jit_tests.xz"
chmod +x "$D"/tilec*
QUIET_PATTERN='PASSED|FAILED|passed' quiet_step jit-tests "$D/tilec_jit_tests" --gtest_brief=1
matmul_check_steps "$D" "$D/new.cubin" \
  "${CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_bf16_cc,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_f16_f32_rc,mm_f32_f32_rr}" \
  "${CHECK_SHAPES:-1x1x1,1x1x4097,7x13x5,33x7x5000,127x129x4097,300x301x9001,1000x1003x517,1031x2053x4099,4096x1x4096,2048x2047x64,4095x4097x33,8191x263x1025,100x50x70001,3001x5001x4001,8448x255x16385,10000x129x4099}" \
  "${MEMCHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_f32_f32_rr}" \
  "${MEMCHECK_SHAPES:-1x1x4097,129x257x2049,1031x2053x99}"
# Every example but attention.mlir's (its cubin, 133 kernels, is not built
# for this call).
ONLY="attention_d128,attention_d64,b2b_gemm,colsum,layernorm,matmul_bias_relu,matmul_coltail,matmul_cumsum,matmul_plain,matmul_plus_square,matmul_softmax,matmul_suffixsum,recurrence,rowcumsum,rowsum_f16,saxpy,scan,scan_moments,softmax,suffix_moments"
quiet_step examples-aot "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --only "$ONLY" --max-gflop 2 --json "$OUT/examples.json"
summary
# Everything in one archive: a device call brings back a few files only.
tar czf /tmp/no-twin.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/no-twin.tgz "$OUT/"
