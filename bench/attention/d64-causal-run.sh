#!/usr/bin/env bash
# One device call for the causal d64 schedule (keys in blocks of 64): the
# attention checks (AOT) and memcheck at ragged shapes, then causal d64
# prefill timed against its peers in the same call. At most 8 files under
# $OUT.   there: bash bench/attention/d64-causal-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
ATTENTION_STEPS="check memcheck" bash bench/attention-gpu.sh
S=""; P=""
for n in 512 1024 2048 4096 8192 16384; do
  S="$S${S:+,}$((16384 / n))x16x16x${n}x${n}"
  P="$P${P:+;}$((16384 / n)),16,16,${n},${n},64,1"
done
.device/tilec-run-examples-aot --cubin-dir .device/cubins --mode aot \
  --only attn_d64_causal --shapes "$S" --json "$OUT/tilec-d64-causal.json"
echo "tilec rc=$?"
python3 bench/attention/peers.py --shapes "$P" --json "$OUT/peers.json" | tail -3
echo "peers rc=$?"
