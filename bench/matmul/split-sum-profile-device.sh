#!/usr/bin/env bash
# Where split-K with a sum kernel spends its time: Nsight Compute's
# duration of the split kernel (`<name>__split_k`) and of its sum kernel
# (`<name>__split_k_sum`), each launched by the bench at each of SHAPES
# (its third and fourth launches of each: steady state), and of the
# small-grid kernel with its adder where the old cubin (the `smallgrid
# ...__split_k` line blanked, see split-sum-device.sh) runs it. BUILDS
# names other cubins (NAME=PATH ...), e.g. sum kernels of other shapes.
# There: bash bench/matmul/split-sum-profile-device.sh   (carry .device/parts)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-split-sum-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
D=.device/parts; BIN="$D/tilec-matmul-bench"; chmod +x "$BIN"
VARIANT="${VARIANT:-mm_bf16_bf16_rr}"
SHAPES="${SHAPES:-128x128x65536 64x64x131072 256x256x16384 384x384x16384 128x128x4096}"
for entry in ${BUILDS:-new=$D/new.cubin old=$D/old.cubin}; do
  build="${entry%%=*}"; cubin="${entry#*=}"
  for shape in $SHAPES; do
    timeout 200 ncu --clock-control none -k "regex:^${VARIANT}__" -s 4 -c 4 \
      --metrics gpu__time_duration.sum --csv \
      "$BIN" --cubin "$cubin" --bench --variant "$VARIANT" \
      --shape "$shape" > "$OUT/$build-$shape.csv" 2> "$OUT/$build-$shape.err"
    echo "== $build $shape (rc $?)"
    grep gpu__time_duration "$OUT/$build-$shape.csv" |
      awk -F'","' '{printf "  %-36s %s %s\n", $5, $NF, $(NF-1)}' | tr -d '"'
  done
done
# One file back (a device call returns 8 at most).
(cd "$OUT" && tar czf /tmp/split-sum-profile.tgz *.csv *.err && rm -f *.csv *.err &&
  mv /tmp/split-sum-profile.tgz .)
