// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @t(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x32xf32>
  // expected-error @+1 {{'tile.transpose' op result must be the transposed input type, got 'tensor<16x32xf32>'}}
  %b = tile.transpose %a : tensor<16x32xf32> -> tensor<16x32xf32>
  tile.return
}

// -----

tile.kernel @t3(%x: memref<?x?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0, %c0] : memref<?x?x?xf32> -> tensor<2x4x8xf32>
  // expected-error @+1 {{'tile.transpose' op expects a 2-D tile, got rank 3}}
  %b = tile.transpose %a : tensor<2x4x8xf32> -> tensor<8x4x2xf32>
  tile.return
}
