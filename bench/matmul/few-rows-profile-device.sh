#!/usr/bin/env bash
# The examples on the H200 after the few-rows kernel, then where a
# few-rows launch spends its time:
# 1. gemv-examples-device.sh: every example AOT against its float64
#    reference, and examples/matmul.mlir's kernel (mm_bf16_bf16_rc) through
#    the bench's float64 checks at EXAMPLE_SHAPES (1 to 65 rows here);
# 2. Nsight Compute on that kernel's launches (the few-rows kernel and its
#    sum kernel) and on cuBLAS's at PROFILE_SHAPES: each kernel's duration,
#    DRAM throughput and warp states.
# Here: .device/ex prepared as gemv-examples-device.sh says.
# There: bash bench/matmul/few-rows-profile-device.sh   (carry .device/ex)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-few-rows-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export EXAMPLE_SHAPES="${EXAMPLE_SHAPES:-1x1x1,1x4096x4096,3x4097x4095,16x4096x4096,17x8191x513,33x70001x33,63x2048x2048,64x1x70001,64x129x10000,64x4096x4096,65x257x1000,8x28672x4096,2x1030x4096,7x4096x130}"
OUT="$OUT/examples" bash bench/matmul/gemv-examples-device.sh
echo "examples rc $?"
D=.device/ex; BIN="$D/tilec-matmul-bench"; C="$D/cubins/matmul.cubin"
export TILEC_CACHE_DIR="$(mktemp -d)"
for shape in ${PROFILE_SHAPES:-16x4096x512 16x4096x4096 64x4096x4096 8x28672x4096}; do
  # Times first (a launch is both kernels), then each kernel under ncu.
  "$BIN" --cubin "$C" --bench --variant mm_bf16_bf16_rc --shape "$shape" \
    > "$OUT/bench-$shape.txt" 2>&1
  grep -E '^ *mm_' "$OUT/bench-$shape.txt" | tr -s ' '
  for who in tilec cublas; do
    if [ $who = tilec ]; then filter='regex:^mm_'; else filter='regex:nvjet|gemm|xmma|cutlass|sm90|splitK|reduce'; fi
    ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats \
      --section WarpStateStats --section Occupancy \
      -k "$filter" --launch-skip 6 --launch-count 4 "$BIN" --cubin "$C" --bench \
      --variant mm_bf16_bf16_rc --shape "$shape" > "$OUT/ncu-$who-$shape.txt" 2>&1
    echo "== ncu $who $shape (exit $?)"
    grep -E "^  [a-zA-Z_0-9]+.*\(|Duration|DRAM Throughput|Grid Size" \
      "$OUT/ncu-$who-$shape.txt" | tr -s ' ' | head -16
  done
done
tar czf /tmp/few-rows-profile.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* &&
  mv /tmp/few-rows-profile.tgz "$OUT/"
