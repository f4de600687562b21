#!/usr/bin/env bash
# The matmul GPU run: on the GPU machine (CUDA 13 toolkit with cuBLAS, no
# LLVM/MLIR), over the tree packed by scripts/package-device.sh:
#   here:  bash scripts/package-device.sh
#   there: bash bench/matmul-gpu.sh     (results under $OUT, default /tmp/tilec-matmul)
# Steps (see bench/matmul/README.md):
#   selftest-*   the harness on nvcc-built naive kernels (.device/matmul-test):
#                the correct ones pass, the broken ones (last row of C not
#                written; last k term dropped) fail
#   check        every matmul kernel in the cubin on 30 shapes vs float64
#   bench        bf16/f16/f32 against cuBLAS, each result verified first
#   memcheck     compute-sanitizer memcheck on three ragged shapes (the last
#                one with 16-byte rows, so that sm_90a runs its TMA path)
#   racecheck    compute-sanitizer racecheck (shared memory) on two ragged
#                shapes (the TMA path and the per-thread-copy fallback)
#   report       SVG chart and markdown table of the bench JSON
# MATMUL_CUBIN overrides the cubin (default .device/bench/matmul.cubin).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-matmul}"
mkdir -p "$OUT"
D=.device
BIN="$D/tilec-matmul-bench"
CUBIN="${MATMUL_CUBIN:-$D/bench/matmul.cubin}"
TEST="$D/matmul-test"
export PATH="/usr/local/cuda/bin:$PATH"
# libcublas.so.13: the binary's RUNPATH names these too; this is the fallback.
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$BIN" 2>/dev/null

# Variants for the sanitizers: every input type and layout kind; the ones the
# cubin lacks are SKIP rows.
SANITIZE_VARIANTS=mm_bf16_bf16_rr,mm_f16_f16_rr,mm_f32_f32_rr,mm_f16_f32_rc,mm_bf16_f32_cr,mm_f32_f32_cc,mm_bf16_f32_rr_acc,mm_f32_f32_rr_acc
# Ragged shapes for every kernel path: small grids (the small-grid kernels,
# with and without TMA: 1000x1003x517 has rows that are not 16-byte aligned,
# 136x264x1000 has), and grids large enough for the main kernels
# (1096x2104x200 aligned for TMA, 1100x2100x201 not).
SANITIZE_SHAPES=1000x1003x517,127x129x4097,136x264x1000,1096x2104x200,1100x2100x201
STEPS=(selftest-naive selftest-broken-row selftest-broken-k check bench
       memcheck racecheck report)

declare -A status
step() { # step NAME COMMAND...: runs, logs to $OUT/NAME.log, records PASS/FAIL
  local name="$1"; shift
  echo; echo "== $name: $*"
  "$@" 2>&1 | tee "$OUT/$name.log"
  local rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then status[$name]=PASS; else status[$name]="FAIL($rc)"; fi
}
expect_failures() { # expect_failures CUBIN: every run of the broken kernels fails
  local out
  out="$("$BIN" --cubin "$1" --check --shape 33x65x17,1000x1003x517 \
         --variant mm_f32_f32_rr,mm_bf16_f16_cr_acc,mm_f16_f32_cc --seed 1)"
  echo "$out"
  [ "$(tail -n 1 <<<"$out")" = "0 passed, 6 failed" ]
}
need_cubin() { # the real steps need the tilec cubin
  [ -f "$CUBIN" ] || { echo "no $CUBIN (tilec cannot compile the matmul kernels yet?)"; return 1; }
}
# --fail-if-none: a cubin without any matmul kernel must not pass vacuously.
check() {
  need_cubin && "$BIN" --cubin "$CUBIN" --check --fail-if-none \
    --json "$OUT/matmul-check.json"
}
bench() {
  need_cubin && "$BIN" --cubin "$CUBIN" --bench --fail-if-none \
    --json "$OUT/matmul-bench.json"
}
memcheck() {
  need_cubin && timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BIN" --cubin "$CUBIN" --check --fail-if-none \
    --shape "$SANITIZE_SHAPES" --variant "$SANITIZE_VARIANTS"
}
racecheck() {
  need_cubin && timeout 300 compute-sanitizer --tool racecheck --error-exitcode 9 \
    "$BIN" --cubin "$CUBIN" --check --fail-if-none --shape 127x129x1023,136x264x1000,1096x2104x200 \
    --variant mm_bf16_bf16_rr,mm_f32_f32_rr
}
report() {
  [ -f "$OUT/matmul-bench.json" ] || { echo "no bench JSON"; return 1; }
  python3 bench/matmul/plot.py "$OUT/matmul-bench.json" --svg "$OUT/matmul-bench.svg" &&
    python3 bench/matmul/plot.py "$OUT/matmul-bench.json" --table | tee "$OUT/matmul-bench.md"
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader
  if [ -f "$TEST/naive.cubin" ]; then
    step selftest-naive "$BIN" --cubin "$TEST/naive.cubin" --check \
      --shape 1x1x1,7x13x5,33x65x17,513x257x1,1x1x4097,127x129x1023,8192x16x1024,1000x1003x517 \
      --json "$OUT/selftest-naive.json"
    step selftest-broken-row expect_failures "$TEST/naive-broken-row.cubin"
    step selftest-broken-k expect_failures "$TEST/naive-broken-k.cubin"
  fi
  step check check
  step bench bench
  step memcheck memcheck
  step racecheck racecheck
  step report report

  echo; echo "== summary"
  passed=0 failed=0
  for k in "${STEPS[@]}"; do
    printf '  %-20s %s\n' "$k" "${status[$k]:-not run}"
    [ "${status[$k]:-}" = PASS ] && passed=$((passed + 1)) || failed=$((failed + 1))
  done
  echo "$passed passed, $failed failed"
} 2>&1 | tee "$OUT/matmul-gpu.log"
