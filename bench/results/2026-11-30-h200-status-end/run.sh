#!/usr/bin/env bash
# Issue 17's matmul and attention targets, measured again at this stop's
# tree (the end of the second 2026-11-30 stop: only the small-grid
# split-K kernels changed), peers in the same call:
#   matmul: bench/matmul-quick.sh (ragged checks; bf16 and f32 at 4096^3,
#     8192^3, 3000x5000x4000 against cuBLAS);
#   attention: attn_d64/d128, causal and not, at 4x16x16x4096x4096 and
#     1x16x16x16384x16384 (checked, timed), torch SDPA (flash, cuDNN,
#     efficient) and Triton at the same shapes (bench/attention/peers.py).
#   here:  .device/status/{tilec-matmul-bench,tilec-run-examples-aot,bench/matmul.cubin,cubins/attention.cubin}
#   there: bash bench/results/2026-11-30-h200-status/run.sh   (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../../.."
S=.device/status
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$S"/tilec-*
mkdir -p .device/bench && cp "$S/tilec-matmul-bench" .device/ && cp "$S/bench/matmul.cubin" .device/bench/
OUT_MM="$OUT/matmul" bash -c 'OUT=$OUT_MM bash bench/matmul-quick.sh' 2>&1 | grep -E "passed|failed|4096x4096x4096|8192x8192x8192|3000x5000x4000" | head -40
SHAPES=4x16x16x4096x4096,1x16x16x16384x16384
"$S/tilec-run-examples-aot" --cubin-dir "$S/cubins" --mode aot \
  --only attn_d64,attn_d64_causal,attn_d128,attn_d128_causal --shapes "$SHAPES" \
  --json "$OUT/tilec-attention.json" 2>&1 | tee "$OUT/tilec-attention.log" | grep -E "attn|passed|FAIL"
python3 bench/attention/peers.py \
  --shapes "4,16,16,4096,4096,64,0;4,16,16,4096,4096,64,1;4,16,16,4096,4096,128,0;4,16,16,4096,4096,128,1;1,16,16,16384,16384,64,0;1,16,16,16384,16384,64,1;1,16,16,16384,16384,128,0;1,16,16,16384,16384,128,1" \
  --json "$OUT/peers.json" 2>&1 | tail -30
