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
