#!/usr/bin/env bash
# After the GEMV kernel (and the runtime's narrow choice made once): every
# example AOT against its float64 reference, and examples/matmul.mlir's
# kernel (with its GEMV kernel) through the matmul bench's float64 checks
# at one-column, one- and two-row and other odd shapes (EXAMPLE_SHAPES
# overrides them).
# Here:
#   mkdir -p .device/ex/cubins && cp build/examples/tilec-run-examples-aot \
#     build/bench/matmul/tilec-matmul-bench .device/ex/ && strip .device/ex/tilec*
#   for f in examples/*.mlir; do build/bin/tilec "$f" \
#     -o .device/ex/cubins/$(basename "$f" .mlir).cubin; done
#   xz -9 .device/ex/cubins/attention.cubin
# There: bash bench/matmul/gemv-examples-device.sh   (carry .device/ex)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-gemv-examples}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/ex
source bench/steps.sh
unpack_xz "$D/cubins/attention.cubin.xz" && rm -f "$D/cubins/attention.cubin.xz"
chmod +x "$D"/tilec*
quiet_step examples-aot "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --max-gflop 2 --json "$OUT/examples.json"
# examples/matmul.mlir's kernel is mm_bf16_bf16_rc: the bench's variant name.
QUIET_LINES=3 quiet_step matmul-example "$D/tilec-matmul-bench" --cubin "$D/cubins/matmul.cubin" \
  --check --fail-if-none \
  --shape "${EXAMPLE_SHAPES:-1x1x1,7x1x5,4096x1x4096,4097x1x4095,33x1x70001,10000x1x129,512x1x8192,1x4095x4096,4096x4096x4096,1000x1003x517,2x4097x1001,1x1x4097,2x7x5,1x32000x4096,2x65537x33}" \
  --json "$OUT/matmul-example.json"
summary
tar czf /tmp/gemv-examples.tgz -C "$OUT" . && rm -rf "${OUT:?}"/* && mv /tmp/gemv-examples.tgz "$OUT/"
