// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.scan' op expects the type (X1, ..., Xn, Y1, ..., Yn) -> () with n >= 1, got '(memref<?xf32>) -> ()'}}
tile.scan @odd add inclusive along 0 : (memref<?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op input #0 must be a 1-D or 2-D memref with the identity layout, got 'memref<?x?x?xf32>'}}
tile.scan @rank3 add inclusive along 0 : (memref<?x?x?xf32>, memref<?x?x?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op output #0 must be a 1-D or 2-D memref with the identity layout, got 'f32'}}
tile.scan @scalar add inclusive along 0 : (memref<?xf32>, f32) -> ()

// -----

// expected-error @+1 {{'tile.scan' op input #0 elements must be f32, i32, f16 or bf16, got 'f64'}}
tile.scan @f64 add inclusive along 0 : (memref<?xf64>, memref<?xf64>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op output #0 has rank 2, input #0 has rank 1}}
tile.scan @ranks add inclusive along 0 : (memref<?xf32>, memref<?x?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op output #0 has extent 8 in dimension 1, input #0 has 16}}
tile.scan @extents add inclusive along 1 : (memref<4x16xf32>, memref<?x8xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op output #0 has element type 'f16', input #0 has 'f32'}}
tile.scan @types add inclusive along 0 : (memref<?xf32>, memref<?xf16>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op along must be a dimension of the rank-1 buffers, got 1}}
tile.scan @along add inclusive along 1 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op needs one combiner: a kind (add, mul, max, min) or a region, not neither}}
tile.scan @none inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op needs one combiner: a kind (add, mul, max, min) or a region, not both}}
tile.scan @both add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> () {
^bb0(%x: f32, %y: f32):
  tile.yield %y : f32
}

// -----

// expected-error @+1 {{'tile.scan' op takes an identity only with a combiner region}}
tile.scan @kind_identity add exclusive along 0 identity [0.0 : f32] : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op needs the identity tuple for an exclusive scan with a region}}
tile.scan @no_identity exclusive along 0 : (memref<?xf32>, memref<?xf32>) -> () {
^bb0(%x: f32, %y: f32):
  tile.yield %y : f32
}

// -----

// expected-error @+1 {{'tile.scan' op identity must give 2 values, one per scanned operand, got 1}}
tile.scan @short_identity exclusive along 0 identity [0.0 : f32]
    : (memref<?xf32>, memref<?xi32>, memref<?xf32>, memref<?xi32>) -> () {
^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
  tile.yield %y, %j : f32, i32
}

// -----

// expected-error @+1 {{'tile.scan' op identity #1 must be a 'i32' value, got 0.000000e+00 : f32}}
tile.scan @identity_type exclusive along 0 identity [0.0 : f32, 0.0 : f32]
    : (memref<?xf32>, memref<?xi32>, memref<?xf32>, memref<?xi32>) -> () {
^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
  tile.yield %y, %j : f32, i32
}

// -----

// expected-error @+1 {{'tile.scan' op combiner must take 2 arguments (the earlier tuple, then the later one), got 1}}
tile.scan @arity inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> () {
^bb0(%x: f32):
  tile.yield %x : f32
}

// -----

// expected-error @+1 {{'tile.scan' op combiner argument #1 must be 'f32', got 'f16'}}
tile.scan @arg_type inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> () {
^bb0(%x: f32, %y: f16):
  tile.yield %x : f32
}

// -----

tile.scan @yield_count inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> () {
^bb0(%x: f32, %y: f32):
  // expected-error @+1 {{'tile.yield' op must yield 1 values, one per scanned operand, got 2}}
  tile.yield %x, %y : f32, f32
}

// -----

tile.scan @yield_type inclusive along 0 : (memref<?xi32>, memref<?xi32>) -> () {
^bb0(%x: i32, %y: i32):
  %f = arith.sitofp %y : i32 to f32
  // expected-error @+1 {{'tile.yield' op value #0 must be 'i32', got 'f32'}}
  tile.yield %f : f32
}

// -----

func.func @outside() {
  // expected-error @+1 {{'tile.yield' op expects parent op to be one of 'tile.scan, tile.prefix, tile.attention, tilegpu.lookback'}}
  tile.yield
}

// -----

// expected-error @+1 {{'tile.scan' op warps must be in [1, 32], got 64}}
tile.scan @s add inclusive along 0 warps 64 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op block must be a power of two giving each of the 128 threads 4 to 64 elements, got 3000}}
tile.scan @s add inclusive along 0 block 3000 warps 4 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.scan' op block must be a power of two giving each of the 256 threads 4 to 64 elements, got 512}}
tile.scan @s add inclusive along 0 block 512 warps 8 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

tile.scan @region_not_elementwise inclusive along 0
    : (memref<?xf32>, memref<?xf32>) -> () {
^bb0(%x: f32, %y: f32):
  // expected-error @+1 {{'scf.execute_region' op cannot be in a combiner: it may hold only element-wise arith and math ops}}
  %z = scf.execute_region -> f32 {
    scf.yield %y : f32
  }
  tile.yield %z : f32
}
