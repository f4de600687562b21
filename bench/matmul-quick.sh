#!/usr/bin/env bash
# A short GPU run for schedule work: checks the 16-bit variants of the
# default (sm_90a) cubin on a few ragged shapes and times bf16 against cuBLAS
# for it and for the sm_90 (mma.sync) cubin, in the same run.
#   here:  bash scripts/package-device.sh   (also writes matmul.sm_90.cubin)
#   there: bash bench/matmul-quick.sh       (results under $OUT)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-matmul-quick}"
mkdir -p "$OUT"
D=.device
BIN="$D/tilec-matmul-bench"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$BIN"
VARIANTS="${QUICK_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_f32_rc,mm_f16_f32_cr,mm_f16_f16_cc,mm_bf16_f32_rr_acc}"
SHAPES="${QUICK_SHAPES:-1x1x1,7x13x5,33x65x17,128x256x64,1000x1003x517,4096x4096x4096}"
passed=0; failed=0
run() { # run NAME COMMAND...
  echo "== $1"; local name="$1"; shift
  if "$@" 2>&1 | tee "$OUT/$name.log"; then passed=$((passed+1)); else failed=$((failed+1)); fi
}
run check "$BIN" --cubin "$D/bench/matmul.cubin" --check --fail-if-none \
  --variant "$VARIANTS" --shape "$SHAPES"
run bench-sm90a "$BIN" --cubin "$D/bench/matmul.cubin" --bench --fail-if-none \
  --variant "${BENCH_VARIANTS:-mm_bf16_bf16_rr,mm_bf16_bf16_rc,mm_f32_f32_rr}" --json "$OUT/bench-sm90a.json" \
  --shape "${BENCH_SHAPES:-4096x4096x4096,8192x8192x8192,3000x5000x4000}"
if [ -f "$D/bench/matmul.sm_90.cubin" ]; then
  run bench-sm90 "$BIN" --cubin "$D/bench/matmul.sm_90.cubin" --bench --fail-if-none \
    --variant mm_bf16_bf16_rr --json "$OUT/bench-sm90.json" --shape 4096x4096x4096
fi

# Where the default bf16 kernel spills, if it does (local memory in SASS).
cuobjdump -sass -fun mm_bf16_bf16_rr "$D/bench/matmul.cubin" > "$OUT/mm_bf16_bf16_rr.sass" 2>&1 &&
  grep -nE "STL|LDL|HGMMA|WARPGROUP|BAR\.SYNC|LDGSTS|BRA|EXIT" "$OUT/mm_bf16_bf16_rr.sass" |
  awk '{print $1, $3, $4}' | uniq -c -f1 > "$OUT/sass-summary.txt"
echo "$passed passed, $failed failed"
