#!/usr/bin/env bash
# Issue 17: bulk staged stores with every part of a tile in flight (as many
# places a warp as the shared memory holds), in one device call over
# .device/c (gzipped cubins; see the results' README for how it is made):
# every example AOT, the runtime and wrapper tests and racecheck
# (bench/examples-aot-device.sh) on the new build; the matmul bench's new
# build checked and timed against the old one and cuBLAS
# (compare-device.sh); the attention kernels whose O store changed, old
# and new alternating (tilec-run-examples-aot --cubin-dir A,B), and
# racecheck of one. Everything lands in $OUT/results.tgz.
#   there: bash bench/matmul/staged-places-device.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-places}"; mkdir -p "$OUT"
W=/tmp/places; rm -rf "$W"; mkdir -p "$W"
export PATH="/usr/local/cuda/bin:$PATH"
C=.device/c
find "$C" -name '*.gz' -exec gunzip -f {} +
chmod +x "$C"/tilec-* "$C"/tilec_*
cp "$C/new.cubin" "$C/bench-matmul.cubin"
cp "$C/tilec-matmul-bench" .device/tilec-matmul-bench

EXAMPLES_DIR="$C" OUT="$W/examples" bash bench/examples-aot-device.sh 2>&1 | tail -12

COMPARE_CUBINS="new=$C/new.cubin old=$C/old.cubin s4new=$C/s4new.cubin" \
COMPARE_CHECKED="new" \
COMPARE_VARIANTS=mm_bf16_bf16_rr,mm_f16_f16_rr,mm_bf16_f32_rr,mm_bf16_f32_rr_acc \
COMPARE_SHAPES=2048x2048x2048,4096x4096x4096,8192x8192x8192,3000x5000x4000,8000x3000x6000,6144x6144x6144 \
  OUT="$W/matmul" bash bench/matmul/compare-device.sh > "$W/matmul.log" 2>&1
grep -E "^  |passed" "$W/matmul.log" | tail -12

ATT=attn_d128_causal,attn_bshd_f16_d128_causal,attn_d256,attn_alibi,attn_window_attribute
"$C/tilec-run-examples-aot" --cubin-dir "$C/before,$C/cubins" --mode aot --only "$ATT" \
  --shapes 4x16x16x4096x4096,1x16x16x16384x16384,2x16x16x8192x8192 > "$W/attention-ab.log" 2>&1
echo "attention A/B rc=$?"
grep -E "PASS|FAIL" "$W/attention-ab.log" | awk '{print $1, $3, $2, $7, $NF}' | sort -s -k1,2 | tail -40
compute-sanitizer --tool racecheck --error-exitcode 9 "$C/tilec-run-examples-aot" \
  --cubin-dir "$C/cubins" --mode aot --only attn_d128_causal,attn_d256 \
  --shapes 2x3x3x113x203,1x2x2x1023x1024 > "$W/racecheck-attention.log" 2>&1
echo "racecheck attention rc=$?"; grep -E "RACECHECK SUMMARY" "$W/racecheck-attention.log"
tar -C "$W" -czf "$OUT/results.tgz" .
