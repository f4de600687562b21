#!/usr/bin/env bash
# The GPU check: runs on the GPU machine (CUDA 13, no LLVM/MLIR) over the
# tree packed by scripts/package-device.sh, and prints one results table.
#   here:  bash scripts/package-device.sh
#   there: bash bench/gpu-check.sh        (results under $OUT, default /tmp/tilec-gpu)
# What it checks: cuobjdump reads the sm_90a and sm_80 cubins tilec made (and
# the softmax SASS has the warp shuffles, barriers and exp); the runtime unit tests, GPU ones
# included; every example, AOT from the cubins and JIT in-process, against a
# float64 host reference on ragged shapes; examples/matmul.mlir through the
# matmul harness, as scripts/examples.sh checks it; compute-sanitizer memcheck
# and racecheck on the examples.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-gpu}"
mkdir -p "$OUT"
D=.device
export PATH="/usr/local/cuda/bin:$PATH"
export TILEC_CACHE_DIR=/tmp/tilec-cache
for exe in tilec-run-examples tilec-jit-rowsum; do
  gunzip -c "$D/$exe.gz" > "/tmp/$exe" && chmod +x "/tmp/$exe"
done
chmod +x "$D/tilec-run-examples-aot" "$D/tilec_runtime_tests" "$D/tilec-matmul-bench" \
  "$D/tilec_kernel_wrapper_tests"

declare -A status
step() { # step NAME COMMAND...: runs, logs, records PASS/FAIL
  local name="$1"; shift
  echo; echo "== $name"
  if "$@"; then status[$name]=PASS; else status[$name]="FAIL($?)"; fi
}
each_cubin() { # each_cubin CMD...: CMD on every cubin, all must succeed
  local f rc=0
  for f in "$D"/cubins/*.cubin; do
    echo "-- $(basename "$f")"; "$@" "$f" || rc=1
  done
  return $rc
}
sass_has() { # sass_has CUBIN PATTERN...: every pattern occurs in the SASS
  local sass; sass="$(cuobjdump -sass "$1")" || return 1
  shift
  for p in "$@"; do
    printf '  %-14s %s\n' "$p" "$(grep -c "$p" <<<"$sass")"
    grep -q "$p" <<<"$sass" || return 1
  done
}

jit_cache_hit() { # a second JIT run of the same sources adds no entry
  local before after
  before=$(ls "$TILEC_CACHE_DIR" | wc -l)
  /tmp/tilec-run-examples --source-dir examples --mode jit >/dev/null || return 1
  after=$(ls "$TILEC_CACHE_DIR" | wc -l)
  echo "  cache entries: $before before, $after after a second JIT run"
  [ "$before" -gt 0 ] && [ "$before" -eq "$after" ]
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader
  step cuobjdump-res-usage each_cubin cuobjdump -res-usage
  step sass-softmax sass_has "$D/cubins/softmax.cubin" SHFL.BFLY BAR.SYNC MUFU.EX2
  step runtime-unit-tests "$D/tilec_runtime_tests" --gtest_brief=1
  # Kernels compiled at build time (tilec_add_kernels), through their
  # generated functions.
  step kernel-wrapper-tests "$D/tilec_kernel_wrapper_tests" --gtest_brief=1
  step examples-aot-jit /tmp/tilec-run-examples --cubin-dir "$D/cubins" \
    --source-dir examples --mode both --json "$OUT/examples.json"
  step jit-cache-hit jit_cache_hit
  step jit-rowsum-example bash -c "/tmp/tilec-jit-rowsum 1000 1003 && /tmp/tilec-jit-rowsum 3 100003 && /tmp/tilec-jit-rowsum 1 1"
  # The same check scripts/examples.sh runs on examples/matmul.mlir.
  step matmul-example env LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}" \
    "$D/tilec-matmul-bench" --cubin "$D/cubins/matmul.cubin" --check --fail-if-none \
    --variant mm_bf16_bf16_rc --shape 1x1x1,7x13x5,33x65x17,1000x1003x517,4096x4096x4096
  step memcheck compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot
  step racecheck compute-sanitizer --tool racecheck --error-exitcode 9 \
    "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot

  echo; echo "== summary"
  passed=0 failed=0
  for k in cuobjdump-res-usage sass-softmax runtime-unit-tests \
           examples-aot-jit jit-cache-hit jit-rowsum-example matmul-example \
           memcheck racecheck; do
    printf '  %-22s %s\n' "$k" "${status[$k]:-not run}"
    [ "${status[$k]:-}" = PASS ] && passed=$((passed + 1)) || failed=$((failed + 1))
  done
  echo "$passed passed, $failed failed"
} 2>&1 | tee "$OUT/gpu-check.log"
