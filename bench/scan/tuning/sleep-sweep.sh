#!/usr/bin/env bash
# The look-back's first-read sleep on the staged 1-D f32 sum: the same
# kernel (scan_f32, tilec's PTX) with its `nanosleep.u32 2000` before the
# first read replaced by 0 (removed), 500, 1000 or 3000 ns, assembled by
# ptxas; the same metadata. The 2000 ns of the look-back lowering were
# tuned on the register-held kernel at 2^28 only
# (bench/scan/results/2026-11-29-h200-first-read); this asks what the
# staged kernel wants at 2^24 and 2^28. CUB in the same call.
#   here:  bash bench/scan/tuning/sleep-sweep.sh build   (cubins in .device/sleep)
#   there: bash bench/scan/tuning/sleep-sweep.sh run     (log under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1
D=.device/sleep
case "${1:-}" in
build)
  mkdir -p "$D"
  BUILD="${TILEC_BUILD_DIR:-build}"
  echo 'tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()' \
    > "$D/scan_f32.mlir"
  "$BUILD/bin/tilec" "$D/scan_f32.mlir" --emit=ptx -o "$D/scan_f32.ptx"
  # Exactly one first-read sleep (the poll's back-off is 100 ns).
  [ "$(grep -c 'nanosleep.u32 	2000;' "$D/scan_f32.ptx")" = 1 ] ||
    { echo "sleep-sweep: no single 2000 ns sleep in the PTX" >&2; exit 1; }
  for ns in 0 500 1000 2000 3000; do
    if [ "$ns" = 0 ]; then
      sed '/nanosleep.u32 	2000;/d' "$D/scan_f32.ptx" > "$D/sleep$ns.ptx"
    else
      sed "s/nanosleep.u32 	2000;/nanosleep.u32 	$ns;/" "$D/scan_f32.ptx" > "$D/sleep$ns.ptx"
    fi
    /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$D/sleep$ns.ptx" \
      -o "$D/sleep$ns.cubin" 2>&1 | grep -E "registers|spill"
  done ;;
run)
  OUT="${OUT:-/tmp/tilec-sleep}"
  mkdir -p "$OUT"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  chmod +x .device/tilec-scan-bench .device/tilec-cub-scan
  # Interleaved twice, so that drift shows.
  for round in 1 2; do
    for ns in 0 500 1000 2000 3000; do
      echo "== round $round, first-read sleep $ns ns"
      .device/tilec-scan-bench --cubin "$D/sleep$ns.cubin" --only scan_f32 \
        --json "$OUT/sleep$ns-$round.json" |
        grep -E "FAIL|1048576 |16777216 |268435456 " || true
    done
    .device/tilec-cub-scan --log2 20,24,28 --only sum | grep -E "InclusiveSum +f32" || true
  done 2>&1 | tee "$OUT/sleep-sweep.log" ;;
*) echo "usage: sleep-sweep.sh build|run" >&2; exit 2 ;;
esac
