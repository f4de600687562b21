#!/usr/bin/env bash
# A's boxes fitted to A's rows in every 16-bit warpgroup-MMA matmul kernel
# (main, small-grid, split; before only the few-rows kernels), for C of
# 65 to 127 rows, whose 128-row tiles were half or more zeros, on the
# H200: every kernel path of allfit.cubin (bench/matmul/kernels.mlir),
# float64 checks of every variant at C of 65 to 127 rows and ragged
# controls, memcheck, examples/matmul.mlir's kernel; then `thin` (the
# compiler before it) against `allfit`, cuBLAS in each process, two
# alternating rounds. Results straight to $OUT (at most 8 files come
# back: the check logs are summarised in the call's output).
# Here: thin.cubin.xz (.device/thin), allfit.cubin.xz, matmul.cubin and the
#   bench (xz) in .device/allfit.
# There: bash bench/matmul/fit-rows-all-device.sh   (carry .device/allfit)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-fit-rows-all}"; mkdir -p "$OUT/logs"
source bench/steps.sh
D="${PARTS:-.device/allfit}"; BIN="$D/tilec-matmul-bench"
device_parts "$D"
ALL_VARIANTS="$(grep -o '@mm_[a-z0-9_]*' bench/matmul/kernels.mlir | tr -d @ | paste -sd,)"
SHAPES="${CHECK_SHAPES:-65x4096x4096,72x8192x1000,96x4096x4100,100x14336x513,127x8191x2049,80x28672x300,96x16896x130,65x257x1000,127x1x4097,128x128x1024,1000x1003x517,129x4097x4095}"
OUT_ALL="$OUT"; OUT="$OUT/logs"
quiet_step check-all "$BIN" --cubin "$D/allfit.cubin" --check --fail-if-none --json "$OUT/check-all.json"
QUIET_LINES=3 quiet_step check-parts "$BIN" --cubin "$D/allfit.cubin" --check --fail-if-none \
  --variant "$ALL_VARIANTS" --shape "$SHAPES" --json "$OUT/check-parts.json"
quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$D/allfit.cubin" --check --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  --shape 72x8192x1000,96x16896x130,127x8191x2049
QUIET_LINES=3 quiet_step matmul-example "$BIN" --cubin "$D/matmul.cubin" --check --fail-if-none \
  --shape 65x4096x4096,100x14336x513,127x1x4097,96x16896x130,64x8192x4096,4096x4096x4096 \
  --json "$OUT/matmul-example.json"
OUT="$OUT_ALL"
AB_BUILDS="thin allfit" matmul_ab_rounds "$BIN" "$D" mm_bf16_bf16_rr,mm_bf16_bf16_rc \
  "${AB_SHAPES:-65x4096x4096,72x8192x4096,96x4096x4096,100x14336x4096,127x8192x4096,80x28672x4096,96x16896x4096,128x4096x4096,2048x2048x2048,4096x4096x4096,1000x1003x517,8x28672x4096}" \
  "1 2" 30
summary
mv "$OUT"/bench-*.log "$OUT/logs/"
tar czf /tmp/logs.tgz -C "$OUT/logs" . && rm -rf "$OUT/logs" && mv /tmp/logs.tgz "$OUT/"
