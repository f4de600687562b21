#!/usr/bin/env bash
# Occupancy experiment for the 1-D f32 sum (scan_f32, 4096 elements on 4
# warps, 80 registers: 6 blocks an SM). ptxas is told, through the PTX
# directive .minnctapersm, to fit 7 or 8 blocks an SM (72 or 64 registers,
# with a few spills); the same kernel, the same metadata.
#   here:  bash bench/scan/tuning/occupancy.sh build   (cubins in .device/tuning)
#   there: bash bench/scan/tuning/occupancy.sh run     (logs under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1
D=.device/tuning
case "${1:-}" in
build)
  mkdir -p "$D"
  BUILD="${TILEC_BUILD_DIR:-build}"
  echo 'tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()' \
    > "$D/scan_f32.mlir"
  "$BUILD/bin/tilec" "$D/scan_f32.mlir" --emit=ptx -o "$D/scan_f32.ptx"
  for ctas in 6 7 8; do
    sed "s/^\.maxntid 128, 1, 1\$/.maxntid 128, 1, 1\n.minnctapersm $ctas/" \
      "$D/scan_f32.ptx" > "$D/scan_f32_ctas$ctas.ptx"
    /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$D/scan_f32_ctas$ctas.ptx" \
      -o "$D/scan_f32_ctas$ctas.cubin" 2>&1 | grep -E "registers|spill"
  done ;;
run)
  OUT="${OUT:-/tmp/tilec-occupancy}"
  mkdir -p "$OUT"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  chmod +x .device/tilec-scan-bench .device/tilec-cub-scan
  # Interleaved twice, so that drift shows.
  for round in 1 2; do
    for ctas in 6 7 8; do
      echo "== round $round, minnctapersm $ctas"
      .device/tilec-scan-bench --cubin "$D/scan_f32_ctas$ctas.cubin" \
        --only scan_f32 --json "$OUT/ctas$ctas-$round.json" |
        grep -E "1048576 |16777216 |268435456 " || true
    done
    .device/tilec-cub-scan --log2 24,28 --only sum | grep -E "InclusiveSum +f32" || true
  done ;;
*) echo "usage: occupancy.sh build|run" >&2; exit 2 ;;
esac
