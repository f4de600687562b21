#!/usr/bin/env bash
# Issue 17, item 5, staging copies (launch metadata `repitch`): one device
# call. Steps: the runtime's GPU tests and the JIT's (the hand-written TMA
# fixture with a repitch line; a JIT matmul at K = 71 that must not compile a
# twin); float64 checks of the matmul bench's kernels at unaligned ragged
# shapes, every kernel path; timings of the new cubin against the same
# cubin with its repitch lines blanked (bench/matmul/strip-metadata-lines.py repitch: the
# per-thread-copy twins as before), cuBLAS in the same process, two rounds
# in alternation; memcheck at shapes that stage.
# Here: .device/ holding tilec-matmul-bench, tilec_runtime_tests,
# tilec_kernel_wrapper_tests, tilec-run-examples-aot, tilec_jit_tests.gz
# (stripped, gzipped), bench/matmul.cubin and cubins/ (the examples' sm_90a
# cubins), all from scripts/package-device.sh's build.
# There: [REPITCH_CALL=checks|bench|sanitize|examples] bash bench/matmul/repitch-device.sh
# (default: all but examples; results under $OUT). REPITCH_BENCH="name=cubin
# ..." and REPITCH_ROUNDS choose the timed builds, REPITCH_EXTRA_CHECK=
# name=cubin checks a second build as the first.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-repitch}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN" .device/tilec_runtime_tests
source bench/steps.sh
NEW=.device/bench/matmul.cubin
OLD=.device/bench/matmul-no-repitch.cubin
python3 bench/matmul/strip-metadata-lines.py repitch "$NEW" "$OLD"
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
  if [ -n "${REPITCH_EXTRA_CHECK:-}" ]; then  # name=cubin: the same checks
    QUIET_PATTERN='FAIL|passed|failed' quiet_step "check-${REPITCH_EXTRA_CHECK%%=*}" \
      "$BIN" --cubin "${REPITCH_EXTRA_CHECK#*=}" --check --fail-if-none \
      --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_bf16_cc,mm_bf16_f32_rr_acc,mm_f16_f32_rc,mm_f32_f32_rr \
      --shape "${REPITCH_CHECK_SHAPES:-1x1x1,7x13x5,127x129x4097,1100x2100x201,1100x2100x202,1100x2100x204,4095x4097x33,2048x2050x2052,1031x2053x4099,2304x4096x1,8191x263x1025,3001x5001x4001}"
    quiet_step "check-all-${REPITCH_EXTRA_CHECK%%=*}" "$BIN" --cubin "${REPITCH_EXTRA_CHECK#*=}" --check --fail-if-none
  fi
  if [ -f .device/tilec_kernel_wrapper_tests ]; then
    chmod +x .device/tilec_kernel_wrapper_tests
    quiet_step kernel-wrappers .device/tilec_kernel_wrapper_tests --gtest_brief=1
  fi
fi
if [ "$CALL" = all ] || [ "$CALL" = bench ]; then
  for round in $(seq 1 "${REPITCH_ROUNDS:-2}"); do
    for entry in ${REPITCH_BENCH:-new=$NEW old=$OLD}; do
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
    --cubin "${REPITCH_MEMCHECK_CUBIN:-$NEW}" --check --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f32_cr \
    --shape "${REPITCH_MEMCHECK_SHAPES:-1100x2100x201,1031x2053x4099,2304x4096x1}"
fi
if [ "$CALL" = examples ]; then
  chmod +x .device/tilec-run-examples-aot
  quiet_step examples-aot .device/tilec-run-examples-aot --cubin-dir .device/cubins --mode aot \
    --json "$OUT/examples.json"
  quiet_step matmul-example "$BIN" --cubin .device/cubins/matmul.cubin --check \
    --fail-if-none --variant mm_bf16_bf16_rc --shape 1x1x1,7x13x5,33x65x17,1000x1003x517,1000x1003x518,4096x4096x4095,4096x4096x4096
fi
summary
