#!/usr/bin/env bash
# The attention GPU run (issue 16): on the GPU machine (CUDA 13, python3 with
# torch and triton, no LLVM/MLIR), over the tree packed by
# scripts/package-device.sh:
#   here:  bash scripts/package-device.sh
#   there: bash bench/attention-gpu.sh      (results under $OUT, default /tmp/tilec-attention)
# Steps:
#   roofs      the roofline every row is placed on (bench/roofs/Roofs.h: bf16
#              tensor peak, f32 FMA peak, copy bandwidth), measured in this
#              call by the matmul bench on one tiny shape ($OUT/roofs.json;
#              report.py --roofs reads its "roofs" object)
#   check      examples/attention.mlir's descriptions (and the hand-written
#              attention_block.mlir), AOT, against float64 host references
#              on the issue's shapes (FlashAttention's criterion, the
#              log-sum-exp within 1e-3, outputs poisoned, identical run to
#              run)
#   jit        the same descriptions compiled in-process by the JIT (small
#              shapes)
#   memcheck   compute-sanitizer memcheck at a ragged GQA shape
#   racecheck  compute-sanitizer racecheck (shared memory), the same shape
#   tilec      tilec timed at the benchmark shapes (bf16; prefill: seq 512 to
#              16384 with batch x seq = 16k and 16 heads, d64/d128, causal
#              and not; GQA 32:8 at 4096; decode n_q = 1, d64 and d128,
#              batched and a single sequence, and n_q = 4 and 16)
#   peers      the peers at the same shapes: torch SDPA (flash, cuDNN,
#              efficient) and a Triton fused-attention kernel
#              (bench/attention/peers.py)
# Then, anywhere (plain python3):
#   python3 bench/attention/report.py --tilec $OUT/tilec-prefill.json \
#     --tilec $OUT/tilec-gqa.json --tilec $OUT/tilec-decode.json \
#     --peers $OUT/peers.json --roofs $OUT/roofs.json --out $OUT
# ATTENTION_STEPS="check tilec ..." runs only those steps,
# ATTENTION_TIMED="prefill gqa decode" the tilec step's groups (also
# prefill256, variants, varlen, overlap), ATTENTION_PREFILL_KERNELS the
# prefill group's descriptions, ATTENTION_PEERS the peers' presets and
# ATTENTION_PEER_SHAPES ("B,Hq,Hkv,Nq,Nkv,D,causal;...") their shapes
# instead.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
D=.device
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TILEC_CACHE_DIR=/tmp/tilec-cache
chmod +x "$D/tilec-run-examples-aot"
AOT=("$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot)
RAGGED=2x8x2x113x203,1x4x1x239x17,1x8x2x5x1537,1x24x1x1x2049
# Packed-sequence (layout thd) descriptions take HqxHkvxNq0xNkv0x... shapes.
descriptions() { grep -o 'tile.attention @[a-z0-9_]*' examples/attention.mlir |
  sed 's/tile.attention @//' | grep "$@" varlen | paste -sd, -; }
PADDED_KERNELS=$(descriptions -v)
PACKED_KERNELS=$(descriptions)
PACKED=4x1x1x1x17x17x300x300x64x0,6x3x3x0x0x5x129x300x1x65,8x2x1x2049x0x7x1x0,4x4x3x1025x7x1x1x0

# Benchmark shapes, BxHqxHkvxNqxNkv.
PREFILL=""
for n in 512 1024 2048 4096 8192 16384; do
  PREFILL="$PREFILL${PREFILL:+,}$((16384 / n))x16x16x${n}x${n}"
done
GQA=4x32x8x4096x4096
# Packed sequences, HqxHkv then NqxNkv per sequence: peers.py's varlen preset.
repeat() { local out="" i; for ((i = 0; i < $1; i++)); do out="${out}x$2x$2"; done; echo "$out"; }
VARLEN="16x16x1x1x17x17x1000x1000x4095x4095x2048x2048x4096x4096x3000x3000x1223x1223"
VARLEN="$VARLEN,16x16$(repeat 4 4096),16x16$(repeat 16 1024),16x16$(repeat 32 512)"
DECODE=64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536
# A few query rows (speculative decoding): the same kernels' query-row form.
DECODE="$DECODE,8x32x8x4x32768,32x32x8x16x8192"

source bench/steps.sh  # step, summary (the working directory is the root)
jit() {
  gunzip -c "$D/tilec-run-examples.gz" > /tmp/tilec-run-examples &&
    chmod +x /tmp/tilec-run-examples &&
    /tmp/tilec-run-examples --source-dir examples --mode jit --only attention \
      --max-gflop 2 --json "$OUT/jit.json"
}
# compute-sanitizer's $1 tool over every description at ragged shapes.
sanitize() {
  compute-sanitizer --tool "$1" --error-exitcode 9 \
    "${AOT[@]}" --only "$PADDED_KERNELS" --shapes "$RAGGED" &&
  compute-sanitizer --tool "$1" --error-exitcode 9 \
    "${AOT[@]}" --only "$PACKED_KERNELS" --shapes "$PACKED"
}
# The roofs, measured by tilec-matmul-bench --roofs (which writes them into
# its JSON); the bench needs a shape to run, and one 256^3 bf16 matmul
# (verified against cuBLAS like any bench row) costs far less than the
# roofs' own ~100 ms.
roofs() {
  chmod +x "$D/tilec-matmul-bench" &&
    "$D/tilec-matmul-bench" --cubin "$D/bench/matmul.cubin" --bench \
      --roofs bench/roofs/roofs.ptx --variant mm_bf16_bf16_rr \
      --shape 256x256x256 --json "$OUT/roofs.json"
}
# ATTENTION_TIMED="decode ..." times only those groups;
# ATTENTION_PREFILL_KERNELS narrows the prefill group (one head dim a call:
# the whole set with its peers takes longer than a device call may).
PREFILL_KERNELS="${ATTENTION_PREFILL_KERNELS:-attn_d64,attn_d64_causal,attn_d128,attn_d128_causal}"
TIMED="${ATTENTION_TIMED:-prefill gqa decode}"
timed() {
  local rc=0
  for g in $TIMED; do
    case "$g" in
      prefill) "${AOT[@]}" --only "$PREFILL_KERNELS" \
          --shapes "$PREFILL" --json "$OUT/tilec-prefill.json" || rc=1 ;;
      prefill256) "${AOT[@]}" --only attn_d256 --shapes "$PREFILL" \
          --json "$OUT/tilec-prefill256.json" || rc=1 ;;
      gqa) "${AOT[@]}" --only attn_d128,attn_d128_causal --shapes "$GQA" \
          --json "$OUT/tilec-gqa.json" || rc=1 ;;
      decode) "${AOT[@]}" --only attn_d64,attn_d128 --shapes "$DECODE" \
          --json "$OUT/tilec-decode.json" || rc=1 ;;
      # Kernels built with other schedules (.device/cubins-var-*, from
      # bench/attention/make-variants.sh) beside the default build:
      # ATTENTION_VARIANT_KERNELS at ATTENTION_VARIANT_SHAPES.
      variants)
        for dir in "$D"/cubins "$D"/cubins-var-*; do
          "$D/tilec-run-examples-aot" --cubin-dir "$dir" --mode aot \
            --only "${ATTENTION_VARIANT_KERNELS:-attn_d128,attn_d128_causal}" \
            --shapes "${ATTENTION_VARIANT_SHAPES:-$PREFILL}" \
            --json "$OUT/tilec-$(basename "$dir").json" || rc=1
        done ;;
      varlen) "${AOT[@]}" --only attn_varlen --shapes "$VARLEN" \
          --json "$OUT/tilec-varlen.json" || rc=1 ;;
      # The prefill kernels built with the overlap_softmax hint (see
      # bench/attention/prefill-run.sh), against the default above.
      overlap) "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins-overlap" \
          --mode aot --only attn_d64,attn_d64_causal,attn_d128,attn_d128_causal \
          --shapes "$PREFILL,$GQA" --json "$OUT/tilec-overlap.json" || rc=1 ;;
      *) echo "unknown timing group $g"; rc=1 ;;
    esac
  done
  return $rc
}

STEPS="${ATTENTION_STEPS:-roofs check jit memcheck racecheck tilec peers}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for k in $STEPS; do
  case "$k" in
    roofs) step roofs roofs ;;
    check) step check "${AOT[@]}" --only attention,attention_block \
        --json "$OUT/check.json" ;;
    jit) step jit jit ;;
    memcheck|racecheck) step "$k" sanitize "$k" ;;
    tilec) step tilec timed ;;
    peers) if [ -n "${ATTENTION_PEER_SHAPES:-}" ]; then
          step peers python3 bench/attention/peers.py \
            --shapes "$ATTENTION_PEER_SHAPES" --json "$OUT/peers.json"
        else
          step peers python3 bench/attention/peers.py \
            --preset "${ATTENTION_PEERS:-prefill,gqa,decode}" --json "$OUT/peers.json"
        fi ;;
    *) echo "unknown step $k"; status[$k]="FAIL(unknown)" ;;
  esac
done
summary
