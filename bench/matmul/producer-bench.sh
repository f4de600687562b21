#!/usr/bin/env bash
# Timings only (issue 17): the matmul bench's kernels with and without
# tilec --producer-warp against cuBLAS in the same process, with the waves
# and tile fill of each schedule. Here: the two cubins as for
# producer-device.sh. There: bash bench/matmul/producer-bench.sh
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-producer}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN"
SHAPES="${PRODUCER_SHAPES:-1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,3000x5000x4000,8000x3000x6000,3072x5000x4096,3072x5120x4096,4096x4096x16384}"
for name in default producer; do
  cubin=.device/bench/matmul.cubin; [ $name = producer ] && cubin=.device/bench/producer.cubin
  echo "== $name"
  "$BIN" --cubin "$cubin" --bench --fail-if-none --variant mm_bf16_bf16_rr,mm_f16_f16_rr \
    --shape "$SHAPES" --json "$OUT/bench-$name.json" 2>&1 | tee "$OUT/bench-$name.log" | grep -E "^mm_|passed"
done
