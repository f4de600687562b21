#!/usr/bin/env bash
# The staged single-pass probe (staged_probe.cu) against CUB in one process.
#   here:  bash bench/scan/tuning/staged-probe.sh build
#   there: bash bench/scan/tuning/staged-probe.sh run    (log under $OUT)
set -euo pipefail
cd "$(dirname "$0")/../../.." || exit 1
D=.device/scan-staged
case "${1:-}" in
build)
  mkdir -p "$D"
  "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -O3 -std=c++17 -arch=sm_90a \
    -cudart static -Xcompiler -static-libstdc++,-static-libgcc \
    -Xptxas -v bench/scan/tuning/staged_probe.cu -o "$D/staged-probe" 2>&1 |
    grep -E "Compiling|registers|spill" ;;
run)
  OUT="${OUT:-/tmp/tilec-scan-staged}"
  mkdir -p "$OUT"
  chmod +x "$D/staged-probe"
  "$D/staged-probe" "${ROUNDS:-2}" | tee "$OUT/staged-probe.log" ;;
*) echo "usage: staged-probe.sh build|run" >&2; exit 2 ;;
esac
