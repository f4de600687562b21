#!/usr/bin/env bash
# Issue 18: the small-grid matmul kernel shares the main kernel's
# per-thread-copy twin instead of having its own. One device call:
# 1. the checker on the new bench cubin: every variant at every kernel
#    path, float64 checks at ragged shapes, memcheck;
# 2. the fallback's cost where only it can run: both cubins with their
#    `repitch` lines blanked (strip-metadata-lines.py), so that misaligned
#    small grids take the twin: `before` the small-grid twin, `after` the
#    main kernel's twin; and with the lines, where both copy and run the
#    same small-grid kernel (a control);
# 3. the runtime, kernel-wrapper and JIT tests (the JIT test launches a
#    small grid with A strided by 2, which must take the main twin).
# Here: tilec bench/matmul/kernels.mlir -o .device/bench/after.cubin (and
#       the previous compiler's build as before.cubin)
# There: bash bench/matmul/shared-twin-device.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-shared-twin}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN"
source bench/steps.sh  # quiet_step, summary
for name in after before; do
  python3 bench/matmul/strip-metadata-lines.py repitch \
    ".device/bench/$name.cubin" "$OUT/$name-no-repitch.cubin"
done
quiet_step check-all "$BIN" --cubin .device/bench/after.cubin --check --fail-if-none
quiet_step check-ragged "$BIN" --cubin .device/bench/after.cubin --check --fail-if-none \
  --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_f32_rr_acc,mm_f32_f32_rr \
  --shape 1x1x1,7x13x5,129x257x65,1000x1003x517,127x129x4097,1024x1024x1023,4096x128x4095,2048x1024x2047
quiet_step check-fallback "$BIN" --cubin "$OUT/after-no-repitch.cubin" --check --fail-if-none \
  --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_f32_rr_acc \
  --shape 1x1x1,7x13x5,129x257x65,1000x1003x517,127x129x4097,1024x1024x1023,4096x128x4095,2048x1024x2047
quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$OUT/after-no-repitch.cubin" --check --variant mm_bf16_bf16_rc,mm_bf16_f32_rr_acc \
  --shape 1000x1003x517,129x264x65,127x129x4097
SHAPES="${TWIN_SHAPES:-1000x1003x517,127x129x4097,1024x1024x1023,512x2048x4095,4096x128x4095,2048x1024x2047,128x8191x4096}"
for round in 1 2; do
  for cubin in after-no-repitch before-no-repitch; do
    QUIET_PATTERN='^mm_' QUIET_LINES=100 quiet_step "bench-$cubin-$round" \
      "$BIN" --cubin "$OUT/$cubin.cubin" --bench --fail-if-none --variant mm_bf16_bf16_rr \
      --shape "$SHAPES" --json "$OUT/bench-$cubin-$round.json"
  done
  for cubin in after before; do
    QUIET_PATTERN='^mm_' QUIET_LINES=100 quiet_step "bench-$cubin-$round" \
      "$BIN" --cubin ".device/bench/$cubin.cubin" --bench --fail-if-none --variant mm_bf16_bf16_rr \
      --shape "$SHAPES" --json "$OUT/bench-$cubin-$round.json"
  done
done
quiet_step matmul-example "$BIN" --cubin .device/bench/matmul-example.cubin --check \
  --fail-if-none --variant mm_bf16_bf16_rc \
  --shape 1x1x1,7x13x5,33x65x17,1000x1003x517,4096x4096x4096,16384x128x1000,8192x64x333,127x129x4097
quiet_step runtime-tests .device/tilec_runtime_tests
quiet_step wrapper-tests .device/tilec_kernel_wrapper_tests
if [ -f .device/tilec_jit_tests.gz ]; then
  gunzip -kf .device/tilec_jit_tests.gz && chmod +x .device/tilec_jit_tests
  quiet_step jit-tests .device/tilec_jit_tests
fi
summary
