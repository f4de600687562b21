#!/usr/bin/env bash
# One device call comparing decode schedules (issue 16): every attention
# description checked (AOT) with the default build, then attn_d128 timed at
# the decode shapes in the default build and each .device/cubins-var-*
# build, then the decode peers; results packed into $OUT/results.tgz.
#   here:  bash scripts/package-device.sh, then build the variants, e.g.
#          DECODE_VARIANT=... build/bin/tilec attn_d128.mlir -o .device/cubins-var-NAME/attention.cubin
#   there: bash bench/attention/decode-schedules-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
FINAL="${OUT:-/tmp/tilec-attention}"
export OUT=/tmp/decode-schedules
rm -rf "$OUT"; mkdir -p "$OUT"
DECODE=64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536
timeout "${DECODE_STEPS_LIMIT:-300}" env ATTENTION_STEPS="${DECODE_STEPS:-check tilec}" \
  ATTENTION_TIMED="variants" ATTENTION_VARIANT_KERNELS=attn_d128 \
  ATTENTION_VARIANT_SHAPES="$DECODE" bash bench/attention-gpu.sh > "$OUT/steps.log" 2>&1
[ -z "${DECODE_NO_PEERS:-}" ] && timeout 200 python3 bench/attention/peers.py --preset decode --json "$OUT/peers.json" \
  > "$OUT/peers.log" 2>&1
echo "peers rc=$?" >> "$OUT/peers.log"
# Each decode kernel's time and DRAM throughput (kernels serialised).
export PATH="/usr/local/cuda/bin:$PATH"
for shape in ${DECODE_NCU_SHAPES:-8x32x8x1x65536 1x32x8x1x16384 1x16x16x1x65536}; do
  timeout 60 ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    -k regex:'__decode' -c 6 .device/tilec-run-examples-aot --cubin-dir .device/cubins \
    --mode aot --only attn_d128 --shapes "$shape" > "$OUT/ncu-$shape.txt" 2>&1
  echo "ncu $shape rc=$?" >> "$OUT/steps.log"
done
mkdir -p "$FINAL"
tar czf "$FINAL/results.tgz" -C "$OUT" .
