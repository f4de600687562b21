# Sourced by the device scripts of bench/attention after they cd to the
# repository root: reading tilec-run-examples logs.

# passes LOG: the PASS and FAIL rows of a runner's log, and the first fails.
passes() {
  echo "  $(grep -c PASS "$1") PASS, $(grep -c FAIL "$1") FAIL"
  grep FAIL "$1" | head -5
}
