#!/usr/bin/env bash
# The runtime's staging copies by its own copy kernels
# (runtime/kernels/staging-copy.mlir) against the driver's cuMemcpy2DAsync,
# checked and timed in one device call. `new` is the bench as built here
# (the runtime with the embedded copy kernels); `old` is the same bench
# built without the compiler (-DTILEC_ENABLE_COMPILER=OFF: no embedded
# kernels, every staging copy by the driver), both on the same cubin of
# bench/matmul/kernels.mlir. Steps: the copy kernels' shapes
# (bench/repitch/copy-shapes-device.sh), the runtime's and wrappers' GPU
# tests, the checker's run of every kernel path, float64 checks at odd
# shapes (staged A, B and C, in and out), memcheck, then old and new in
# alternating rounds at the staged-c shapes, cuBLAS in each process.
# Here:
#   ninja -C build tilec-matmul-bench tilec_runtime_tests \
#     tilec_kernel_wrapper_tests tilec-copy-shapes
#   cmake -S . -B build-driver-copy -G Ninja -DCMAKE_BUILD_TYPE=Release \
#     -DTILEC_ENABLE_COMPILER=OFF -DTILEC_ENABLE_TESTS=OFF
#   ninja -C build-driver-copy tilec-matmul-bench
#   mkdir -p .device/parts && cp build/bench/matmul/tilec-matmul-bench \
#     build/runtime/test/tilec_runtime_tests build/test/tilec_kernel_wrapper_tests \
#     build/bench/repitch/tilec-copy-shapes .device/parts/
#   cp build-driver-copy/bench/matmul/tilec-matmul-bench .device/parts/tilec-matmul-bench-old
#   strip .device/parts/tilec*
#   build/bin/tilec bench/matmul/kernels.mlir -o .device/parts/new.cubin
#   build/bin/tilec bench/repitch/copy-shapes.mlir -o .device/parts/copy-shapes.cubin
# There: bash bench/matmul/staging-kernel-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-staging-kernel}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/parts
chmod +x "$D"/tilec*
source bench/steps.sh
quiet_step copy-shapes bash bench/repitch/copy-shapes-device.sh
grep -E "memcpy2d|4x512|failed" "$OUT/copy-shapes.log" | head -30
matmul_check_steps "$D" "$D/new.cubin" \
  "${CHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f16_f16_cr,mm_bf16_bf16_cc,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_f16_f32_rc,mm_f32_f32_rr}" \
  "${CHECK_SHAPES:-1x1x1,1x1x4097,7x13x5,33x7x5000,127x129x4097,300x301x9001,1000x1003x517,1031x2053x4099,4096x1x4096,2048x2047x64,4095x4097x33,8191x263x1025,100x50x70001,3001x5001x4001,1024x1024x1024}" \
  "${MEMCHECK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_f32_rr_acc,mm_f16_f16_rr_acc,mm_f32_f32_rr}" \
  "${MEMCHECK_SHAPES:-1x1x4097,129x257x2049,1031x2053x99}"
SHAPES="${BENCH_SHAPES:-4095x4095x4095,4097x4097x4097,4096x4095x4096,3001x5001x4001,8191x3001x6001,8191x8191x8191,128x32767x4096,1000x1003x517,1024x1023x1025,127x129x4097,333x4097x4099,1x1x4097,1x4095x4096,4096x1x4096,8192x1x8192,4096x7x4096,4096x4096x4096,1000x1000x1000}"
for round in ${ROUNDS:-1 2}; do
  for build in old new; do
    bin="$D/tilec-matmul-bench"; [ "$build" = old ] && bin="$D/tilec-matmul-bench-old"
    QUIET_PATTERN='^ *mm_' QUIET_LINES=4 quiet_step "bench-$build-$round" \
      "$bin" --cubin "$D/new.cubin" --bench --fail-if-none \
      --variant "${BENCH_VARIANT:-mm_bf16_bf16_rr,mm_bf16_bf16_rc}" \
      --shape "$SHAPES" --json "$OUT/bench-$build-$round.json"
  done
done
summary
python3 bench/matmul/ab-table.py "$OUT" > "$OUT/table.md" 2>&1; cat "$OUT/table.md" | head -60
# Everything in one archive: a device call brings back a few files only.
tar czf /tmp/staging-kernel.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* &&
  mv /tmp/staging-kernel.tgz "$OUT/"
