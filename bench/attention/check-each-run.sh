#!/usr/bin/env bash
# Checks each attention description on its own (AOT, the runner's shapes),
# each under a time limit, so that one that hangs or crashes is named
# (DESCRIPTION rc seconds in $OUT/check-each.txt), then times attn_d128 at
# the decode shapes. Results packed into $OUT/results.tgz.
#   there: bash bench/attention/check-each-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
FINAL="${OUT:-/tmp/tilec-attention}"
WORK=/tmp/check-each
rm -rf "$WORK"; mkdir -p "$WORK"
D=.device
chmod +x "$D/tilec-run-examples-aot"
names=$(grep -o 'tile.attention @[a-z0-9_]*' examples/attention.mlir | sed 's/tile.attention @//')
for name in ${CHECK_NAMES:-$names attention_block}; do
  start=$(date +%s.%N)
  timeout "${CHECK_LIMIT:-90}" stdbuf -oL "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" \
    --mode aot --only "$name" --json "$WORK/check-$name.json" > "$WORK/check-$name.log" 2>&1
  rc=$?
  echo "$name $rc $(echo "$(date +%s.%N) - $start" | bc)" | tee -a "$WORK/check-each.txt"
done
DECODE=64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536
timeout 120 "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot --only attn_d128 \
  --shapes "$DECODE" --json "$WORK/tilec-decode.json" > "$WORK/tilec-decode.log" 2>&1
echo "decode rc=$?" >> "$WORK/check-each.txt"
mkdir -p "$FINAL"
tar czf "$FINAL/results.tgz" -C "$WORK" .
