#!/usr/bin/env bash
# compute-sanitizer memcheck of some descriptions at some shapes (AOT), to
# name the kernel and address of a fault:
#   there: MEMCHECK="attn_d256:1x2x2x3x1537 attn_softcap:1x2x2x5x3000x1" \
#          bash bench/attention/memcheck-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
FINAL="${OUT:-/tmp/tilec-attention}"
WORK=/tmp/memcheck-run
rm -rf "$WORK"; mkdir -p "$WORK"
export PATH="/usr/local/cuda/bin:$PATH"
chmod +x .device/tilec-run-examples-aot
for item in $MEMCHECK; do
  name="${item%%:*}" shape="${item#*:}"
  timeout 120 compute-sanitizer --tool memcheck --print-limit 5 \
    .device/tilec-run-examples-aot --cubin-dir .device/cubins --mode aot \
    --only "$name" --shapes "$shape" > "$WORK/$name-$shape.log" 2>&1
  echo "$name $shape rc=$?" | tee -a "$WORK/summary.txt"
done
mkdir -p "$FINAL"
tar czf "$FINAL/results.tgz" -C "$WORK" .
