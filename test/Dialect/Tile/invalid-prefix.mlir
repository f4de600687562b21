// RUN: tilec-opt %s -split-input-file -verify-diagnostics

func.func @axis(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.prefix' op axis must be a dimension of the rank-2 tile, got 2}}
  %p = tile.prefix add %t along 2 : tensor<4x8xf32>
  return
}

// -----

func.func @shape(%t: tensor<6xf32>) {
  // expected-error @+1 {{'tile.prefix' op}}
  %p = tile.prefix add %t along 0 : tensor<6xf32>
  return
}
