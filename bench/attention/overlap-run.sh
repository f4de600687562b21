#!/usr/bin/env bash
# Device calls for the softmax/tensor-core overlap of the attention tiling
# (the overlap_softmax hint, AttentionProgram::pipelinedStep): checks and
# memcheck of the default kernels, and the prefill kernels timed against
# the same descriptions built with the hint, in the same call. At most 8
# files under $OUT (what a device call brings back).
#   here:  bash scripts/package-device.sh
#          mkdir -p .device/cubins-overlap
#          sed '/^tile.attention/ s/$/ overlap_softmax/' examples/attention.mlir \
#            > /tmp/attention-overlap.mlir
#          build/bin/tilec /tmp/attention-overlap.mlir \
#            -o .device/cubins-overlap/attention.cubin
#   there: bash bench/attention/overlap-run.sh          # check, memcheck, A/B
#          OVERLAP_CALL=peers bash bench/attention/overlap-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
case "${OVERLAP_CALL:-ab}" in
  ab) ATTENTION_STEPS="check memcheck tilec" \
        ATTENTION_TIMED="prefill gqa overlap" bash bench/attention-gpu.sh ;;
  # tilec and its peers in one call, for the ratios; racecheck and the JIT.
  peers) ATTENTION_STEPS="tilec peers racecheck jit" ATTENTION_PEERS=prefill,gqa \
        ATTENTION_TIMED="prefill gqa" bash bench/attention-gpu.sh ;;
esac
