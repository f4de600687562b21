#!/usr/bin/env bash
# The scan GPU run: on the GPU machine (CUDA 13, python3 with torch, no
# LLVM/MLIR), over the tree packed by scripts/package-device.sh:
#   here:  bash scripts/package-device.sh
#   there: bash bench/scan-gpu.sh        (results under $OUT, default /tmp/tilec-scan)
# Steps (issue 4, sections 5 and 6; see bench/README.md):
#   tilec      tilec-scan-bench: every scan of bench/scan/kernels.mlir checked on
#              the issue's lengths and rows (float64 / exact references, poisoned
#              outputs, exact cases three times and identical), then the f32 sums
#              timed: 1-D 2^20, 2^24, 2^28; rows 4096x4096, 65536x1024,
#              1024x65536, 3x1000003, short rows 1048576x32, 262144x100,
#              65536x500; columns (cols_f32, along 0) 4096x4096, 65536x1024,
#              1024x65536; and the f32 linear recurrence (a scan
#              with a combiner region): 1-D 2^20, 2^24, 2^28; rows 65536x1024,
#              1024x65536; and a reverse f32 and a bf16 1-D sum at 2^24, 2^28
#   cub        tilec-cub-scan: CUB InclusiveSum/ExclusiveSum f32 and i32 at
#              2^20, 2^24, 2^28, checked; CUB InclusiveScan of the recurrence
#              on float2 (a, b) pairs at the same lengths, checked; and the
#              copy bound (float4 kernel, cudaMemcpy) at 2^28 f32
#   torch      torch.cumsum on the timed shapes (columns: dim=0), checked
#   memcheck   compute-sanitizer memcheck: every kernel at 33, 1000x1003 and
#              the short rows 1001x17 and 257x300 (the column kernels at
#              1001x17 and 257x300),
#              1-D and row scans (sums and recurrences) at 2^20+7 and
#              3x100003, and the column sum cols_f32 at 1001x17
#   racecheck  compute-sanitizer racecheck (shared memory): 1-D and row scans
#              (sums and recurrences) at 2^20+7, 1000x1003 and 257x300, the
#              column sum cols_f32 at 257x300
#   report     ratios.md (tables, the recurrence against CUB, and the issue's
#              targets), results.json (every step's JSON in one), scan.svg
#              (GB/s per shape)
# $OUT ends with five files: scan-gpu.log (this whole run), ratios.md,
# results.json, scan.svg and raw.tar.gz (each step's log and JSON). Every
# step runs even if one before it failed; the last line is "N passed, N failed".
# SCAN_STEPS="tilec cub ..." runs only those steps (e.g. to split the run
# over two device calls); SCAN_CUBIN overrides the cubin. Each step has a
# time limit, cut so that the whole run ends by SCAN_DEADLINE_S seconds
# (default 540: a device call may last 600); a step with no time left fails
# as SKIP, and the report and the archive are always written.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT="${OUT:-/tmp/tilec-scan}"
mkdir -p "$OUT"
D=.device
BENCH="$D/tilec-scan-bench"
CUB="$D/tilec-cub-scan"
CUBIN="${SCAN_CUBIN:-$D/bench/scan.cubin}"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
chmod +x "$BENCH" "$CUB" 2>/dev/null
read -ra STEPS <<<"${SCAN_STEPS:-tilec cub torch memcheck racecheck report}"

# The raw logs and JSON go here, then into raw.tar.gz (the device returns
# only a few files).
RAW="$OUT/raw"
rm -rf "$RAW" && mkdir -p "$RAW"

DEADLINE="${SCAN_DEADLINE_S:-540}"

