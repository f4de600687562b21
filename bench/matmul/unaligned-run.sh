#!/usr/bin/env bash
# Issue 17, item 5: matmuls whose rows are not 16-byte aligned (the
# per-thread-copy twins, and with tilec --aligned-copy-kernels their
# element-copy twins), against cuBLAS in the same run. On the GPU machine,
# over a .device/ holding tilec-matmul-bench and the cubins named below:
#   UNALIGNED_CUBINS="name=path ..." bash bench/matmul/unaligned-run.sh
# Steps: check (float64 references on ragged unaligned shapes, every cubin),
# bench (each cubin, bf16/f16/f32 row-major, cuBLAS in the same process),
# memcheck and racecheck of the first cubin at a ragged unaligned shape.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-unaligned}"
mkdir -p "$OUT"
BIN=.device/tilec-matmul-bench
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$BIN"
CUBINS="${UNALIGNED_CUBINS:-new=.device/bench/matmul.cubin}"
VARIANTS="${UNALIGNED_VARIANTS:-mm_bf16_bf16_rr,mm_f16_f16_rr,mm_f32_f32_rr}"
# Odd K, N or both (2-byte rows), K = 2 mod 4 (4-byte rows), K = 4 mod 8
# (8-byte rows), and the aligned cube for reference.
BENCH_SHAPES="${UNALIGNED_SHAPES:-4095x4095x4095,4097x4097x4097,4096x4096x4095,4096x4095x4096,4096x4096x4098,4096x4096x4100,3001x5001x4001,8191x3001x6001,4096x4096x4096}"
CHECK_SHAPES="${UNALIGNED_CHECK_SHAPES:-1x1x1,7x13x5,127x129x4097,1000x1003x517,1000x1002x518,1100x2100x201,1100x2100x202,1100x2100x204,333x4098x4100,257x513x4099,4095x4097x33,1024x1023x1025,2048x2050x2052}"
passed=0; failed=0
run() { # run NAME COMMAND...
  echo "== $1"; local name="$1"; shift
  if "$@" > "$OUT/$name.log" 2>&1; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAILED: $name"; fi
  tail -n 30 "$OUT/$name.log"
}
first=""
for entry in $CUBINS; do
  name="${entry%%=*}"; cubin="${entry#*=}"
  [ -n "$first" ] || first="$cubin"
  run "check-$name" "$BIN" --cubin "$cubin" --check --fail-if-none \
    --variant "$VARIANTS" --shape "$CHECK_SHAPES"
done
for entry in $CUBINS; do
  name="${entry%%=*}"; cubin="${entry#*=}"
  run "bench-$name" "$BIN" --cubin "$cubin" --bench --fail-if-none \
    --variant "$VARIANTS" --shape "$BENCH_SHAPES" --json "$OUT/bench-$name.json"
done
# Odd K (element copies), K = 2 and 4 mod 8 (4- and 8-byte cp.async), on the
# main and the small-grid kernels.
run memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" \
  --cubin "$first" --check \
  --variant "${MEMCHECK_VARIANTS:-mm_bf16_bf16_rr,mm_f16_f32_rc,mm_f32_f32_rr}" \
  --shape "${MEMCHECK_SHAPES:-1100x2100x201,1100x2100x202,1100x2100x204,127x129x4097,1000x1002x518}"
run racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$BIN" \
  --cubin "$first" --check --variant "${RACECHECK_VARIANTS:-mm_bf16_bf16_rr}" \
  --shape "${RACECHECK_SHAPES:-1100x2100x201,1100x2100x202,1100x2100x204}"
echo "$passed passed, $failed failed"
