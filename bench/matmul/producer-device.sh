#!/usr/bin/env bash
# The device call of the producer-warp work (issue 17, item 1): the matmul
# bench's kernels compiled with tilec --producer-warp (producer) and
# without (default), checked against float64 references on ragged shapes
# (K of one panel or less than the pipeline, sizes 1 and primes) and timed
# against cuBLAS in the same process, then the sanitizers on the former.
# Here: tilec bench/matmul/kernels.mlir [--producer-warp] -o .device/bench/{matmul,producer}.cubin
# There: bash bench/matmul/producer-device.sh   (results under $OUT)
cd "$(dirname "$0")/../.."
export OUT="${OUT:-/tmp/tilec-producer}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
B=.device/bench
UNALIGNED_CUBINS="producer=$B/producer.cubin default=$B/matmul.cubin" \
UNALIGNED_VARIANTS="${PRODUCER_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_rr,mm_bf16_f32_rr_acc}" \
UNALIGNED_SHAPES="${PRODUCER_SHAPES:-1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,3000x5000x4000,8000x3000x6000,4096x4096x64,4096x4096x16384}" \
UNALIGNED_CHECK_SHAPES="${PRODUCER_CHECK_SHAPES:-1x1x1,7x13x5,128x256x64,129x257x65,128x256x192,128x256x256,1000x1003x520,4096x4096x1,1031x2053x4099,8191x263x1024,2304x4096x520,4096x4096x136,3000x5000x4000,1031x2056x4104,5000x3000x64}" \
MEMCHECK_VARIANTS=mm_bf16_bf16_rc,mm_bf16_f32_rr_acc MEMCHECK_SHAPES=1000x1008x520,129x264x65,1x8x8,2304x4096x200,1031x2056x136 \
RACECHECK_VARIANTS=mm_bf16_bf16_rc RACECHECK_SHAPES=1000x1008x520,129x264x520,2304x4096x72 \
  timeout 560 bash bench/matmul/unaligned-run.sh > "$OUT/run.log" 2>&1
grep -E "^== |^mm_|passed|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/run.log"
cp "$OUT"/*.json "$OUT"/*.log "${OUT_COPY:-$OUT}/" 2>/dev/null
