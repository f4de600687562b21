#!/usr/bin/env bash
# The staged single pass's piece, swept: one cubin of variant-kernels.mlir
# per tilec built with kStagedPiece/kStagedSubPiece/kStagedBlocksPerSm at
# p3072 (3072/512/16, the default), p4608s512, p6144s512, p6144s1024,
# p8192s1024 (16 asked; workgroup memory allows fewer) and p6144h8 (6144/1024/8),
# five rounds alternating, CUB after each round: scan_f32 at 2^20, 2^24, 2^28;
# the reverse f32 and bf16 sums at 2^24 and 2^28; rows_f32 at 16x1000003.
#   there: bash bench/results/2026-11-30-h200-start/pieces.sh   (pieces.tgz under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../../.."
R=/tmp/pieces; mkdir -p "$R"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x .device/tilec-scan-bench .device/tilec-cub-scan
for round in 1 2 3 4 5; do
  for cubin in .device/pieces/*.cubin; do
    name="$(basename "$cubin" .cubin)"
    echo "== round $round, $name"
    .device/tilec-scan-bench --cubin "$cubin" --time-lengths 1048576,16777216,268435456 \
      --only scan_f32 --json "$R/$name-$round.json" | grep -E "FAIL|1048576 |16777216 |268435456 "
    .device/tilec-scan-bench --cubin "$cubin" --time-lengths 16777216,268435456 \
      --only scan_add_inc_rev_f32,scan_add_inc_bf16 --json "$R/$name-more-$round.json" |
      grep -E "FAIL|16777216 |268435456 "
    .device/tilec-scan-bench --cubin "$cubin" --time-rows 16x1000003 | grep -E "FAIL|x1000003"
  done
  .device/tilec-cub-scan --log2 20,24,28 --only sum | grep -E "InclusiveSum +f32"
  tar czf "$OUT/pieces.tgz" -C /tmp pieces
done 2>&1 | tee "$R/pieces.log"
tar czf "$OUT/pieces.tgz" -C /tmp pieces
