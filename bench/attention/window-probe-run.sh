#!/usr/bin/env bash
# A probe of the score-modification window (attn_window) and its neighbours at
# query and key lengths that differ, on the GPU machine: each row checked
# against float64 by the example runner (cubins in .device/cubins-full).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/probe}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device; RUN=$D/tilec-run-examples-aot; chmod +x $RUN
for k in ${PROBE_KERNELS:-attn_window attn_band attn_window_attribute attn_d64_causal}; do
  $RUN --cubin-dir $D/cubins-full --mode aot --only $k \
    --shapes "${PROBE_SHAPES:-1x1x1x300x517,1x1x1x300x300,1x1x1x517x300,1x1x1x300x257,1x1x1x300x256,1x1x1x64x321,1x1x1x128x385,1x1x1x64x320,1x1x1x1000x777,1x1x1x300x1000,1x1x1x257x513}" > $OUT/probe-$k.log 2>&1
  echo "$k rc=$?"; grep -E "^$k " $OUT/probe-$k.log | awk '{print $3, $4, $5, $6, $NF}'
done
