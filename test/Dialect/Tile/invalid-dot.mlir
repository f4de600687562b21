// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @inner(%a: memref<?x?xf16>, %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : memref<?x?xf16> -> tensor<16x32xf16>
  %bt = tile.load %a[%c0, %c0] : memref<?x?xf16> -> tensor<16x16xf16>
  %ct = tile.load %c[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op lhs is 16x32 but rhs is 16x16: inner dimensions differ}}
  %d = tile.dot %at, %bt, %ct : tensor<16x32xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @acc_shape(%a: memref<?x?xf16>, %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : memref<?x?xf16> -> tensor<16x32xf16>
  %bt = tile.load %a[%c0, %c0] : memref<?x?xf16> -> tensor<32x16xf16>
  %ct = tile.load %c[%c0, %c0] : memref<?x?xf32> -> tensor<16x32xf32>
  // expected-error @+1 {{'tile.dot' op acc must be 16x16}}
  %d = tile.dot %at, %bt, %ct : tensor<16x32xf16>, tensor<32x16xf16>, tensor<16x32xf32>
  tile.return
}

// -----

tile.kernel @mixed(%a: memref<?x?xf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : memref<?x?xf16> -> tensor<16x16xf16>
  %bt = tile.load %b[%c0, %c0] : memref<?x?xbf16> -> tensor<16x16xbf16>
  %ct = tile.load %c[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op lhs and rhs element types differ: 'f16' vs 'bf16'}}
  %d = tile.dot %at, %bt, %ct : tensor<16x16xf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @int_operands(%a: memref<?x?xi8>, %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : memref<?x?xi8> -> tensor<16x16xi8>
  %ct = tile.load %c[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op operands must be f16, bf16 or f32, got 'i8'}}
  %d = tile.dot %at, %at, %ct : tensor<16x16xi8>, tensor<16x16xi8>, tensor<16x16xf32>
  tile.return
}

// -----

tile.kernel @acc_type(%a: memref<?x?xf16>, %c: memref<?x?xf16>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : memref<?x?xf16> -> tensor<16x16xf16>
  // expected-error @+1 {{'tile.dot' op accumulator must be f32, got 'f16'}}
  %d = tile.dot %at, %at, %at : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>
  tile.return
}

// -----

tile.kernel @rank(%a: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0] : memref<?xf32> -> tensor<16xf32>
  // expected-error @+1 {{'tile.dot' op operands must be 2-D tiles}}
  %d = tile.dot %at, %at, %at : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  tile.return
}
