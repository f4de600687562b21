#!/usr/bin/env bash
# Nsight Compute metrics that say what bounds a matmul kernel, for tilec's
# kernel and cuBLAS's at the same shapes, clocks not locked (so the power
# limit's clock shows): time, SM clock, tensor-pipe activity, L2, DRAM and
# shared-memory traffic, launch shape.
# Here: tilec bench/matmul/smallgrid.mlir -o .device/prof/matmul.cubin;
#   strip tilec-matmul-bench into .device/prof/.
# There: bash bench/matmul/pipe-profile-device.sh   (carry .device/prof)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-pipe-profile}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
DIR=.device/prof
chmod +x "$DIR/tilec-matmul-bench"
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,lts__t_bytes.sum.per_second,lts__t_sectors_srcunit_tex.sum,dram__bytes.sum.per_second,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,launch__block_size,launch__registers_per_thread
for shape in ${SHAPES_PROF:-4096x4096x4096 1024x1024x8192}; do
  for who in tilec cublas; do
    if [ $who = tilec ]; then filter='regex:^mm_'; else filter='regex:nvjet|gemm|xmma|cutlass|sm90'; fi
    ncu --clock-control none --metrics "$METRICS" -k "$filter" --launch-skip 5 --launch-count 3 \
      "$DIR/tilec-matmul-bench" --cubin "$DIR/matmul.cubin" --bench \
      --variant mm_bf16_bf16_rr --shape "$shape" > "$OUT/ncu-$who-$shape.txt" 2>&1
    echo "== $who $shape (ncu exit $?)"
    grep -E "^  [A-Za-z_0-9]+.*\(|gpu__|sm__|lts__|dram__|l1tex__|smsp__|launch__" "$OUT/ncu-$who-$shape.txt" | head -60
  done
done