declare -A status
limit() { # limit N: N seconds, or what is left before the deadline (less 20 s
  # for the report), at least 1 (timeout 0 would mean no limit)
  local left=$((DEADLINE - SECONDS - 20))
  [ "$left" -ge 1 ] || left=1
  if [ "$left" -lt "$1" ]; then echo "$left"; else echo "$1"; fi
}
step() { # step NAME COMMAND...: runs, logs to $RAW/NAME.log, records PASS/FAIL(rc)
  local name="$1"; shift
  echo; echo "== $name: $*  ($(date +%T))"
  if [ "$name" != report ] && [ "$(limit 30)" -lt 30 ]; then
    status[$name]="SKIP(deadline)"; echo "== $name: ${status[$name]}"; return
  fi
  local start=$SECONDS
  "$@" 2>&1 | tee "$RAW/$name.log"
  local rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 0 ]; then status[$name]=PASS; else status[$name]="FAIL($rc)"; fi
  echo "== $name: ${status[$name]} in $((SECONDS - start)) s"
}
need() { # need FILE...: a missing input fails the step, not the script
  local f
  for f in "$@"; do
    [ -f "$f" ] || { echo "missing $f (run scripts/package-device.sh first)"; return 1; }
  done
}

# The bench rewrites its JSON after every case, so a timeout keeps what ran.
tilec() {
  need "$BENCH" "$CUBIN" &&
    timeout "$(limit 360)" "$BENCH" --cubin "$CUBIN" --json "$RAW/tilec.json"
}
cub() {
  need "$CUB" && timeout "$(limit 240)" "$CUB" --json "$RAW/cub.json"
}
torch() {
  timeout "$(limit 240)" python3 bench/scan/torch_cumsum.py "$RAW/torch.json"
}
# Sanitizer runs are checks only (--no-time) and each under two minutes or so
# (a timeout fails the step).
memcheck() {
  need "$BENCH" "$CUBIN" || return 1
  local rc=0
  timeout "$(limit 150)" compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BENCH" --cubin "$CUBIN" --no-time --shapes 33,1000x1003,1001x17,257x300 || rc=$?
  timeout "$(limit 150)" compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BENCH" --cubin "$CUBIN" --no-time --shapes 1048583,3x100003 \
    --only scan_f32,scan_rev_i32,scan_add_exc_bf16,scan_max_exc_rev_i32,rows_f32,rows_rev_f32,rows_bf16,scan_rec_inc_f32,scan_segsum_exc_rev_i32f32,rows_rec_inc_f32 ||
    rc=$?
  # Columns (along 0) on their own, so that a failure names them (the first
  # run above covers every column kernel at 1001x17 and 257x300 too).
  timeout "$(limit 60)" compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BENCH" --cubin "$CUBIN" --no-time --shapes 1001x17 --only cols_f32 || rc=$?
  return "$rc"
}
racecheck() {
  need "$BENCH" "$CUBIN" &&
    timeout "$(limit 180)" compute-sanitizer --tool racecheck --error-exitcode 9 \
      "$BENCH" --cubin "$CUBIN" --no-time --shapes 1048583,1000x1003,257x300 \
      --only scan_f32,scan_rev_i32,scan_add_exc_rev_f16,rows_f32,rows_rev_f32,scan_rec_inc_f32,rows_rec_inc_f32,cols_f32
}
report() {
  local s="" k
  for k in "${STEPS[@]}"; do [ "$k" = report ] || s+="$k=${status[$k]:-not run},"; done
  python3 bench/scan/report.py "$RAW" --steps "$s"
  local rc=$?
  for k in ratios.md results.json scan.svg; do
    [ -f "$RAW/$k" ] && mv -f "$RAW/$k" "$OUT/$k"
  done
  [ -f "$OUT/ratios.md" ] && cat "$OUT/ratios.md"
  return "$rc"
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  for k in "${STEPS[@]}"; do
    case "$k" in
      tilec|cub|torch|memcheck|racecheck|report) step "$k" "$k" ;;
      *) echo "unknown step $k"; status[$k]="FAIL(unknown)" ;;
    esac
  done
  tar -czf "$OUT/raw.tar.gz" -C "$OUT" raw && rm -rf "$RAW"

  echo; echo "== summary"
  passed=0 failed=0
  for k in "${STEPS[@]}"; do
    printf '  %-12s %s\n' "$k" "${status[$k]:-not run}"
    if [ "${status[$k]:-}" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  done
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
} 2>&1 | tee "$OUT/scan-gpu.log"
