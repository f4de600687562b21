#!/usr/bin/env bash
# Checks of the packed-heads decode grid (issue 16): every attention
# description at the runner's shapes, then one query row at head groups
# that fill one pack exactly (64), split into two (65, 70, 96) or leave
# slots of the grid with no pack (128:8, 130:2), through the descriptions
# whose region reads the head (ALiBi), both memory orders and packed
# sequences; compute-sanitizer memcheck at some of them.
#   there: bash bench/attention/packed-grid-checks-run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device
chmod +x "$D/tilec-run-examples-aot"
AOT=("$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot)
GROUPS_PADDED=1x96x1x1x3000,2x130x2x1x1500,1x128x8x1x2500,3x70x1x1x1100,1x64x1x1x4097,2x5x5x1x77,2x24x1x1x2049
GROUPS_PACKED=130x2x1x1500x1x17x1x0,96x1x1x3000x1x1,128x8x1x2500x1x1025
timeout 300 "${AOT[@]}" --only attention,attention_block --json "$OUT/check.json" \
  > "$OUT/check.log" 2>&1; echo "check rc=$?" >> "$OUT/steps.txt"
timeout 150 "${AOT[@]}" --only attn_d128,attn_d64,attn_alibi,attn_bshd_f16_d64,attn_d128_causal,attn_window_attribute \
  --shapes "$GROUPS_PADDED" --json "$OUT/groups.json" > "$OUT/groups.log" 2>&1
echo "groups rc=$?" >> "$OUT/steps.txt"
timeout 100 "${AOT[@]}" --only attn_varlen,attn_varlen_f16_d64 --shapes "$GROUPS_PACKED" \
  --json "$OUT/groups-packed.json" > "$OUT/groups-packed.log" 2>&1
echo "groups packed rc=$?" >> "$OUT/steps.txt"
for item in attn_alibi:2x130x2x1x1500 attn_d128:1x128x8x1x2500 attn_varlen:130x2x1x1500x1x17x1x0; do
  name="${item%%:*}" shape="${item#*:}"
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 \
    "${AOT[@]}" --only "$name" --shapes "$shape" > "$OUT/memcheck-$name.log" 2>&1
  echo "memcheck $name $shape rc=$?" >> "$OUT/steps.txt"
done
grep -c PASS "$OUT"/check.log "$OUT"/groups*.log >> "$OUT/steps.txt"
grep -h FAIL "$OUT"/check.log "$OUT"/groups*.log | head -20 >> "$OUT/steps.txt"
