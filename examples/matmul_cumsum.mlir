// Row prefix sums of a product, C[m, n] = sum over j <= n of (A x B)[m, j],
// for N <= 16, one warp a program of 16 rows: the dot leaves its result in
// mma.sync fragments, and tile.prefix scans them where they are (each bit
// of the column, from the lowest: within a thread or by xor shuffles; no
// workgroup memory). @matmul_suffixsum is the same with an exclusive,
// reverse scan: C[m, n] = sum over j > n of (A x B)[m, j].
// A [M, K], B [K, N] bf16 row-major, C [M, N] f32.
//   tilec matmul_cumsum.mlir -o matmul_cumsum.cubin
tile.kernel @matmul_cumsum(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                           %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 0, per_program = 16>],
                num_warps = 1} {
  %pm = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m0 = arith.muli %pm, %c16 : index
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %kk = %c0 to %k step %c16 iter_args(%sum = %zero)
      -> (tensor<16x16xf32>) {
    %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<16x16xbf16>
    %tb = tile.load %b[%kk, %c0] : memref<?x?xbf16> -> tensor<16x16xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  } {tile.stages = 2 : i64}
  %scan:2 = tile.prefix add %acc along 1 : tensor<16x16xf32>
  tile.store %scan#0, %c[%m0, %c0] : tensor<16x16xf32>, memref<?x?xf32>
  tile.return
}

tile.kernel @matmul_suffixsum(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                           %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 0, per_program = 16>],
                num_warps = 1} {
  %pm = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m0 = arith.muli %pm, %c16 : index
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %acc = scf.for %kk = %c0 to %k step %c16 iter_args(%sum = %zero)
      -> (tensor<16x16xf32>) {
    %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<16x16xbf16>
    %tb = tile.load %b[%kk, %c0] : memref<?x?xbf16> -> tensor<16x16xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  } {tile.stages = 2 : i64}
  %scan:2 = tile.prefix add exclusive reverse %acc along 1 : tensor<16x16xf32>
  tile.store %scan#0, %c[%m0, %c0] : tensor<16x16xf32>, memref<?x?xf32>
  tile.return
}

// Down the columns, for M <= 64: c[m, n] = the column's inclusive prefix sum
// at row m less the column's total (minus the sum of the rows below m). The
// 64x64 accumulator is spread over 4 warps of 16 rows each: the prefix scans
// each warp's rows in its registers and lanes, then the warps' column totals
// meet in workgroup memory; the totals come out in the threads that hold
// their columns, so the broadcast back moves no data.
tile.kernel @matmul_coltail(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                            %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 1, per_program = 64>],
                num_warps = 4} {
  %pn = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %n0 = arith.muli %pn, %c64 : index
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%sum = %zero)
      -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%c0, %kk] : memref<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<32x64xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.stages = 2 : i64}
  %scan:2 = tile.prefix add %acc along 0 : tensor<64x64xf32>
  %total = tile.broadcast %scan#1 dims [0]
      : tensor<64xf32> -> tensor<64x64xf32>
  %tail = arith.subf %scan#0, %total : tensor<64x64xf32>
  tile.store %tail, %c[%c0, %n0] : tensor<64x64xf32>, memref<?x?xf32>
  tile.return
}
