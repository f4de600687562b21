// Kernels for the tilec_add_kernels test (KernelWrappersTest.cpp here), one
// per kind of parameter the generated wrappers take. Not a lit test.

// y = factor * x, one program per 1024 elements.
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

// x[r, :] += offset for the first `rows` rows, one program per row.
tile.kernel @add_rows(%x: memref<?x?xi32>, %offset: i32, %rows: i64)
    attributes {grid = [#tile.grid<arg = 2, per_program = 1>],
                num_warps = 4} {
  %row = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %cols = memref.dim %x, %c1 : memref<?x?xi32>
  %o = tile.splat %offset : i32 -> tensor<1x256xi32>
  scf.for %col = %c0 to %cols step %c256 {
    %t = tile.load %x[%row, %col] : memref<?x?xi32> -> tensor<1x256xi32>
    %s = arith.addi %t, %o : tensor<1x256xi32>
    tile.store %s, %x[%row, %col] : tensor<1x256xi32>, memref<?x?xi32>
  }
  tile.return
}

// y = x + b in f16, one program per 512 elements.
tile.kernel @add_f16(%b: f16, %x: memref<?xf16>, %y: memref<?xf16>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 512>],
                num_warps = 4} {
  %pid = tile.program_id x : index
  %c512 = arith.constant 512 : index
  %offset = arith.muli %pid, %c512 : index
  %xt = tile.load %x[%offset] : memref<?xf16> -> tensor<512xf16>
  %bt = tile.splat %b : f16 -> tensor<512xf16>
  %r = arith.addf %xt, %bt : tensor<512xf16>
  tile.store %r, %y[%offset] : tensor<512xf16>, memref<?xf16>
  tile.return
}
