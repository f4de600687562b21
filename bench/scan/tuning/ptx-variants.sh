# Sourced by the sweeps that patch the PTX of the 1-D f32 sum (scan_f32) and
# reassemble it with ptxas, so that the variants share one kernel and its
# launch metadata: occupancy.sh (.minnctapersm), sleep-sweep.sh (the
# look-back's first-read sleep). Run from the repository root.

# Writes DIR/scan_f32.ptx, tilec's PTX of the 1-D f32 inclusive sum.
scan_f32_ptx() {
  local dir="$1" build="${TILEC_BUILD_DIR:-build}"
  mkdir -p "$dir"
  echo 'tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()' \
    > "$dir/scan_f32.mlir"
  "$build/bin/tilec" "$dir/scan_f32.mlir" --emit=ptx -o "$dir/scan_f32.ptx"
}

# Assembles PTX into a cubin for sm_90a, printing registers and spills.
assemble_variant() {
  /usr/local/cuda/bin/ptxas -arch=sm_90a -v "$1" -o "$2" 2>&1 |
    grep -E "registers|spill"
}

# Times NAME=CUBIN... (scan_f32 checked on the table's lengths, timed at
# 2^20, 2^24, 2^28) interleaved over two rounds, so that drift shows, with
# CUB's InclusiveSum after each round; JSON per variant and round in OUT.
run_variants() {
  local out="$1" round variant
  shift
  mkdir -p "$out"
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  chmod +x .device/tilec-scan-bench .device/tilec-cub-scan
  for round in 1 2; do
    for variant in "$@"; do
      echo "== round $round, ${variant%%=*}"
      .device/tilec-scan-bench --cubin "${variant#*=}" --only scan_f32 \
        --json "$out/${variant%%=*}-$round.json" |
        grep -E "FAIL|1048576 |16777216 |268435456 " || true
    done
    .device/tilec-cub-scan --log2 20,24,28 --only sum |
      grep -E "InclusiveSum +f32" || true
  done
}
