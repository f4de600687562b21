// Running sums of a series and of its squares (the two moments of a
// running variance) in one pass: a kind scan over two operands combines
// each on its own, and one look-back carries both totals. The prefix
// (inclusive, forward) and the suffix (exclusive, reverse) forms.
//   tilec scan_pair.mlir -o scan_pair.cubin
//   scan_moments(x, xx: f32[n], s1, s2: f32[n]):
//     s1[i] = x[0] + ... + x[i], s2[i] = xx[0] + ... + xx[i]
//   suffix_moments(x, xx: f32[n], s1, s2: f32[n]):
//     s1[i] = x[i+1] + ... + x[n-1], s2 the same over xx
tile.scan @scan_moments add inclusive along 0
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
tile.scan @suffix_moments add exclusive reverse along 0
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
