#!/usr/bin/env bash
# Split-K checks and an A/B of two builds (first for the fewest parts,
# launch metadata `split 1 4`; SHAPES as given for later changes)
# in one device call. Steps: the runtime's and the generated wrappers'
# GPU tests; the checker's run of every variant at every kernel path;
# float64 checks at small-grid shapes that now run unsplit (K <= 1536) and
# that still split (K > 1536), every input and output type, both layouts,
# accumulating or not; memcheck there; then the bf16 kernel before and
# after (`old`/`new`, each `tilec bench/matmul/smallgrid.mlir`), cuBLAS in
# each process, rounds in alternation.
# Here: ninja -C build tilec-matmul-bench tilec_runtime_tests
#   tilec_kernel_wrapper_tests; strip them into .device/parts/; tilec
#   bench/matmul/kernels.mlir -o .device/parts/matmul.cubin; the old and
#   new smallgrid.mlir cubins as .device/parts/{old,new}.cubin.
# There: bash bench/matmul/split-min-parts-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-split-parts}"; mkdir -p "$OUT/raw"
RAW="$OUT/raw"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/parts
chmod +x "$D/tilec-matmul-bench" "$D/tilec_runtime_tests" "$D/tilec_kernel_wrapper_tests"
BIN="$D/tilec-matmul-bench"
CHECK_SHAPES="${CHECK_SHAPES:-1024x1024x1024,512x512x1536,640x384x1030,200x136x1088,1000x1003x1537,129x257x2049,512x512x16384,1x1x4097,7x13x1030,1024x1024x513,65x129x8192,1024x1024x2048}"
BENCH_SHAPES="${BENCH_SHAPES:-1024x1024x1024,512x512x1024,768x768x1024,1024x1024x1536,512x512x1536,1024x1024x2048,512x512x2048,1024x1024x4096,4096x128x4096,512x512x16384}"
OUT_SAVED="$OUT"; OUT="$RAW"
source bench/steps.sh
matmul_check_steps "$D" "$D/matmul.cubin" \
  "${CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_bf16_bf16_cc,mm_f16_f32_rc}" \
  "$CHECK_SHAPES" "${MEMCHECK_VARIANTS:-mm_bf16_bf16_rc,mm_bf16_f32_rr_acc}" \
  "${MEMCHECK_SHAPES:-1024x1024x1024,640x384x1030,129x257x2049}"
matmul_ab_rounds "$BIN" "$D" "${BENCH_VARIANT:-mm_bf16_bf16_rr}" "$BENCH_SHAPES" "${ROUNDS:-1 2 3}" 20
summary
OUT="$OUT_SAVED"
tar czf "$OUT/split-parts.tgz" -C "$RAW" . && rm -rf "$RAW"
