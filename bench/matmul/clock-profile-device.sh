#!/usr/bin/env bash
# Duration, SM clock, tensor-pipe use, L2 hit rate and DRAM traffic of
# launches of mm_bf16_bf16_rr per build (Nsight Compute's Speed of Light
# and metrics), to tell a schedule's saved cycles from a lower clock under
# the power limit, and its L2 reuse.
# Here: the builds' cubins as .device/prof2/BUILD.cubin, the bench stripped
#   into .device/prof2/.
# There: BUILDS="old new" bash bench/matmul/clock-profile-device.sh
#   (carry .device/prof2)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-clock-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/prof2
chmod +x "$D/tilec-matmul-bench"
for shape in ${SHAPES_PROF:-4096x4096x4096}; do
  for b in ${BUILDS:-old new}; do
    ncu --section SpeedOfLight --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
      -k 'regex:^mm_bf16_bf16_rr$' --launch-skip 3 --launch-count 3 \
      "$D/tilec-matmul-bench" --cubin "$D/$b.cubin" --bench --variant mm_bf16_bf16_rr \
      --shape "$shape" > "$OUT/clock-$b-$shape.txt" 2>&1
    echo "== $b $shape"
    grep -E "Duration|hmma|time_duration|hit_rate|dram__" "$OUT/clock-$b-$shape.txt" | tr -s ' ' | head -18
  done
done
