#!/usr/bin/env bash
# Builds the scan benches' CUB peer (cub_scan.cu, CUB called directly) with
# nvcc for sm_90, not by CMake, so that neither the build nor CI needs nvcc;
# static cudart and libstdc++, so it runs on the GPU machine as it is.
#   bash bench/scan/build-cub-scan.sh OUT
set -euo pipefail
out="${1:?usage: build-cub-scan.sh OUT}"
"${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" -O3 -std=c++17 -arch=sm_90 \
  -cudart static -Xcompiler -static-libstdc++,-static-libgcc \
  "$(dirname "$0")/cub_scan.cu" -o "$out"
