// The scans bench/scan checks and times (tilec-scan-bench, scan_bench.cpp,
// whose table must match this file). Timed against CUB and torch.cumsum:
// the f32 inclusive sums of a vector (@scan_f32) and of rows (@rows_f32).
// Checked: every combiner (add, mul, max, min), inclusive and exclusive,
// forward and reverse, in f32, i32, f16 and bf16 (16-bit sums accumulate in
// f32), of a vector, of every row (along 1) and of every column (along 0 of
// a 2-D memref; @cols_f32 timed against torch.cumsum(dim=0)). The first
// names are the bench's earlier kernels; the others say what they compute:
// <scan|rows|cols>_<op>_<inc|exc>[_rev]_<type>. At the end, under their own
// header: the scans with a combiner region (linear recurrences,
// @scan_rec_inc_f32 and @rows_rec_inc_f32 timed against CUB, segmented
// sums, and segmented maxima over f16, bf16 and f32 values).

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

// Columns (along 0 of a 2-D memref): element (r, c) gets the combination of
// (0..r, c), or of (r..R-1, c) for reverse.
tile.scan @cols_f32 add inclusive along 0 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @cols_add_exc_rev_i32 add exclusive reverse along 0 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @cols_max_exc_f32 max exclusive along 0 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @cols_mul_inc_rev_i32 mul inclusive reverse along 0 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @cols_min_exc_rev_f32 min exclusive reverse along 0 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @cols_bf16 add inclusive along 0 : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()
tile.scan @cols_add_exc_f16 add exclusive along 0 : (memref<?x?xf16>, memref<?x?xf16>) -> ()

// ---------------------------------------------------------------------------
// Combiner regions: scans of (X1, X2) pairs into (Y1, Y2), each region
// associative and NOT commutative (its arguments are the earlier pair, then
// the later one, in scan order: for a reverse scan the earlier pair is the
// one of higher index), so that a carry combined on the wrong side shows.
// Names: <scan|rows|cols>_<rec|segsum|segmax>_<inc|exc>[_rev]_<type>, the
// type i32f32 (i32f16, i32bf16) for an i32 first and an f32 (f16, bf16)
// second operand.
//
// rec: the linear recurrence h[t] = a[t] * h[t-1] + b[t] over (a, b), the
// composition of the affine maps h -> a*h + b: Y1 = the running product of
// a, Y2 = h. Identity (1, 0). The i32 ones wrap (a ring: still associative,
// and exact whatever the order of evaluation). Timed by tilec-scan-bench:
// @scan_rec_inc_f32 (against CUB's InclusiveScan of float2 pairs) and
// @rows_rec_inc_f32, GB/s = 4 arrays x 4 bytes an element / time.
//
// segsum: a segmented sum over (flag, value): a non-zero flag starts a new
// segment, whose sum restarts at its value. Y1 = the OR of the flags so
// far, Y2 = the sum since the last flag. Identity (0, 0).
//
// segmax: a segmented max over (flag, value), the same with arith.maximumf
// in place of the sum: Y2 = the max since the last flag. Identity
// (0, -inf), written by its bits: 0xFC00 : f16, 0xFF80 : bf16. Over f16
// and bf16 the region combines the 16-bit values as they are (no f32
// widening); a max is exact in any association, so the bench checks these
// exactly.
// ---------------------------------------------------------------------------

// 1-D f32 recurrences.
tile.scan @scan_rec_inc_f32 inclusive along 0
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}
tile.scan @scan_rec_exc_f32 exclusive along 0 identity [1.0 : f32, 0.0 : f32]
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}
tile.scan @scan_rec_inc_rev_f32 inclusive reverse along 0
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}
tile.scan @scan_rec_exc_rev_f32 exclusive reverse along 0 identity [1.0 : f32, 0.0 : f32]
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}

// 1-D i32 recurrences (wrapping).
tile.scan @scan_rec_inc_i32 inclusive along 0
    : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}
tile.scan @scan_rec_exc_i32 exclusive along 0 identity [1 : i32, 0 : i32]
    : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}
tile.scan @scan_rec_inc_rev_i32 inclusive reverse along 0
    : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}
tile.scan @scan_rec_exc_rev_i32 exclusive reverse along 0 identity [1 : i32, 0 : i32]
    : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}

// 1-D segmented sums: i32 values, then f32 values (a mixed pair).
tile.scan @scan_segsum_inc_i32 inclusive along 0
    : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()
{
^bb0(%f0: i32, %v0: i32, %f1: i32, %v1: i32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addi %v0, %v1 : i32
  %v = arith.select %starts, %v1, %sum : i32
  tile.yield %f, %v : i32, i32
}
tile.scan @scan_segsum_exc_rev_i32 exclusive reverse along 0 identity [0 : i32, 0 : i32]
    : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()
{
^bb0(%f0: i32, %v0: i32, %f1: i32, %v1: i32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addi %v0, %v1 : i32
  %v = arith.select %starts, %v1, %sum : i32
  tile.yield %f, %v : i32, i32
}
tile.scan @scan_segsum_inc_i32f32 inclusive along 0
    : (memref<?xi32>, memref<?xf32>, memref<?xi32>, memref<?xf32>) -> ()
{
^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addf %v0, %v1 : f32
  %v = arith.select %starts, %v1, %sum : f32
  tile.yield %f, %v : i32, f32
}
tile.scan @scan_segsum_exc_rev_i32f32 exclusive reverse along 0 identity [0 : i32, 0.0 : f32]
    : (memref<?xi32>, memref<?xf32>, memref<?xi32>, memref<?xf32>) -> ()
{
^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addf %v0, %v1 : f32
  %v = arith.select %starts, %v1, %sum : f32
  tile.yield %f, %v : i32, f32
}

// Rows (along 1): recurrences and segmented sums of every row.
tile.scan @rows_rec_inc_f32 inclusive along 1
    : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}
tile.scan @rows_rec_exc_rev_f32 exclusive reverse along 1 identity [1.0 : f32, 0.0 : f32]
    : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}
