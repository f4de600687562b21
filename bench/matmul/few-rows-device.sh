#!/usr/bin/env bash
# The few-rows kernel (C of at most 64 rows: `narrow NAME__few_rows`, the
# main kernel's line on C's rows) on the H200, for each build
# .device/few/BUILD.cubin (bench/matmul/few-rows.mlir compiled by tilec
# with the schedule under test; `old` builds have the few-rows lines
# blanked by strip-metadata-lines.py):
# 1. float64 checks of every build at ragged shapes of 1 to 65 rows, and
#    memcheck of `new`;
# 2. every build at decode shapes, cuBLAS in each process, in alternating
#    rounds (ab-table.py's table of the builds in BUILDS order);
# 3. with PROFILE_BUILDS, Nsight Compute on those builds' kernels and on
#    cuBLAS's at PROFILE_SHAPES (rr).
# Here: the matmul bench xz-packed in .device/parts/tilec-matmul-bench.xz.
# There: bash bench/matmul/few-rows-device.sh   (carry .device/parts .device/few)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
source bench/steps.sh
D=.device/parts; F=.device/few; BIN="$D/tilec-matmul-bench"
[ -f "$BIN.xz" ] && unpack_xz "$BIN.xz"
chmod +x "$BIN"
export TILEC_CACHE_DIR="$(mktemp -d)"
BUILDS="${BUILDS:-$(ls $F/*.cubin | xargs -n1 basename | sed 's/\.cubin$//' | paste -sd,)}"
VARIANTS="${VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f32_rr_acc}"
CHECK_SHAPES="${CHECK_SHAPES:-1x1x1,3x4097x4095,64x129x10000,17x8191x513,63x4096x4096,64x1x70001,33x70001x33,5x3x7,65x257x1000,2x1030x4096,48x1024x65536}"
for b in ${BUILDS//,/ }; do
  QUIET_LINES=3 quiet_step "check-$b" "$BIN" --cubin "$F/$b.cubin" --check --fail-if-none \
    --variant "$VARIANTS" --shape "$CHECK_SHAPES" --json "$OUT/check-$b.json"
done
quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$F/new.cubin" --check --variant "$VARIANTS" --shape "${MEM_SHAPES:-3x4097x4095,64x129x1000,33x1030x33}"
AB_SHAPES="${AB_SHAPES:-1x4096x4096,4x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,16x14336x4096,64x14336x4096,16x4096x14336,64x4096x14336,16x8192x8192,32x1024x4096,16x28672x4096,128x4096x4096,256x4096x4096}"
AB_BUILDS="${BUILDS//,/ }" matmul_ab_rounds "$BIN" "$F" "$VARIANTS" "$AB_SHAPES" "1 2" 50
for b in ${PROFILE_BUILDS:-}; do
  for shape in ${PROFILE_SHAPES:-16x4096x4096}; do
    for who in tilec cublas; do
      [ $who = cublas ] && [ "$b" != "${PROFILE_BUILDS%% *}" ] && continue
      if [ $who = tilec ]; then filter='regex:^mm_'; else filter='regex:nvjet|gemm|xmma|cutlass|sm90|splitK|reduce'; fi
      ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats \
        -k "$filter" --launch-skip 6 --launch-count 2 "$BIN" --cubin "$F/$b.cubin" --bench \
        --variant mm_bf16_bf16_rr --shape "$shape" > "$OUT/ncu-$who-$b-$shape.txt" 2>&1
      echo "== ncu $who $b $shape (exit $?)"
      grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|DRAM Throughput|Memory Throughput|Grid Size|Registers Per|Dynamic Shared" \
        "$OUT/ncu-$who-$b-$shape.txt" | head -16
    done
  done
done
summary
python3 bench/matmul/ab-table.py "$OUT" "$BUILDS" | tee "$OUT/table.md"
tar czf /tmp/few-rows.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/few-rows.tgz "$OUT/"
