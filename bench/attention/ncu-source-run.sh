#!/usr/bin/env bash
# Where attn_d128's warps stall, instruction by instruction: Nsight
# Compute's warp-state sampling of the SASS (source page) at
# 4x16x16x4096x4096, from .device/cubins/attention.cubin (the default
# schedule), with the tilec-run-examples-aot runner in .device. Prints the
# instructions with the most samples, and the samples by stall reason of
# the barrier instructions; the whole page under $OUT.
#   there: bash bench/attention/ncu-source-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-ncu-source}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device; chmod +x "$D/tilec-run-examples-aot"
ncu --section SourceCounters --section WarpStateStats -k regex:'^attn_d128$' -c 1 \
  --page source --print-source sass --csv \
  "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --only attn_d128 --shapes 4x16x16x4096x4096 > "$OUT/source.csv" 2> "$OUT/ncu.log"
echo "ncu rc=$? $(wc -l < "$OUT/source.csv") lines"
python3 bench/ncu-top.py "$OUT/source.csv" 25
