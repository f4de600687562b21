#!/usr/bin/env bash
# One device call for the decode combine (issue 16): every example checked
# AOT against its float64 reference (attention, matmul, scan: the load
# lowering changed for all of them), memcheck at decode shapes whose chunk
# counts are not multiples of the combine's step, attn_d128 timed at the
# decode shapes (the default build and each .device/cubins-var-* build), the
# packed-sequence decode, the decode peers in the same call, and the decode
# kernels' times under ncu; results packed into $OUT/results.tgz.
#   there: COMBINE_STEPS="check memcheck time peers ncu" bash bench/attention/combine-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
FINAL="${OUT:-/tmp/tilec-attention}"
WORK=/tmp/combine-run
rm -rf "$WORK"; mkdir -p "$WORK"
D=.device
chmod +x "$D/tilec-run-examples-aot"
export PATH="/usr/local/cuda/bin:$PATH"
AOT=("$D/tilec-run-examples-aot" --mode aot)
DECODE=64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,8x32x8x1x65536,1x32x8x1x16384,1x16x16x1x65536
# Packed sequences, HqxHkv then NqxNkv per sequence: B sequences of one
# query against N keys, as the padded BxHqxHkvx1xN shapes.
packed() { local out="$2x$3" i; for ((i = 0; i < $1; i++)); do out="${out}x1x$4"; done; echo "$out"; }
VARLEN="$(packed 8 32 8 32768),$(packed 1 32 8 16384),$(packed 16 32 8 16384),$(packed 1 16 16 65536)"
# Chunk counts of 1, 3, 5, 9 and 65 (not multiples of 8), a few query rows,
# packed heads, packed sequences with no query or no key.
MEMCHECK="attn_d128:1x4x1x1x9000 attn_d128:2x8x2x3x5000 attn_d128:1x2x2x1x1
attn_d256:1x2x2x3x1537 attn_softcap:1x2x2x5x3000x1 attn_d128_causal:1x4x4x16x66000
attn_varlen:8x2x1x17x3x4000x0x5x16x9000x1x0"
run() { # run NAME LIMIT COMMAND...: logs to NAME.log, records the status
  local name="$1" limit="$2"; shift 2
  timeout "$limit" "$@" > "$WORK/$name.log" 2>&1
  echo "$name rc=$?" | tee -a "$WORK/steps.txt"
}
for step in ${COMBINE_STEPS:-check memcheck time peers ncu}; do
  case "$step" in
    check) run check 330 "${AOT[@]}" --cubin-dir "$D/cubins" --json "$WORK/check.json" ;;
    memcheck)
      for item in $MEMCHECK; do
        run "memcheck-${item/:/-}" 120 compute-sanitizer --tool memcheck --print-limit 5 \
          "${AOT[@]}" --cubin-dir "$D/cubins" --only "${item%%:*}" --shapes "${item#*:}"
      done ;;
    time)
      for dir in "$D"/cubins "$D"/cubins-var-*; do
        [ -d "$dir" ] || continue
        tag="$(basename "$dir")"
        run "decode-$tag" 150 "${AOT[@]}" --cubin-dir "$dir" --only attn_d128 \
          --shapes "$DECODE" --json "$WORK/decode-$tag.json"
      done
      run varlen-decode 150 "${AOT[@]}" --cubin-dir "$D/cubins" --only attn_varlen \
        --shapes "$VARLEN" --json "$WORK/varlen-decode.json" ;;
    peers) run peers 200 python3 bench/attention/peers.py --preset decode --json "$WORK/peers.json" ;;
    ncu)
      for shape in 8x32x8x1x65536 1x32x8x1x16384 1x16x16x1x65536; do
        run "ncu-$shape" 60 ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
          -k regex:'__decode' -c 6 "${AOT[@]}" --cubin-dir "$D/cubins" --only attn_d128 --shapes "$shape"
      done ;;
    *) echo "unknown step $step" | tee -a "$WORK/steps.txt" ;;
  esac
done
mkdir -p "$FINAL"
tar czf "$FINAL/results.tgz" -C "$WORK" .
