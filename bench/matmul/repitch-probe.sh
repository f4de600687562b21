#!/usr/bin/env bash
# On the GPU machine: builds and runs repitch-probe.cu (the driver's 2-D copy
# on rows that are not 16-byte aligned).
set -euo pipefail
cd "$(dirname "$0")"
nvcc -O2 -o "${OUT:-/tmp}/repitch-probe" repitch-probe.cu -lcuda
"${OUT:-/tmp}/repitch-probe"
