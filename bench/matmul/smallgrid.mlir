// The bf16 row-major matmul alone (main, small-grid and twin kernels), for
// profiling the small-grid kernel without compiling the bench's 72 kernels.
tile.matmul @mm_bf16_bf16_rr a(row) b(row)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
