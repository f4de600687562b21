// out = alpha * x + y, one program per 1024 elements.
//   tilec saxpy.mlir -o saxpy.cubin
tile.kernel @saxpy(%alpha: f32, %x: memref<?xf32>, %y: memref<?xf32>,
                   %out: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 1024>],
                num_warps = 4} {
  %pid = tile.program_id x : index
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %pid, %c1024 : index
  %xt = tile.load %x[%offset] : memref<?xf32> -> tensor<1024xf32>
  %yt = tile.load %y[%offset] : memref<?xf32> -> tensor<1024xf32>
  %a = tile.splat %alpha : f32 -> tensor<1024xf32>
  %ax = arith.mulf %a, %xt : tensor<1024xf32>
  %r = arith.addf %ax, %yt : tensor<1024xf32>
  tile.store %r, %out[%offset] : tensor<1024xf32>, memref<?xf32>
  tile.return
}
