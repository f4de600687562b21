#!/usr/bin/env bash
# Persistent attention (issue 17 item 6) on the GPU machine: builds of
# examples/attention.mlir's descriptions made by
#   bash bench/attention/make-variants.sh 'attn_d128|attn_d128_causal' \
#     'base=' 'pers=persistent'
# (.device/cubins-var-NAME), and the stripped runner in .device.
# PERSISTENT_CALL picks what runs (default: check ab sanitize):
#   check     every build at ragged and tiny shapes (fewer tiles than
#             multiprocessors, one tile, GQA, MQA) under a timeout (a
#             ring position the two sides disagree on hangs), each row
#             against float64
#   ab        the builds in one process a kernel, alternating rounds
#             (PERSISTENT_SHAPES)
#   sanitize  memcheck, racecheck and synccheck of the pers build
#   peers     torch SDPA's cuDNN and flash backends at the ab shapes
# Summary on stdout, logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-persistent}"
source bench/attention/runner-logs.sh
BUILDS="${PERSISTENT_BUILDS:-base pers}"
KERNELS="${PERSISTENT_KERNELS:-attn_d128 attn_d128_causal}"
SHAPES="${PERSISTENT_SHAPES:-4x16x16x4096x4096,1x16x16x16384x16384,16x16x16x1024x1024,32x16x16x512x512,4x32x8x4096x4096}"
CHECK_SHAPES="2x4x2x300x517,1x2x2x1000x777,1x1x1x1x1,3x2x1x129x4099,1x3x3x129x129,3x5x1x77x1000,2x8x2x1023x1024,1x4x4x4224x4224,5x7x7x257x300"

check() {
  check_kernels check 240 "$KERNELS" "$CHECK_SHAPES" $BUILDS
}

ab() {
  ab_kernels "$KERNELS" "$SHAPES" $BUILDS
}

sanitize() {
  sanitize_examples "$D/cubins-var-pers" "memcheck racecheck synccheck" \
    attn_d128:2x4x2x300x517 attn_d128_causal:1x2x2x1000x777
}

peers() {
  timeout 300 python3 bench/attention/peers.py --impls flash,cudnn \
    --shapes "4,16,16,4096,4096,128,0;1,16,16,16384,16384,128,0;16,16,16,1024,1024,128,0;32,16,16,512,512,128,0;4,32,8,4096,4096,128,0;4,16,16,4096,4096,128,1;1,16,16,16384,16384,128,1;16,16,16,1024,1024,128,1;32,16,16,512,512,128,1;4,32,8,4096,4096,128,1" \
    --json "$OUT/peers.json" > "$OUT/peers.log" 2>&1
  echo "peers rc=$?"; grep -E "^(torch|triton)" "$OUT/peers.log"
}

for call in ${PERSISTENT_CALL:-check ab sanitize}; do
  "$call"
done
