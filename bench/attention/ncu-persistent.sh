#!/usr/bin/env bash
# Nsight Compute of attn_d128 at one shape from each build of
# bench/attention/persistent-run.sh (NCU_BUILDS, NCU_SHAPE): speed of
# light, warp states and scheduler statistics, summarised on stdout.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-persistent}"
source bench/attention/runner-logs.sh
SHAPE="${NCU_SHAPE:-4x16x16x4096x4096}"
for build in ${NCU_BUILDS:-base pers}; do
  timeout 200 ncu --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis \
    -k regex:'^attn_d128$' -c 1 "$RUN" --cubin-dir "$D/cubins-var-$build" \
    --mode aot --only attn_d128 --shapes "$SHAPE" > "$OUT/ncu-$build.txt" 2>&1
  echo "ncu $build rc=$?"
  grep -E "Duration|Compute \(SM\) Throughput|DRAM Throughput|L2 Hit Rate|Issued Warp Per|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|Stall|L1/TEX Hit" "$OUT/ncu-$build.txt" | head -30
done
