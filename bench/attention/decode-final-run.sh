#!/usr/bin/env bash
# The decode timing call (issue 16): attn_d128 at the decode shapes, the
# packed-sequence attn_varlen at decode shapes of the same sizes (one query
# a sequence), the decode peers in the same call, and the runtime's GPU
# tests; results packed into $OUT/results.tgz.
#   there: bash bench/attention/decode-final-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
FINAL="${OUT:-/tmp/tilec-attention}"
WORK=/tmp/decode-final
rm -rf "$WORK"; mkdir -p "$WORK"
D=.device
chmod +x "$D/tilec-run-examples-aot" "$D/tilec_runtime_tests"
AOT=("$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot)
DECODE=64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536
# Packed sequences, HqxHkv then NqxNkv per sequence: B sequences of one
# query against N keys, as the padded BxHqxHkvx1xN shapes.
packed() { local out="$2x$3" i; for ((i = 0; i < $1; i++)); do out="${out}x1x$4"; done; echo "$out"; }
VARLEN="$(packed 8 32 8 32768),$(packed 1 32 8 16384),$(packed 16 32 8 16384),$(packed 1 16 16 65536)"
timeout 150 "${AOT[@]}" --only attn_d128 --shapes "$DECODE" --json "$WORK/tilec-decode.json" \
  > "$WORK/tilec-decode.log" 2>&1; echo "decode rc=$?" >> "$WORK/steps.txt"
timeout 150 "${AOT[@]}" --only attn_varlen --shapes "$VARLEN" --json "$WORK/tilec-varlen-decode.json" \
  > "$WORK/tilec-varlen-decode.log" 2>&1; echo "varlen decode rc=$?" >> "$WORK/steps.txt"
timeout 150 python3 bench/attention/peers.py --preset decode --json "$WORK/peers.json" \
  > "$WORK/peers.log" 2>&1; echo "peers rc=$?" >> "$WORK/steps.txt"
timeout 100 "$D/tilec_runtime_tests" --gtest_filter='Gpu.*' > "$WORK/runtime-tests.txt" 2>&1
echo "runtime tests rc=$?" >> "$WORK/steps.txt"
# Where the combine's time goes: its stall reasons and memory traffic.
export PATH="/usr/local/cuda/bin:$PATH"
timeout 90 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
  --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy \
  -k regex:'combine' -c 1 "${AOT[@]}" --only attn_d128 --shapes 1x16x16x1x65536 \
  > "$WORK/ncu-combine.txt" 2>&1; echo "ncu rc=$?" >> "$WORK/steps.txt"
mkdir -p "$FINAL"
tar czf "$FINAL/results.tgz" -C "$WORK" .
