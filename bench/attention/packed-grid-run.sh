#!/usr/bin/env bash
# What the packed-heads decode grid costs (issue 16): attn_d128 at decode
# shapes with the same K/V bytes and different query-head groups, so that
# the time per K/V byte shows what the programs that take no pack cost.
#   there: bash bench/attention/packed-grid-run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
D=.device
chmod +x "$D/tilec-run-examples-aot"
AOT=("$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot)
SHAPES="${PACKED_GRID_SHAPES:-64x32x8x1x4096,64x8x8x1x4096,8x32x8x1x32768,8x8x8x1x32768,8x32x1x1x32768,8x8x1x1x32768,8x64x1x1x32768,1x16x16x1x65536,1x32x8x1x16384}"
for round in 1 2; do
  timeout 200 "${AOT[@]}" --only attn_d128 --shapes "$SHAPES" \
    --json "$OUT/decode-$round.json" > "$OUT/decode-$round.log" 2>&1
  echo "round $round rc=$?" >> "$OUT/steps.txt"
done
if [ -n "${PACKED_GRID_PEERS:-}" ]; then
  timeout 200 python3 bench/attention/peers.py --preset decode --json "$OUT/peers.json" \
    > "$OUT/peers.log" 2>&1; echo "peers rc=$?" >> "$OUT/steps.txt"
fi
