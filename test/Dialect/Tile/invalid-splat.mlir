// RUN: tilec-opt %s -split-input-file -verify-diagnostics

tile.kernel @splat_shape(%a: f32, %n: i32)
    attributes {grid = [#tile.grid<arg = 1, per_program = 1>]} {
  // expected-error @+1 {{'tile.splat' op result dimension 1 is 3; tile dimensions must be powers of two}}
  %t = tile.splat %a : f32 -> tensor<4x3xf32>
  tile.return
}

// -----

tile.kernel @splat_type(%a: f32, %n: i32)
    attributes {grid = [#tile.grid<arg = 1, per_program = 1>]} {
  // expected-error @+1 {{'tile.splat' op failed to verify that element type matches the scalar}}
  %t = "tile.splat"(%a) : (f32) -> tensor<4xf16>
  tile.return
}
