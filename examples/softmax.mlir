// Row softmax of an MxN matrix, one program per row. The row is read in
// chunks of 1024 columns, so any N works: a first sweep keeps a running
// maximum and a running sum rescaled to it (online softmax), a second sweep
// writes exp(x - max) / sum.
//   tilec softmax.mlir -o softmax.cubin
tile.kernel @softmax(%x: memref<?x?xf32>, %y: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 4} {
  %row = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %chunk = arith.constant 1024 : index
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c1f = arith.constant 1.0 : f32

  %max, %sum = scf.for %col = %c0 to %cols step %chunk
      iter_args(%m = %ninf, %s = %zero) -> (f32, f32) {
    %t = tile.load %x[%row, %col] {padding = 0xFF800000 : f32}
        : memref<?x?xf32> -> tensor<1x1024xf32>
    %tmax = tile.reduce max %t along 1 : tensor<1x1024xf32> -> tensor<1xf32>
    %cmax = tile.reduce max %tmax along 0 : tensor<1xf32> -> f32
    %newm = arith.maximumf %m, %cmax : f32
    %mt = tile.splat %newm : f32 -> tensor<1x1024xf32>
    %shifted = arith.subf %t, %mt : tensor<1x1024xf32>
    %e = math.exp %shifted : tensor<1x1024xf32>
    %esum = tile.reduce add %e along 1 : tensor<1x1024xf32> -> tensor<1xf32>
    %csum = tile.reduce add %esum along 0 : tensor<1xf32> -> f32
    %delta = arith.subf %m, %newm : f32
    %scale = math.exp %delta : f32
    %rescaled = arith.mulf %s, %scale : f32
    %news = arith.addf %rescaled, %csum : f32
    scf.yield %newm, %news : f32, f32
  }

  %inv = arith.divf %c1f, %sum : f32
  scf.for %col = %c0 to %cols step %chunk {
    %t = tile.load %x[%row, %col] : memref<?x?xf32> -> tensor<1x1024xf32>
    %mt = tile.splat %max : f32 -> tensor<1x1024xf32>
    %shifted = arith.subf %t, %mt : tensor<1x1024xf32>
    %e = math.exp %shifted : tensor<1x1024xf32>
    %it = tile.splat %inv : f32 -> tensor<1x1024xf32>
    %p = arith.mulf %e, %it : tensor<1x1024xf32>
    tile.store %p, %y[%row, %col] : tensor<1x1024xf32>, memref<?x?xf32>
  }
  tile.return
}
