#!/usr/bin/env bash
# Runs the libFuzzer target (tools/tilec-fuzz, in a TILEC_ENABLE_FUZZER
# build) for a given time and keeps what it finds.
#
#   scripts/fuzz.sh [--time SECONDS] [--build DIR] [--jobs N] [--seed S]
#                   [--runs N] [--record FILE]
#
# Seeds: every `// -----` chunk of the lit tests. The corpus grows in
# DIR/fuzz/corpus and is kept between runs. An input that crashes, hangs
# (60 s) or runs out of memory is copied to test/fuzz/regressions/ (commit
# it: ctest replays that folder) and the script fails; an input slower than
# 10 s is named, not failed; each find is run again and its report and
# text printed, so that a CI log shows what failed. --seed fixes libFuzzer's
# random seed (process K of --jobs takes S + K); with --runs N (one process,
# a fresh corpus) the run stops after N inputs instead of at the time limit,
# so that it is nearly the same run on every machine, however fast. The last line says how many inputs ran and how fast; with
# --record, that line is also appended to FILE.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=60
build="$root/build-sanitize"
record=""
jobs=1
seed=""
runs_limit=""
while (($#)); do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --record) record="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --runs) runs_limit="$2"; shift 2 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

fuzzer="$build/bin/tilec-fuzz"
[ -x "$fuzzer" ] || { echo "fuzz.sh: no $fuzzer (configure with -DTILEC_ENABLE_FUZZER=ON)" >&2; exit 2; }

work="$build/fuzz"
seeds="$work/seeds"
corpus="$work/corpus"
if [ -n "$runs_limit" ]; then
  # A repeatable run starts from the seeds alone, in a corpus of its own.
  corpus="$work/corpus-repeatable"
  rm -rf "$corpus"
fi
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
fuzz_options=(-dict="$root/test/fuzz/tile.dict" -timeout=60
  -rss_limit_mb=6144 -max_len=16384 -print_final_stats=1
  -artifact_prefix="$artifacts/")
rm -f "$work"/fuzz-*.log
deadline=$(($(date +%s) + seconds))

# fuzz_until_deadline K INPUTS...: runs the fuzzer until the deadline; after
# a crash (saved in the artifacts) it starts again, from what it has found.
fuzz_until_deadline() {
  local k="$1" restarts=0 left
  shift
  while left=$((deadline - $(date +%s))); ((left > 5 && restarts < 100)); do
    "$fuzzer" "$@" "${fuzz_options[@]}" -max_total_time="$left" \
      ${seed:+-seed=$((seed + k + 1000 * restarts))} \
      2>>"$work/fuzz-$k.log" && return 0
    restarts=$((restarts + 1))
  done
}

set +e
if ((jobs <= 1)); then
  "$fuzzer" "$corpus" "$seeds" "${fuzz_options[@]}" \
    -max_total_time="$seconds" ${seed:+-seed=$seed} \
    ${runs_limit:+-runs=$runs_limit} 2>"$work/fuzz-0.log"
  status=$?
else
  # N processes, each starting from its own slice of the seeds and of the
  # corpus: libFuzzer first runs every input it is given, which takes minutes
  # under ASan (its own -jobs would have each process run all of them).
  # Each writes what it adds to new-K/, merged into the corpus at the end.
  rm -rf "$work"/slice-* "$work"/new-*
  for ((k = 0; k < jobs; ++k)); do mkdir -p "$work/slice-$k" "$work/new-$k"; done
  k=0
  for input in "$seeds"/* "$corpus"/*; do
    [ -e "$input" ] || continue
    cp "$input" "$work/slice-$((k % jobs))/"
    k=$((k + 1))
  done
  # A crash ends one process, not the run: the others go on, and it starts
  # again. What was found fails the run at the end.
  for ((k = 0; k < jobs; ++k)); do
    fuzz_until_deadline "$k" "$work/new-$k" "$work/slice-$k" &
  done
  wait
  status=0
  for ((k = 0; k < jobs; ++k)); do
    find "$work/new-$k" -type f -exec mv -t "$corpus" {} +
  done
  rm -rf "$work"/slice-* "$work"/new-*
fi
set -e
logs=("$work"/fuzz-*.log)

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
  # What it was and what it did (NUL bytes show as ^@).
  echo "--- input:"
  head -c 4000 "$artifact" | cat -v
  echo "--- report:"
  ASAN_OPTIONS="${ASAN_OPTIONS:-}:symbolize=1" "$fuzzer" "$artifact" 2>&1 |
    grep -m1 -A14 -E 'ERROR: |runtime error|deadly signal' || true
  echo "---"
  found=$((found + 1))
done

# Sums a number that each log's line matching $1 holds in field $2.
sum_logs() {
  cat "${logs[@]}" | awk -v pat="$1" -v field="$2" \
    '$0 ~ pat { total += $field; seen = 1 } END { if (seen) print total }'
}
runs="$(sum_logs '^stat::number_of_executed_units:' 2)"
compiled="$(sum_logs '^tilec-fuzz: [0-9]+ inputs' 8)"
parsed="$(sum_logs '^tilec-fuzz: [0-9]+ inputs' 4)"
elapsed="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "${logs[@]}" | sort -n | tail -1)"
if [ -z "$runs" ] || ((status != 0 && found == 0)); then
  tail -40 "${logs[@]}" >&2
  echo "fuzz.sh: the fuzzer stopped abnormally (exit $status); logs in $work" >&2
  exit 1
fi
elapsed="${elapsed:-$seconds}"
summary="$(date -u +%F) tilec-fuzz on $(nproc) cores of $(hostname -s), $jobs process(es): $runs inputs in ${elapsed} s ($((runs / (elapsed > 0 ? elapsed : 1))) a second), ${parsed:-?} parsed and verified, ${compiled:-?} distinct modules through the pipeline; $found found, $slow slow (over 10 s); corpus $(ls "$corpus" | wc -l)"
echo "$summary"
[ -z "$record" ] || echo "$summary" >>"$record"
((found == 0))
