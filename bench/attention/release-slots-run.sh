#!/usr/bin/env bash
# Slots released by the warps instead of a block barrier each step, for
# bulk-copy pipelines of several warpgroups (issue 17), on the GPU machine.
# Expects, under .device (made here by the commands in
# bench/results/2026-11-28-h200-release-slots/README.md):
#   cubins/                      every example's cubin from the new compiler
#   cubins-var-before/, cubins-var-after/
#                                attention.cubin and matmul_epilogue.cubin
#                                of the timed kernels, old and new compiler
# RELEASE_CALL picks what runs (default: all):
#   checks     every attention and matmul_epilogue example AOT at the
#              runner's shapes, against float64
#   ab         before/after in one process per kernel, alternating rounds
#              (RELEASE_BUILDS: other .device/cubins-var-* builds;
#              RELEASE_AB_KERNELS, RELEASE_AB_MATMULS, RELEASE_SHAPES)
#   sanitize   memcheck and racecheck of the changed kernels
#   peers      the new kernels with two warpgroups (d128, d128 causal,
#              d256) at 4096 and 16384 tokens and GQA 32:8, then torch
#              SDPA (flash, cuDNN) and the Triton kernel at the same shapes
# Summary on stdout, logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-release-slots}"
source bench/attention/runner-logs.sh

checks() {
  local only="attn_d64,attn_d64_causal,attn_d128,attn_d128_causal,attn_bshd_f16_d64,attn_bshd_f16_d128_causal,attn_d256,attn_varlen,attn_scale_argument,matmul_plain,matmul_bias_relu"
  timeout 300 "$RUN" --cubin-dir "$D/cubins" --mode aot --only "$only" \
    > "$OUT/checks.log" 2>&1
  echo "checks rc=$?"; passes "$OUT/checks.log"
}

ab() {
  local dirs="" k build
  for build in ${RELEASE_BUILDS:-before after}; do dirs="$dirs${dirs:+,}$D/cubins-var-$build"; done
  local prefill="${RELEASE_SHAPES:-4x16x16x4096x4096,1x16x16x16384x16384,16x16x16x1024x1024,2x32x8x4096x4096}"
  for k in ${RELEASE_AB_KERNELS:-attn_d128 attn_d128_causal attn_d64 attn_d64_causal}; do
    timeout 200 "$RUN" --cubin-dir "$dirs" --mode aot --only "$k" --shapes "$prefill" \
      --json "$OUT/ab-$k.json" > "$OUT/ab-$k.log" 2>&1
    echo "ab $k rc=$?"; passes "$OUT/ab-$k.log"
    grep -h "^$k " "$OUT/ab-$k.log" | awk '{print $3, $2, $7, $8}' | sort -s -k1,1
  done
  for k in ${RELEASE_AB_MATMULS-matmul_plain matmul_bias_relu}; do
    timeout 200 "$RUN" --cubin-dir "$dirs" --mode aot --only "$k" \
      --shapes 4096x4096x4096,8192x8192x8192,3000x5000x4000,1024x1024x1024 \
      --json "$OUT/ab-$k.json" > "$OUT/ab-$k.log" 2>&1
    echo "ab $k rc=$?"; passes "$OUT/ab-$k.log"
    grep -h "^$k " "$OUT/ab-$k.log" | awk '{print $3, $2, $7, $8}' | sort -s -k1,1
  done
}

sanitize() {
  sanitize_examples "$D/cubins" "memcheck racecheck" attn_d128:2x4x2x300x517 \
    attn_d128_causal:1x2x2x1000x777 matmul_plain:1000x1003x517
}

peers() {
  local k shapes
  for k in attn_d128 attn_d128_causal attn_d256; do
    shapes="4x16x16x4096x4096,1x16x16x16384x16384"
    [ "$k" = attn_d256 ] || shapes="$shapes,4x32x8x4096x4096"
    timeout 150 "$RUN" --cubin-dir "$D/cubins" --mode aot --only "$k" --shapes "$shapes" \
      --json "$OUT/tilec-$k.json" > "$OUT/tilec-$k.log" 2>&1
    echo "tilec $k rc=$?"; passes "$OUT/tilec-$k.log"
    grep -h "^$k " "$OUT/tilec-$k.log" | awk '{print $3, $7, $8}'
  done
  timeout 300 python3 bench/attention/peers.py --impls flash,cudnn,triton \
    --shapes "4,16,16,4096,4096,128,0;1,16,16,16384,16384,128,0;4,16,16,4096,4096,128,1;1,16,16,16384,16384,128,1;4,32,8,4096,4096,128,0;4,32,8,4096,4096,128,1;4,16,16,4096,4096,256,0;1,16,16,16384,16384,256,0" \
    --json "$OUT/peers.json" > "$OUT/peers.log" 2>&1
  echo "peers rc=$?"; grep -E "^(torch|triton)" "$OUT/peers.log"
}

for call in ${RELEASE_CALL:-checks ab sanitize}; do
  case "$call" in
    checks|ab|sanitize|peers) "$call" ;;
    *) echo "unknown call $call" >&2; exit 2 ;;
  esac
done
