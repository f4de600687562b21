// Back-to-back GEMM: D = bf16(A x B) x E, in one kernel. A [M, K],
// B [K, H], E [H, N] bf16 row-major, D [M, N] f32. A program owns 64 rows
// of D and 64 of its columns and walks H in blocks of 64: the block of
// A x B stays in registers, is rounded to bf16, and is the lhs of the second
// dot as it is (the accumulator's fragments are the A fragments of
// mma.sync: no data moves).
//   tilec b2b_gemm.mlir -o b2b_gemm.cubin
tile.kernel @b2b_gemm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                      %e: memref<?x?xbf16>, %d: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 3, dim = 1, per_program = 64>,
                        #tile.grid<arg = 3, dim = 0, per_program = 64>],
                num_warps = 4} {
  %pn = tile.program_id x : index
  %pm = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.muli %pm, %c64 : index
  %n0 = arith.muli %pn, %c64 : index
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %h = memref.dim %b, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %out = scf.for %h0 = %c0 to %h step %c64 iter_args(%acc = %zero)
      -> (tensor<64x64xf32>) {
    %ab = scf.for %kk = %c0 to %k step %c32 iter_args(%sum = %zero)
        -> (tensor<64x64xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<64x32xbf16>
      %tb = tile.load %b[%kk, %h0] : memref<?x?xbf16> -> tensor<32x64xbf16>
      %s = tile.dot %ta, %tb, %sum
          : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
      scf.yield %s : tensor<64x64xf32>
    } {tile.stages = 3 : i64}
    %p = arith.truncf %ab : tensor<64x64xf32> to tensor<64x64xbf16>
    %te = tile.load %e[%h0, %n0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %next = tile.dot %p, %te, %acc
        : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  } {tile.stages = 2 : i64}
  tile.store %out, %d[%m0, %n0] : tensor<64x64xf32>, memref<?x?xf32>
  tile.return
}
