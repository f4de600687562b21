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
source bench/scan/tuning/ptx-variants.sh
D=.device/sleep
SLEEPS=(0 500 1000 2000 3000)
case "${1:-}" in
build)
  scan_f32_ptx "$D"
  # Exactly one first-read sleep (the poll's back-off is 100 ns).
  [ "$(grep -c 'nanosleep.u32 	2000;' "$D/scan_f32.ptx")" = 1 ] ||
    { echo "sleep-sweep: no single 2000 ns sleep in the PTX" >&2; exit 1; }
  for ns in "${SLEEPS[@]}"; do
    if [ "$ns" = 0 ]; then
      sed '/nanosleep.u32 	2000;/d' "$D/scan_f32.ptx" > "$D/sleep$ns.ptx"
    else
      sed "s/nanosleep.u32 	2000;/nanosleep.u32 	$ns;/" "$D/scan_f32.ptx" > "$D/sleep$ns.ptx"
    fi
    assemble_variant "$D/sleep$ns.ptx" "$D/sleep$ns.cubin"
  done ;;
run)
  OUT="${OUT:-/tmp/tilec-sleep}"
  mkdir -p "$OUT"
  variants=()
  for ns in "${SLEEPS[@]}"; do variants+=("sleep$ns=$D/sleep$ns.cubin"); done
  run_variants "$OUT" "${variants[@]}" 2>&1 | tee "$OUT/sleep-sweep.log" ;;
*) echo "usage: sleep-sweep.sh build|run" >&2; exit 2 ;;
esac
