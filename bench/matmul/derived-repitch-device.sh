#!/usr/bin/env bash
# Kernels written by hand without their twin: tile-bulk-copy-fallback lists
# the buffers of matmul_epilogue.mlir's and b2b_gemm.mlir's kernels (used
# only by tile.load, tile.store and memref.dim; a written one copied in and
# back), so the runtime copies what TMA rejects of them. Checks in one
# device call: every example AOT against its float64 reference (attention
# included, whose kernels keep their twins), the epilogue kernels at more
# odd shapes, the JIT's tests, the runtime's and the wrappers' GPU tests.
# Here:
#   ninja -C build tilec_runtime_tests tilec_kernel_wrapper_tests \
#     tilec_jit_tests tilec-run-examples-aot
#   mkdir -p .device/parts/cubins && cp build/runtime/test/tilec_runtime_tests \
#     build/test/tilec_kernel_wrapper_tests build/examples/tilec-run-examples-aot \
#     .device/parts/ && strip .device/parts/tilec*
#   strip -o .device/parts/tilec_jit_tests build/runtime/jit/tilec_jit_tests &&
#     xz -9e -T2 .device/parts/tilec_jit_tests
#   for f in examples/*.mlir; do build/bin/tilec "$f" \
#     -o .device/parts/cubins/$(basename "$f" .mlir).cubin; done
#   xz -9 .device/parts/cubins/attention.cubin   (11 MB, 1.4 MB packed)
# There: bash bench/matmul/derived-repitch-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-derived-repitch}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILEC_CACHE_DIR="$(mktemp -d)"
D=.device/parts
source bench/steps.sh
unpack_xz "$D/tilec_jit_tests.xz"; unpack_xz "$D/cubins/attention.cubin.xz"
rm -f "$D/cubins/attention.cubin.xz"
chmod +x "$D"/tilec*
quiet_step examples-aot "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --max-gflop 2 --json "$OUT/examples.json"
quiet_step epilogue-odd "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --only matmul_bias_relu,matmul_plain \
  --shapes 1x1x1,2x3x1,129x257x65,1031x2053x99,2049x4097x4095,4096x4096x4096 \
  --json "$OUT/epilogue-odd.json"
QUIET_PATTERN='PASSED|FAILED|passed' quiet_step jit-tests "$D/tilec_jit_tests" --gtest_brief=1
QUIET_PATTERN='PASSED|FAILED|passed' quiet_step runtime "$D/tilec_runtime_tests" --gtest_brief=1
QUIET_PATTERN='PASSED|FAILED|passed' quiet_step wrappers "$D/tilec_kernel_wrapper_tests" --gtest_brief=1
quiet_step memcheck-epilogue compute-sanitizer --tool memcheck --error-exitcode 1 \
  "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --only matmul_bias_relu,matmul_softmax,b2b_gemm --max-gflop 0.5
summary
tar czf /tmp/derived.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/derived.tgz "$OUT/"
