// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' \
// RUN:   | FileCheck %s

// An f32 dot with A staged [M][K] (K contiguous) and B staged [K][N] on 64
// threads: an 8x8 thread grid with 4x4 elements each. A thread reads its
// rows t, t+8, t+16, t+24 (neighbouring threads on neighbouring padded rows,
// so no bank conflicts) as 16-byte runs of 4 K values, and its columns as
// one 16-byte group 4*t'..4*t'+3 per K value; 4*4*8 FMAs.
// CHECK-LABEL: gpu.func @k_contiguous_a
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[TI:.*]] = arith.remui %[[TID]], %c8
// CHECK: %[[TJ:.*]] = arith.divui %[[TID]], %c8
// CHECK: vector.load %{{.*}}[%[[TI]], %c0] {alignment = 16 : i64} : memref<32x12xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: %[[R1:.*]] = arith.addi %[[TI]], %c8
// CHECK: vector.load %{{.*}}[%[[R1]], %c0] {{.*}} vector<4xf32>
// CHECK: %[[R3:.*]] = arith.addi %[[TI]], %c24
// CHECK: vector.load %{{.*}}[%[[R3]], %c0] {{.*}} vector<4xf32>
// CHECK: %[[C0:.*]] = arith.muli %[[TJ]], %c4
// CHECK: vector.load %{{.*}}[%c0, %[[C0]]] {alignment = 16 : i64} : memref<8x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// Column by column, odd columns from the last row up: each FMA shares b
// with the one before, and at a turn a as well.
// CHECK: math.fma %[[A0:[^,]+]], %[[B0:[^,]+]],
// CHECK-NEXT: math.fma %[[A1:[^,]+]], %[[B0]],
// CHECK-NEXT: math.fma %[[A2:[^,]+]], %[[B0]],
// CHECK-NEXT: math.fma %[[A3:[^,]+]], %[[B0]],
// CHECK-NEXT: math.fma %[[A3]], %[[B1:[^,]+]],
// CHECK-NEXT: math.fma %[[A2]], %[[B1]],
// CHECK-NEXT: math.fma %[[A1]], %[[B1]],
// CHECK-NEXT: math.fma %[[A0]], %[[B1]],
// CHECK-NEXT: math.fma %[[A0]], %[[B2:[^,]+]],
// CHECK-COUNT-55: math.fma
// CHECK: vector.load %{{.*}}[%[[TI]], %c4{{.*}}] {{.*}} memref<32x12xf32
// CHECK-COUNT-64: math.fma
// CHECK-NOT: math.fma
// Each group of 4 columns is stored as one 16-byte vector where it fits.
// CHECK-COUNT-4: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
gpu.module @m {
  gpu.func @k_contiguous_a(%c: memref<?x?xf32>)
      workgroup(%a: memref<32x12xf32, #gpu.address_space<workgroup>>,
                %b: memref<8x36xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %acc = arith.constant dense<0.0> : tensor<32x32xf32>
    %at = tile.load %a[%c0, %c0] : memref<32x12xf32, #gpu.address_space<workgroup>> -> tensor<32x8xf32>
    %bt = tile.load %b[%c0, %c0] : memref<8x36xf32, #gpu.address_space<workgroup>> -> tensor<8x32xf32>
    %d = tile.dot %at, %bt, %acc : tensor<32x8xf32>, tensor<8x32xf32>, tensor<32x32xf32>
    tile.store %d, %c[%c0, %c0] : tensor<32x32xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Both operands staged the other way round (A as [K][M], B as [N][K]):
// groups of 4 rows (one 16-byte read per K value) and single columns
// t', t'+8, ... read as 16-byte K runs.
// CHECK-LABEL: gpu.func @k_contiguous_b
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[TI:.*]] = arith.remui %[[TID]], %c8
// CHECK: %[[TJ:.*]] = arith.divui %[[TID]], %c8
// CHECK: %[[R0:.*]] = arith.muli %[[TI]], %c4
// CHECK: vector.load %{{.*}}[%c0, %[[R0]]] {alignment = 16 : i64} : memref<8x36xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.load %{{.*}}[%[[TJ]], %c0] {alignment = 16 : i64} : memref<32x12xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: %[[C1:.*]] = arith.addi %[[TJ]], %c8
// CHECK: vector.load %{{.*}}[%[[C1]], %c0] {{.*}} memref<32x12xf32
// CHECK-COUNT-64: math.fma
// Columns of a thread are 8 apart: the result is stored element-wise.
// CHECK-NOT: vector.store
// CHECK: memref.store
// CHECK-NOT: vector.store
gpu.module @m {
  gpu.func @k_contiguous_b(%c: memref<?x?xf32>)
      workgroup(%a: memref<8x36xf32, #gpu.address_space<workgroup>>,
                %b: memref<32x12xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %acc = arith.constant dense<0.0> : tensor<32x32xf32>
    %as = tile.load %a[%c0, %c0] : memref<8x36xf32, #gpu.address_space<workgroup>> -> tensor<8x32xf32>
    %at = tile.transpose %as : tensor<8x32xf32> -> tensor<32x8xf32>
    %bs = tile.load %b[%c0, %c0] : memref<32x12xf32, #gpu.address_space<workgroup>> -> tensor<32x8xf32>
    %bt = tile.transpose %bs : tensor<32x8xf32> -> tensor<8x32xf32>
    %d = tile.dot %at, %bt, %acc : tensor<32x8xf32>, tensor<8x32xf32>, tensor<32x32xf32>
    tile.store %d, %c[%c0, %c0] : tensor<32x32xf32>, memref<?x?xf32>
    gpu.return
  }
}
