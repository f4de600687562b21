#!/usr/bin/env bash
# Few-rows launches of more tiles than the multiprocessors hold (wide N: a
# decode batch times an MLP or vocabulary weight), where the runtime's split
# rule takes no K split and the last wave is partial (224 tiles: 1.7
# waves). An experiment build of the matmul bench reads TILEC_EXP_SPLIT_Z
# (the runtime's split-K count for grids of more programs than fit at
# once) so that each count is timed on the same cubin:
# 1. float64 checks at SHAPES with every count of ZS;
# 2. each count at SHAPES, cuBLAS in each process, in alternating rounds.
# Here: the experiment bench xz-packed as .device/parts/tilec-matmul-bench.xz,
#   bench/matmul/kernels.mlir's cubin as .device/parts/new.cubin.xz.
# There: bash bench/matmul/wave-splits-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-wave-splits}"; mkdir -p "$OUT"
source bench/steps.sh
D=.device/parts; BIN="$D/tilec-matmul-bench"
device_parts "$D"
SHAPES="${SHAPES:-8x28672x4096,16x28672x4096,64x28672x4096,16x20480x4096,16x18432x4096,8x32000x4096,16x28672x8192,16x57344x4096}"
VARIANTS="${VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc}"
ZS="${ZS:-1 2 3 4 6 8}"
for z in $ZS; do
  TILEC_EXP_SPLIT_Z=$z QUIET_LINES=2 quiet_step "check-z$z" "$BIN" --cubin "$D/new.cubin" --check \
    --fail-if-none --variant "$VARIANTS" --shape "${CHECK_SHAPES:-7x28673x4100,64x18433x1030,1x20480x2049}" \
    --json "$OUT/check-z$z.json"
done
for round in 1 2; do
  for z in $ZS; do
    TILEC_EXP_SPLIT_Z=$z QUIET_PATTERN='^ *mm_' QUIET_LINES=16 quiet_step "bench-z$z-$round" \
      "$BIN" --cubin "$D/new.cubin" --bench --fail-if-none --variant "$VARIANTS" \
      --shape "$SHAPES" --json "$OUT/bench-z$z-$round.json"
  done
done
summary
python3 bench/matmul/ab-table.py "$OUT" "$(for z in $ZS; do printf 'z%s,' $z; done | sed 's/,$//')" | tee "$OUT/table.md"
tar czf /tmp/wave-splits.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/wave-splits.tgz "$OUT/"
