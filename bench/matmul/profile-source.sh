#!/usr/bin/env bash
# Nsight Compute's per-instruction view (SASS, stall reasons) of one tilec
# matmul kernel (run on the GPU machine): CUBINS="name=path ..." each
# profiled at SHAPE for VARIANT; the report, its details page and the source
# page as CSV under $OUT.
set -uo pipefail
OUT="${OUT:-/tmp/tilec-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN"
VARIANT="${VARIANT:-mm_bf16_bf16_rr}"; SHAPE="${SHAPE:-4096x4096x4096}"
for entry in ${CUBINS:-default=.device/matmul.cubin}; do
  name="${entry%%=*}"; cubin="${entry#*=}"
  ncu --set full --import-source no -k "regex:^$VARIANT\$" --launch-skip 3 --launch-count 1 \
    -o "$OUT/$name" -f "$BIN" --cubin "$cubin" --bench --variant "$VARIANT" \
    --shape "$SHAPE" > "$OUT/$name-run.txt" 2>&1
  ncu --import "$OUT/$name.ncu-rep" --page details > "$OUT/$name-details.txt" 2>&1
  ncu --import "$OUT/$name.ncu-rep" --page source --print-source sass --csv \
    > "$OUT/$name-source.csv" 2>&1
  echo "== $name: $(wc -l < "$OUT/$name-source.csv") source lines"
  grep -E "Duration|Registers Per" "$OUT/$name-details.txt"
done
