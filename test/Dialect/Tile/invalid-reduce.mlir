// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @axis(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for a rank-2 tile}}
  %r = tile.reduce add %t along 2 : tensor<4x8xf32> -> tensor<4xf32>
  tile.return
}

// -----

tile.kernel @result_shape(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<4x8xf32>
  // expected-error @+1 {{'tile.reduce' op result type must be 'tensor<4xf32>', got 'tensor<8xf32>'}}
  %r = tile.reduce add %t along 1 : tensor<4x8xf32> -> tensor<8xf32>
  tile.return
}

// -----

tile.kernel @scalar_result(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<8xf32>
  // expected-error @+1 {{'tile.reduce' op result type must be 'f32', got 'f64'}}
  %r = tile.reduce add %t along 0 : tensor<8xf32> -> f64
  tile.return
}

// -----

tile.kernel @kind(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<8xf32>
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, mul, max, min]}}
  %r = tile.reduce xor %t along 0 : tensor<8xf32> -> f32
  tile.return
}
