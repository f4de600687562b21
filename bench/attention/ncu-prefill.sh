#!/usr/bin/env bash
# Where the prefill kernel's time goes: Nsight Compute sections for
# attn_d128 at 4x16x16x4096x4096 from the default cubin and from the
# overlap_softmax one (bench/attention/prefill-run.sh builds it), and the
# SASS of both kernels' key loops (wgmma issue/wait and barrier positions).
#   there: bash bench/attention/ncu-prefill.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-attention}"
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device
SECTIONS=(--section SpeedOfLight --section ComputeWorkloadAnalysis
          --section MemoryWorkloadAnalysis --section SchedulerStats
          --section WarpStateStats --section Occupancy --section LaunchStats
          --section InstructionStats --section SourceCounters)
for variant in cubins cubins-overlap; do
  ncu "${SECTIONS[@]}" -k regex:'^attn_d128$' -c 1 \
    "$D/tilec-run-examples-aot" --cubin-dir "$D/$variant" --mode aot \
    --only attn_d128 --shapes 4x16x16x4096x4096 > "$OUT/ncu-$variant.txt" 2>&1
  echo "ncu $variant rc=$?"
  cuobjdump -sass -fun attn_d128 "$D/$variant/attention.cubin" |
    grep -E 'HGMMA|WARPGROUP|BAR|DEPBAR|MUFU.EX2|LDGSTS|BRA|SHFL' \
    > "$OUT/sass-$variant.txt"
  echo "sass $variant: $(wc -l < "$OUT/sass-$variant.txt") lines"
done
