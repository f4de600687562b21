#!/usr/bin/env bash
# Stream-K in the persistent matmul kernel: checks and an A/B against the
# previous default (no stream-K) in one device call. Steps: the runtime's
# and the generated wrappers' GPU tests (scratch buffers are now a
# launched block's for persistent kernels too); the checker's run of every
# variant at every kernel path; float64 checks at shapes whose last wave is
# shared out (1100x2100x700: 41 clusters, 4 tail tiles of 11 K steps;
# 2304x4096x1000; 1031x2053x4099; 4099x4097x4103) and some that are not,
# every input and output type and layout, accumulating or not; memcheck and
# racecheck at stream-K shapes; then the bf16 kernel before and after
# (`old`/`new`), cuBLAS in each process, rounds in alternation.
# Here: ninja -C build tilec-matmul-bench tilec_runtime_tests
#   tilec_kernel_wrapper_tests; strip them into .device/sk/; tilec
#   bench/matmul/kernels.mlir -o .device/sk/new.cubin; the previous
#   default's cubin of the same file as .device/sk/old.cubin.gz.
# There: bash bench/matmul/streamk-device.sh   (carry .device/sk)
# The compiler: this tree with bench/matmul/results/2026-11-30-h200-streamk/
# one-walk.patch or two-walks.patch applied (stream-K was not kept).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-streamk}"; mkdir -p "$OUT/raw"
RAW="$OUT/raw"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/sk
for c in old new; do [ -f "$D/$c.cubin" ] || gunzip -k "$D/$c.cubin.gz"; done
chmod +x "$D/tilec-matmul-bench" "$D/tilec_runtime_tests" "$D/tilec_kernel_wrapper_tests"
BIN="$D/tilec-matmul-bench"
SK_SHAPES="1100x2100x700,1031x2053x4099,2304x4096x1000,4099x4097x4103"
CHECK_SHAPES="${CHECK_SHAPES:-$SK_SHAPES,7x13x5,129x257x65,2500x3000x777,3000x5000x4000}"
BENCH_SHAPES="${BENCH_SHAPES:-4096x4096x4096,8192x8192x8192,3000x5000x4000,8000x3000x6000,2304x4096x4096,6144x6144x6144,2048x2048x8192,16384x16384x1024}"
OUT_SAVED="$OUT"; OUT="$RAW"
source bench/steps.sh
matmul_check_steps "$D" "$D/new.cubin" \
  "${CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_f32_rr,mm_bf16_f32_rr_acc,mm_bf16_bf16_cc,mm_f16_f32_rc}" \
  "$CHECK_SHAPES" "${MEMCHECK_VARIANTS:-mm_bf16_bf16_rc,mm_bf16_f32_rr}" \
  "${MEMCHECK_SHAPES:-1100x2100x700,1031x2053x4099}"
quiet_step racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$BIN" \
  --cubin "$D/new.cubin" --check --variant mm_bf16_bf16_rr --shape 1100x2100x700
matmul_ab_rounds "$BIN" "$D" "${BENCH_VARIANT:-mm_bf16_bf16_rr}" "$BENCH_SHAPES" "${ROUNDS:-1 2}" 20
summary
OUT="$OUT_SAVED"
tar czf "$OUT/streamk.tgz" -C "$RAW" . && rm -rf "$RAW"
