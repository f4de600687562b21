#!/usr/bin/env bash
# Nsight Compute on the small-grid (split-K) matmul kernel and on cuBLAS's
# kernel at the same shapes, to see what bounds each: speed of light, the
# memory hierarchy's throughput, launch shape (grid, cluster), warp stalls.
# Here: build tilec-matmul-bench; tilec bench/matmul/smallgrid.mlir -o
#   .device/prof/matmul.cubin; strip the bench into .device/prof/.
# There: bash bench/matmul/smallgrid-profile-device.sh   (carry .device)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-smallgrid-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
DIR=.device/prof
chmod +x "$DIR/tilec-matmul-bench"
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats"
"$DIR/tilec-matmul-bench" --cubin "$DIR/matmul.cubin" --bench --variant mm_bf16_bf16_rr \
  --shape "${SHAPES:-1024x1024x8192,4096x128x4096,512x512x16384,1024x1024x4096}" > "$OUT/bench.txt" 2>&1
tail -12 "$OUT/bench.txt"
for shape in ${SHAPES_PROF:-1024x1024x8192 4096x128x4096}; do
  for who in tilec cublas; do
    if [ $who = tilec ]; then filter='regex:^mm_'; else filter='regex:nvjet|gemm|xmma|cutlass|sm90'; fi
    ncu $SECTIONS -k "$filter" --launch-skip 3 --launch-count 1 \
      "$DIR/tilec-matmul-bench" --cubin "$DIR/matmul.cubin" --bench \
      --variant mm_bf16_bf16_rr --shape "$shape" > "$OUT/ncu-$who-$shape.txt" 2>&1
    echo "== $who $shape (ncu exit $?)"
    grep -E "^  [a-z_0-9]+.*\(|Duration|Throughput|L2 Hit Rate|Grid Size|Cluster Size|Block Size|Registers Per|Shared Memory Config|Dynamic Shared|Issue Slots Busy|No Eligible|Achieved Occupancy|Warp Cycles Per Issued" "$OUT/ncu-$who-$shape.txt" | head -40
  done
done
cd "$OUT" && tar czf ../profile.tgz . && mv ../profile.tgz .
