#!/usr/bin/env bash
# Times the schedule variants of bench/scan/tuning/sweep.mlir on the GPU
# machine: tilec-scan-bench --sweep (each variant checked, then timed at
# 2^20, 2^24 and 2^28) and CUB in the same call. Here, before:
#   build-c/bin/tilec bench/scan/tuning/sweep.mlir -o .device/bench/scan-sweep.cubin
# VARIANTS (comma list) picks kernels; default: every one in sweep.mlir.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT="${OUT:-/tmp/tilec-scan-sweep}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
variants="${VARIANTS:-$(grep -o '@[a-z0-9_]*' bench/scan/tuning/sweep.mlir | tr -d @ | paste -sd,)}"
chmod +x .device/tilec-scan-bench .device/tilec-cub-scan
.device/tilec-scan-bench --cubin .device/bench/scan-sweep.cubin --sweep "$variants" \
  --json "$OUT/sweep.json" | tee "$OUT/sweep.log"
.device/tilec-cub-scan --json "$OUT/cub.json" | tee "$OUT/cub.log" | grep -E "InclusiveSum.*f32|copy"
