// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @index_count(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op expects 2 indices for a rank-2 buffer, got 1}}
  %t = tile.load %x[%c0] : memref<?x?xf32> -> tensor<4x4xf32>
  tile.return
}

// -----

tile.kernel @rank_mismatch(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op tile rank 1 does not match buffer rank 2}}
  %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @element_mismatch(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op tile element type 'f16' does not match buffer element type 'f32'}}
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<4xf16>
  tile.return
}

// -----

tile.kernel @not_power_of_two(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op tile dimension 0 is 1000; tile dimensions must be powers of two}}
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<1000xf32>
  tile.return
}

// -----

tile.kernel @dynamic_tile(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op tile must have a static shape, got 'tensor<?xf32>'}}
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<?xf32>
  tile.return
}

// -----

tile.kernel @padding_type(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op padding type 'i32' does not match element type 'f32'}}
  %t = tile.load %x[%c0] {padding = 0 : i32} : memref<?xf32> -> tensor<4xf32>
  tile.return
}

// -----

func.func @swizzled_indices(%buf: memref<2x8x64xbf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tile.load' op reads a whole placed tile: expects no indices}}
  %t = tile.load %buf[%i, %i, %i] : memref<2x8x64xbf16, #gpu.address_space<workgroup>> -> tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  return
}

// -----

func.func @swizzled_shape(%buf: memref<2x8x64xbf16, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.load' op a 16x64 tile placed by #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1> needs a [1, 16, 64] buffer, got 'memref<2x8x64xbf16, #gpu.address_space<workgroup>>'}}
  %t = tile.load %buf[] : memref<2x8x64xbf16, #gpu.address_space<workgroup>> -> tensor<16x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  return
}

// -----

func.func @swizzled_global(%buf: memref<2x8x64xbf16>) {
  // expected-error @+1 {{'tile.load' op a placed tile's buffer must be in workgroup memory}}
  %t = tile.load %buf[] : memref<2x8x64xbf16> -> tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  return
}

// -----

func.func @placed_padding(%buf: memref<2x8x64xbf16, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.load' op a placed tile has nothing to pad}}
  %t = tile.load %buf[] {padding = 1.0 : bf16} : memref<2x8x64xbf16, #gpu.address_space<workgroup>> -> tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  return
}

// -----

func.func @placed_too_narrow(%buf: memref<1x8x64xbf16, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.load' op a 8x32 tile cannot be placed by #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}}
  %t = tile.load %buf[] : memref<1x8x64xbf16, #gpu.address_space<workgroup>> -> tensor<8x32xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  return
}

// -----

func.func @placed_transpose(%buf: memref<2x8x64xbf16, #gpu.address_space<workgroup>>) {
  %t = tile.load %buf[] : memref<2x8x64xbf16, #gpu.address_space<workgroup>> -> tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  // expected-error @+1 {{'tile.transpose' op the transpose of a placed tile is placed by the transposed encoding, got 'tensor<128x8xbf16>'}}
  %tt = tile.transpose %t : tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>> -> tensor<128x8xbf16>
  return
}
