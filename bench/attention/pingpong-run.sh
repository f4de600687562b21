#!/usr/bin/env bash
# Warpgroup turns (ping-pong, issue 17 item 6) for attention with two
# warpgroups, on the GPU machine. Expects, under .device (made by the
# commands in bench/results/2026-11-29-h200-pingpong/README.md):
#   tilec-run-examples-aot       the example runner, stripped
#   cubins-var-serial/           attention.cubin of the timed descriptions:
#   cubins-var-overlap/            no hint, `overlap_softmax`, `pingpong`
#   cubins-var-pingpong/
# PINGPONG_CALL picks what runs (default: smoke ab sanitize peers):
#   smoke      one small ragged shape a build, under a short timeout (a
#              turn that is never passed hangs rather than fails)
#   ab         the builds in one process a kernel, alternating rounds, each
#              row checked against float64 (PINGPONG_KERNELS,
#              PINGPONG_SHAPES, PINGPONG_BUILDS)
#   sanitize   memcheck, racecheck and synccheck of the pingpong build (or
#              PINGPONG_SANITIZE_BUILD) at ragged shapes
#   peers      torch SDPA (flash, cuDNN) and the Triton kernel at the ab
#              shapes, for ratios in the same call (PINGPONG_PEER_SHAPES,
#              as peers.py --shapes takes them, replaces the list)
#   sass       each build's attn_d128 (cuobjdump): its first key loop's
#              MMAs, waits and barriers up to the first exponential
# Summary on stdout, logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-pingpong}"
source bench/attention/runner-logs.sh
BUILDS="${PINGPONG_BUILDS:-serial overlap pingpong}"
KERNELS="${PINGPONG_KERNELS:-attn_d128 attn_d128_causal attn_d256 attn_bshd_f16_d256_causal}"
SHAPES="${PINGPONG_SHAPES:-4x16x16x4096x4096,1x16x16x16384x16384,16x16x16x1024x1024,4x32x8x4096x4096}"

smoke() {
  check_kernels smoke 60 "${PINGPONG_SMOKE_KERNELS:-$KERNELS}" \
    2x4x2x300x517,1x2x2x1000x777,1x1x1x1x1,3x2x1x129x4099 $BUILDS
}

ab() {
  ab_kernels "$KERNELS" "$SHAPES" $BUILDS
}

sanitize() {
  sanitize_examples "$D/cubins-var-${PINGPONG_SANITIZE_BUILD:-pingpong}" "memcheck racecheck synccheck" \
    attn_d128:2x4x2x300x517 attn_d128_causal:1x2x2x1000x777 attn_d256:1x2x1x200x333
}

peers() {
  timeout 300 python3 bench/attention/peers.py --impls flash,cudnn,triton \
    --shapes "${PINGPONG_PEER_SHAPES:-4,16,16,4096,4096,128,0;1,16,16,16384,16384,128,0;16,16,16,1024,1024,128,0;4,32,8,4096,4096,128,0;4,16,16,4096,4096,128,1;1,16,16,16384,16384,128,1;16,16,16,1024,1024,128,1;4,32,8,4096,4096,128,1;4,16,16,4096,4096,256,0;1,16,16,16384,16384,256,0;4,16,16,4096,4096,256,1;1,16,16,16384,16384,256,1}" \
    --json "$OUT/peers.json" > "$OUT/peers.log" 2>&1
  echo "peers rc=$?"; grep -E "^(torch|triton)" "$OUT/peers.log"
}

sass() {
  local build
  for build in $BUILDS; do
    cuobjdump -sass -fun attn_d128 "$D/cubins-var-$build/attention.cubin" \
      > "$OUT/sass-$build.txt" 2>&1
    echo "sass $build rc=$? (first key loop: MMAs, waits, barriers, exponentials)"
    grep -E "HGMMA|DEPBAR|BAR\.|MUFU.EX2|TRYWAIT" "$OUT/sass-$build.txt" |
      sed -e 's@/\*[^*]*\*/@@g' -e 's/ \+/ /g' -e 's/ R[0-9].*//' -e 's/gdesc.*//' |
      uniq -c | sed -n '1,/MUFU/p' | tail -14
  done
}

for call in ${PINGPONG_CALL:-smoke ab sanitize peers}; do
  case "$call" in
    smoke|ab|sanitize|peers|sass) "$call" ;;
    *) echo "unknown call $call" >&2; exit 2 ;;
  esac
done
