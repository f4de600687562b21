#!/usr/bin/env bash
# Where the decode combine's time goes (issue 16): its SASS, and ncu's
# stall reasons, memory traffic and per-instruction samples at
# 1x16x16x1x65536; results packed into $OUT/results.tgz.
#   there: bash bench/attention/combine-profile-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
FINAL="${OUT:-/tmp/tilec-attention}"
WORK=/tmp/combine-profile
rm -rf "$WORK"; mkdir -p "$WORK"
D=.device
chmod +x "$D/tilec-run-examples-aot"
export PATH="/usr/local/cuda/bin:$PATH"
AOT=("$D/tilec-run-examples-aot" --mode aot --cubin-dir "$D/cubins" --only attn_d128)
cuobjdump -sass -fun attn_d128__decode_heads_combine "$D/cubins/attention.cubin" \
  > "$WORK/combine.sass" 2>&1
timeout 120 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
  --section SourceCounters --import-source no -k regex:'combine' -c 1 \
  -o "$WORK/combine" "${AOT[@]}" --shapes "${SHAPE:-1x16x16x1x65536}" > "$WORK/ncu.log" 2>&1
ncu --import "$WORK/combine.ncu-rep" --page details > "$WORK/details.txt" 2>&1
ncu --import "$WORK/combine.ncu-rep" --page source --csv --print-source sass \
  > "$WORK/source.csv" 2>&1
mkdir -p "$FINAL"
tar czf "$FINAL/results.tgz" -C "$WORK" .
