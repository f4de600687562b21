// The 16-bit matmuls whose C has few rows (decode batches times a weight
// stored [K, N] or [N, K]) alone, for timing the few-rows kernel without
// compiling the bench's 72 kernels (bench/matmul/few-rows-device.sh).
tile.matmul @mm_bf16_bf16_rr a(row) b(row)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
tile.matmul @mm_bf16_bf16_rc a(row) b(col)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
tile.matmul @mm_f16_f32_rr_acc a(row) b(row) accumulate
    : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
