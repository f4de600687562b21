#!/usr/bin/env bash
# Then kernels launched while the kernel before them ends (launch metadata
# `waits`, tile-dependent-launch), for split-key attention: every attention
# description checked (AOT, the runner's shapes; the decode shapes take the
# key-chunk kernel and its combine), then attn_d128 and the packed heads of
# attn_d64 timed at the decode shapes, `new` (examples/attention.mlir as
# the tree compiles it) and `old` (the same cubin with its `waits` lines
# blanked by bench/matmul/strip-metadata-lines.py: the combines launched
# after the key chunks end, as before) in alternating rounds; then the
# runtime's GPU tests. Results packed into $OUT/results.tgz.
# Here (gzip keeps the carry under 64 MiB):
#   mkdir -p .device/att/cubins .device/att/cubins-old
#   build/bin/tilec examples/attention.mlir -o .device/att/cubins/attention.cubin
#   python3 bench/matmul/strip-metadata-lines.py waits \
#     .device/att/cubins/attention.cubin .device/att/cubins-old/attention.cubin
#   cp build/examples/tilec-run-examples-aot build/runtime/test/tilec_runtime_tests .device/att/
#   strip .device/att/tilec-*; gzip .device/att/cubins*/*.cubin .device/att/tilec-*
# There: bash bench/attention/dependent-launch-run.sh   (carry .device/att)
set -uo pipefail
cd "$(dirname "$0")/../.."
FINAL="${OUT:-/tmp/tilec-attention}"
WORK=/tmp/dependent-launch
rm -rf "$WORK"; mkdir -p "$WORK"
D=.device/att
for f in $D/*.gz $D/cubins*/*.gz; do gunzip -f "$f"; done
chmod +x "$D/tilec-run-examples-aot" "$D/tilec_runtime_tests"
names=$(grep -o 'tile.attention @[a-z0-9_]*' examples/attention.mlir |
  sed 's/tile.attention @//' | paste -sd, -)
timeout 300 "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --only "$names" --json "$WORK/check.json" > "$WORK/check.log" 2>&1
echo "check rc=$?" | tee -a "$WORK/steps.txt"
DECODE=64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536
for round in 1 2; do
  for build in old new; do
    dir=$D/cubins; [ "$build" = old ] && dir=$D/cubins-old
    timeout 150 "$D/tilec-run-examples-aot" --cubin-dir "$dir" --mode aot \
      --only attn_d128,attn_d64 --shapes "$DECODE" \
      --json "$WORK/decode-$build-$round.json" > "$WORK/decode-$build-$round.log" 2>&1
    echo "decode $build $round rc=$?" | tee -a "$WORK/steps.txt"
  done
done
timeout 100 "$D/tilec_runtime_tests" --gtest_filter='Gpu.*' > "$WORK/runtime-tests.txt" 2>&1
echo "runtime tests rc=$?" | tee -a "$WORK/steps.txt"
grep -E "PASSED|FAILED" "$WORK/runtime-tests.txt"
mkdir -p "$FINAL"
tar czf "$FINAL/results.tgz" -C "$WORK" .
