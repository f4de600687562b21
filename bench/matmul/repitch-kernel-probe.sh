#!/usr/bin/env bash
# On the GPU machine: builds and runs repitch-kernel-probe.cu (copy kernels
# against the driver's 2-D copy for the runtime's staging copies).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/usr/local/cuda/bin:$PATH"
nvcc -O3 -arch=sm_90a -std=c++17 -o "${OUT:-/tmp}/repitch-kernel-probe" repitch-kernel-probe.cu
"${OUT:-/tmp}/repitch-kernel-probe" | tee "${OUT:-/tmp}/repitch-kernel-probe.log"
