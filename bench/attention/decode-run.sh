#!/usr/bin/env bash
# One device call for the split-key decode work: the runtime's then-kernel
# and scratch GPU tests, the attention checks (AOT), memcheck at ragged
# shapes (split-key ones among them), and decode timed against its peers.
# Writes at most 8 files under $OUT (what a device call brings back).
#   there: bash bench/attention/decode-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
chmod +x .device/tilec_runtime_tests
.device/tilec_runtime_tests --gtest_filter='Gpu.*Then*:Gpu.*Scratch*' \
  > "$OUT/runtime-tests.txt" 2>&1
echo "runtime-tests rc=$?" | tee -a "$OUT/runtime-tests.txt"
ATTENTION_STEPS="${ATTENTION_STEPS:-check memcheck tilec}" \
  ATTENTION_TIMED=decode bash bench/attention-gpu.sh
python3 bench/attention/peers.py --preset decode --json "$OUT/peers.json"
echo "peers rc=$?"
