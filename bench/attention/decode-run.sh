#!/usr/bin/env bash
# One device call for the split-key decode work: the attention checks (AOT),
# memcheck at ragged shapes (a split-key one among them), the runtime's
# then-kernel GPU test, and decode timed against its peers.
#   there: bash bench/attention/decode-run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
chmod +x .device/tilec_runtime_tests
step_tests() {
  .device/tilec_runtime_tests --gtest_filter='Gpu.*Then*:Gpu.*Scratch*' \
    > "$OUT/runtime-tests.txt" 2>&1
}
step_tests; echo "runtime-tests rc=$?" | tee "$OUT/runtime-tests.rc"
ATTENTION_STEPS="${ATTENTION_STEPS:-check memcheck tilec}" \
  ATTENTION_TIMED=decode bash bench/attention-gpu.sh
python3 bench/attention/peers.py --preset decode --json "$OUT/peers.json" \
  > "$OUT/peers.txt" 2>&1; echo "peers rc=$?"
