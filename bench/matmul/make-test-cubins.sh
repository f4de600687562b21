#!/usr/bin/env bash
# Builds the harness's test cubins from testdata/naive_kernels.cu with nvcc
# (sm_90a): naive.cubin (correct), naive-broken-row.cubin and
# naive-broken-k.cubin (wrong, must fail --check). Usage:
#   bash bench/matmul/make-test-cubins.sh OUTDIR
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUTDIR="${1:?usage: make-test-cubins.sh OUTDIR}"
NVCC="${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}"
mkdir -p "$OUTDIR"
src="$HERE/testdata/naive_kernels.cu"
"$NVCC" -cubin -arch=sm_90a -O3 -o "$OUTDIR/naive.cubin" "$src"
"$NVCC" -cubin -arch=sm_90a -O3 -DBROKEN=1 -o "$OUTDIR/naive-broken-row.cubin" "$src"
"$NVCC" -cubin -arch=sm_90a -O3 -DBROKEN=2 -o "$OUTDIR/naive-broken-k.cubin" "$src"
