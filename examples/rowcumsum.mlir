// Inclusive prefix sums along every row of an MxN f32 matrix, one program
// per row, 1024 columns at a time: tile.prefix scans a piece (each thread
// its own 4 columns, the warps with shuffles up, the warp totals through
// workgroup memory), the sum of the pieces before it is added, and the
// piece's total (tile.prefix's second result) extends that sum.
//   tilec rowcumsum.mlir -o rowcumsum.cubin
tile.kernel @rowcumsum(%x: memref<?x?xf32>, %y: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 8} {
  %row = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %total = scf.for %col = %c0 to %cols step %c1024
      iter_args(%carry = %zero) -> (tensor<1xf32>) {
    %t = tile.load %x[%row, %col] : memref<?x?xf32> -> tensor<1x1024xf32>
    %p, %s = tile.prefix add %t along 1 : tensor<1x1024xf32>
    %c = tile.broadcast %carry dims [1] : tensor<1xf32> -> tensor<1x1024xf32>
    %r = arith.addf %c, %p : tensor<1x1024xf32>
    tile.store %r, %y[%row, %col] : tensor<1x1024xf32>, memref<?x?xf32>
    %next = arith.addf %carry, %s : tensor<1xf32>
    scf.yield %next : tensor<1xf32>
  }
  tile.return
}
