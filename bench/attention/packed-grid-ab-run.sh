#!/usr/bin/env bash
# Same-call A/B of attn_d128's decode: the builds in .device/cubins-var-B
# for B in AB_BUILDS (default: old, packed heads before the packed grid, and
# new), alternating, three rounds each (issue 16).
#   here:  build attn_d128 alone into each folder (bench/attention/README.md)
#   there: bash bench/attention/packed-grid-ab-run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
D=.device
chmod +x "$D/tilec-run-examples-aot"
SHAPES="${AB_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,8x32x8x1x32768,1x32x8x1x16384,1x16x16x1x65536,64x8x8x1x4096,8x32x1x1x32768,8x64x1x1x32768}"
for round in 1 2 3; do
  for build in ${AB_BUILDS:-old new}; do
    timeout 90 "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins-var-$build" --mode aot \
      --only attn_d128 --shapes "$SHAPES" --json "$OUT/$build-$round.json" \
      > "$OUT/$build-$round.log" 2>&1
    echo "$build $round rc=$?" >> "$OUT/steps.txt"
  done
done
for build in ${AB_BUILDS:-old new}; do
  echo "== $build"
  grep -h attn_d128 "$OUT"/$build-*.log | awk '{print $3, $7}' | sort -s -k1,1
done > "$OUT/summary.txt"
