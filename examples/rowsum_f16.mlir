// Row sums of an MxN f16 matrix into f16, one program per row, 1024 columns
// at a time. tile.reduce combines 16-bit elements in f32 and rounds once per
// chunk; the chunks are accumulated in f32 and rounded to f16 at the end.
//   tilec rowsum_f16.mlir -o rowsum_f16.cubin
tile.kernel @rowsum_f16(%x: memref<?x?xf16>, %sums: memref<?xf16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 4} {
  %row = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %cols = memref.dim %x, %c1 : memref<?x?xf16>
  %zero = arith.constant dense<0.0> : tensor<1xf32>
  %total = scf.for %col = %c0 to %cols step %c1024
      iter_args(%acc = %zero) -> (tensor<1xf32>) {
    %t = tile.load %x[%row, %col] : memref<?x?xf16> -> tensor<1x1024xf16>
    %s = tile.reduce add %t along 1 : tensor<1x1024xf16> -> tensor<1xf16>
    %s32 = arith.extf %s : tensor<1xf16> to tensor<1xf32>
    %next = arith.addf %acc, %s32 : tensor<1xf32>
    scf.yield %next : tensor<1xf32>
  }
  %out = arith.truncf %total : tensor<1xf32> to tensor<1xf16>
  tile.store %out, %sums[%row] : tensor<1xf16>, memref<?xf16>
  tile.return
}
