#!/usr/bin/env bash
# The main job: sets up and builds tilec, compiles every example with `tilec`,
# and, where a GPU is present, runs and checks them through the runtime (ahead
# of time and JIT). Without a GPU it lists what it compiled.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

OUT_DIR="$BUILD_DIR/examples/cubins"
mkdir -p "$OUT_DIR"
echo
echo "== compiling examples/*.mlir with tilec (--arch=sm_90a)"
for src in "$TILEC_ROOT"/examples/*.mlir; do
  name="$(basename "$src" .mlir)"
  start=$(date +%s%N)
  "$BUILD_DIR/bin/tilec" "$src" -o "$OUT_DIR/$name.cubin"
  "$BUILD_DIR/bin/tilec" "$src" --emit=ptx -o "$OUT_DIR/$name.ptx"
  end=$(date +%s%N)
  printf "  %-12s -> %s (%d ms for cubin + ptx)\n" "$name" \
    "${OUT_DIR#$TILEC_ROOT/}/$name.cubin" $(((end - start) / 1000000))
done

echo
"$BUILD_DIR/bin/tilec-cubin-info" "$OUT_DIR"/*.cubin

# Runs and checks every example, AOT and JIT, where a GPU is present; says
# "no GPU found" and lists what it would run otherwise.
echo
echo "== running the examples (AOT cubins and in-process JIT)"
"$BUILD_DIR/examples/tilec-run-examples" --cubin-dir "$OUT_DIR" \
  --source-dir "$TILEC_ROOT/examples" --mode both \
  --json "$BUILD_DIR/examples/results.json"

# The matmul example is checked by the matmul harness (float64 reference,
# poisoned outputs, ragged shapes) where a GPU and cuBLAS are present.
MATMUL_BENCH="$BUILD_DIR/bench/matmul/tilec-matmul-bench"
echo
if [ -x "$MATMUL_BENCH" ] && command -v nvidia-smi >/dev/null 2>&1 &&
   nvidia-smi -L >/dev/null 2>&1; then
  echo "== checking examples/matmul.mlir"
  LD_LIBRARY_PATH="${CUDA_HOME:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}" \
    "$MATMUL_BENCH" --cubin "$OUT_DIR/matmul.cubin" --check --fail-if-none \
    --variant mm_bf16_bf16_rc --shape 1x1x1,7x13x5,33x65x17,1000x1003x517,4096x4096x4096
else
  echo "== examples/matmul.mlir compiled; no GPU (or no cuBLAS build) to check it on"
fi
