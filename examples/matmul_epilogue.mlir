// Fused matmul epilogues: a tile.dot's accumulator stays in the registers
// where the multiply leaves it (its layout is assigned by tilec) and the
// epilogue works on it there.
//   tilec matmul_epilogue.mlir -o matmul_epilogue.cubin
//
// matmul_bias_relu: C = bf16(relu(A x B + bias[n])), A [M, K], B [K, N]
// row-major bf16, bias f32 [N]. The bias is read once a program, straight
// into the accumulator's column slice, and broadcast in registers.
// matmul_plain is the same program without the epilogue, to time it against.
tile.kernel @matmul_bias_relu(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                              %bias: memref<?xf32>, %c: memref<?x?xbf16>)
    attributes {grid = [#tile.grid<arg = 3, dim = 1, per_program = 256>,
                        #tile.grid<arg = 3, dim = 0, per_program = 128>],
                num_warps = 8} {
  %pn = tile.program_id x : index
  %pm = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %pm, %c128 : index
  %n0 = arith.muli %pn, %c256 : index
  %c1 = arith.constant 1 : index
  %kdim = memref.dim %a, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %kk = %c0 to %kdim step %c64 iter_args(%sum = %zero)
      -> (tensor<128x256xf32>) {
    %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  } {tile.stages = 4 : i64}
  %bt = tile.load %bias[%n0] : memref<?xf32> -> tensor<256xf32>
  %bb = tile.broadcast %bt dims [0] : tensor<256xf32> -> tensor<128x256xf32>
  %biased = arith.addf %acc, %bb : tensor<128x256xf32>
  %relu = arith.maximumf %biased, %zero : tensor<128x256xf32>
  %out = arith.truncf %relu : tensor<128x256xf32> to tensor<128x256xbf16>
  tile.store %out, %c[%m0, %n0] : tensor<128x256xbf16>, memref<?x?xbf16>
  tile.return
}

tile.kernel @matmul_plain(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                          %c: memref<?x?xbf16>)
    attributes {grid = [#tile.grid<arg = 2, dim = 1, per_program = 256>,
                        #tile.grid<arg = 2, dim = 0, per_program = 128>],
                num_warps = 8} {
  %pn = tile.program_id x : index
  %pm = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %pm, %c128 : index
  %n0 = arith.muli %pn, %c256 : index
  %kdim = memref.dim %a, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %kk = %c0 to %kdim step %c64 iter_args(%sum = %zero)
      -> (tensor<128x256xf32>) {
    %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  } {tile.stages = 4 : i64}
  %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xbf16>
  tile.store %out, %c[%m0, %n0] : tensor<128x256xbf16>, memref<?x?xbf16>
  tile.return
}

// matmul_softmax: C = row_softmax(A x B) in f32, for N <= 256: one program
// holds 64 whole rows of the product; columns past N are masked to -inf
// before the row maximum. Row statistics stay in the threads holding the
// rows (shuffles; workgroup memory only where warps share a row).
tile.kernel @matmul_softmax(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                            %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 0, per_program = 64>],
                num_warps = 4} {
  %pm = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m0 = arith.muli %pm, %c64 : index
  %kdim = memref.dim %a, %c1 : memref<?x?xbf16>
  %n = memref.dim %b, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x256xf32>
  %acc = scf.for %kk = %c0 to %kdim step %c64 iter_args(%sum = %zero)
      -> (tensor<64x256xf32>) {
    %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %tb = tile.load %b[%kk, %c0] : memref<?x?xbf16> -> tensor<64x256xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<64x64xbf16>, tensor<64x256xbf16>, tensor<64x256xf32>
    scf.yield %d : tensor<64x256xf32>
  } {tile.stages = 3 : i64}
  %cols = tile.range : tensor<256xi32>
  %colsb = tile.broadcast %cols dims [0] : tensor<256xi32> -> tensor<64x256xi32>
  %n32 = arith.index_cast %n : index to i32
  %nt = tile.splat %n32 : i32 -> tensor<64x256xi32>
  %inside = arith.cmpi slt, %colsb, %nt : tensor<64x256xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64x256xf32>
  %s = arith.select %inside, %acc, %ninf : tensor<64x256xi1>, tensor<64x256xf32>
  %max = tile.reduce max %s along 1 : tensor<64x256xf32> -> tensor<64xf32>
  %maxb = tile.broadcast %max dims [1] : tensor<64xf32> -> tensor<64x256xf32>
  %shifted = arith.subf %s, %maxb : tensor<64x256xf32>
  %e = math.exp %shifted : tensor<64x256xf32>
  %sum = tile.reduce add %e along 1 : tensor<64x256xf32> -> tensor<64xf32>
  %sumb = tile.broadcast %sum dims [1] : tensor<64xf32> -> tensor<64x256xf32>
  %p = arith.divf %e, %sumb : tensor<64x256xf32>
  tile.store %p, %c[%m0, %c0] : tensor<64x256xf32>, memref<?x?xf32>
  tile.return
}
