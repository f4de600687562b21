#!/usr/bin/env bash
# Packs what bench/gpu-check.sh needs on the GPU machine (which has CUDA but
# no LLVM/MLIR) into .device/: the example cubins compiled here by tilec, the
# JIT-capable example runner and JIT example (statically linked, stripped,
# gzipped), and the runtime unit tests. Usage: bash scripts/package-device.sh  (after a build)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${TILEC_BUILD_DIR:-$ROOT/build}"
DEST="$ROOT/.device"
rm -rf "$DEST" && mkdir -p "$DEST/cubins"

ninja -C "$BUILD" tilec tilec-run-examples tilec-run-examples-aot \
  tilec-jit-rowsum tilec_runtime_tests >/dev/null
for src in "$ROOT"/examples/*.mlir; do
  name="$(basename "$src" .mlir)"
  "$BUILD/bin/tilec" "$src" -o "$DEST/cubins/$name.cubin"
  "$BUILD/bin/tilec" "$src" --emit=ptx -o "$DEST/cubins/$name.ptx"
  "$BUILD/bin/tilec" "$src" --arch=sm_80 -o "$DEST/cubins/$name.sm_80.cubin"
done
for exe in examples/tilec-run-examples examples/tilec-run-examples-aot \
           examples/tilec-jit-rowsum runtime/test/tilec_runtime_tests; do
  strip -o "$DEST/$(basename "$exe")" "$BUILD/$exe"
done
gzip -6 "$DEST/tilec-run-examples" "$DEST/tilec-jit-rowsum"
du -sh "$DEST"
