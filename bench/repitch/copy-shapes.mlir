// Candidate shapes of the runtime's staging copy (a misaligned operand
// into 16-byte pitched rows, or back): one program a ROWSxCOLS tile,
// element type i16 or i32 (bits only). Timed by copy-shapes.cpp.

tile.kernel @copy_i16_8x256_w4(%src: memref<?x?xi16>, %dst: memref<?x?xi16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 8>,
                        #tile.grid<arg = 0, dim = 1, per_program = 256>],
                num_warps = 4} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 8 : index
  %cols = arith.constant 256 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi16> -> tensor<8x256xi16>
  tile.store %t, %dst[%row, %col] : tensor<8x256xi16>, memref<?x?xi16>
  tile.return
}

tile.kernel @copy_i16_16x256_w8(%src: memref<?x?xi16>, %dst: memref<?x?xi16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>,
                        #tile.grid<arg = 0, dim = 1, per_program = 256>],
                num_warps = 8} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 16 : index
  %cols = arith.constant 256 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi16> -> tensor<16x256xi16>
  tile.store %t, %dst[%row, %col] : tensor<16x256xi16>, memref<?x?xi16>
  tile.return
}

tile.kernel @copy_i16_4x512_w4(%src: memref<?x?xi16>, %dst: memref<?x?xi16>)
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

tile.kernel @copy_i16_8x512_w8(%src: memref<?x?xi16>, %dst: memref<?x?xi16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 8>,
                        #tile.grid<arg = 0, dim = 1, per_program = 512>],
                num_warps = 8} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 8 : index
  %cols = arith.constant 512 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi16> -> tensor<8x512xi16>
  tile.store %t, %dst[%row, %col] : tensor<8x512xi16>, memref<?x?xi16>
  tile.return
}

tile.kernel @copy_i16_32x256_w8(%src: memref<?x?xi16>, %dst: memref<?x?xi16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 32>,
                        #tile.grid<arg = 0, dim = 1, per_program = 256>],
                num_warps = 8} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 32 : index
  %cols = arith.constant 256 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi16> -> tensor<32x256xi16>
  tile.store %t, %dst[%row, %col] : tensor<32x256xi16>, memref<?x?xi16>
  tile.return
}

tile.kernel @copy_i16_16x512_w8(%src: memref<?x?xi16>, %dst: memref<?x?xi16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>,
                        #tile.grid<arg = 0, dim = 1, per_program = 512>],
                num_warps = 8} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 16 : index
  %cols = arith.constant 512 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi16> -> tensor<16x512xi16>
  tile.store %t, %dst[%row, %col] : tensor<16x512xi16>, memref<?x?xi16>
  tile.return
}

tile.kernel @copy_i32_8x128_w4(%src: memref<?x?xi32>, %dst: memref<?x?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 8>,
                        #tile.grid<arg = 0, dim = 1, per_program = 128>],
                num_warps = 4} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 8 : index
  %cols = arith.constant 128 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi32> -> tensor<8x128xi32>
  tile.store %t, %dst[%row, %col] : tensor<8x128xi32>, memref<?x?xi32>
  tile.return
}

tile.kernel @copy_i32_8x256_w8(%src: memref<?x?xi32>, %dst: memref<?x?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 8>,
                        #tile.grid<arg = 0, dim = 1, per_program = 256>],
                num_warps = 8} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 8 : index
  %cols = arith.constant 256 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi32> -> tensor<8x256xi32>
  tile.store %t, %dst[%row, %col] : tensor<8x256xi32>, memref<?x?xi32>
  tile.return
}

tile.kernel @copy_i32_16x256_w8(%src: memref<?x?xi32>, %dst: memref<?x?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>,
                        #tile.grid<arg = 0, dim = 1, per_program = 256>],
                num_warps = 8} {
  %x = tile.program_id x : index
  %y = tile.program_id y : index
  %rows = arith.constant 16 : index
  %cols = arith.constant 256 : index
  %row = arith.muli %x, %rows : index
  %col = arith.muli %y, %cols : index
  %t = tile.load %src[%row, %col] : memref<?x?xi32> -> tensor<16x256xi32>
  tile.store %t, %dst[%row, %col] : tensor<16x256xi32>, memref<?x?xi32>
  tile.return
}
