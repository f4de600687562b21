# Sourced by the device scripts of bench/attention after they cd to the
# repository root and give OUT its default: the output folder, CUDA's tools
# on PATH, the runner in .device ($D, $RUN), and reading its logs.
mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device
RUN="$D/tilec-run-examples-aot"
chmod +x "$RUN"

# passes LOG: the PASS and FAIL rows of a runner's log, and the first fails.
passes() {
  echo "  $(grep -c PASS "$1") PASS, $(grep -c FAIL "$1") FAIL"
  grep FAIL "$1" | head -5
}

# sanitize_examples CUBIN_DIR "TOOL..." NAME:SHAPE...: each compute-sanitizer
# tool on the runner ($RUN, AOT from CUBIN_DIR) at each example and shape,
# logs under $OUT, with each run's summary line and its PASS count.
sanitize_examples() {
  local dir="$1" tools="$2" tool item name shape; shift 2
  for tool in $tools; do
    for item in "$@"; do
      name="${item%%:*}" shape="${item#*:}"
      timeout 150 compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 5 \
        "$RUN" --cubin-dir "$dir" --mode aot --only "$name" --shapes "$shape" \
        > "$OUT/$tool-$name.log" 2>&1
      echo "$tool $name $shape rc=$?"
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/$tool-$name.log" | tail -1
      grep -c PASS "$OUT/$tool-$name.log"
    done
  done
}