tile.scan @rows_rec_inc_i32 inclusive along 1
    : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}
tile.scan @rows_rec_exc_i32 exclusive along 1 identity [1 : i32, 0 : i32]
    : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}
tile.scan @rows_rec_inc_rev_i32 inclusive reverse along 1
    : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}
tile.scan @rows_segsum_inc_i32 inclusive along 1
    : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
{
^bb0(%f0: i32, %v0: i32, %f1: i32, %v1: i32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addi %v0, %v1 : i32
  %v = arith.select %starts, %v1, %sum : i32
  tile.yield %f, %v : i32, i32
}
tile.scan @rows_segsum_inc_i32f32 inclusive along 1
    : (memref<?x?xi32>, memref<?x?xf32>, memref<?x?xi32>, memref<?x?xf32>) -> ()
{
^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addf %v0, %v1 : f32
  %v = arith.select %starts, %v1, %sum : f32
  tile.yield %f, %v : i32, f32
}
tile.scan @rows_segsum_exc_rev_i32f32 exclusive reverse along 1 identity [0 : i32, 0.0 : f32]
    : (memref<?x?xi32>, memref<?x?xf32>, memref<?x?xi32>, memref<?x?xf32>) -> ()
{
^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addf %v0, %v1 : f32
  %v = arith.select %starts, %v1, %sum : f32
  tile.yield %f, %v : i32, f32
}

// 1-D segmented maxima: f16 and bf16 values (combined as they are), then
// f32 values to compare with.
tile.scan @scan_segmax_inc_i32f16 inclusive along 0
    : (memref<?xi32>, memref<?xf16>, memref<?xi32>, memref<?xf16>) -> ()
{
^bb0(%f0: i32, %v0: f16, %f1: i32, %v1: f16):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %max = arith.maximumf %v0, %v1 : f16
  %v = arith.select %starts, %v1, %max : f16
  tile.yield %f, %v : i32, f16
}
tile.scan @scan_segmax_exc_rev_i32bf16 exclusive reverse along 0 identity [0 : i32, 0xFF80 : bf16]
    : (memref<?xi32>, memref<?xbf16>, memref<?xi32>, memref<?xbf16>) -> ()
{
^bb0(%f0: i32, %v0: bf16, %f1: i32, %v1: bf16):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %max = arith.maximumf %v0, %v1 : bf16
  %v = arith.select %starts, %v1, %max : bf16
  tile.yield %f, %v : i32, bf16
}
tile.scan @scan_segmax_inc_i32f32 inclusive along 0
    : (memref<?xi32>, memref<?xf32>, memref<?xi32>, memref<?xf32>) -> ()
{
^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %max = arith.maximumf %v0, %v1 : f32
  %v = arith.select %starts, %v1, %max : f32
  tile.yield %f, %v : i32, f32
}

// Rows (along 1): 16-bit segmented maxima of every row.
tile.scan @rows_segmax_inc_i32bf16 inclusive along 1
    : (memref<?x?xi32>, memref<?x?xbf16>, memref<?x?xi32>, memref<?x?xbf16>) -> ()
{
^bb0(%f0: i32, %v0: bf16, %f1: i32, %v1: bf16):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %max = arith.maximumf %v0, %v1 : bf16
  %v = arith.select %starts, %v1, %max : bf16
  tile.yield %f, %v : i32, bf16
}
tile.scan @rows_segmax_exc_rev_i32f16 exclusive reverse along 1 identity [0 : i32, 0xFC00 : f16]
    : (memref<?x?xi32>, memref<?x?xf16>, memref<?x?xi32>, memref<?x?xf16>) -> ()
{
^bb0(%f0: i32, %v0: f16, %f1: i32, %v1: f16):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %max = arith.maximumf %v0, %v1 : f16
  %v = arith.select %starts, %v1, %max : f16
  tile.yield %f, %v : i32, f16
}

// Columns (along 0 of a 2-D memref): recurrences, a segmented sum and a
// 16-bit segmented max of every column.
tile.scan @cols_rec_inc_f32 inclusive along 0
    : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}
tile.scan @cols_rec_exc_rev_i32 exclusive reverse along 0 identity [1 : i32, 0 : i32]
    : (memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>, memref<?x?xi32>) -> ()
{
^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
  %a = arith.muli %a1, %a0 : i32
  %ab = arith.muli %a1, %b0 : i32
  %b = arith.addi %ab, %b1 : i32
  tile.yield %a, %b : i32, i32
}
tile.scan @cols_segsum_inc_i32f32 inclusive along 0
    : (memref<?x?xi32>, memref<?x?xf32>, memref<?x?xi32>, memref<?x?xf32>) -> ()
{
^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addf %v0, %v1 : f32
  %v = arith.select %starts, %v1, %sum : f32
  tile.yield %f, %v : i32, f32
}
tile.scan @cols_segmax_exc_rev_i32bf16 exclusive reverse along 0 identity [0 : i32, 0xFF80 : bf16]
    : (memref<?x?xi32>, memref<?x?xbf16>, memref<?x?xi32>, memref<?x?xbf16>) -> ()
{
^bb0(%f0: i32, %v0: bf16, %f1: i32, %v1: bf16):
  %zero = arith.constant 0 : i32
  %f = arith.ori %f0, %f1 : i32
  %starts = arith.cmpi ne, %f1, %zero : i32
  %max = arith.maximumf %v0, %v1 : bf16
  %v = arith.select %starts, %v1, %max : bf16
  tile.yield %f, %v : i32, bf16
}
