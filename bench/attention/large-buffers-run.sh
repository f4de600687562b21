#!/usr/bin/env bash
# Attention on buffers past 2^31 elements (byte offsets past 2^32), and the
# d64 decode kernels (three stages, two programs a multiprocessor) under
# compute-sanitizer. On the GPU machine, over scripts/package-device.sh's
# tree (the runner and the attention cubin are enough):
#   there: bash bench/attention/large-buffers-run.sh
# Each row is checked against float64 (a sample of rows past 2^31 reference
# steps), outputs poisoned first. Summary on stdout, logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-large-buffers}"
source bench/attention/runner-logs.sh

# large NAME SHAPE: one description at one shape, under a time limit.
large() {
  timeout "${LARGE_LIMIT:-150}" "$RUN" --cubin-dir "$D/cubins" --mode aot --only "$1" \
    --shapes "$2" > "$OUT/large-$1.log" 2>&1
  echo "$1 ${2:0:40} rc=$?"; passes "$OUT/large-$1.log"
  grep -h "^$1 " "$OUT/large-$1.log" | awk '{print "  ", $2, substr($3, 1, 40), $7, $8, $NF}' | head -3
}

# Decode with K and V of 4.3 GB each (2^31 elements a buffer).
large attn_d128 16x32x8x1x131072
large attn_d64 32x32x8x1x131072
# Prefill with Q, K, V and O of 2.3e9 elements each (d128; d64 with the
# f16 layout-bshd description: strides over the heads).
large attn_d128_causal 1100x16x16x1024x1024
large attn_bshd_f16_d64 2200x16x16x1024x1024
# Packed sequences: 260 of 4096 tokens, 1,064,960 tokens of 16 heads of
# d128 (2.2e9 elements a buffer).
varlen="16x16"; for ((i = 0; i < 260; i++)); do varlen="${varlen}x4096x4096"; done
large attn_varlen "$varlen"

# The d64 key-chunk kernels under the sanitizers: packed heads, query rows,
# the split at two programs a multiprocessor.
sanitize_examples "$D/cubins" "memcheck racecheck" \
  attn_d64:1x32x8x1x3000 attn_d64:2x8x2x7x5000
