// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @range_rank(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  // expected-error @+1 {{'tile.range' op result must be 1-D, got 'tensor<2x4xi32>'}}
  %r = tile.range : tensor<2x4xi32>
  tile.return
}

// -----

tile.kernel @range_type(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  // expected-error @+1 {{'tile.range' op result elements must be i32 or i64, got 'i16'}}
  %r = tile.range : tensor<8xi16>
  tile.return
}
