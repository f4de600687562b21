// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @rank(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  %r = tile.range : tensor<8xi32>
  // expected-error @+1 {{'tile.broadcast' op input rank 1 plus 2 new dimensions does not give result rank 2}}
  %b = tile.broadcast %r dims [0, 1] : tensor<8xi32> -> tensor<4x8xi32>
  tile.return
}

// -----

tile.kernel @out_of_range(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  %r = tile.range : tensor<8xi32>
  // expected-error @+1 {{'tile.broadcast' op new dimension 2 is out of range for a rank-2 result}}
  %b = tile.broadcast %r dims [2] : tensor<8xi32> -> tensor<4x8xi32>
  tile.return
}

// -----

tile.kernel @unsorted(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  %r = tile.range : tensor<8xi32>
  // expected-error @+1 {{'tile.broadcast' op new dimensions must be strictly increasing}}
  %b = tile.broadcast %r dims [2, 0] : tensor<8xi32> -> tensor<2x8x4xi32>
  tile.return
}

// -----

tile.kernel @shape(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  %r = tile.range : tensor<8xi32>
  // expected-error @+1 {{'tile.broadcast' op result dimension 0 is 4 but input dimension 0 is 8}}
  %b = tile.broadcast %r dims [1] : tensor<8xi32> -> tensor<4x8xi32>
  tile.return
}

// -----

tile.kernel @element(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  %r = tile.range : tensor<8xi32>
  // expected-error @+1 {{'tile.broadcast' op element types differ: 'i32' vs 'i64'}}
  %b = tile.broadcast %r dims [0] : tensor<8xi32> -> tensor<4x8xi64>
  tile.return
}

// -----

tile.kernel @no_dims(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  %r = tile.range : tensor<8xi32>
  // expected-error @+1 {{'tile.broadcast' op needs at least one new dimension}}
  %b = tile.broadcast %r dims [] : tensor<8xi32> -> tensor<8xi32>
  tile.return
}
