#!/usr/bin/env bash
# One device call (2026-11-30): the accumulating split-K finisher that
# starts from C (old/new small-grid matmuls, float64 checks, memcheck,
# alternating rounds against cuBLAS), then attention schedules whose
# producer warpgroup hands its registers over against the tree's
# (cubins-var-tree, cubins-var-handover: float64 smoke shapes, then the
# builds in one runner process a kernel). Each part under its own
# timeout, so that what ran comes back in one archive, $OUT/handover.tgz.
# HANDOVER_CALL=sanitize instead runs memcheck, racecheck and synccheck of
# attn_alibi and attn_window_attribute from cubins-var-head (the tree's
# compiler) at ragged shapes.
# Here (see bench/results/2026-11-30-h200-handover/README.md):
#   .device/acc/{old,new}.cubin, tilec-matmul-bench (accumulate-device.sh)
#   .device/tilec-run-examples-aot, .device/cubins-var-{tree,handover}/
cd "$(dirname "$0")/../.."
ROOT_OUT="${OUT:-/tmp/tilec-handover}"
mkdir -p "$ROOT_OUT/matmul" "$ROOT_OUT/attention"
if [ "${HANDOVER_CALL:-}" = sanitize ]; then
  OUT="$ROOT_OUT/attention" timeout "${SANITIZE_SECONDS:-200}" bash -c '
    source bench/attention/runner-logs.sh
    sanitize_examples "$D/cubins-var-head" "memcheck racecheck synccheck" \
      attn_alibi:1x2x2x300x517 attn_window_attribute:1x2x2x1000x777'
  echo "sanitize rc=$?"
  tar czf "$ROOT_OUT/handover.tgz" -C "$ROOT_OUT" attention
  exit 0
fi
OUT="$ROOT_OUT/matmul" SHAPES="${ACC_SHAPES:-1024x1024x4096,512x512x8192,768x1024x2048,2048x1024x1024}" \
  timeout "${ACC_SECONDS:-110}" bash bench/matmul/accumulate-device.sh
echo "matmul rc=$?"
OUT="$ROOT_OUT/attention" PINGPONG_CALL="smoke ab" PINGPONG_BUILDS="tree handover" \
  PINGPONG_KERNELS="${HANDOVER_KERNELS:-attn_alibi attn_window_attribute attn_d128_causal attn_d128}" \
  PINGPONG_SHAPES="${HANDOVER_SHAPES:-4x16x16x4096x4096,16x16x16x1024x1024,32x16x16x512x512,64x16x16x256x256}" \
  timeout "${ATTENTION_SECONDS:-150}" bash bench/attention/pingpong-run.sh
echo "attention rc=$?"
tar czf "$ROOT_OUT/handover.tgz" -C "$ROOT_OUT" matmul attention
