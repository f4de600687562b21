#!/usr/bin/env bash
# Schedule sweep for bf16 (run on the GPU machine after scripts/package-device.sh
# and bench/matmul/tuning/make-cubins.sh): times each hinted cubin's
# mm_bf16_bf16_rr against cuBLAS at the target shapes.
set -uo pipefail
OUT="${OUT:-/tmp/tilec-sweep}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
for cubin in .device/tuning/*.cubin; do
  name="$(basename "$cubin" .cubin)"
  echo "== $name"
  ./.device/tilec-matmul-bench --cubin "$cubin" --bench --variant mm_bf16_bf16_rr \
    --shape 4096x4096x4096,8192x8192x8192,3000x5000x4000 --json "$OUT/$name.json" 2>&1 |
    grep -E "mm_bf16|FAIL|error" | head -5
done
