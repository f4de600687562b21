#!/usr/bin/env bash
# Issue 17, item 5, staging copies (launch metadata `repitch`): one device
# call. Steps: the runtime's GPU tests and the JIT's (the hand-written TMA
# fixture with a repitch line; a JIT matmul at K = 71 that must not compile a
# twin); float64 checks of the matmul bench's kernels at unaligned ragged
# shapes, every kernel path; timings of the new cubin against the same
# cubin with its repitch lines blanked (bench/matmul/strip-repitch.py: the
# per-thread-copy twins as before), cuBLAS in the same process, two rounds
# in alternation; memcheck at shapes that stage.
# Here: bash scripts/package-device.sh; strip+gzip tilec_jit_tests into .device/
# There: bash bench/matmul/repitch-device.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-repitch}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN" .device/tilec_runtime_tests
source bench/steps.sh
NEW=.device/bench/matmul.cubin
OLD=.device/bench/matmul-no-repitch.cubin
python3 bench/matmul/strip-repitch.py "$NEW" "$OLD"
CALL="${REPITCH_CALL:-all}"
if [ "$CALL" = all ] || [ "$CALL" = checks ]; then
  quiet_step runtime-gpu .device/tilec_runtime_tests --gtest_filter='Gpu.*'
  if [ -f .device/tilec_jit_tests.gz ]; then
    gunzip -f .device/tilec_jit_tests.gz; chmod +x .device/tilec_jit_tests
    quiet_step jit .device/tilec_jit_tests --gtest_filter='JitCompilerTest.*'
  fi
  QUIET_PATTERN='repitch|FAIL|passed|failed' QUIET_LINES=40 quiet_step check-unaligned \
    "$BIN" --cubin "$NEW" --check --fail-if-none \
    --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_bf16_cc,mm_bf16_f32_rr_acc,mm_f16_f32_rc,mm_f32_f32_rr \
    --shape "${REPITCH_CHECK_SHAPES:-1x1x1,7x13x5,127x129x4097,1100x2100x201,1100x2100x202,1100x2100x204,4095x4097x33,2048x2050x2052,1031x2053x4099,2304x4096x1,8191x263x1025,3001x5001x4001}"
  quiet_step check-all "$BIN" --cubin "$NEW" --check --fail-if-none
fi
if [ "$CALL" = all ] || [ "$CALL" = bench ]; then
  for round in 1 2; do
    for entry in new="$NEW" old="$OLD"; do
      name="${entry%%=*}"; cubin="${entry#*=}"
      QUIET_PATTERN='^mm_' QUIET_LINES=100 quiet_step "bench-$name-$round" \
        "$BIN" --cubin "$cubin" --bench --fail-if-none \
        --variant "${REPITCH_VARIANTS:-mm_bf16_bf16_rr,mm_f16_f16_rr,mm_bf16_bf16_rc}" \
        --shape "${REPITCH_SHAPES:-4095x4095x4095,4097x4097x4097,4096x4096x4095,4096x4095x4096,4096x4096x4098,4096x4096x4100,3001x5001x4001,8191x3001x6001,8191x8191x8191,128x32768x4095,32768x256x4095,16384x4096x7,4096x4096x4096}" \
        --json "$OUT/bench-$name-$round.json"
    done
  done
fi
if [ "$CALL" = all ] || [ "$CALL" = sanitize ]; then
  quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
    --cubin "$NEW" --check --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f32_cr \
    --shape 1100x2100x201,1031x2053x4099,2304x4096x1
fi
summary
