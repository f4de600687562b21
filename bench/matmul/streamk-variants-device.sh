#!/usr/bin/env bash
# Builds of mm_bf16_bf16_rr that separate stream-K's costs, timed in
# alternating rounds with cuBLAS in each process, and their SASS (spills):
#   old      the previous default (a loop over tiles, slots counted in
#            closed form);
#   counted  the same walk, slots counted by a value the walk carries;
#   units    the walk over units (whole tiles only, no stream-K);
#   sk       the walk over units with stream-K's pieces;
#   (more builds: BUILDS="old sk ...", each .device/skv/NAME.cubin).
# Here: tilec /tmp/rr.mlir (the one tile.matmul) -o .device/skv/NAME.cubin
#   for each build, with the bench stripped into .device/skv/.
# There: bash bench/matmul/streamk-variants-device.sh   (carry .device/skv)
# The builds: this tree with the patches of
# bench/matmul/results/2026-11-30-h200-streamk/ (stream-K was not kept).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-streamk-variants}"; mkdir -p "$OUT/raw"
RAW="$OUT/raw"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/skv
chmod +x "$D/tilec-matmul-bench"
BUILDS="${BUILDS:-old counted units sk}"
SHAPES="${SHAPES:-4096x4096x4096,16384x16384x1024,2048x2048x8192,2304x4096x4096,3000x5000x4000}"
OUT_SAVED="$OUT"; OUT="$RAW"
source bench/steps.sh
for b in $BUILDS; do
  cuobjdump -sass -fun "${KERNEL:-mm_bf16_bf16_rr}" "$D/$b.cubin" > "$RAW/$b.sass" 2>&1
  echo "$b: $(grep -c 'LDL\|STL' "$RAW/$b.sass") local accesses, $(grep -c '' "$RAW/$b.sass") lines"
done
AB_BUILDS="$BUILDS" matmul_ab_rounds "$D/tilec-matmul-bench" "$D" \
  "${KERNEL:-mm_bf16_bf16_rr}" "$SHAPES" "${ROUNDS:-1 2}" 20
summary
OUT="$OUT_SAVED"
tar czf "$OUT/variants.tgz" -C "$RAW" . && rm -rf "$RAW"
