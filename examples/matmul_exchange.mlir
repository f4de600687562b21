// C = A x B + X * X for M, N, K of any size: the product stays in the dot's
// mma.sync fragments, while X, read once and used twice, keeps the blocked
// layout in which it was loaded; so X * X is moved into the fragments'
// layout through workgroup memory. The exchange buffer is swizzled against
// bank conflicts: row-major, the 8 rows of a fragment would share 4 banks.
// A [M, K], B [K, N] bf16 row-major, X and C [M, N] f32.
//   tilec matmul_exchange.mlir -o matmul_exchange.cubin
tile.kernel @matmul_plus_square(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                                %x: memref<?x?xf32>, %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 3, dim = 0, per_program = 64>,
                        #tile.grid<arg = 3, dim = 1, per_program = 32>],
                num_warps = 4} {
  %pm = tile.program_id x : index
  %pn = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.muli %pm, %c64 : index
  %n0 = arith.muli %pn, %c32 : index
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%sum = %zero)
      -> (tensor<64x32xf32>) {
    %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<32x32xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xf32>
    scf.yield %d : tensor<64x32xf32>
  } {tile.stages = 2 : i64}
  %tx = tile.load %x[%m0, %n0] : memref<?x?xf32> -> tensor<64x32xf32>
  %sq = arith.mulf %tx, %tx : tensor<64x32xf32>
  %sum = arith.addf %acc, %sq : tensor<64x32xf32>
  tile.store %sum, %c[%m0, %n0] : tensor<64x32xf32>, memref<?x?xf32>
  tile.return
}
