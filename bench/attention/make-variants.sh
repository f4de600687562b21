#!/usr/bin/env bash
# Builds descriptions of examples/attention.mlir with other schedule hints,
# for the `variants` timing group of bench/attention-gpu.sh: each
# NAME=HINTS argument compiles the descriptions whose names match KERNELS
# (an awk regex) with HINTS appended into .device/cubins-var-NAME.
#   bash bench/attention/make-variants.sh 'attn_d64(_causal)?' \
#     'm128n128=block [128, 128] warps 8' 'm128n64=block [128, 64] warps 8'
# (after scripts/package-device.sh; the device run then sets
# ATTENTION_VARIANT_KERNELS=attn_d64,attn_d64_causal).
set -euo pipefail
cd "$(dirname "$0")/../.."
kernels="$1"; shift
for variant in "$@"; do
  name="${variant%%=*}" hints="${variant#*=}"
  mkdir -p ".device/cubins-var-$name"
  # A description is its tile.attention line, its type's lines and its
  # score-modification region, if any ({, ^bb0(...), the body, }).
  awk -v hints="$hints" -v kernels="^tile.attention @($kernels) " '
    $0 ~ kernels { keep = 1; print $0 " " hints; next }
    keep && /^( |\{|\}|\^)/ { print; next }
    { keep = 0 }' examples/attention.mlir > "/tmp/attention-$name.mlir"
  build/bin/tilec "/tmp/attention-$name.mlir" \
    -o ".device/cubins-var-$name/attention.cubin" &
done
wait
