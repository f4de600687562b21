#!/usr/bin/env bash
# Schedule sweep (run on the GPU machine after scripts/package-device.sh and
# bench/matmul/tuning/make-cubins.sh): checks each tuning cubin's VARIANT on
# a few ragged shapes, then times it against cuBLAS at the target shapes.
#   TUNING_DIR  the cubins (default .device/tuning)
#   VARIANT     default mm_bf16_bf16_rr (the bench times row-major kernels)
#   SHAPES      default 4096^3, 8192^3, 3000x5000x4000
set -uo pipefail
OUT="${OUT:-/tmp/tilec-sweep}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
DIR="${TUNING_DIR:-.device/tuning}"
BIN="${BENCH_BIN:-./.device/tilec-matmul-bench}"
VARIANT="${VARIANT:-mm_bf16_bf16_rr}"
SHAPES="${SHAPES:-4096x4096x4096,8192x8192x8192,3000x5000x4000}"
chmod +x "$BIN"
passed=0; failed=0
for cubin in "$DIR"/*.cubin; do
  name="$(basename "$cubin" .cubin)"
  echo "== $name"
  if "$BIN" --cubin "$cubin" --check --fail-if-none --variant "$VARIANT" \
       --shape 7x13x5,33x65x17,1000x1003x517,136x264x1000 > "$OUT/$name.check.log" 2>&1 &&
     "$BIN" --cubin "$cubin" --bench --fail-if-none --variant "$VARIANT" \
       --shape "$SHAPES" --json "$OUT/$name.json" > "$OUT/$name.log" 2>&1; then
    passed=$((passed+1))
  else
    failed=$((failed+1)); tail -5 "$OUT/$name.check.log"
  fi
  grep -E "^ *mm_|FAIL|error" "$OUT/$name.log" | head -5
done
# A device call returns only a few files: pack them into one.
(cd "$OUT" && tar czf sweep.tar.gz -- *.json *.log && rm -f -- *.json *.log)
echo "$passed passed, $failed failed"
