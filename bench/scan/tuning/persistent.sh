#!/usr/bin/env bash
# Persistent variants of the 1-D f32 sum (persistent.py writes
# persistent.mlir) against the tree's scan and CUB, in one call.
#   here:  bash bench/scan/tuning/persistent.sh build
#   there: bash bench/scan/tuning/persistent.sh run    (logs under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1
D=.device/scanp
case "${1:-}" in
build)
  BUILD="${TILEC_BUILD_DIR:-build}"
  mkdir -p "$D"
  python3 bench/scan/tuning/persistent.py bench/scan/tuning/persistent.mlir
  "$BUILD/bin/tilec" bench/scan/tuning/persistent.mlir -o "$D/persistent.cubin"
  strip -o "$D/tilec-scan-bench" "$BUILD/bench/scan/tilec-scan-bench"
  [ -x "$D/tilec-cub-scan" ] ||
    bash bench/scan/build-cub-scan.sh "$D/tilec-cub-scan" ;;
run)
  OUT="${OUT:-/tmp/tilec-scan-persistent}"
  mkdir -p "$OUT"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  chmod +x "$D/tilec-scan-bench" "$D/tilec-cub-scan"
  variants="${VARIANTS:-$(grep -o '@[a-z0-9_]*' bench/scan/tuning/persistent.mlir | tr -d @ | paste -sd,)}"
  # Two rounds, CUB between them, so that drift shows.
  for round in 1 2; do
    echo "== round $round"
    "$D/tilec-scan-bench" --cubin "$D/persistent.cubin" --sweep "$variants" \
      --json "$OUT/sweep-$round.json" | tee "$OUT/sweep-$round.log"
    "$D/tilec-cub-scan" --log2 20,24,28 --only sum | tee "$OUT/cub-$round.log" |
      grep -E "InclusiveSum +f32|copy" || true
  done ;;
*) echo "usage: persistent.sh build|run" >&2; exit 2 ;;
esac
