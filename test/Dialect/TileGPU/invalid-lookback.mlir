// RUN: tilec-opt %s -split-input-file -verify-diagnostics

func.func @no_totals(%t: index, %e: i32, %s: memref<?xi32>) {
  // expected-error @+1 {{'tilegpu.lookback' op needs at least one total}}
  "tilegpu.lookback"(%t, %e, %t, %s) ({}) {kind = 0 : i32} : (index, i32, index, memref<?xi32>) -> ()
  return
}

// -----

// expected-error @+1 {{'tile.kernel' op 'tile.scratch' must be array<i64: FIXED, PER_PROGRAM> (then 0 for no zero-fill, 1 for a zero-fill each launch, 2 for counters kept zero, 3 for epochs), byte counts that are multiples of 4, not both zero}}
tile.kernel @k(%s: memref<?xi32>) attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], tile.scratch = array<i64: 16, 6>} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op with 'tile.scratch' must take the scratch buffer, a memref<?xi32> or memref<?xf32>, last}}
tile.kernel @k(%s: memref<?xf16>) attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], tile.scratch = array<i64: 16, 16>} {
  tile.return
}

// -----

func.func @no_combiner(%t: index, %e: i32, %s: memref<?xi32>, %x: f32) {
  // expected-error @+1 {{'tilegpu.lookback' op needs one combiner: a kind (add, mul, max, min) or a region, not neither}}
  %c = tilegpu.lookback %x at %t epoch %e position %t in %s : memref<?xi32>, f32
  return
}

// -----

func.func @region_arguments(%t: index, %e: i32, %s: memref<?xi32>, %x: f32) {
  // expected-error @+1 {{'tilegpu.lookback' op combiner must take 2 arguments (the earlier tuple, then the later one), got 4}}
  %c = tilegpu.lookback %x at %t epoch %e position %t in %s : memref<?xi32>, f32 {
  ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
    tile.yield %a0 : f32
  }
  return
}

// -----

func.func @wide_total(%t: index, %e: i32, %s: memref<?xi32>, %x: tensor<2x2xf32>) {
  // expected-error @+1 {{'tilegpu.lookback' op total #0 must be an i32, f32, f16 or bf16 scalar, 1-element tile or 1-D tile, got 'tensor<2x2xf32>'}}
  %c = tilegpu.lookback add %x at %t epoch %e position %t in %s : memref<?xi32>, tensor<2x2xf32>
  return
}

// -----

func.func @mixed_widths(%t: index, %e: i32, %s: memref<?xi32>, %x: tensor<4xf32>, %y: f32) {
  // expected-error @+1 {{'tilegpu.lookback' op total #1 must have the shape of total #0, 'tensor<4xf32>', got 'f32'}}
  %c:2 = tilegpu.lookback max %x, %y at %t epoch %e position %t in %s : memref<?xi32>, tensor<4xf32>, f32
  return
}
