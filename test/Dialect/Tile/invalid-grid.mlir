// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+2 {{per_program must be positive, got 0}}
tile.kernel @zero_per_program(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 0>]} {
  tile.return
}

// -----

// expected-error @+2 {{per_program must be positive, got -4}}
tile.kernel @negative_per_program(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, per_program = -4>]} {
  tile.return
}

// -----

tile.kernel @missing_per_program(%n: i32)
    // expected-error @+1 {{struct is missing required parameter: per_program}}
    attributes {grid = [#tile.grid<arg = 0>]} {
  tile.return
}
