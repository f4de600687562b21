// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.matmul' op K is 32 in A but 16 in B}}
tile.matmul @k a(row) b(row) : (memref<8x32xf16>, memref<16x8xf16>, memref<8x8xf32>) -> ()

// -----

// A column-major A is passed as its KxM transpose: M is its dimension 1.
// expected-error @+1 {{'tile.matmul' op M is 4 in A but 8 in C}}
tile.matmul @m a(col) b(row) : (memref<32x4xf16>, memref<32x8xf16>, memref<8x8xf32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op N is 16 in B but 8 in C}}
tile.matmul @n a(row) b(col) : (memref<?x?xf16>, memref<16x?xf16>, memref<?x8xf32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op A and B element types differ: 'f16' vs 'bf16'}}
tile.matmul @types a(row) b(row) : (memref<?x?xf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op C elements must be f32, f16 or bf16, got 'i32'}}
tile.matmul @int a(row) b(row) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xi32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op B must be a 2-D memref with the identity layout, got 'memref<?xf16>'}}
tile.matmul @rank a(row) b(row) : (memref<?x?xf16>, memref<?xf16>, memref<?x?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op expects the type (A, B, C) -> ()}}
tile.matmul @arity a(row) b(row) : (memref<?x?xf16>, memref<?x?xf16>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op block extents must be powers of two, got 96}}
tile.matmul @block a(row) b(row) block [96, 128, 32] : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op block must give [M, N, K] extents, got 2 values}}
tile.matmul @block2 a(row) b(row) block [128, 128] : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op warps must be a power of two from 1 to 32, got 3}}
tile.matmul @warps a(row) b(row) warps 3 : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()

// -----

// expected-error @+1 {{'tile.matmul' op stages must be from 1 to 8, got 9}}
tile.matmul @stages a(row) b(row) stages 9 : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
