#!/usr/bin/env bash
# The GEMV kernels (C of one column: `narrow NAME__gemv`; of one row,
# NARROW_WORD=__vecmat: `narrow NAME__vecmat`), on the H200:
# 0. the JIT's tests, when .device/parts has them;
# 1. hand-written GEMV programs of other shapes (.device/gemv/R-D-W.cubin,
#    bench/matmul/gemv-sweep.py: R rows, D K elements a step, W warps, rr
#    only) against cuBLAS, to choose the schedule;
# 2. float64 checks of every variant of `new` (bench/matmul/kernels.mlir)
#    at shapes of one column, the odd ones included; with the runtime's
#    tests in .device/parts, matmul_check_steps (runtime, wrappers, every
#    kernel path, memcheck) with those shapes;
# 3. `old` (the same cubin with its NARROW_WORD narrow lines blanked: the
#    kernels the launch took before run) against `new`, cuBLAS in each
#    process, in alternating rounds.
# CHECK_SHAPES, MEM_VARIANTS, MEM_SHAPES, AB_SHAPES and AB_VARIANTS
# override the one-column defaults.
# SWEEP_ONLY=1 stops after step 1.
# Here: python3 bench/matmul/gemv-sweep.py --build R-D-W ... (fills
# .device/gemv), and
# the matmul bench and kernels.mlir's cubin as new.cubin in .device/parts.
# There: bash bench/matmul/gemv-device.sh   (carry .device/parts .device/gemv)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-gemv}"; mkdir -p "$OUT"
D=.device/parts; BIN="$D/tilec-matmul-bench"
source bench/steps.sh
# Binaries and cubins come xz-packed (BUILD.cubin.xz for each build named
# by AB_BUILDS).
device_parts "$D"
python3 bench/matmul/strip-metadata-lines.py "narrow:${NARROW_WORD:-__gemv}" "$D/new.cubin" "$D/old.cubin"
[ -x "$D/tilec_jit_tests" ] &&
  QUIET_PATTERN='PASSED|FAILED|passed' quiet_step jit-tests "$D/tilec_jit_tests" --gtest_brief=1
SWEEP_SHAPES="${SWEEP_SHAPES:-4096x1x4096,8192x1x8192,1024x1x8192,16384x1x4096,4096x1x16384,65536x1x1024,4096x2x4096,4096x8x4096}"
for cubin in .device/gemv/*.cubin; do
  [ -e "$cubin" ] || continue
  name="sweep-$(basename "$cubin" .cubin)"
  QUIET_PATTERN='^ *mm_' QUIET_LINES=12 quiet_step "$name" "$BIN" --cubin "$cubin" \
    --bench --fail-if-none --variant mm_bf16_bf16_rr --shape "$SWEEP_SHAPES" --json "$OUT/$name.json"
done
if [ -n "${SWEEP_ONLY:-}" ]; then
  summary
  tar czf /tmp/gemv.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/gemv.tgz "$OUT/"
  exit 0
fi
CHECK_SHAPES="${CHECK_SHAPES:-1x1x1,1x1x4097,7x1x5,33x1x70001,100x1x3,4097x1x4095,4096x1x4096,10000x1x129,65537x1x33,513x1x8191,1031x1x1}"
if [ -x "$D/tilec_runtime_tests" ]; then
  # The runtime's, the wrappers' and the checker's tests (every kernel
  # path), float64 checks of every variant at CHECK_SHAPES, memcheck.
  ALL_VARIANTS="$(grep -o '@mm_[a-z0-9_]*' bench/matmul/kernels.mlir | tr -d @ | paste -sd,)"
  matmul_check_steps "$D" "$D/new.cubin" "$ALL_VARIANTS" "$CHECK_SHAPES" \
    "${MEM_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_cc,mm_f32_f32_cr,mm_f16_f32_rr_acc}" "${MEM_SHAPES:-4097x1x4095,33x1x70001,100x1x3}"
else
  QUIET_LINES=3 quiet_step check "$BIN" --cubin "$D/new.cubin" --check --fail-if-none \
    --shape "$CHECK_SHAPES" --json "$OUT/check.json"
fi
AB_SHAPES="${AB_SHAPES:-4096x1x4096,8192x1x8192,14336x1x4096,4096x1x14336,1024x1x4096,512x1x8192,65536x1x1024,4097x1x4095,1x1x4097}"
matmul_ab_rounds "$BIN" "$D" "${AB_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_cr,mm_f32_f32_rr,mm_bf16_f32_rr_acc}" \
  "$AB_SHAPES" "1 2" 40
summary
python3 bench/matmul/ab-table.py "$OUT" | tee "$OUT/table.md"
tar czf /tmp/gemv.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/gemv.tgz "$OUT/"
