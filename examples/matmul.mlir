// C = A x B for bf16 A (MxK, row-major) and B (KxN, column-major, passed as
// its NxK transpose), accumulated in f32 and stored as bf16; M, N, K are
// given at launch. tilec picks the schedule (block tile, warps, stages).
// The name follows the variant names the matmul checker knows
// (bench/matmul/matmul_bench.cpp), so scripts/examples.sh can check it.
tile.matmul @mm_bf16_bf16_rc a(row) b(col)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
