// The runtime's staging copies (launch metadata `repitch`): a buffer whose
// rows TMA cannot describe (a start or row pitch off 16 bytes) copied into
// rows of 16-byte pitch, or a written one back. One program a 4 x 512
// (16-bit) or 4 x 256 (32-bit) tile, 4 warps; the elements are bits, so
// any type of their size goes through. The loads check the alignment of
// their rows as they run and move what they can as vectors.
//
// Compiled by tilec for sm_90a when the runtime is built and embedded in it
// (runtime/CMakeLists.txt). On the H200 4 x 512 moved 2.8-3.4 TB/s (read
// plus written) at 4095x4095 to 8191x8191 and 4096x32767 bf16 rows whose
// source starts 2 bytes off, 1.6-2.1x the driver's cuMemcpy2DAsync, best of
// six shapes (bench/repitch/copy-shapes.mlir).
tile.kernel @tilec_stage_16(%src: memref<?x?xi16>, %dst: memref<?x?xi16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>,
                        #tile.grid<arg = 0, dim = 1, per_program = 512>],
                num_warps = 4} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 4 : index
  %cols = arith.constant 512 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi16> -> tensor<4x512xi16>
  tile.store %t, %dst[%row, %col] : tensor<4x512xi16>, memref<?x?xi16>
  tile.return
}

tile.kernel @tilec_stage_32(%src: memref<?x?xi32>, %dst: memref<?x?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>,
                        #tile.grid<arg = 0, dim = 1, per_program = 256>],
                num_warps = 4} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 4 : index
  %cols = arith.constant 256 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi32> -> tensor<4x256xi32>
  tile.store %t, %dst[%row, %col] : tensor<4x256xi32>, memref<?x?xi32>
  tile.return
}
