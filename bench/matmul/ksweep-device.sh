#!/usr/bin/env bash
# Issue 17: where a tile's time goes beyond its K loop. The matmul bench at
# M = N = 4096 over K (each block's tiles are the same at every K, so the
# time is tiles x (fixed + K x per-step) and the slope and intercept split
# the K loop from the per-tile cost), tilec against cuBLAS in the same
# process; then Nsight Compute's per-instruction stall samples of the tilec
# kernel at 4096^3 (profile-source.sh). Here: tilec bench/matmul/kernels.mlir
# -o .device/bench/producer.cubin. There: bash bench/matmul/ksweep-device.sh
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-ksweep}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN"
CUBIN="${KSWEEP_CUBIN:-.device/bench/producer.cubin}"
SHAPES="${KSWEEP_SHAPES:-4096x4096x512,4096x4096x1024,4096x4096x2048,4096x4096x4096,4096x4096x8192,4096x4096x16384}"
for round in 1 2; do
  "$BIN" --cubin "$CUBIN" --bench --fail-if-none --variant mm_bf16_bf16_rr \
    --shape "$SHAPES" --json "$OUT/ksweep-$round.json" 2>&1 | tee "$OUT/ksweep-$round.log" | grep -E "^mm_|passed"
done
[ -n "${KSWEEP_PROFILE:-1}" ] && CUBINS="${KSWEEP_PROFILE_CUBINS:-producer=$CUBIN}" bash bench/matmul/profile-source.sh
