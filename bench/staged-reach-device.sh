#!/usr/bin/env bash
# Issue 17: the staged store in every warpgroup-MMA kernel whose shared
# memory already holds it to its residency (not only persistent ones), in
# one device call: every example AOT with the new cubins (.device/new)
# against its float64 reference; the attention prefill descriptions timed
# with the old (.device/slim) and new cubins, in alternation; the matmul
# bench's small-grid shapes (one tile a block or fewer tiles than SMs) and
# a persistent one, old and new. There: bash bench/staged-reach-device.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-staged-reach}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OLD=.device/slim; NEW=.device/new
chmod +x "$OLD"/tilec-* "$OLD"/tilec_*
AOT="$OLD/tilec-run-examples-aot"; BENCH="$OLD/tilec-matmul-bench"
source bench/steps.sh  # quiet_step, summary (the working directory is the root)
quiet_step examples-aot-new "$AOT" --cubin-dir "$NEW/cubins" --mode aot --max-gflop 2 --json "$OUT/examples-new.json"
quiet_step memcheck-new compute-sanitizer --tool memcheck --error-exitcode 9 "$AOT" --cubin-dir "$NEW/cubins" \
  --mode aot --only attn_d128,attn_d64_causal,matmul_bias_relu,matmul_softmax --shapes 2x8x2x113x203,1x4x1x239x17
PREFILL=16x16x16x1024x1024,4x16x16x4096x4096,1x16x16x16384x16384
for round in 1 2; do
  for build in old new; do
    dir="$OLD"; [ $build = new ] && dir="$NEW"
    QUIET_PATTERN='^attn' QUIET_LINES=100 quiet_step "attention-$build-$round" \
      "$AOT" --cubin-dir "$dir/cubins" --mode aot --only attn_d64,attn_d64_causal,attn_d128,attn_d128_causal \
      --shapes "$PREFILL" --json "$OUT/attention-$build-$round.json"
    QUIET_PATTERN='^mm_' QUIET_LINES=100 quiet_step "matmul-$build-$round" \
      "$BENCH" --cubin "$dir/bench-matmul.cubin" --bench --fail-if-none --variant mm_bf16_bf16_rr,mm_f16_f32_rr \
      --shape 1024x1024x1024,1536x1536x1536,2048x2048x2048,4096x4096x4096 --json "$OUT/matmul-$build-$round.json"
  done
done
summary
