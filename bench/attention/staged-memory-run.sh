#!/usr/bin/env bash
# The device calls of the staged-memory change (issue 16's decode: the
# key-chunk kernel's exchange buffer in its retired slots, barriers in the
# alignment room, so three stages of K and V still run two blocks a
# multiprocessor). One a value of STAGED_CALL; results under $OUT
# (bench/results/2026-11-28-h200-staged-memory):
#   checks  the runtime's unit tests (GPU ones included), attention over no
#           keys (n_kv = 0, padded and packed), every example at the
#           runner's shapes (AOT, the main job's check), memcheck and
#           racecheck where a buffer moved into the slots (decode, the
#           matmul epilogues, prefill attention)
#   ab      builds of attn_d128 alone in .device/cubins-var-B for B in
#           AB_BUILDS on the same inputs, alternating, three rounds; then
#           ncu of each build's decode kernels at NCU_SHAPE (time, DRAM
#           throughput, what limits blocks a multiprocessor), and the
#           decode peers (torch SDPA backends)
#   there: STAGED_CALL=checks bash bench/attention/staged-memory-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-staged}"
source bench/attention/runner-logs.sh
chmod +x "$D/tilec_runtime_tests"
AOT=("$RUN" --cubin-dir "$D/cubins" --mode aot)
note() { echo "$*" | tee -a "$OUT/steps.txt"; }

checks() {
  timeout 120 "$D/tilec_runtime_tests" --gtest_brief=1 > "$OUT/runtime-tests.log" 2>&1
  note "runtime tests rc=$?"; tail -3 "$OUT/runtime-tests.log"
  timeout 60 "${AOT[@]}" --only attn_d128 --shapes 2x4x2x1x0,2x4x2x5x0,1x4x4x100x0,2x8x1x1x0 \
    > "$OUT/no-keys.log" 2>&1
  note "no keys (padded) rc=$?"; passes "$OUT/no-keys.log"
  timeout 60 "${AOT[@]}" --only attn_varlen --shapes 4x2x1x0x1x0,4x2x1x0x1x17,4x2x3x0x2x0 \
    > "$OUT/no-keys-packed.log" 2>&1
  note "no keys (packed) rc=$?"; passes "$OUT/no-keys-packed.log"
  timeout 300 "${AOT[@]}" --json "$OUT/examples.json" > "$OUT/examples.log" 2>&1
  note "examples rc=$?"; passes "$OUT/examples.log"
  local item name shape tool
  for tool in memcheck racecheck; do
    for item in attn_d128:1x32x8x1x3000 attn_d128:2x8x2x300x333 attn_varlen:130x2x1x1500x1x17x1x0 \
                matmul_bias_relu: matmul_softmax:; do
      name="${item%%:*}" shape="${item#*:}"
      timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 5 \
        "${AOT[@]}" --only "$name" ${shape:+--shapes "$shape"} > "$OUT/$tool-$name.log" 2>&1
      note "$tool $name ${shape:-runner shapes} rc=$?"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/$tool-$name.log" | tail -1
    done
  done
}

ab() {
  local shapes="${AB_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,1x32x8x1x16384,1x16x16x1x65536,64x8x8x1x4096,8x64x1x1x32768}"
  local dirs="" build
  for build in $AB_BUILDS; do dirs="$dirs${dirs:+,}$D/cubins-var-$build"; done
  timeout 300 "$D/tilec-run-examples-aot" --cubin-dir "$dirs" --mode aot \
    --only attn_d128 --shapes "$shapes" --json "$OUT/ab.json" > "$OUT/ab.log" 2>&1
  note "ab rc=$?"; passes "$OUT/ab.log"
  grep -h attn_d128 "$OUT/ab.log" | awk '{print $3, $2, $7, $NF}' | sort -s -k1,1 | tee "$OUT/summary.txt"
  local shape="${NCU_SHAPE:-32x32x8x1x8192}"
  for build in $AB_BUILDS; do
    timeout 90 ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,sm__warps_active.avg.pct_of_peak_sustained_active \
      -k regex:attn_d128 -c 2 "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins-var-$build" \
      --mode aot --only attn_d128 --shapes "$shape" > "$OUT/ncu-$build.txt" 2>&1
    note "ncu $build $shape rc=$?"
    grep -E "attn_d128__|gpu__time|dram__|occupancy_limit|shared_mem_per|warps_active" \
      "$OUT/ncu-$build.txt" | awk '{$1=$1; print}' | cut -c1-90 | tee -a "$OUT/summary.txt"
  done
  if [ -n "${STAGED_PEERS:-}" ]; then
    timeout 200 python3 bench/attention/peers.py --preset decode --json "$OUT/peers.json" \
      > "$OUT/peers.log" 2>&1
    note "peers rc=$?"; tail -12 "$OUT/peers.log"
  fi
}

case "${STAGED_CALL:-checks}" in
  checks) checks ;;
  ab) ab ;;
  *) echo "unknown STAGED_CALL ${STAGED_CALL}" >&2; exit 2 ;;
esac
