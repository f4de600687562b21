// y = factor * x, one program (thread block) per 1024 elements. Compiled at
// build time by tilec_add_kernels (CMakeLists.txt here), which generates
// tilec_kernels/scale.h: scale::scale(stream, factor, x, y).
tile.kernel @scale(%factor: f32, %x: memref<?xf32>, %y: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 1024>],
                num_warps = 4} {
  %pid = tile.program_id x : index
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %pid, %c1024 : index
  %xt = tile.load %x[%offset] : memref<?xf32> -> tensor<1024xf32>
  %f = tile.splat %factor : f32 -> tensor<1024xf32>
  %r = arith.mulf %f, %xt : tensor<1024xf32>
  tile.store %r, %y[%offset] : tensor<1024xf32>, memref<?xf32>
  tile.return
}
