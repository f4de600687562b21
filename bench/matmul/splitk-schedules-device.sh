#!/usr/bin/env bash
# Issue 17, item 2: split-K schedules of the small-grid kernel, side by
# side in one device call. Each cubin in $SCHEDULE_DIR (default
# .device/exp; compiled here from mm_bf16_bf16_rr and mm_f16_f16_rr of
# bench/matmul/kernels.mlir by tilec builds that differ in the small-grid
# schedule) is checked at split shapes against float64, then timed against
# cuBLAS in the same process, two rounds in alternation.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-splitk-schedules}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN"
DIR="${SCHEDULE_DIR:-.device/exp}"
SHAPES="${BENCH_SHAPES:-1024x1024x1024,1024x1024x4096,1024x1024x8192,512x512x16384,512x512x2048,768x768x4096,512x1024x4096,256x512x8192,2048x1024x1024}"
source bench/steps.sh
for cubin in "$DIR"/*.cubin; do
  name="$(basename "$cubin" .cubin)"
  quiet_step "check-$name" "$BIN" --cubin "$cubin" --check --fail-if-none \
    --shape 200x136x1088,129x257x4099,7x13x1030,640x384x2050,1024x1024x513,1000x1003x5000
done
for round in 1 2; do
  for cubin in "$DIR"/*.cubin; do
    name="$(basename "$cubin" .cubin)"
    QUIET_PATTERN='^ *mm_' QUIET_LINES=100 quiet_step "bench-$name-$round" \
      "$BIN" --cubin "$cubin" --bench --fail-if-none --shape "$SHAPES" \
      --json "$OUT/bench-$name-$round.json"
  done
done
summary
