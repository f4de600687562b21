#!/usr/bin/env bash
# The JIT on the GPU machine: every example compiled at run time (in a child
# process, the JIT's default, with a live CUDA context in the parent), run
# and checked against its float64 reference; then again from the warm
# cache; results under $OUT (default /tmp/tilec-jit).
#   here:  bash scripts/package-device.sh
#   there: bash bench/jit-gpu.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-jit}"
mkdir -p "$OUT"
export TILEC_CACHE_DIR="$(mktemp -d)"
gunzip -c .device/tilec-run-examples.gz > /tmp/tilec-run-examples && chmod +x /tmp/tilec-run-examples
for pass in cold warm; do
  start=$(date +%s%N)
  timeout 280 /tmp/tilec-run-examples --source-dir examples --mode jit --max-gflop 2 \
    --json "$OUT/jit-$pass.json" > "$OUT/jit-$pass.log" 2>&1
  rc=$?
  echo "$pass rc=$rc ms=$((($(date +%s%N) - start) / 1000000))" | tee -a "$OUT/steps.txt"
done
