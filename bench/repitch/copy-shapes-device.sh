#!/usr/bin/env bash
# The staging-copy kernel's shape, chosen on the H200: every kernel of
# copy-shapes.mlir against cuMemcpy2DAsync at the staging copies' shapes.
# Here:
#   ninja -C build tilec-copy-shapes
#   mkdir -p .device/parts && cp build/bench/repitch/tilec-copy-shapes .device/parts/
#   strip .device/parts/tilec-copy-shapes
#   build/bin/tilec bench/repitch/copy-shapes.mlir -o .device/parts/copy-shapes.cubin
# There: bash bench/repitch/copy-shapes-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-copy-shapes}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x .device/parts/tilec-copy-shapes
.device/parts/tilec-copy-shapes .device/parts/copy-shapes.cubin |
  tee "$OUT/copy-shapes.log"
