#!/usr/bin/env bash
# Probes of the decode kernel on the GPU machine (issue 16), from
# .device/cubins-var-base (attn_d64 and attn_d128 built by
# bench/attention/make-variants.sh 'attn_d64|attn_d128' 'base='). PROBE picks:
#   dims    is the gap to cuDNN at the batched GQA shapes the same at d64,
#           where one TMA box holds a whole key row, as at d128, where a key
#           row is two 128-byte boxes? tilec and the SDPA peers at both
#           head dims, and ncu's DRAM throughput of both decode kernels.
#   l2      where the L2's throughput goes, in tilec's d128 decode kernel
#           and in cuDNN's, at NCU_SHAPE.
#   tables  which requests make tilec's L2 traffic: ncu's memory tables and
#           source counters at NCU_SHAPE.
#   promotion  the TMA descriptors' L2 promotion (0 none, 1 64 B, 2 128 B,
#           3 256 B, the runtime's) through .device/tilec-run-examples-l2, a
#           runner built with a temporary hook reading TILEC_L2_PROMOTION
#           (not committed): attn_d128 at PROBE_SHAPES, alternating rounds,
#           and ncu's tex sectors at NCU_SHAPE for each.
# Summary on stdout, logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../../.."
OUT="${OUT:-/tmp/tilec-decode-probe}"
source bench/attention/runner-logs.sh
NCU_SHAPE="${NCU_SHAPE:-32x32x8x1x8192}"
ncu_tilec() {  # ncu_tilec LOG NCU-ARGS...: tilec's d128 decode kernel at NCU_SHAPE
  local log="$1"; shift
  timeout 200 ncu "$@" -k regex:'^attn_d128__decode' -c 1 "$RUN" \
    --cubin-dir "$D/cubins-var-base" --mode aot --only attn_d128 \
    --shapes "$NCU_SHAPE" > "$log" 2>&1
}

dims() {
  local shapes="${PROBE_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,1x16x16x1x65536}"
  local d
  for d in 64 128; do
    timeout 200 "$RUN" --cubin-dir "$D/cubins-var-base" --mode aot --only "attn_d$d" \
      --shapes "$shapes" > "$OUT/tilec-d$d.log" 2>&1
    echo "tilec d$d rc=$?"; passes "$OUT/tilec-d$d.log"
    grep -h "attn_d$d " "$OUT/tilec-d$d.log" | awk '{print $3, $2, $7, $NF}'
  done
  timeout 200 python3 bench/attention/peers.py --impls flash,cudnn \
    --shapes "$(peer_shapes "$shapes" "64 128")" \
    --json "$OUT/peers.json" > "$OUT/peers.log" 2>&1
  echo "peers rc=$?"; grep -E "cudnn|flash" "$OUT/peers.log" | head -30
  for d in 64 128; do
    timeout 150 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis \
      -k regex:"^attn_d${d}__decode" -c 1 "$RUN" --cubin-dir "$D/cubins-var-base" \
      --mode aot --only "attn_d$d" --shapes "$NCU_SHAPE" > "$OUT/ncu-d$d.txt" 2>&1
    echo "ncu d$d rc=$?"
    grep -E "^  [a-z_]+|Duration|DRAM Throughput|L2 Hit Rate|Memory Throughput" \
      "$OUT/ncu-d$d.txt" | head -12
  done
}

l2() {
  local metrics="breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_requests.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,gpu__time_duration.sum"
  local b hq hkv nq nkv
  ncu_tilec "$OUT/l2-tilec.txt" --metrics "$metrics"
  echo "l2 tilec rc=$?"; grep -E "^    [a-z]" "$OUT/l2-tilec.txt" | head -40
  IFS=x read -r b hq hkv nq nkv <<< "$NCU_SHAPE"
  timeout 200 ncu --metrics "$metrics" -k regex:'flash_fprop' -c 1 python3 bench/attention/peers.py \
    --impls cudnn --shapes "$b,$hq,$hkv,$nq,$nkv,128,0" > "$OUT/l2-cudnn.txt" 2>&1
  echo "l2 cudnn rc=$?"; grep -E "^    [a-z]" "$OUT/l2-cudnn.txt" | head -40
}

tables() {
  ncu_tilec "$OUT/tables-tilec.txt" --section MemoryWorkloadAnalysis_Tables \
    --section SourceCounters --metrics lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,smsp__sass_inst_executed_op_global_ld.sum
  echo "tables rc=$?"
  sed -n '/Section: Memory Workload Analysis Tables/,$p' "$OUT/tables-tilec.txt" | head -150
  grep -E "^    [a-z]" "$OUT/tables-tilec.txt" | head
}

promotion() {
  local shapes="${PROBE_SHAPES:-64x32x8x1x4096,32x32x8x1x8192,16x32x8x1x16384,8x32x8x1x32768,1x16x16x1x65536,4x16x16x4096x4096}"
  local run="$D/tilec-run-examples-l2" round p
  chmod +x "$run"
  for round in 1 2; do
    for p in ${PROMOTIONS:-3 2 1 0}; do
      TILEC_L2_PROMOTION=$p timeout 200 "$run" --cubin-dir "$D/cubins-var-base" --mode aot \
        --only attn_d128 --shapes "$shapes" > "$OUT/promotion-$p-$round.log" 2>&1
      echo "promotion $p round $round rc=$?"; passes "$OUT/promotion-$p-$round.log"
      grep -h "attn_d128 " "$OUT/promotion-$p-$round.log" | awk '{print "  ", $3, $7}'
    done
  done
  for p in ${PROMOTIONS:-3 2 1 0}; do
    TILEC_L2_PROMOTION=$p RUN="$run" ncu_tilec "$OUT/promotion-ncu-$p.txt" --metrics \
      lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
    echo "ncu promotion $p rc=$?"; grep -E "^    [a-z]" "$OUT/promotion-ncu-$p.txt"
  done
}

case "${PROBE:-dims}" in
  promotion) promotion ;;
  dims) dims ;;
  l2) l2 ;;
  tables) tables ;;
  *) echo "unknown PROBE ${PROBE}" >&2; exit 2 ;;
esac
