#!/usr/bin/env bash
# Issue 17: where a matmul kernel's time goes, for several builds of
# bench/matmul/kernels.mlir. For each cubin: its SASS (cuobjdump), and
# Nsight Compute's speed-of-light, warp-state and pipe sections plus the
# SASS sampled by stall reason, of one launch of PROFILE_KERNEL at
# PROFILE_SHAPE inside the bench (cuBLAS's kernels are not profiled).
# Prints the headline metrics and the 12 instructions with the most
# samples; everything in $OUT/profile.tgz (a device call returns 8 files).
# There: PROFILE_CUBINS="a=.device/x/a.cubin b=..." bash bench/matmul/profile-device.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-profile}"; mkdir -p "$OUT"
W=/tmp/tilec-profile-work; rm -rf "$W"; mkdir -p "$W"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN="${PROFILE_BIN:-.device/tilec-matmul-bench}"; chmod +x "$BIN"
KERNEL="${PROFILE_KERNEL:-mm_bf16_bf16_rr}"
SHAPE="${PROFILE_SHAPE:-4096x4096x4096}"
for entry in ${PROFILE_CUBINS:?names and cubins}; do
  name="${entry%%=*}"; cubin="${entry#*=}"
  cuobjdump --dump-sass "$cubin" > "$W/$name.sass" 2>&1
  # Launch 3 of the bench (after its warm-up) is a steady-state one.
  timeout 240 ncu --clock-control none -k "regex:^$KERNEL\$" -s 2 -c 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section SourceCounters -o "$W/$name" -f \
    "$BIN" --cubin "$cubin" --bench --variant "$KERNEL" --shape "$SHAPE" \
    > "$W/$name-ncu.log" 2>&1
  echo "== $name: ncu rc=$?"
  ncu --import "$W/$name.ncu-rep" --page details > "$W/$name-details.txt" 2>&1
  ncu --import "$W/$name.ncu-rep" --page source --csv --print-source sass \
    > "$W/$name-source.csv" 2>&1
  grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Shared.*Throughput|Registers Per|Tensor|L1/TEX Hit|Memory Throughput" \
    "$W/$name-details.txt" | tr -s " " | head -24
  python3 bench/ncu-top.py "$W/$name-source.csv" 12
done
tar -C "$W" -czf "$OUT/profile.tgz" .
echo "done"
