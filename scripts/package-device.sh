#!/usr/bin/env bash
# Packs what bench/gpu-check.sh needs on the GPU machine (which has CUDA but
# no LLVM/MLIR) into .device/: the example cubins compiled here by tilec, the
# JIT-capable example runner and JIT example (statically linked, stripped,
# gzipped), the runtime unit tests and the tests of the kernel wrappers
# tilec_add_kernels generates (test/kernel-wrappers). Usage: bash scripts/package-device.sh  (after a build)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${TILEC_BUILD_DIR:-$ROOT/build}"
DEST="$ROOT/.device"
rm -rf "$DEST" && mkdir -p "$DEST/cubins" "$DEST/bench"

ninja -C "$BUILD" tilec tilec-run-examples tilec-run-examples-aot \
  tilec-jit-rowsum tilec_runtime_tests tilec_kernel_wrapper_tests >/dev/null
for src in "$ROOT"/examples/*.mlir; do
  name="$(basename "$src" .mlir)"
  "$BUILD/bin/tilec" "$src" -o "$DEST/cubins/$name.cubin"
  "$BUILD/bin/tilec" "$src" --emit=ptx -o "$DEST/cubins/$name.ptx"
  # Hand-written block programs tuned for sm_90a may need more shared
  # memory than an sm_80 block has (tilec says so and makes no cubin).
  "$BUILD/bin/tilec" "$src" --arch=sm_80 -o "$DEST/cubins/$name.sm_80.cubin" ||
    echo "note: no sm_80 cubin for $name" >&2
done
for exe in examples/tilec-run-examples examples/tilec-run-examples-aot \
           examples/tilec-jit-rowsum runtime/test/tilec_runtime_tests \
           test/tilec_kernel_wrapper_tests; do
  strip -o "$DEST/$(basename "$exe")" "$BUILD/$exe"
done
gzip -6 "$DEST/tilec-run-examples" "$DEST/tilec-jit-rowsum"
du -sh "$DEST"

# The matmul harness (bench/matmul-gpu.sh): tilec-matmul-bench (it links only
# the runtime and, dynamically, the toolkit's cuBLAS, so it stays small); the
# matmul cubin, once tilec can compile bench/matmul/kernels.mlir; and the
# nvcc-built naive kernels that test the harness itself (in matmul-test/, not
# cubins/, which gpu-check.sh walks).
if ninja -C "$BUILD" -t targets all 2>/dev/null | grep -q '^tilec-matmul-bench:'; then
  ninja -C "$BUILD" tilec-matmul-bench >/dev/null
  strip -o "$DEST/tilec-matmul-bench" "$BUILD/bench/matmul/tilec-matmul-bench"
else
  echo "warning: no tilec-matmul-bench target (CUDA toolkit without cuBLAS?)" >&2
fi
if [ -f "$ROOT/bench/matmul/kernels.mlir" ]; then
  "$BUILD/bin/tilec" "$ROOT/bench/matmul/kernels.mlir" -o "$DEST/bench/matmul.cubin" ||
    { rm -f "$DEST/bench/matmul.cubin"
      echo "warning: tilec cannot compile bench/matmul/kernels.mlir; no matmul.cubin" >&2; }
fi
# The scan bench (bench/scan-gpu.sh): its runner and the scans it times.
ninja -C "$BUILD" tilec-scan-bench >/dev/null
strip -o "$DEST/tilec-scan-bench" "$BUILD/bench/scan/tilec-scan-bench"
"$BUILD/bin/tilec" "$ROOT/bench/scan/kernels.mlir" -o "$DEST/bench/scan.cubin"
# Its CUB peer, built with nvcc (bench/scan/build-cub-scan.sh says why).
NVCC="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc"
if [ -x "$NVCC" ]; then
  bash "$ROOT/bench/scan/build-cub-scan.sh" "$DEST/tilec-cub-scan" ||
    { rm -f "$DEST/tilec-cub-scan"; echo "warning: cannot build tilec-cub-scan" >&2; }
else
  echo "warning: no nvcc; no tilec-cub-scan (bench/scan-gpu.sh's cub step fails)" >&2
fi
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  bash "$ROOT/bench/matmul/make-test-cubins.sh" "$DEST/matmul-test" ||
    echo "warning: cannot build the matmul harness's test cubins" >&2
fi
du -sh "$DEST"
