#!/usr/bin/env bash
# Issue 17: a candidate build of the matmul bench's kernels against the
# committed one, in one device call. Steps: the checker's built-in run of
# every variant at every kernel path (first cubin), float64 checks at
# ragged shapes, memcheck; then timings of every cubin against cuBLAS in
# the same process, two rounds in alternation (the spread between rounds
# is the noise). Here: tilec bench/matmul/kernels.mlir -o .device/bench/X.cubin
# There: COMPARE_CUBINS="new=.device/bench/X.cubin old=..." bash bench/matmul/compare-device.sh
#   (COMPARE_CHECKED="new old" checks both; COMPARE_CHECK_VARIANTS,
#   COMPARE_SHAPES, COMPARE_VARIANTS as named)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-compare}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN"
CUBINS="${COMPARE_CUBINS:-new=.device/bench/producer.cubin}"
SHAPES="${COMPARE_SHAPES:-2048x2048x2048,4096x4096x4096,8192x8192x8192,3000x5000x4000,8000x3000x6000,4096x4096x16384}"
CHECK_SHAPES="${COMPARE_CHECK_SHAPES:-1x1x1,7x13x5,128x256x64,129x257x65,128x256x192,1000x1003x520,4096x4096x1,1031x2053x4099,8191x263x1024,2304x4096x520,3000x5000x4000,1031x2056x4104,5000x3000x64}"
source bench/steps.sh  # quiet_step, summary (the working directory is the root)
# The checks run on the first cubin, or on each of COMPARE_CHECKED (names).
first="${CUBINS%% *}"; first="${first%%=*}"
for entry in $CUBINS; do
  name="${entry%%=*}"; cubin="${entry#*=}"
  case " ${COMPARE_CHECKED:-$first} " in *" $name "*) ;; *) continue ;; esac
  quiet_step "check-all-$name" "$BIN" --cubin "$cubin" --check --fail-if-none
  quiet_step "check-ragged-$name" "$BIN" --cubin "$cubin" --check --fail-if-none \
    --variant "${COMPARE_CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_f32_rr_acc,mm_f32_f32_rr}" \
    --shape "$CHECK_SHAPES"
  quiet_step "memcheck-$name" compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
    --cubin "$cubin" --check --variant mm_bf16_bf16_rc,mm_bf16_f32_rr_acc,mm_f32_f32_cc \
    --shape 1000x1008x520,129x264x65,1x8x8,2304x4096x200,1031x2056x136
done
for round in 1 2; do
  for entry in $CUBINS; do
    name="${entry%%=*}"; cubin="${entry#*=}"
    QUIET_PATTERN='^mm_' QUIET_LINES=100 quiet_step "bench-$name-$round" \
      "$BIN" --cubin "$cubin" --bench --fail-if-none --variant "${COMPARE_VARIANTS:-mm_bf16_bf16_rr,mm_f16_f16_rr}" \
      --shape "$SHAPES" --json "$OUT/bench-$name-$round.json"
  done
done
summary
