#!/usr/bin/env bash
# Occupancy experiment for the 1-D f32 sum (scan_f32, 4096 elements on 4
# warps, 80 registers: 6 blocks an SM). ptxas is told, through the PTX
# directive .minnctapersm, to fit 7 or 8 blocks an SM (72 or 64 registers,
# with a few spills); the same kernel, the same metadata. (For the compiler
# of 2026-11-22: today's PTX asks for 16 blocks an SM itself.)
#   here:  bash bench/scan/tuning/occupancy.sh build   (cubins in .device/tuning)
#   there: bash bench/scan/tuning/occupancy.sh run     (logs under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1
source bench/scan/tuning/ptx-variants.sh
D=.device/tuning
case "${1:-}" in
build)
  scan_f32_ptx "$D"
  for ctas in 6 7 8; do
    sed "s/^\.maxntid 128, 1, 1\$/.maxntid 128, 1, 1\n.minnctapersm $ctas/" \
      "$D/scan_f32.ptx" > "$D/scan_f32_ctas$ctas.ptx"
    assemble_variant "$D/scan_f32_ctas$ctas.ptx" "$D/scan_f32_ctas$ctas.cubin"
  done ;;
run)
  run_variants "${OUT:-/tmp/tilec-occupancy}" \
    ctas6="$D/scan_f32_ctas6.cubin" ctas7="$D/scan_f32_ctas7.cubin" \
    ctas8="$D/scan_f32_ctas8.cubin" ;;
*) echo "usage: occupancy.sh build|run" >&2; exit 2 ;;
esac
