#!/usr/bin/env bash
# The unsplit decode launch on the GPU machine (issue 16): runtime tests,
# then decode-split-run.sh's `checks` with .device/cubins-var-unsplit
# (ATTENTION_ONLY, default the decode-relevant descriptions; memcheck and
# racecheck at two shapes the runtime launches unsplit: packed heads, 3
# query rows) and its `ab` of the `before` and `unsplit` builds with the
# peers. Summary on stdout.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-decode-unsplit}"
mkdir -p "$OUT"
chmod +x .device/tilec_runtime_tests
timeout 60 .device/tilec_runtime_tests --gtest_brief=1 > "$OUT/runtime-tests.log" 2>&1
echo "runtime tests rc=$?"; tail -2 "$OUT/runtime-tests.log"
export OUT
SPLIT_CALL=checks SPLIT_CHECK=unsplit SPLIT_SANITIZE=1 \
  SPLIT_ONLY="${ATTENTION_ONLY:-attn_d128,attn_varlen,attn_bshd_f16_d64,attn_scale_argument}" \
  SPLIT_SANITIZE_ITEMS="attn_d128:64x8x2x1x2000 attn_d128:16x8x8x3x2000" \
  bash bench/attention/decode-split-run.sh
SPLIT_CALL=ab SPLIT_BUILDS="before unsplit" SPLIT_PEERS=1 \
  SPLIT_SHAPES="${UNSPLIT_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,1x32x8x1x16384,1x16x16x1x65536,64x8x8x1x4096,2x4x4x7x70000,64x8x2x1x2000}" \
  timeout 200 bash bench/attention/decode-split-run.sh
