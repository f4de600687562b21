// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @store_rank(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<4xf32>
  // expected-error @+1 {{'tile.store' op expects 1 indices for a rank-1 buffer, got 2}}
  tile.store %t, %x[%c0, %c0] : tensor<4xf32>, memref<?xf32>
  tile.return
}

// -----

tile.kernel @store_element(%x: memref<?xf32>, %y: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<4xf32>
  // expected-error @+1 {{'tile.store' op tile element type 'f32' does not match buffer element type 'i32'}}
  tile.store %t, %y[%c0] : tensor<4xf32>, memref<?xi32>
  tile.return
}
