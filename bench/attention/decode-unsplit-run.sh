#!/usr/bin/env bash
# The unsplit decode launch on the GPU machine (issue 16): runtime tests,
# attention examples with .device/cubins-var-unsplit/attention.cubin in
# place of the examples' one (ATTENTION_ONLY, default the decode-relevant
# descriptions), memcheck and racecheck at two shapes the runtime launches
# unsplit (packed heads, 3 query rows), then decode-split-run.sh's `ab` of
# the `before` and `unsplit` builds with the peers. Summary on stdout.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-decode-unsplit}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device
chmod +x "$D/tilec-run-examples-aot" "$D/tilec_runtime_tests"
timeout 60 "$D/tilec_runtime_tests" --gtest_brief=1 > "$OUT/runtime-tests.log" 2>&1
echo "runtime tests rc=$?"; tail -2 "$OUT/runtime-tests.log"
cubins="$OUT/cubins"
mkdir -p "$cubins"
cp "$D"/cubins/*.cubin "$cubins/"
cp "$D/cubins-var-unsplit/attention.cubin" "$cubins/"
aot=("$D/tilec-run-examples-aot" --cubin-dir "$cubins" --mode aot)
timeout 150 "${aot[@]}" \
  --only "${ATTENTION_ONLY:-attn_d128,attn_varlen,attn_bshd_f16_d64,attn_scale_argument}" \
  > "$OUT/checks-attention.log" 2>&1
echo "attention rc=$? $(grep -c PASS "$OUT/checks-attention.log") PASS" \
  "$(grep -c FAIL "$OUT/checks-attention.log") FAIL"
for tool in memcheck racecheck; do
  for shape in 64x8x2x1x2000 16x8x8x3x2000; do
    timeout 60 compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 5 \
      "${aot[@]}" --only attn_d128 --shapes "$shape" > "$OUT/$tool-$shape.log" 2>&1
    echo "$tool $shape rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool-$shape.log" | tail -1)"
  done
done
SPLIT_CALL=ab SPLIT_BUILDS="before unsplit" SPLIT_PEERS=1 \
  SPLIT_SHAPES="${UNSPLIT_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,1x32x8x1x16384,1x16x16x1x65536,64x8x8x1x4096,2x4x4x7x70000,64x8x2x1x2000}" \
  timeout 200 bash bench/attention/decode-split-run.sh
