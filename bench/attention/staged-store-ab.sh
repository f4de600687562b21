#!/usr/bin/env bash
# Staged output stores where the buffer takes the retired slots: the builds
# in .device/cubins-var-before and -after (attention.cubin, attention_block
# and b2b_gemm cubins) on the same inputs, alternating (tilec-run-examples
# --cubin-dir A,B), then racecheck of the new stores at ragged shapes.
# Results: bench/results/2026-11-28-h200-staged-memory/staged-store.
#   there: bash bench/attention/staged-store-ab.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
chmod +x .device/*
D=.device
$D/tilec-run-examples-aot --cubin-dir $D/cubins-var-before,$D/cubins-var-after --mode aot --only attn_d64,attn_d64_causal,attn_d128,attn_softcap,attn_window,attn_bshd_f16_d64 --shapes 4x16x16x4096x4096,16x16x16x1024x1024,32x32x8x1x8192,1x16x2x4224x4224 > /tmp/ab.log 2>&1; echo rc=$?
grep -E "PASS|FAIL" /tmp/ab.log | awk '{print $1, $3, $2, $7, $NF}' | sort -s -k1,2
$D/tilec-run-examples-aot --cubin-dir $D/cubins-var-before,$D/cubins-var-after --mode aot --only attention_block,b2b_gemm > /tmp/ab2.log 2>&1; echo rc=$?
grep -E "PASS|FAIL" /tmp/ab2.log | awk '{print $1, $3, $2, $7, $NF}' | sort -s -k1,2 | tail -30
for n in attn_d64:2x3x3x113x203 attn_d64_causal:2x4x1x799x3 attn_window:1x8x1x1023x1024; do
  /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 $D/tilec-run-examples-aot --cubin-dir $D/cubins-var-after --mode aot --only ${n%%:*} --shapes ${n#*:} 2>&1 | grep -E "RACECHECK SUMMARY|FAIL" ; echo "racecheck $n rc=$?"
done
