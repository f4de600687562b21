#!/usr/bin/env bash
# The packed-heads decode grid's device calls (issue 16), one a value of
# PACKED_GRID_CALL (results under $OUT; bench/results/2026-11-28-h200-packed-grid):
#   timing  attn_d128's decode, two rounds, at shapes with the same K/V bytes
#           and different head groups (PACKED_GRID_SHAPES), and with
#           PACKED_GRID_PEERS=1 the decode peers
#   checks  every attention description at the runner's shapes, then one
#           query row at head groups that fill one pack (64), split into two
#           (65, 70, 96) or leave grid slots with no pack (128:8, 130:2),
#           through a region that reads the head (ALiBi), both memory
#           orders and packed sequences; memcheck at some of them
#   ab      builds of attn_d128 alone in .device/cubins-var-B for B in
#           AB_BUILDS (default "old new") on the same inputs, alternating,
#           three rounds
#   ncu     each decode kernel's time and DRAM throughput in the builds of
#           AB_BUILDS (NCU_SHAPES)
#   there: PACKED_GRID_CALL=checks bash bench/attention/packed-grid-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device
chmod +x "$D/tilec-run-examples-aot"
AOT=("$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot)
note() { echo "$*" >> "$OUT/steps.txt"; }

timing() {
  local shapes="${PACKED_GRID_SHAPES:-64x32x8x1x4096,64x8x8x1x4096,8x32x8x1x32768,8x8x8x1x32768,8x32x1x1x32768,8x8x1x1x32768,8x64x1x1x32768,1x16x16x1x65536,1x32x8x1x16384}"
  for round in 1 2; do
    timeout 200 "${AOT[@]}" --only attn_d128 --shapes "$shapes" \
      --json "$OUT/decode-$round.json" > "$OUT/decode-$round.log" 2>&1
    note "round $round rc=$?"
  done
  if [ -n "${PACKED_GRID_PEERS:-}" ]; then
    timeout 200 python3 bench/attention/peers.py --preset decode --json "$OUT/peers.json" \
      > "$OUT/peers.log" 2>&1; note "peers rc=$?"
  fi
}

checks() {
  local padded=1x96x1x1x3000,2x130x2x1x1500,1x128x8x1x2500,3x70x1x1x1100,1x64x1x1x4097,2x5x5x1x77,2x24x1x1x2049
  local packed=130x2x1x1500x1x17x1x0,96x1x1x3000x1x1,128x8x1x2500x1x1025
  timeout 300 "${AOT[@]}" --only attention,attention_block --json "$OUT/check.json" \
    > "$OUT/check.log" 2>&1; note "check rc=$?"
  timeout 150 "${AOT[@]}" --only attn_d128,attn_d64,attn_alibi,attn_bshd_f16_d64,attn_d128_causal,attn_window_attribute \
    --shapes "$padded" --json "$OUT/groups.json" > "$OUT/groups.log" 2>&1
  note "groups rc=$?"
  timeout 100 "${AOT[@]}" --only attn_varlen,attn_varlen_f16_d64 --shapes "$packed" \
    --json "$OUT/groups-packed.json" > "$OUT/groups-packed.log" 2>&1
  note "groups packed rc=$?"
  local item name shape
  for item in attn_alibi:2x130x2x1x1500 attn_d128:1x128x8x1x2500 attn_varlen:130x2x1x1500x1x17x1x0; do
    name="${item%%:*}" shape="${item#*:}"
    timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 \
      "${AOT[@]}" --only "$name" --shapes "$shape" > "$OUT/memcheck-$name.log" 2>&1
    note "memcheck $name $shape rc=$?"
  done
  grep -c PASS "$OUT"/check.log "$OUT"/groups*.log >> "$OUT/steps.txt"
  grep -h FAIL "$OUT"/check.log "$OUT"/groups*.log | head -20 >> "$OUT/steps.txt"
}

ab() {
  local shapes="${AB_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,8x32x8x1x32768,1x32x8x1x16384,1x16x16x1x65536,64x8x8x1x4096,8x32x1x1x32768,8x64x1x1x32768}"
  local dirs="" build
  for build in ${AB_BUILDS:-old new}; do dirs="$dirs${dirs:+,}$D/cubins-var-$build"; done
  # One process: each shape's inputs made once, the builds' timings
  # alternating over three rounds (tilec-run-examples).
  timeout 500 "$D/tilec-run-examples-aot" --cubin-dir "$dirs" --mode aot \
    --only attn_d128 --shapes "$shapes" --json "$OUT/ab.json" > "$OUT/ab.log" 2>&1
  note "ab rc=$?"
  grep -h attn_d128 "$OUT/ab.log" | awk '{print $3, $2, $7, $NF}' | sort -s -k1,1 > "$OUT/summary.txt"
}

ncu_kernels() {
  local shape build
  for shape in ${NCU_SHAPES:-64x32x8x1x4096 64x8x8x1x4096}; do
    for build in ${AB_BUILDS:-old new}; do
      timeout 120 ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__registers_per_thread \
        -k regex:attn_d128 -c 4 "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins-var-$build" \
        --mode aot --only attn_d128 --shapes "$shape" > "$OUT/ncu-$build-$shape.txt" 2>&1
      note "$build $shape rc=$?"
      echo "== $build $shape" >> "$OUT/summary.txt"
      grep -E "attn_d128__|gpu__time_duration|dram__throughput|launch__grid_size|registers" \
        "$OUT/ncu-$build-$shape.txt" | awk '{$1=$1; print}' | cut -c1-90 >> "$OUT/summary.txt"
    done
  done
}

case "${PACKED_GRID_CALL:-timing}" in
  timing) timing ;;
  checks) checks ;;
  ab) ab ;;
  ncu) ncu_kernels ;;
  *) echo "unknown PACKED_GRID_CALL ${PACKED_GRID_CALL}" >&2; exit 2 ;;
esac
