#!/usr/bin/env bash
# Does a misaligned A (odd K in 16-bit) pay for its staging copy on the
# main kernel when one tile reads each element (grid x = 1: N <= 256, M
# large enough to skip the small-grid kernel), now that the copies are the
# runtime's copy kernels (2x cuMemcpy2DAsync)? `old` is
# bench/matmul/kernels.mlir as compiled (repitch 0:x:2: the twin runs);
# `new` is the same cubin with every `repitch 0:x:2` made `0:x:1` in place
# (the runtime stages A). Float64 checks of `new` at the shapes, then both
# in alternating rounds with cuBLAS in each process.
# Here: the parts of staging-kernel-device.sh (tilec-matmul-bench, new.cubin).
# There: bash bench/matmul/repitch-a-one-tile-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-repitch-a}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/parts; BIN="$D/tilec-matmul-bench"; chmod +x "$BIN"
mv "$D/new.cubin" "$D/old.cubin"
python3 - "$D/old.cubin" "$D/new.cubin" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
n = data.count(b"\nrepitch 0:x:2 ")
open(sys.argv[2], "wb").write(data.replace(b"\nrepitch 0:x:2 ", b"\nrepitch 0:x:1 "))
print(f"{n} repitch lines of A at two tiles made one")
PY
source bench/steps.sh
SHAPES="${SHAPES:-8448x256x4095,16384x256x4097,16384x200x8191,32768x256x1023,10000x129x4099,65536x256x517,8448x255x16385}"
VARIANTS="${VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_bf16_f32_rr_acc}"
QUIET_LINES=3 quiet_step check "$BIN" --cubin "$D/new.cubin" --check --fail-if-none \
  --variant "$VARIANTS" --shape "$SHAPES" --json "$OUT/check.json"
for round in 1 2; do
  for build in old new; do
    QUIET_PATTERN='^ *mm_' QUIET_LINES=1 quiet_step "bench-$build-$round" \
      "$BIN" --cubin "$D/$build.cubin" --bench --fail-if-none --variant mm_bf16_bf16_rr,mm_bf16_bf16_rc \
      --shape "$SHAPES" --json "$OUT/bench-$build-$round.json"
  done
done
summary
python3 bench/matmul/ab-table.py "$OUT" | tee "$OUT/table.md"
tar czf /tmp/repitch-a.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/repitch-a.tgz "$OUT/"
