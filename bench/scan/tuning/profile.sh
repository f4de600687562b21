#!/usr/bin/env bash
# Nsight Compute profiles of the 1-D f32 inclusive sum at 2^24: tilec's
# scan_f32 and CUB's DeviceScanKernel, one launch each, with the sections
# that say where the time goes (speed of light, occupancy, launch, warp
# stall reasons, memory workload). On the GPU machine, over the tree packed
# by scripts/package-device.sh:
#   bash bench/scan/tuning/profile.sh      (reports under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
OUT="${OUT:-/tmp/tilec-profile}"
mkdir -p "$OUT"
D=.device
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$D/tilec-scan-bench" "$D/tilec-cub-scan" 2>/dev/null
SECTIONS=(--section SpeedOfLight --section Occupancy --section LaunchStats
          --section WarpStateStats --section MemoryWorkloadAnalysis
          --section SchedulerStats)
# The checked launches come first; skip a few so that the caches are warm.
ncu "${SECTIONS[@]}" -k regex:'^scan_f32$' --launch-skip 3 --launch-count 1 \
  "$D/tilec-scan-bench" --cubin "$D/bench/scan.cubin" --only scan_f32 \
  --shapes 16777216 > "$OUT/ncu-tilec-scan_f32-2p24.txt" 2>&1
echo "tilec rc=$?"
ncu "${SECTIONS[@]}" -k regex:DeviceScanKernel --launch-skip 3 --launch-count 1 \
  "$D/tilec-cub-scan" --log2 24 --only sum > "$OUT/ncu-cub-sum-2p24.txt" 2>&1
echo "cub rc=$?"
