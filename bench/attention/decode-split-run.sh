#!/usr/bin/env bash
# Decode key splits on the GPU machine (issue 16). SPLIT_CALL picks:
#   ab      each NAME of SPLIT_BUILDS is .device/cubins-var-NAME/attention.cubin
#           (attention built another way); one tilec-run-examples process
#           runs them all on the same inputs at SPLIT_SHAPES, checks every
#           row against float64 and times them in alternating rounds; with
#           SPLIT_PEERS set, the decode peers (torch SDPA backends) follow in
#           the same call.
#   checks  the build in .device/cubins-var-$SPLIT_CHECK (default after) as
#           the examples' attention cubin: every example (or the kernels
#           and examples of SPLIT_ONLY) checked AOT at the runner's shapes,
#           then, with SPLIT_SANITIZE set, memcheck and racecheck at the
#           NAME:SHAPE items of SPLIT_SANITIZE_ITEMS (default: decode with
#           packed heads, with query rows, with packed sequences).
# Summary on stdout, logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-decode-split}"
source bench/attention/runner-logs.sh

ab() {
  local shapes="${SPLIT_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536,64x8x8x1x4096,8x64x1x1x32768}"
  local dirs="" build name
  for build in $SPLIT_BUILDS; do dirs="$dirs${dirs:+,}$D/cubins-var-$build"; done
  for name in ${SPLIT_NAMES:-attn_d128}; do
    timeout 400 "$D/tilec-run-examples-aot" --cubin-dir "$dirs" --mode aot \
      --only "$name" --shapes "$shapes" --json "$OUT/split-$name.json" > "$OUT/split-$name.log" 2>&1
    echo "$name rc=$?"; passes "$OUT/split-$name.log"
    grep -h "^$name " "$OUT/split-$name.log" | awk '{print $3, $2, $7, $NF}' | sort -s -k1,1
  done
  [ -n "${SPLIT_PEERS:-}" ] || return 0
  timeout 300 python3 bench/attention/peers.py --impls flash,cudnn \
    --shapes "$(peer_shapes "$shapes" "${SPLIT_PEER_DIMS:-128}")" \
    --json "$OUT/peers.json" > "$OUT/peers.log" 2>&1
  echo "peers rc=$?"; grep -E "cudnn|flash " "$OUT/peers.log"
}

checks() {
  local cubins="$OUT/cubins"
  mkdir -p "$cubins"
  cp "$D"/cubins/*.cubin "$cubins/"
  cp "$D/cubins-var-${SPLIT_CHECK:-after}/attention.cubin" "$cubins/"
  local aot=("$D/tilec-run-examples-aot" --cubin-dir "$cubins" --mode aot)
  timeout 300 "${aot[@]}" ${SPLIT_ONLY:+--only "$SPLIT_ONLY"} > "$OUT/examples.log" 2>&1
  echo "examples rc=$?"; passes "$OUT/examples.log"
  [ -n "${SPLIT_SANITIZE:-}" ] || return 0
  local item name shape tool
  local items="${SPLIT_SANITIZE_ITEMS:-attn_d128:1x32x8x1x3000 attn_d128:2x8x2x7x5000 attn_varlen:130x2x1x1500x1x17x1x0}"
  for tool in memcheck racecheck; do
    for item in $items; do
      name="${item%%:*}" shape="${item#*:}"
      timeout 100 compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 5 \
        "${aot[@]}" --only "$name" --shapes "$shape" > "$OUT/$tool-$name-$shape.log" 2>&1
      echo "$tool $name $shape rc=$?"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/$tool-$name-$shape.log" | tail -1
    done
  done
}

case "${SPLIT_CALL:-ab}" in
  ab) ab ;;
  checks) checks ;;
  *) echo "unknown SPLIT_CALL ${SPLIT_CALL}" >&2; exit 2 ;;
esac
