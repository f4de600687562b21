#!/usr/bin/env bash
# Per-kernel times (ncu, kernels serialised) of attn_d128's decode in the
# two builds of packed-grid-ab-run.sh, at a few shapes (issue 16).
#   there: bash bench/attention/packed-grid-ncu-run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device
chmod +x "$D/tilec-run-examples-aot"
for shape in ${NCU_SHAPES:-64x32x8x1x4096 64x8x8x1x4096}; do
  for build in old new; do
    timeout 120 ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__registers_per_thread \
      -k regex:attn_d128 -c 4 "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins-var-$build" \
      --mode aot --only attn_d128 --shapes "$shape" > "$OUT/ncu-$build-$shape.txt" 2>&1
    echo "$build $shape rc=$?" >> "$OUT/steps.txt"
    echo "== $build $shape" >> "$OUT/summary.txt"
    grep -E "attn_d128__|gpu__time_duration|dram__throughput|launch__grid_size|registers" \
      "$OUT/ncu-$build-$shape.txt" | awk '{$1=$1; print}' | cut -c1-90 >> "$OUT/summary.txt"
  done
done
