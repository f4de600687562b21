// The scans bench/scan checks and times (tilec-scan-bench, scan_bench.cpp,
// whose table must match this file). Timed against CUB and torch.cumsum:
// the f32 inclusive sums of a vector (@scan_f32) and of rows (@rows_f32).
// Checked: every combiner (add, mul, max, min), inclusive and exclusive,
// forward and reverse, in f32, i32, f16 and bf16 (16-bit sums accumulate in
// f32). The first names are the bench's earlier kernels; the others say
// what they compute: <scan|rows>_<op>_<inc|exc>[_rev]_<type>.

// 1-D (along 0): sums.
tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_add_exc_f32 add exclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_add_inc_rev_f32 add inclusive reverse along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_add_exc_rev_f32 add exclusive reverse along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_i32 add inclusive along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @scan_add_exc_i32 add exclusive along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @scan_rev_i32 add inclusive reverse along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @scan_add_exc_rev_i32 add exclusive reverse along 0 : (memref<?xi32>, memref<?xi32>) -> ()
// 1-D products (f32 inputs are +-1, +-2, +-0.5: exact; i32 wraps).
tile.scan @scan_mul_inc_f32 mul inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_mul_exc_rev_f32 mul exclusive reverse along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_mul_exc_i32 mul exclusive along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @scan_mul_inc_rev_i32 mul inclusive reverse along 0 : (memref<?xi32>, memref<?xi32>) -> ()
// 1-D running max and min (exclusive: -inf/+inf, INT32_MIN/INT32_MAX first).
tile.scan @scan_max_exc_f32 max exclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_max_inc_rev_f32 max inclusive reverse along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_max_inc_i32 max inclusive along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @scan_max_exc_rev_i32 max exclusive reverse along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @scan_min_inc_f32 min inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_min_exc_rev_f32 min exclusive reverse along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_min_exc_i32 min exclusive along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @scan_min_inc_rev_i32 min inclusive reverse along 0 : (memref<?xi32>, memref<?xi32>) -> ()
// 1-D 16-bit sums.
tile.scan @scan_add_inc_f16 add inclusive along 0 : (memref<?xf16>, memref<?xf16>) -> ()
tile.scan @scan_add_exc_rev_f16 add exclusive reverse along 0 : (memref<?xf16>, memref<?xf16>) -> ()
tile.scan @scan_add_inc_bf16 add inclusive along 0 : (memref<?xbf16>, memref<?xbf16>) -> ()
tile.scan @scan_add_exc_bf16 add exclusive along 0 : (memref<?xbf16>, memref<?xbf16>) -> ()

// Rows (along 1).
tile.scan @rows_f32 add inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @rows_i32 add exclusive along 1 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @rows_rev_f32 add exclusive reverse along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @rows_max_f32 max exclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @rows_min_exc_i32 min exclusive along 1 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @rows_mul_inc_f32 mul inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @rows_bf16 add inclusive along 1 : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()
tile.scan @rows_add_inc_rev_i32 add inclusive reverse along 1 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @rows_mul_exc_rev_i32 mul exclusive reverse along 1 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @rows_max_inc_rev_i32 max inclusive reverse along 1 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @rows_min_inc_rev_f32 min inclusive reverse along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @rows_add_exc_f16 add exclusive along 1 : (memref<?x?xf16>, memref<?x?xf16>) -> ()
