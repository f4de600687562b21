#!/usr/bin/env bash
# Tiles of the GEMV program over a matrix whose lines are contiguous (B
# stored [K, N] for the vector-matrix kernel, A stored [K, M] for the GEMV
# kernel) on the H200: BUILDS (default: old new cm16 cm8) of
# bench/matmul/kernels.mlir, each .device/parts/NAME.cubin[.xz], `old`
# being new.cubin with its vecmat lines blanked; cmR.cubin a build with
# kGemvColumnMajorRows = R (and 4096 / R of K a step). Float64 checks of
# each build's row-major and column-major variants at ragged shapes, then
# alternating timed rounds against cuBLAS.
# There: bash bench/matmul/vecmat-tiles-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-vecmat-tiles}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
source bench/steps.sh
D=.device/parts
for f in "$D"/*.xz; do
  case "$f" in *tilec_jit_tests.xz) continue ;; esac
  [ -f "${f%.xz}" ] || unpack_xz "$f"
done
chmod +x "$D/tilec-matmul-bench"
python3 bench/matmul/strip-metadata-lines.py narrow:__vecmat "$D/new.cubin" "$D/old.cubin"
BUILDS="${BUILDS:-old new cm16 cm8}"
for build in $BUILDS; do
  [ "$build" = old ] && continue
  QUIET_LINES=3 quiet_step "check-$build" "$D/tilec-matmul-bench" --cubin "$D/$build.cubin" \
    --check --fail-if-none --variant mm_bf16_bf16_rr,mm_f32_f32_rr,mm_bf16_bf16_cr,mm_f16_f32_cc_acc \
    --shape 1x4097x4095,2x70001x33,1x3x100,4097x1x4095,33x2x70001 --json "$OUT/check-$build.json"
done
AB_BUILDS="$BUILDS" matmul_ab_rounds "$D/tilec-matmul-bench" "$D" mm_bf16_bf16_rr,mm_f32_f32_rr \
  "${AB_SHAPES:-1x4096x4096,1x8192x8192,1x14336x4096,1x4096x14336,1x1024x4096,1x32000x4096,2x4096x4096,1x4095x4097,4x4096x4096}" "1 2" 20
summary
tar czf /tmp/tiles.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/tiles.tgz "$OUT/"
