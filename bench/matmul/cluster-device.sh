#!/usr/bin/env bash
# The device call of the cluster work (issue 17, item 3): the producer
# build (tilec --producer-warp: warp roles, persistent tiles, clusters of
# two with B multicast) checked on every variant of the bench file at the
# checker's built-in shapes, then the sanitizers at shapes with several
# tiles a block and a row of tiles past C, then 8192^3 timed twice per
# build (its timings move from call to call). Here: the two cubins as for
# producer-device.sh. There: bash bench/matmul/cluster-device.sh
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-cluster}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
BIN=.device/tilec-matmul-bench; chmod +x "$BIN"
P=.device/bench/producer.cubin; D=.device/bench/matmul.cubin
passed=0; failed=0
run() { # run NAME COMMAND...
  echo "== $1"; local name="$1"; shift
  if "$@" > "$OUT/$name.log" 2>&1; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAILED: $name"; fi
  grep -E "passed|SUMMARY|FAIL" "$OUT/$name.log" | tail -n 4
}
run check timeout 400 "$BIN" --cubin "$P" --check --fail-if-none --json "$OUT/check.json"
run memcheck timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 "$BIN" --cubin "$P" \
  --check --variant mm_bf16_bf16_rc,mm_f16_f32_rr_acc --shape 2304x4096x200,1031x2056x136,129x264x72,1x8x8
run racecheck timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 "$BIN" --cubin "$P" \
  --check --variant mm_bf16_bf16_rc --shape 2304x4096x72,129x264x72
for i in 1 2; do
  for name in default producer; do
    cubin=$D; [ $name = producer ] && cubin=$P
    run "bench8192-$name-$i" "$BIN" --cubin "$cubin" --bench --variant mm_bf16_bf16_rr \
      --shape 8192x8192x8192,4096x4096x4096 --json "$OUT/bench8192-$name-$i.json"
    grep -E "^mm_" "$OUT/bench8192-$name-$i.log"
  done
done
echo "$passed passed, $failed failed"
