#!/usr/bin/env bash
# Nsight Compute profile of one tilec matmul kernel at a few shapes (run on
# the GPU machine): PROF_DIR holds tilec-matmul-bench and matmul.cubin,
# VARIANT picks the kernel, SHAPES the shapes; one report per shape under
# $OUT as text (details page).
set -uo pipefail
OUT="${OUT:-/tmp/tilec-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
DIR="${PROF_DIR:-.device/prof}"
VARIANT="${VARIANT:-mm_bf16_bf16_rr}"
chmod +x "$DIR/tilec-matmul-bench"
for shape in ${SHAPES:-4096x4096x4096 3000x5000x4000}; do
  echo "== $shape"
  ncu --set "${NCU_SET:-full}" -k "regex:^$VARIANT\$" --launch-skip 3 --launch-count 1 \
    "$DIR/tilec-matmul-bench" --cubin "$DIR/matmul.cubin" --bench \
    --variant "$VARIANT" --shape "$shape" > "$OUT/ncu-$shape.txt" 2>&1
  echo "ncu exit $?"
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|DRAM Throughput|Achieved Occupancy|Registers Per|Grid Size|Waves Per SM|Issue Slots Busy|One or More Eligible|No Eligible|Active Warps Per Scheduler|Eligible Warps|L1/TEX Hit|Dynamic Shared" "$OUT/ncu-$shape.txt" | head -40
done
