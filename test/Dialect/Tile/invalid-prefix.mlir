// RUN: tilec-opt %s -split-input-file -verify-diagnostics

func.func @axis(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.prefix' op axis must be a dimension of the rank-2 tile, got 2}}
  %p:2 = tile.prefix add %t along 2 : tensor<4x8xf32>
  return
}

// -----

func.func @shape(%t: tensor<6xf32>) {
  // expected-error @+1 {{'tile.prefix' op}}
  %p:2 = tile.prefix add %t along 0 : tensor<6xf32>
  return
}

// -----

func.func @shapes(%t: tensor<4x8xf32>, %u: tensor<8x4xf32>) {
  // expected-error @+1 {{'tile.prefix' op input #1 has type 'tensor<8x4xf32>'; all inputs must have the shape of input #0, 'tensor<4x8xf32>'}}
  %p:4 = tile.prefix add %t, %u along 1 : tensor<4x8xf32>, tensor<8x4xf32>
  return
}

// -----

func.func @no_combiner(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tile.prefix' op needs one combiner: a kind (add, mul, max, min) or a region, not neither}}
  %p:2 = tile.prefix %t along 0 : tensor<8xf32>
  return
}

// -----

func.func @both_combiners(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tile.prefix' op needs one combiner: a kind (add, mul, max, min) or a region, not both}}
  %p:2 = tile.prefix add %t along 0 : tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %y : f32
  }
  return
}

// -----

func.func @identity_with_kind(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tile.prefix' op takes an identity only with a combiner region}}
  %p:2 = tile.prefix add exclusive %t along 0 identity [0.0 : f32] : tensor<8xf32>
  return
}

// -----

func.func @exclusive_region_without_identity(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tile.prefix' op needs the identity tuple for an exclusive scan with a region}}
  %p:2 = tile.prefix exclusive %t along 0 : tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %y : f32
  }
  return
}

// -----

func.func @identity_type(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tile.prefix' op identity #0 must be a 'f32' value, got 0 : i32}}
  %p:2 = tile.prefix exclusive %t along 0 identity [0 : i32] : tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %y : f32
  }
  return
}

// -----

func.func @region_arguments(%t: tensor<8xf32>) {
  // expected-error @+1 {{'tile.prefix' op combiner argument #1 must be 'f32', got 'i32'}}
  %p:2 = tile.prefix %t along 0 : tensor<8xf32> {
  ^bb0(%x: f32, %y: i32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @region_yield(%t: tensor<8xf32>) {
  %p:2 = tile.prefix %t along 0 : tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    %i = arith.fptosi %y : f32 to i32
    // expected-error @+1 {{'tile.yield' op value #0 must be 'f32', got 'i32'}}
    tile.yield %i : i32
  }
  return
}

// -----

func.func @not_a_tile(%i: index) {
  // expected-error @+1 {{'tile.prefix' op scans tiles (ranked tensors), got 'index'}}
  %p:2 = tile.prefix add %i along 0 : index
  return
}
