#!/usr/bin/env bash
# The epilogue and b2b examples' kernels on odd shapes: old, compiled by the
# build before tile-bulk-copy-fallback listed hand-written kernels' buffers
# (a misaligned buffer sends the launch to the per-thread-copy twin), and
# new, as the tree compiles them (the runtime copies it for TMA). Each
# shape is checked against float64 and timed by the examples runner, old
# and new in alternating rounds.
# Here: mkdir -p .device/parts/old .device/parts/new; compile
#   examples/matmul_epilogue.mlir and examples/b2b_gemm.mlir into each with
#   the old and the new tilec; cp build/examples/tilec-run-examples-aot
#   .device/parts/ && strip it.
# There: bash bench/matmul/derived-repitch-timing-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-derived-timing}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device/parts; chmod +x "$D/tilec-run-examples-aot"
source bench/steps.sh
SHAPES=129x257x65,1031x2053x99,2049x4097x4095,4095x4095x4095,4097x4097x4097,4096x4096x4096
for round in 1 2; do
  for build in old new; do
    QUIET_PATTERN='PASS|FAIL' QUIET_LINES=12 quiet_step "epilogue-$build-$round" \
      "$D/tilec-run-examples-aot" --cubin-dir "$D/$build" --mode aot \
      --only matmul_bias_relu,matmul_plain --shapes "$SHAPES" --json "$OUT/epilogue-$build-$round.json"
    QUIET_PATTERN='PASS|FAIL' QUIET_LINES=8 quiet_step "b2b-$build-$round" \
      "$D/tilec-run-examples-aot" --cubin-dir "$D/$build" --mode aot \
      --only b2b_gemm --json "$OUT/b2b-$build-$round.json"
  done
done
summary
