#!/usr/bin/env bash
# Short rows on the H200: rows_f32 (the narrow ladder, or the row loop above
# 512 columns) checked and timed over widths around the rungs, with
# torch.cumsum on the same shapes for scale. Over the tree packed by
# scripts/package-device.sh; results under $OUT (default /tmp/short-rows).
set -uo pipefail
cd "$(dirname "$0")/../../.." || exit 1
OUT="${OUT:-/tmp/short-rows}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
SHAPES="${SHORT_ROWS_SHAPES:-1048576x1,1048576x4,1048576x16,1048576x20,1048576x32,524288x64,262144x96,262144x100,262144x128,131072x200,131072x256,65536x400,65536x500,65536x512,65536x513,65536x700,65536x1024}"
chmod +x .device/tilec-scan-bench
.device/tilec-scan-bench --cubin .device/bench/scan.cubin --time-rows "$SHAPES" \
  --json "$OUT/short-rows.json" ${SHORT_ROWS_ONLY:+--only "$SHORT_ROWS_ONLY"} | tee "$OUT/short-rows.log"
