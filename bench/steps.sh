# Sourced by the GPU run scripts (bench/layouts-gpu.sh,
# bench/attention-gpu.sh): `step NAME COMMAND...` runs a step, logs it to
# $OUT/NAME.log and records PASS or FAIL(rc); `summary` prints every step of
# $STEPS and ends with "N passed, N failed".
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
