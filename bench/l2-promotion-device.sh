#!/usr/bin/env bash
# The TMA descriptors' L2 promotion (issue 16, decode): the runtime before
# (256-byte promotion on every tensor map) against after (the widest
# promotion within the box's rows), the same cubins, in one device call.
# Here: bash scripts/package-device.sh, then the previous runtime's runner
# and matmul bench (built at the parent commit, stripped) copied to
# .device/old/. There: bash bench/l2-promotion-device.sh
#   checks   every example AOT with the new runtime (attention at all its
#            descriptions and shapes), matmul's checks at ragged shapes
#   attention  attn_d64 / attn_d128 (decode, prefill, causal) old and new
#            runner, alternating rounds, each row checked; SDPA peers
#   matmul   old and new matmul bench on the same cubin, alternating rounds
# L2_DECODE, L2_PREFILL (shapes; empty for none), L2_ROUNDS, L2_PEER_DIMS
# and L2_PARTS narrow a call. Each runner call checks its rows against
# float64 first: about 50 s for the eight decode shapes (with the references
# on one core, before 6efa1fa), more for the long
# prefill ones. Summary on stdout ("N passed, N failed" at the end), logs
# under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/tilec-l2-promotion}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device
chmod +x "$D"/tilec-* "$D"/old/*
source bench/steps.sh
source bench/attention/runner-logs.sh  # peer_shapes
DECODE="${L2_DECODE-64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536,64x8x8x1x4096}"
PREFILL="${L2_PREFILL-4x16x16x4096x4096,1x16x16x16384x16384,16x16x16x1024x1024,4x32x8x4096x4096}"

checks() {
  QUIET_PATTERN='passed|failed|FAIL' quiet_step examples \
    "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot
  grep -c PASS "$OUT/examples.log"
  quiet_step matmul-check "$D/tilec-matmul-bench" --cubin "$D/bench/matmul.cubin" --check \
    --fail-if-none --shape 1x1x1,7x13x5,129x257x65,1031x2053x4099,3000x5000x4000
}

attention() {
  local round who name shapes
  for round in ${L2_ROUNDS:-1 2}; do
    for who in old new; do
      local run="$D/tilec-run-examples-aot"
      [ "$who" = old ] && run="$D/old/tilec-run-examples-aot"
      for name in attn_d128:"$DECODE,$PREFILL" attn_d128_causal:"$PREFILL" \
                  attn_d64:"$DECODE,$PREFILL"; do
        shapes="${name#*:}" name="${name%%:*}" shapes="${shapes#,}" shapes="${shapes%,}"
        [ -n "$shapes" ] || continue
        QUIET_PATTERN=XX quiet_step "$who-$name-$round" "$run" --cubin-dir "$D/cubins" \
          --mode aot --only "$name" --shapes "$shapes"
      done
    done
  done
  for name in attn_d128 attn_d128_causal attn_d64; do
    echo "== $name: shape, then old and new of each round (us)"
    for shape in ${DECODE//,/ } ${PREFILL//,/ }; do
      printf '%s' "$shape"
      for log in $(for round in ${L2_ROUNDS:-1 2}; do echo "old-$name-$round new-$name-$round"; done); do
        [ -f "$OUT/$log.log" ] || continue
        printf ' %s' "$(awk -v s="$shape" -v n="$name" '$1 == n && $3 == s {print $7 ($NF == "PASS" ? "" : "!" $NF)}' "$OUT/$log.log")"
      done
      echo
    done
  done
  QUIET_PATTERN='cudnn|flash' QUIET_LINES=40 quiet_step peers timeout 300 python3 \
    bench/attention/peers.py --impls flash,cudnn \
    --shapes "$(peer_shapes "$DECODE" "${L2_PEER_DIMS:-64 128}")" --json "$OUT/peers.json"
}

matmul() {
  local round who bin
  for round in ${L2_ROUNDS:-1 2}; do
    for who in old new; do
      bin="$D/tilec-matmul-bench"; [ "$who" = old ] && bin="$D/old/tilec-matmul-bench"
      QUIET_PATTERN='^mm_' QUIET_LINES=20 quiet_step "matmul-$who-$round" "$bin" \
        --cubin "$D/bench/matmul.cubin" --bench --fail-if-none \
        --variant mm_bf16_bf16_rr,mm_f16_f16_rr \
        --shape 4096x4096x4096,8192x8192x8192,3000x5000x4000,8000x3000x6000 \
        --json "$OUT/matmul-$who-$round.json"
    done
  done
}

for part in ${L2_PARTS:-checks attention matmul}; do "$part"; done
summary
