#!/usr/bin/env bash
# Reductions combined as a balanced tree inside each thread (a chain of
# log2(n) dependent combines instead of n - 1), on the GPU machine. Expects
# .device/tilec-run-examples-aot (stripped) and .device/cubins-var-before/,
# .device/cubins-var-after/ holding the cubins of the examples with
# reductions (attention, softmax, layernorm, rowsum_f16, colsum), built
# by the compiler without and with the change. Each example's builds run
# in one process on the same inputs, alternating rounds, every row checked
# against float64. Summary on stdout, logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-reduce-tree}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
RUN=.device/tilec-run-examples-aot; chmod +x "$RUN"
source bench/attention/runner-logs.sh  # passes
DIRS=.device/cubins-var-before,.device/cubins-var-after
run() {  # NAME SHAPES [LOG] (SHAPES empty: the runner's own shapes)
  local name="$1" shapes="$2" log="${3:-$1}"
  timeout 300 "$RUN" --cubin-dir "$DIRS" --mode aot --only "$name" \
    ${shapes:+--shapes "$shapes"} --json "$OUT/$log.json" > "$OUT/$log.log" 2>&1
  echo "$name rc=$?"; passes "$OUT/$log.log"
  grep -h "^$name " "$OUT/$log.log" | awk '{print $3, $2, $7, $8}' | sort -s -k1,1
}
prefill=4x16x16x4096x4096,1x16x16x16384x16384,16x16x16x1024x1024,4x32x8x4096x4096
for k in attn_d128 attn_d128_causal attn_d64 attn_d256; do run "$k" "$prefill"; done
run attn_d128 32x32x8x1x8192,8x32x8x1x32768 attn_d128-decode
for k in softmax layernorm rowsum_f16 colsum; do run "$k" ""; done
