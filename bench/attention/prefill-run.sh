#!/usr/bin/env bash
# Device calls for prefill work on the attention tiling. Each writes at most
# 8 files under $OUT (what a device call brings back).
#   PREFILL_CALL=ab      the attention checks and memcheck, and the prefill
#                        kernels timed against the same descriptions built
#                        with the overlap_softmax hint, in one call;
#   PREFILL_CALL=checks  every example AOT (all.json), memcheck at ragged
#                        attention shapes, the JIT;
#   PREFILL_CALL=peers   tilec's prefill and GQA rows and their peers in one
#                        call (the ratios), and racecheck;
#   PREFILL_CALL=d256    the attention checks and memcheck; d256 prefill
#                        and the variants group (tilec) and their peers;
#   PREFILL_CALL=schedules  the variants group (see
#                        bench/attention/make-variants.sh) at the prefill
#                        shapes, attn_varlen at packed shapes, and the
#                        peers (prefill, prefill256, varlen presets).
#   PREFILL_CALL=roofline  the roofs, tilec's d128 rows at 4096 tokens and
#                        two decode shapes, their peers, then report.py
#                        --roofs (about a minute);
#   PREFILL_CALL=softmax  tilec's prefill and GQA rows, decode built with
#                        each schedule in .device/cubins-var-* (beside the
#                        default), and the prefill, GQA and decode peers.
#   here:  bash scripts/package-device.sh
#          mkdir -p .device/cubins-overlap      # for PREFILL_CALL=ab
#          sed '/^tile.attention/ s/$/ overlap_softmax/' examples/attention.mlir \
#            > /tmp/attention-overlap.mlir
#          build/bin/tilec /tmp/attention-overlap.mlir \
#            -o .device/cubins-overlap/attention.cubin
#   there: PREFILL_CALL=checks bash bench/attention/prefill-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
case "${PREFILL_CALL:-ab}" in
  ab) ATTENTION_STEPS="check memcheck tilec" \
        ATTENTION_TIMED="prefill gqa overlap" bash bench/attention-gpu.sh ;;
  checks)
    chmod +x .device/tilec-run-examples-aot
    .device/tilec-run-examples-aot --cubin-dir .device/cubins --mode aot \
      --json "$OUT/all.json" > /tmp/all.log 2>&1
    echo "all examples AOT rc=$?"; tail -4 /tmp/all.log
    ATTENTION_STEPS="memcheck jit" bash bench/attention-gpu.sh ;;
  d256) ATTENTION_STEPS="check memcheck tilec peers" ATTENTION_PEERS=prefill256 \
        ATTENTION_TIMED="prefill256 variants" bash bench/attention-gpu.sh ;;
  schedules) ATTENTION_STEPS="tilec peers" \
      ATTENTION_PEERS="${ATTENTION_PEERS:-prefill,prefill256,varlen}" \
      ATTENTION_TIMED="variants varlen" bash bench/attention-gpu.sh ;;
  softmax) ATTENTION_STEPS="tilec peers" ATTENTION_PEERS=prefill,gqa,decode \
      ATTENTION_TIMED="prefill gqa variants" ATTENTION_VARIANT_KERNELS=attn_d128 \
      ATTENTION_VARIANT_SHAPES=64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536 \
      bash bench/attention-gpu.sh ;;
  roofline)
    # The whole benchmark set with its peers takes more than one call's
    # 600 s: d128 at 4096 tokens and two decode shapes, written to $OUT as
    # they come (a timeout keeps what ran).
    export PATH="/usr/local/cuda/bin:$PATH"
    export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    chmod +x .device/tilec-matmul-bench .device/tilec-run-examples-aot
    timeout 60 .device/tilec-matmul-bench --cubin .device/bench/matmul.cubin \
      --bench --roofs bench/roofs/roofs.ptx --variant mm_bf16_bf16_rr \
      --shape 256x256x256 --json "$OUT/roofs.json" > "$OUT/roofs.log" 2>&1
    echo "roofs rc=$?"
    timeout 150 .device/tilec-run-examples-aot --cubin-dir .device/cubins \
      --mode aot --only attn_d128,attn_d128_causal \
      --shapes 4x16x16x4096x4096,64x32x8x1x4096,8x32x8x1x32768 \
      --json "$OUT/tilec.json" > "$OUT/tilec.log" 2>&1
    echo "tilec rc=$?"
    timeout 150 python3 bench/attention/peers.py --json "$OUT/peers.json" \
      --shapes "4,16,16,4096,4096,128,0;4,16,16,4096,4096,128,1;64,32,8,1,4096,128,0;8,32,8,1,32768,128,0" \
      > "$OUT/peers.log" 2>&1
    echo "peers rc=$?"
    python3 bench/attention/report.py --tilec "$OUT/tilec.json" \
      --peers "$OUT/peers.json" --roofs "$OUT/roofs.json" --out "$OUT" ;;
  peers) ATTENTION_STEPS="tilec peers racecheck" ATTENTION_PEERS=prefill,gqa \
        ATTENTION_TIMED="prefill gqa" bash bench/attention-gpu.sh ;;
esac
