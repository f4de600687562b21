#!/usr/bin/env bash
# Issue 17's attention targets at this stop's tree (causal d128 now takes
# turns above 1024 query rows), cuDNN and the other peers in the same
# call: attn_d64/d128, causal and not, at 4x16x16x4096x4096 and
# 1x16x16x16384x16384, tilec twice (two runner processes, every row
# checked against float64), the peers between them. The matmul kernels did
# not change this stop (see ../2026-11-30-h200-status-third).
#   here:  .device/status/{tilec-run-examples-aot,cubins/attention.cubin}
#   there: bash bench/results/2026-11-30-h200-status-fourth/run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../../.."
S=.device/status
export PATH="/usr/local/cuda/bin:$PATH"
chmod +x "$S"/tilec-*
SHAPES=4x16x16x4096x4096,1x16x16x16384x16384
tilec_round() {
  "$S/tilec-run-examples-aot" --cubin-dir "$S/cubins" --mode aot \
    --only attn_d64,attn_d64_causal,attn_d128,attn_d128_causal --shapes "$SHAPES" \
    --json "$OUT/tilec-attention-$1.json" 2>&1 | tee "$OUT/tilec-attention-$1.log" |
    grep -E "attn|passed|FAIL"
}
tilec_round 1
python3 bench/attention/peers.py \
  --shapes "4,16,16,4096,4096,64,0;4,16,16,4096,4096,64,1;4,16,16,4096,4096,128,0;4,16,16,4096,4096,128,1;1,16,16,16384,16384,64,0;1,16,16,16384,16384,64,1;1,16,16,16384,16384,128,0;1,16,16,16384,16384,128,1" \
  --json "$OUT/peers.json" 2>&1 | tail -30
tilec_round 2
