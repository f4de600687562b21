#!/usr/bin/env bash
# Times the attention_block variants of variants.py on the GPU machine: each
# is compiled here into .device/variants/BM_BN_WARPS_STAGES/attention_block.cubin
# (see the commands in bench/attention/README.md) and checked and timed by the
# examples runner exactly as the example is. Results under $OUT/variants.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT="${OUT:-/tmp/tilec-attention}/variants"
mkdir -p "$OUT"
D=.device
chmod +x "$D/tilec-run-examples-aot"
for dir in "$D"/variants/*/; do
  name="$(basename "$dir")"
  echo "== $name"
  "$D/tilec-run-examples-aot" --cubin-dir "$dir" --mode aot \
    --only attention_block --json "$OUT/$name.json" | grep -E "4x16x4096|FAIL|passed"
done
