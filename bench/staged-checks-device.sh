#!/usr/bin/env bash
# Correctness of the staged store in every kernel it reaches (issue 17), over
# .device/new (cubins of every example and of the matmul bench, the runtime
# and wrapper tests, the AOT runner): every example AOT against float64
# (--max-gflop 2), the attention descriptions at their ragged shapes,
# runtime and wrapper tests, memcheck and racecheck at ragged shapes of the
# kernels whose stores are staged, the matmul bench's checks.
# There: bash bench/staged-checks-device.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-staged-checks}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/new; chmod +x "$D"/tilec-* "$D"/tilec_*
AOT=("$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot)
source bench/steps.sh  # quiet_step, summary (the working directory is the root)
quiet_step examples "${AOT[@]}" --max-gflop 2
quiet_step attention-ragged "${AOT[@]}" --only attn_d128,attn_d128_causal,attn_d64,attn_gqa_causal,attn_bshd_f16_d64,attn_d256 \
  --shapes 2x8x2x113x203,1x4x1x239x17,1x8x2x5x1537,1x24x1x1x2049,1x8x8x1023x1024
quiet_step runtime-tests "$D/tilec_runtime_tests" --gtest_brief=1
quiet_step wrapper-tests "$D/tilec_kernel_wrapper_tests" --gtest_brief=1
for tool in memcheck racecheck; do
  quiet_step $tool-attention compute-sanitizer --tool $tool --error-exitcode 9 "${AOT[@]}" \
    --only attn_d128,attn_d128_causal --shapes 2x8x2x113x203,1x4x1x239x17
  quiet_step $tool-matmuls compute-sanitizer --tool $tool --error-exitcode 9 "${AOT[@]}" \
    --only matmul_bias_relu,matmul_softmax,matmul_plain,b2b_gemm --max-gflop 0.5
done
quiet_step matmul-checks "$D/tilec-matmul-bench" --cubin "$D/bench-matmul.cubin" --check --fail-if-none
summary
