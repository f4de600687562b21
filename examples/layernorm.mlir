// Layer normalisation of each row of an MxN matrix:
//   y = (x - mean) / sqrt(var + eps) * gamma + beta
// Four rows per program, 256 columns at a time: row statistics are 4-element
// tiles (tile.reduce along 1) broadcast back over the columns, and gamma and
// beta are 256-element tiles broadcast over the rows.
//   tilec layernorm.mlir -o layernorm.cubin
tile.kernel @layernorm(%x: memref<?x?xf32>, %gamma: memref<?xf32>,
                       %beta: memref<?xf32>, %y: memref<?x?xf32>, %eps: f32)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>],
                num_warps = 4} {
  %pid = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %row = arith.muli %pid, %c4 : index
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>

  // Sum and sum of squares of each row.
  %sum, %sumsq = scf.for %col = %c0 to %cols step %c256
      iter_args(%s = %zero, %q = %zero) -> (tensor<4xf32>, tensor<4xf32>) {
    %t = tile.load %x[%row, %col] : memref<?x?xf32> -> tensor<4x256xf32>
    %ts = tile.reduce add %t along 1 : tensor<4x256xf32> -> tensor<4xf32>
    %t2 = arith.mulf %t, %t : tensor<4x256xf32>
    %tq = tile.reduce add %t2 along 1 : tensor<4x256xf32> -> tensor<4xf32>
    %s1 = arith.addf %s, %ts : tensor<4xf32>
    %q1 = arith.addf %q, %tq : tensor<4xf32>
    scf.yield %s1, %q1 : tensor<4xf32>, tensor<4xf32>
  }
  %n = arith.index_cast %cols : index to i32
  %nf = arith.sitofp %n : i32 to f32
  %nt = tile.splat %nf : f32 -> tensor<4xf32>
  %mean = arith.divf %sum, %nt : tensor<4xf32>
  %meansq = arith.divf %sumsq, %nt : tensor<4xf32>
  %m2 = arith.mulf %mean, %mean : tensor<4xf32>
  %var = arith.subf %meansq, %m2 : tensor<4xf32>
  %epst = tile.splat %eps : f32 -> tensor<4xf32>
  %vareps = arith.addf %var, %epst : tensor<4xf32>
  %rstd = math.rsqrt %vareps : tensor<4xf32>
  %meanb = tile.broadcast %mean dims [1] : tensor<4xf32> -> tensor<4x256xf32>
  %rstdb = tile.broadcast %rstd dims [1] : tensor<4xf32> -> tensor<4x256xf32>

  scf.for %col = %c0 to %cols step %c256 {
    %t = tile.load %x[%row, %col] : memref<?x?xf32> -> tensor<4x256xf32>
    %g = tile.load %gamma[%col] : memref<?xf32> -> tensor<256xf32>
    %b = tile.load %beta[%col] : memref<?xf32> -> tensor<256xf32>
    %gb = tile.broadcast %g dims [0] : tensor<256xf32> -> tensor<4x256xf32>
    %bb = tile.broadcast %b dims [0] : tensor<256xf32> -> tensor<4x256xf32>
    %d = arith.subf %t, %meanb : tensor<4x256xf32>
    %nrm = arith.mulf %d, %rstdb : tensor<4x256xf32>
    %sc = arith.mulf %nrm, %gb : tensor<4x256xf32>
    %o = arith.addf %sc, %bb : tensor<4x256xf32>
    tile.store %o, %y[%row, %col] : tensor<4x256xf32>, memref<?x?xf32>
  }
  tile.return
}
