#!/usr/bin/env bash
# Runs the libFuzzer target (tools/tilec-fuzz, in a TILEC_ENABLE_FUZZER
# build) for a given time and keeps what it finds.
#
#   scripts/fuzz.sh [--time SECONDS] [--build DIR] [--record FILE]
#
# Seeds: every `// -----` chunk of the lit tests. The
# corpus grows in DIR/fuzz/corpus and is kept between runs. An input that
# crashes, hangs (60 s) or runs out of memory is copied to
# test/fuzz/regressions/ (commit it: ctest replays that folder) and the
# script fails; an input slower than 10 s is named, not failed. The last line says how many inputs ran and how fast; with
# --record, that line is also appended to FILE.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=60
build="$root/build-sanitize"
record=""
while (($#)); do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --record) record="$2"; shift 2 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

fuzzer="$build/bin/tilec-fuzz"
[ -x "$fuzzer" ] || { echo "fuzz.sh: no $fuzzer (configure with -DTILEC_ENABLE_FUZZER=ON)" >&2; exit 2; }

work="$build/fuzz"
seeds="$work/seeds"
corpus="$work/corpus"
artifacts="$work/artifacts"
mkdir -p "$seeds" "$corpus" "$artifacts"

# One seed per lit chunk (split where lit's -split-input-file splits): the
# chunks hold every op and attribute of the examples, one or two kernels
# each, where a whole example compiles dozens (examples/attention.mlir: 126
# kernels, a minute under ASan). Rewritten each run, so that seeds follow
# the tests.
rm -f "$seeds"/*
find "$root/test" -name '*.mlir' | sort | while read -r file; do
  name="$(basename "$(dirname "$file")")-$(basename "$file" .mlir)"
  # Comment lines (RUN and CHECK lines, prose) are left out: mutations of
  # them change nothing the compiler sees.
  awk -v out="$seeds/$name" '
    BEGIN { chunk = 0; file = out "-" chunk ".mlir" }
    /^\/\/ -----/ { close(file); chunk++; file = out "-" chunk ".mlir"; next }
    /^[ \t]*\/\// { next }
    { print > file }' "$file"
done

rm -f "$artifacts"/*
log="$work/last-run.log"
set +e
"$fuzzer" "$corpus" "$seeds" \
  -dict="$root/test/fuzz/tile.dict" \
  -max_total_time="$seconds" -timeout=60 -rss_limit_mb=6144 \
  -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" 2>"$log"
status=$?
set -e

found=0
slow=0
for artifact in "$artifacts"/*; do
  [ -e "$artifact" ] || continue
  case "$(basename "$artifact")" in
    slow-unit-*)
      # Over 10 s, under the 60 s limit: kept for study, not a failure.
      echo "fuzz.sh: slow input $artifact"
      slow=$((slow + 1))
      continue ;;
  esac
  cp "$artifact" "$root/test/fuzz/regressions/"
  echo "fuzz.sh: found $(basename "$artifact") (copied to test/fuzz/regressions/)"
  found=$((found + 1))
done

runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
counts="$(sed -n 's/^tilec-fuzz: //p' "$log" | tail -1)"
elapsed="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
if [ -z "$runs" ] || ((status != 0 && found == 0)); then
  tail -40 "$log" >&2
  echo "fuzz.sh: the fuzzer stopped abnormally (exit $status); log: $log" >&2
  exit 1
fi
elapsed="${elapsed:-$seconds}"
summary="$(date -u +%F) tilec-fuzz: $runs inputs in ${elapsed} s ($((runs / (elapsed > 0 ? elapsed : 1))) a second), $found found, $slow slow (over 10 s), corpus $(ls "$corpus" | wc -l); ${counts:-no counts}"
echo "$summary"
[ -z "$record" ] || echo "$summary" >>"$record"
((found == 0))
