#!/usr/bin/env bash
# The look-back's back-off (the nanosleep between reads of statuses not yet
# published, kSpinSleepNs in MapWarpsLookback.cpp) swept on the H200.
#   here:  BUILDS="s0:0 s100:100 ..." bash bench/scan/tuning/backoff.sh build
#          (NAME:NS; needs a tilec that reads TILEC_SPIN_NS, a temporary
#          hook, not in the tree)
#   there: bash bench/scan/tuning/backoff.sh run   (logs under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1
D=.device/scanb
case "${1:-}" in
build)
  BUILD="${TILEC_BUILD_DIR:-build}"
  rm -rf "$D"; mkdir -p "$D"
  for b in ${BUILDS:?}; do
    TILEC_SPIN_NS="${b#*:}" "$BUILD/bin/tilec" bench/scan/tuning/backoff.mlir \
      -o "$D/${b%%:*}.cubin"
  done
  strip -o "$D/tilec-scan-bench" "$BUILD/bench/scan/tilec-scan-bench"
  CUB="${CUB_SCAN:-/tmp/tilec-cub-scan}"
  [ -x "$CUB" ] || bash bench/scan/build-cub-scan.sh "$CUB"
  cp "$CUB" "$D/tilec-cub-scan" ;;
run)
  OUT="${OUT:-/tmp/tilec-scan-backoff}"
  mkdir -p "$OUT"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  chmod +x "$D/tilec-scan-bench" "$D/tilec-cub-scan"
  # Each run checks its kernels at 2^28 on the host first (about 8 s a
  # kernel): VARIANTS picks few.
  variants="${VARIANTS:-$(grep -o '@[a-z0-9_]*' bench/scan/tuning/backoff.mlir | tr -d @ | paste -sd,)}"
  # Alternating rounds, CUB in each, so that drift shows.
  for round in $(seq "${ROUNDS:-2}"); do
    for cubin in ${CUBINS:-"$D"/*.cubin}; do
      name=$(basename "$cubin" .cubin)
      echo "== round $round build $name"
      "$D/tilec-scan-bench" --cubin "$cubin" --sweep "$variants" \
        --json "$OUT/$name-$round.json" > "$OUT/$name-$round.log" 2>&1 || true
      sed "s/^/$name /" "$OUT/$name-$round.log" | grep -E "PASS|FAIL|passed"
    done
    "$D/tilec-cub-scan" --log2 20,24,28 --only sum 2>&1 | tee "$OUT/cub-$round.log" |
      grep -E "InclusiveSum +f32|copy" || true
  done ;;
*) echo "usage: backoff.sh build|run" >&2; exit 2 ;;
esac
