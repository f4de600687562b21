#!/usr/bin/env bash
# A slim GPU check for changes that reach every kernel (issue 17): every
# example AOT against its float64 reference (--max-gflop 2), the runtime
# and kernel-wrapper tests, the matmul example's check, and racecheck of
# the matmul bench's kernels at shapes with several tiles a block. Over
# .device/slim (scripts/package-device.sh, then: mkdir -p .device/slim/cubins
# && cp .device/cubins/*[!0].cubin .device/slim/cubins/ && cp the four
# binaries and .device/bench/matmul.cubin there), which fits one call's carry.
# With tilec_jit_tests.gz there too (stripped, gzipped), the JIT tests run.
# There: [EXAMPLES_DIR=.device/slim] bash bench/examples-aot-device.sh
# (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-examples}"; mkdir -p "$OUT"
D="${EXAMPLES_DIR:-.device/slim}"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$D"/tilec-* "$D"/tilec_*
source bench/steps.sh  # quiet_step, summary (the working directory is the root)
quiet_step examples-aot "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --max-gflop 2 --json "$OUT/examples.json"
quiet_step runtime-tests "$D/tilec_runtime_tests" --gtest_brief=1
quiet_step kernel-wrapper-tests "$D/tilec_kernel_wrapper_tests" --gtest_brief=1
if [ -f "$D/tilec_jit_tests.gz" ]; then
  gunzip -f "$D/tilec_jit_tests.gz"; chmod +x "$D/tilec_jit_tests"
  quiet_step jit-tests "$D/tilec_jit_tests" --gtest_brief=1
fi
quiet_step matmul-example "$D/tilec-matmul-bench" --cubin "$D/cubins/matmul.cubin" --check \
  --fail-if-none --variant mm_bf16_bf16_rc --shape 1x1x1,7x13x5,33x65x17,1000x1003x517,4096x4096x4096,16384x128x1000,8192x64x333,16384x129x4096
quiet_step racecheck-staged compute-sanitizer --tool racecheck --error-exitcode 9 \
  "$D/tilec-matmul-bench" --cubin "$D/bench-matmul.cubin" --check \
  --variant mm_bf16_bf16_rr,mm_bf16_f32_rr_acc --shape 2304x4096x200,1031x2056x136,640x1024x64
summary
