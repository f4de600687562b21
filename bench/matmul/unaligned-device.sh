#!/usr/bin/env bash
# The device call of the unaligned-operand work (issue 17, item 5): the
# matmul bench's kernels compiled with tilec --aligned-copy-kernels (acc)
# and without (default), checked against float64 references and timed
# against cuBLAS in the same process, then the sanitizers on the former.
# Here: tilec bench/matmul/kernels.mlir [--aligned-copy-kernels] -o .device/bench/{matmul,acc}.cubin
# There: bash bench/matmul/unaligned-device.sh   (results under $OUT)
cd "$(dirname "$0")/../.."
export OUT="${OUT:-/tmp/tilec-unaligned}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
B=.device/bench
UNALIGNED_CUBINS="acc=$B/acc.cubin default=$B/matmul.cubin" \
  timeout 540 bash bench/matmul/unaligned-run.sh > "$OUT/run.log" 2>&1
grep -E "^== |^mm_|passed|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/run.log"
