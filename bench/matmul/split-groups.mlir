// The split-K A/B of bench/matmul/split-groups-device.sh: a 16-bit matmul,
// an accumulating one with an f32 C, and an f32 one (main, small-grid and
// split-K kernels of each).
tile.matmul @mm_bf16_bf16_rr a(row) b(row)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
tile.matmul @mm_f32_f32_rr a(row) b(row)
    : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.matmul @mm_bf16_f32_rr_acc a(row) b(row) accumulate
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
