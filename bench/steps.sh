# Sourced by the GPU run scripts (bench/layouts-gpu.sh,
# bench/attention-gpu.sh): `step NAME COMMAND...` runs a step, logs it to
# $OUT/NAME.log and records PASS or FAIL(rc); `summary` prints every step of
# $STEPS and ends with "N passed, N failed". `quiet_step NAME COMMAND...`
# runs a step the same way but keeps its output in the log and prints only
# the lines matching $QUIET_PATTERN (device calls return a short tail), and
# adds NAME to $STEPS.
declare -A status
step() {
  local name="$1"; shift
  echo; echo "== $name"
  "$@" 2>&1 | tee "$OUT/$name.log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] && status[$name]=PASS || status[$name]="FAIL($rc)"
}
summary() {
  echo; echo "== summary"
  local passed=0 failed=0 k
  for k in $STEPS; do
    printf '  %-10s %s\n' "$k" "${status[$k]:-not run}"
    [ "${status[$k]:-}" = PASS ] && passed=$((passed + 1)) || failed=$((failed + 1))
  done
  echo "$passed passed, $failed failed"
}
quiet_step() {
  local name="$1"; shift
  echo "== $name"
  "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  [ "$rc" -eq 0 ] && status[$name]=PASS || status[$name]="FAIL($rc)"
  grep -E "${QUIET_PATTERN:-passed|PASSED|FAILED|FAIL |ERROR SUMMARY|RACECHECK SUMMARY|failed for}" \
    "$OUT/$name.log" | tr -s " " | cut -c1-300 | tail -n "${QUIET_LINES:-6}"
  STEPS="${STEPS:+$STEPS }$name"
}
# `matmul_ab_rounds BIN DIR VARIANTS SHAPES ROUNDS LINES`: the matmul
# bench on DIR/old.cubin and DIR/new.cubin (DIR/BUILD.cubin for each of
# $AB_BUILDS, if set) in alternating rounds, each a step bench-BUILD-ROUND
# with its JSON next to its log (what bench/matmul/ab-table.py reads).
matmul_ab_rounds() {
  local bin="$1" dir="$2" variants="$3" shapes="$4" rounds="$5" lines="$6"
  local round build
  for round in $rounds; do
    for build in ${AB_BUILDS:-old new}; do
      QUIET_PATTERN='^ *mm_' QUIET_LINES="$lines" quiet_step "bench-$build-$round" \
        "$bin" --cubin "$dir/$build.cubin" --bench --fail-if-none --variant "$variants" \
        --shape "$shapes" --json "$OUT/bench-$build-$round.json"
    done
  done
}

# `matmul_check_steps DIR CUBIN VARIANTS SHAPES MEMCHECK_VARIANTS
# MEMCHECK_SHAPES`: the runtime's and the generated wrappers' GPU tests
# (DIR/tilec_runtime_tests, DIR/tilec_kernel_wrapper_tests), the checker's
# run of every variant of CUBIN at every kernel path (unless
# $SKIP_CHECK_ALL), float64 checks of VARIANTS at SHAPES, and memcheck of
# MEMCHECK_VARIANTS at MEMCHECK_SHAPES, with DIR/tilec-matmul-bench; JSON
# next to the logs in $OUT.
matmul_check_steps() {
  local dir="$1" cubin="$2" variants="$3" shapes="$4"
  local mem_variants="$5" mem_shapes="$6" bin="$1/tilec-matmul-bench"
  QUIET_PATTERN='PASSED|FAILED|passed' quiet_step runtime "$dir/tilec_runtime_tests"
  QUIET_PATTERN='PASSED|FAILED|passed' quiet_step wrappers "$dir/tilec_kernel_wrapper_tests"
  [ -n "${SKIP_CHECK_ALL:-}" ] ||
    quiet_step check-all "$bin" --cubin "$cubin" --check --fail-if-none --json "$OUT/check-all.json"
  QUIET_LINES=3 quiet_step check-parts "$bin" --cubin "$cubin" --check --fail-if-none \
    --variant "$variants" --shape "$shapes" --json "$OUT/check-parts.json"
  quiet_step memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$bin" \
    --cubin "$cubin" --check --variant "$mem_variants" --shape "$mem_shapes"
}
# `unpack_xz FILE.xz`: FILE next to it (python's lzma: the GPU machine may
# lack xz). Device calls carry large binaries xz-packed to fit their limit.
unpack_xz() {
  python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "${1%.xz}"
}
# `unpack_parts DIR`: every DIR/*.xz unpacked next to itself, and DIR's
# tilec binaries made executable (what a device call carries packed).
unpack_parts() {
  local f
  for f in "$1"/*.xz; do
    [ -f "$f" ] && unpack_xz "$f"
  done
  chmod +x "$1"/tilec* 2>/dev/null
  return 0
}
# `device_parts DIR`: CUDA's tools and libraries on the paths, DIR's packed
# parts unpacked (unpack_parts) and a fresh JIT cache (TILEC_CACHE_DIR):
# how every device script over a folder of packed parts starts.
device_parts() {
  export PATH="/usr/local/cuda/bin:$PATH"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  unpack_parts "$1"
  TILEC_CACHE_DIR="$(mktemp -d)"
  export TILEC_CACHE_DIR
}
