#!/usr/bin/env bash
# The GPU check and timing of the epochs (scratch zero-filled once, not a
# launch), one device call over .device/final (package.sh):
#   1. the scan examples AOT (the same kernel object over growing and
#      shrinking grids, checked after each launch) and the runtime's tests;
#   2. A/B of scan_f32: before.cubin (a memset each launch) against
#      epochs.cubin, three rounds alternating, CUB after each;
#   3. bench/scan-gpu.sh (every scan kernel checked, timed against CUB and
#      torch, memcheck, racecheck) until the call's deadline.
#   there: bash bench/results/2026-11-30-h200-epochs/run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../../.."
D=.device/final
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$D"/tilec-* "$D"/tilec_*
R=/tmp/epochs; mkdir -p "$R"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== examples"
"$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --only scan,scan_pair,rowcumsum,recurrence,colsum,matmul_cumsum --json "$R/examples.json" > "$R/examples.log" 2>&1; echo "examples rc=$?"
grep -E "FAIL|passed|failed" "$R/examples.log" | tail -5
echo "== runtime tests"
"$D/tilec_runtime_tests" --gtest_brief=1 > "$R/runtime-tests.log" 2>&1; echo "runtime tests rc=$?"
tail -2 "$R/runtime-tests.log"
echo "== A/B"
for round in 1 2 3; do
  for v in before epochs; do
    echo "-- round $round, $v"
    "$D/tilec-scan-bench" --cubin "$D/$v.cubin" --time-lengths 1048576,16777216,268435456 \
      --only scan_f32 --json "$R/$v-$round.json" | grep -E "FAIL|1048576 |16777216 |268435456 "
  done
  "$D/tilec-cub-scan" --log2 20,24,28 --only sum | grep -E "InclusiveSum +f32"
done 2>&1 | tee "$R/ab.log"
tar czf "$OUT/epochs.tgz" -C /tmp epochs
cp "$D/tilec-scan-bench" "$D/tilec-cub-scan" .device/ 2>/dev/null
mkdir -p .device/bench && cp "$D/bench/scan.cubin" .device/bench/
SCAN_DEADLINE_S=$((575 - SECONDS)) OUT="$OUT/scan" bash bench/scan-gpu.sh > "$R/scan-gpu.log" 2>&1
grep -E "^== |passed|failed|ratio|Steps" "$R/scan-gpu.log" | tail -30
tar czf "$OUT/epochs.tgz" -C /tmp epochs
