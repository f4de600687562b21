#!/usr/bin/env bash
# The layouts GPU run (issue 15): on the GPU machine (CUDA 13, python3 with
# torch, no LLVM/MLIR), over the tree packed by scripts/package-device.sh:
#   here:  bash scripts/package-device.sh
#   there: bash bench/layouts-gpu.sh      (results under $OUT, default /tmp/tilec-layouts)
# Steps:
#   examples   every example, AOT from the cubins, against float64 host
#              references on ragged shapes (outputs poisoned): among them the
#              fused epilogues (matmul_bias_relu, matmul_softmax) and their
#              plain twin (matmul_plain, 4096^3 timed in the same run),
#              b2b_gemm, and the hand-written flash attention
#              (attention_d64/d128, causal and not, 4x16x4096 timed)
#   jit        the new examples compiled in-process by the JIT (small shapes)
#   sdpa       torch SDPA (flash = FlashAttention-2, cuDNN) at 4x16x4096,
#              d64/d128, causal and not: the attention peers of this run
#   memcheck   compute-sanitizer memcheck on the new examples' small shapes
#   racecheck  compute-sanitizer racecheck (shared memory), the same shapes
# LAYOUT_STEPS="examples sdpa ..." runs only those steps.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-layouts}"
mkdir -p "$OUT"
D=.device
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILEC_CACHE_DIR=/tmp/tilec-cache
chmod +x "$D/tilec-run-examples-aot"
NEW=matmul_epilogue,matmul_cumsum,matmul_exchange,b2b_gemm,attention_block
AOT=("$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot)

source bench/steps.sh  # step, summary (the working directory is the root)
jit() {
  gunzip -c "$D/tilec-run-examples.gz" > /tmp/tilec-run-examples &&
    chmod +x /tmp/tilec-run-examples &&
    /tmp/tilec-run-examples --source-dir examples --mode jit --only "$NEW" \
      --max-gflop 2 --json "$OUT/jit.json"
}

STEPS="${LAYOUT_STEPS:-examples jit sdpa memcheck racecheck}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for k in $STEPS; do
  case "$k" in
    examples) step examples "${AOT[@]}" --json "$OUT/examples.json" ;;
    jit) step jit jit ;;
    sdpa) step sdpa python3 bench/attention/sdpa_peer.py --json "$OUT/sdpa.json" ;;
    memcheck) step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 \
        "${AOT[@]}" --only "$NEW" --max-gflop 2 ;;
    racecheck) step racecheck compute-sanitizer --tool racecheck --error-exitcode 9 \
        "${AOT[@]}" --only "$NEW" --max-gflop 2 ;;
    *) echo "unknown step $k"; status[$k]="FAIL(unknown)" ;;
  esac
done
summary
