// Column sums of an MxN i32 matrix, exact: one program per 128 columns, 32
// rows at a time, reduced along dimension 0 (across warps and each thread's
// own rows, no shuffles).
//   tilec colsum.mlir -o colsum.cubin
tile.kernel @colsum(%x: memref<?x?xi32>, %sums: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 1, per_program = 128>],
                num_warps = 4} {
  %pid = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %col = arith.muli %pid, %c128 : index
  %rows = memref.dim %x, %c0 : memref<?x?xi32>
  %zero = arith.constant dense<0> : tensor<128xi32>
  %total = scf.for %row = %c0 to %rows step %c32
      iter_args(%acc = %zero) -> (tensor<128xi32>) {
    %t = tile.load %x[%row, %col] : memref<?x?xi32> -> tensor<32x128xi32>
    %s = tile.reduce add %t along 0 : tensor<32x128xi32> -> tensor<128xi32>
    %next = arith.addi %acc, %s : tensor<128xi32>
    scf.yield %next : tensor<128xi32>
  }
  tile.store %total, %sums[%col] : tensor<128xi32>, memref<?xi32>
  tile.return
}
