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

# cubin_dirs BUILD...: the runner's --cubin-dir list of $D/cubins-var-BUILD.
cubin_dirs() {
  local build list=""
  for build in "$@"; do list="$list${list:+,}$D/cubins-var-$build"; done
  echo "$list"
}

# ab_kernels "KERNEL..." SHAPES BUILD...: each kernel's builds in one runner
# process at SHAPES (alternating rounds, every row checked against
# float64); logs and JSON under $OUT, each shape's builds on stdout.
ab_kernels() {
  local kernels="$1" shapes="$2" k; shift 2
  for k in $kernels; do
    timeout 240 "$RUN" --cubin-dir "$(cubin_dirs "$@")" --mode aot --only "$k" \
      --shapes "$shapes" --json "$OUT/ab-$k.json" > "$OUT/ab-$k.log" 2>&1
    echo "ab $k rc=$?"; passes "$OUT/ab-$k.log"
    grep -h "^$k " "$OUT/ab-$k.log" | awk '{print $3, $2, $7, $8}' | sort -s -k1,1
  done
}

# check_kernels TAG SECONDS "KERNEL..." SHAPES BUILD...: each kernel's
# builds at SHAPES, each row against float64, under a timeout of SECONDS (a
# kernel whose barriers never complete hangs rather than fails); logs
# $OUT/TAG-KERNEL.log, the PASS and FAIL count on stdout.
check_kernels() {
  local tag="$1" seconds="$2" kernels="$3" shapes="$4" k; shift 4
  for k in $kernels; do
    timeout "$seconds" "$RUN" --cubin-dir "$(cubin_dirs "$@")" --mode aot \
      --only "$k" --shapes "$shapes" > "$OUT/$tag-$k.log" 2>&1
    echo "$tag $k rc=$?"; passes "$OUT/$tag-$k.log"
  done
}

# peer_shapes SHAPES "DIMS" ["CAUSAL"]: the runner's BxHqxHkvxNqxNkv shapes
# (comma-separated) at each head dim of DIMS, for each causal flag of CAUSAL
# (0, 1 or "0 1"; default 0, not causal), as peers.py --shapes takes them
# ("B,Hq,Hkv,Nq,Nkv,D,causal;...").
peer_shapes() {
  local out="" c d s b hq hkv nq nkv
  for c in ${3:-0}; do
    for d in $2; do
      for s in ${1//,/ }; do
        IFS=x read -r b hq hkv nq nkv <<< "$s"
        out="$out${out:+;}$b,$hq,$hkv,$nq,$nkv,$d,$c"
      done
    done
  done
  echo "$out"
}
