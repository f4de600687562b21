#!/usr/bin/env bash
# Packs .device/final for run.sh (here, after a build): the scan bench and
# its cubin, CUB's runner, the examples runner with the cubins of the
# examples that scan, the runtime's tests, and scan_f32 from the compiler
# before the epochs and from this one. BEFORE_TILEC: the 6144/1024 compiler of the piece sweep
# (bench/results/2026-11-30-h200-start), the tiling of cd7e1ef, whose scans
# ask for a zero-fill before every launch.
#   bash bench/results/2026-11-30-h200-epochs/package.sh BEFORE_TILEC
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=.device/final
rm -rf "$D" && mkdir -p "$D/cubins"
ninja -C build tilec tilec-scan-bench tilec-run-examples-aot tilec_runtime_tests >/dev/null
strip -o "$D/tilec-scan-bench" build/bench/scan/tilec-scan-bench
strip -o "$D/tilec-run-examples-aot" build/examples/tilec-run-examples-aot
strip -o "$D/tilec_runtime_tests" build/runtime/test/tilec_runtime_tests
[ -x .device/tilec-cub-scan ] || bash bench/scan/build-cub-scan.sh .device/tilec-cub-scan
cp .device/tilec-cub-scan "$D/"
mkdir -p "$D/bench"
build/bin/tilec bench/scan/kernels.mlir -o "$D/bench/scan.cubin"
for ex in scan scan_pair rowcumsum recurrence colsum matmul_cumsum; do
  build/bin/tilec "examples/$ex.mlir" -o "$D/cubins/$ex.cubin"
done
echo 'tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()' > "$D/scan_f32.mlir"
"$1" "$D/scan_f32.mlir" -o "$D/before.cubin"
build/bin/tilec "$D/scan_f32.mlir" -o "$D/epochs.cubin"
du -sh "$D"
