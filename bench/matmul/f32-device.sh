#!/usr/bin/env bash
# f32 (SIMT) matmul builds side by side on the GPU machine (issue 17's
# SGEMM target): every cubin in F32_DIR (default .device/f32) is checked
# against float64 at ragged shapes, then timed against cuBLAS SGEMM at
# F32_SHAPES in ROUNDS alternating rounds; with F32_NCU=name, that build's
# main kernel is profiled (warp states, scheduler, occupancy) at 4096^3.
# A summary goes to stdout; logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-f32}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
DIR="${F32_DIR:-.device/f32}"
BENCH=.device/tilec-matmul-bench
chmod +x "$BENCH"
SHAPES="${F32_SHAPES:-2048x2048x2048,4096x4096x4096,8192x8192x8192}"
VARIANT="${F32_VARIANT:-mm_f32_f32_rr}"

for cubin in "$DIR"/*.cubin; do
  name=$(basename "$cubin" .cubin)
  timeout 120 "$BENCH" --cubin "$cubin" --check --variant "$VARIANT" \
    --shape 7x13x5,33x65x17,1000x1003x517,136x264x1000,1096x2104x200 \
    > "$OUT/check-$name.log" 2>&1
  echo "check $name rc=$? $(grep -c PASS "$OUT/check-$name.log") PASS $(grep -c FAIL "$OUT/check-$name.log") FAIL"
done

for round in $(seq 1 "${ROUNDS:-2}"); do
  for cubin in "$DIR"/*.cubin; do
    name=$(basename "$cubin" .cubin)
    timeout 120 "$BENCH" --cubin "$cubin" --bench --variant "$VARIANT" \
      --shape "$SHAPES" --json "$OUT/bench-$name-$round.json" \
      > "$OUT/bench-$name-$round.log" 2>&1
    echo "bench $name round $round rc=$?"
    grep -v "^$" "$OUT/bench-$name-$round.log" | tail -5
  done
done

if [ -n "${F32_NCU:-}" ]; then
  for name in $F32_NCU; do
    timeout 200 ncu --section WarpStateStats --section SchedulerStats \
      --section Occupancy --section LaunchStats --section InstructionStats \
      --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
      -k "regex:^$VARIANT\$" --launch-skip 2 --launch-count 1 \
      "$BENCH" --cubin "$DIR/$name.cubin" --bench --variant "$VARIANT" \
      --shape 4096x4096x4096 > "$OUT/ncu-$name.txt" 2>&1
    echo "ncu $name rc=$?"
    grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Issue Slots Busy|Issued Ipc|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Stall|Shared Memory|Bank|Executed Ipc|FMA|Pipe" \
      "$OUT/ncu-$name.txt" | awk '{$1=$1; print}' | cut -c1-110 | head -60
  done
fi
