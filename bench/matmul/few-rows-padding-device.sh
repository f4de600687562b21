#!/usr/bin/env bash
# Whether C's padding rows cost the few-rows kernels time: one kernel and
# grid (the 64x128 tiles unsplit at N = 14336, 112 tiles; the wide tiles at
# N = 28672) timed at 3 to 64 rows, cuBLAS in each process, two rounds.
# Here: .device/ex as gemv-examples-device.sh says.
# There: bash bench/matmul/few-rows-padding-device.sh   (carry .device/ex)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-padding}"; mkdir -p "$OUT"
source bench/steps.sh
D=.device/ex
device_parts "$D"
SHAPES="${SHAPES:-3x14336x4096,8x14336x4096,16x14336x4096,17x14336x4096,32x14336x4096,48x14336x4096,64x14336x4096,3x28672x4096,16x28672x4096,64x28672x4096}"
for round in 1 2; do
  QUIET_PATTERN='^ *mm_' QUIET_LINES=12 quiet_step "bench-$round" "$D/tilec-matmul-bench" \
    --cubin "$D/cubins/matmul.cubin" --bench --fail-if-none --variant mm_bf16_bf16_rc \
    --shape "$SHAPES" --json "$OUT/bench-$round.json"
done
summary
