#!/usr/bin/env bash
# SASS of one kernel in several cubins, with counts of the instructions
# that show how ptxas scheduled the warpgroup MMAs (HGMMA, their waits
# WARPGROUP.DEPBAR, arrivals WARPGROUP.ARRIVE, barriers), then a timing of
# each cubin against cuBLAS. There (device machine, CUDA's cuobjdump):
#   SASS_KERNEL=mm_bf16_bf16_rr SASS_CUBINS="a=x.cubin b=y.cubin" bash bench/matmul/sass-compare-device.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-sass}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
BIN="${SASS_BENCH:-.device/tilec-matmul-bench}"; chmod +x "$BIN"
for entry in $SASS_CUBINS; do
  name="${entry%%=*}"; cubin="${entry#*=}"
  cuobjdump -sass -fun "$SASS_KERNEL" "$cubin" > "$OUT/$name.sass" 2>&1
  printf '%-10s' "$name"
  for op in HGMMA WARPGROUP.DEPBAR WARPGROUP.ARRIVE 'BAR.SYNC' 'BAR.ARV' SYNCS STL LDL; do
    printf ' %s=%s' "$op" "$(grep -c "$op" "$OUT/$name.sass")"
  done
  echo
done
for entry in $SASS_CUBINS; do
  name="${entry%%=*}"; cubin="${entry#*=}"
  "$BIN" --cubin "$cubin" --bench --variant "${SASS_VARIANTS:-$SASS_KERNEL}" \
    --shape "${SASS_SHAPES:-4096x4096x4096,8000x3000x6000}" --json "$OUT/bench-$name.json" \
    | sed "s/^/$name /" | grep " mm_"
done
