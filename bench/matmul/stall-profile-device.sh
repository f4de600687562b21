#!/usr/bin/env bash
# Where the warps of a tilec matmul kernel wait: Nsight Compute's warp-state
# sampling per SASS instruction (source page), for the kernel selected by
# KERNEL_RE at each shape in SHAPES_PROF. Reports and per-instruction CSVs
# go to $OUT (tarred into one file).
# Here: tilec bench/matmul/smallgrid.mlir -o .device/prof/matmul.cubin;
#   strip tilec-matmul-bench into .device/prof/.
# There: bash bench/matmul/stall-profile-device.sh   (carry .device/prof)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-stall-profile}"; mkdir -p "$OUT/raw"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
DIR=.device/prof
chmod +x "$DIR/tilec-matmul-bench"
for shape in ${SHAPES_PROF:-1024x1024x8192 4096x4096x4096}; do
  rep="$OUT/raw/stalls-$shape"
  ncu --section WarpStateStats --section SourceCounters -k "${KERNEL_RE:-regex:^mm_}" \
    --launch-skip 3 --launch-count 1 -f -o "$rep" \
    "$DIR/tilec-matmul-bench" --cubin "$DIR/matmul.cubin" --bench \
    --variant mm_bf16_bf16_rr --shape "$shape" > "$rep.log" 2>&1
  echo "== $shape (ncu exit $?)"
  ncu -i "$rep.ncu-rep" --page source --print-source sass --csv > "$rep-sass.csv" 2>&1
  ncu -i "$rep.ncu-rep" --page details --section WarpStateStats > "$rep-warpstate.txt" 2>&1
  grep -E "Stall|stall|Cycles" "$rep-warpstate.txt" | head -20
  head -3 "$rep-sass.csv" | cut -c1-600
done
tar czf "$OUT/stalls.tgz" -C "$OUT/raw" . && rm -rf "$OUT/raw"
