#!/usr/bin/env bash
# Where a GEMV-like launch (N = 1 or M = 1, C staged and copied back) spends
# its time: Nsight Systems' kernel and memcpy summary of the bench at each
# of SHAPES (every launch of the timed loop, staging copies included), or,
# without nsys, Nsight Compute's duration of every kernel of the variant.
# BUILDS (default new) names the cubins of .device/parts profiled, each
# in turn (old new: an A/B such as gemv-device.sh's).
# There: bash bench/matmul/gemv-profile-device.sh   (carry .device/parts
# with new.cubin and tilec-matmul-bench)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-gemv-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/parts; BIN="$D/tilec-matmul-bench"; chmod +x "$BIN"
VARIANT="${VARIANT:-mm_bf16_bf16_rr}"
SHAPES="${SHAPES:-4096x1x4096 8192x1x8192 1x4095x4096 1x1x4097}"
NSYS="$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems*/bin/nsys 2>/dev/null | head -1)"
for build in ${BUILDS:-new}; do
for shape in $SHAPES; do
  echo "== $build $shape"
  tag="$build-$shape"
  if [ -n "$NSYS" ]; then
    "$NSYS" profile -o "$OUT/$tag" --force-overwrite true --stats=false \
      "$BIN" --cubin "$D/$build.cubin" --bench --variant "$VARIANT" --shape "$shape" \
      > "$OUT/$tag.log" 2>&1
    "$NSYS" stats --report cuda_gpu_kern_sum,cuda_gpu_mem_time_sum --format csv \
      "$OUT/$tag.nsys-rep" > "$OUT/$tag-stats.csv" 2>> "$OUT/$tag.log"
    grep -v "^$" "$OUT/$tag-stats.csv" | cut -d, -f1-9 | head -30
  else
    timeout 200 ncu --clock-control none -k "regex:^${VARIANT}" -s 8 -c 8 \
      --metrics gpu__time_duration.sum --csv \
      "$BIN" --cubin "$D/$build.cubin" --bench --variant "$VARIANT" \
      --shape "$shape" > "$OUT/$tag.csv" 2> "$OUT/$tag.log"
    grep gpu__time_duration "$OUT/$tag.csv" |
      awk -F'","' '{printf "  %-36s %s %s\n", $5, $NF, $(NF-1)}' | tr -d '"'
  fi
done
done
(cd "$OUT" && tar czf /tmp/gemv-profile.tgz --exclude='*.nsys-rep' --exclude='*.sqlite' . &&
  mv /tmp/gemv-profile.tgz .)
