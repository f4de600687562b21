// RUN: tilec-opt %s -split-input-file -tile-tiling | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-tiling=warpgroup-mma=true | FileCheck %s --check-prefix=WGMMA

// Warpgroup MMA reads 128-byte panels: 16-bit K steps of 64.
// WGMMA-LABEL: tile.kernel @mm_row(
// WGMMA-SAME: per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 128>]
// WGMMA-SAME: num_warps = 8
// WGMMA: scf.for {{.*}} step %c64
// WGMMA: tile.load {{.*}} -> tensor<128x64xbf16>
// WGMMA: tile.load {{.*}} -> tensor<64x256xbf16>
// WGMMA: {tile.stages = 4 : i64}

// CHECK-LABEL: tile.kernel @mm_row(
// CHECK-SAME: %[[A:.*]]: memref<?x?xbf16>, %[[B:.*]]: memref<?x?xbf16>, %[[C:.*]]: memref<?x?xf32>
// CHECK-SAME: grid = [#tile.grid<arg = 2, dim = 1, per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 128>]
// CHECK-SAME: num_warps = 8
// Grouped order: 8 tile rows per group.
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: arith.minui %{{.*}}, %[[C8]]
// CHECK: %[[K:.*]] = memref.dim %[[A]], %c1
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
// CHECK: %[[ACC:.*]] = scf.for %[[KK:.*]] = %{{.*}} to %[[K]] step %c32 iter_args(%[[IT:.*]] = %[[ZERO]])
// CHECK:   %[[TA:.*]] = tile.load %[[A]][%[[M0:.*]], %[[KK]]] : memref<?x?xbf16> -> tensor<128x32xbf16>
// CHECK:   %[[TB:.*]] = tile.load %[[B]][%[[KK]], %[[N0:.*]]] : memref<?x?xbf16> -> tensor<32x256xbf16>
// CHECK:   %[[D:.*]] = tile.dot %[[TA]], %[[TB]], %[[IT]]
// CHECK:   scf.yield %[[D]]
// CHECK: } {tile.stages = 4 : i64}
// CHECK: tile.store %[[ACC]], %[[C]][%[[M0]], %[[N0]]] : tensor<128x256xf32>, memref<?x?xf32>
tile.matmul @mm_row a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()

// -----

// Column-major operands are read as their transposes; accumulate reads C
// first, plus 0.0 (one definition of each accumulator register, whatever
// path loaded C); a 16-bit C is rounded once at the end.
// CHECK-LABEL: tile.kernel @mm_col_acc(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf16>, %[[B:.*]]: memref<?x?xf16>, %[[C:.*]]: memref<?x?xf16>
// CHECK: %[[K:.*]] = memref.dim %[[A]], %c0
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
// CHECK: %[[C0:.*]] = tile.load %[[C]][%[[M0:.*]], %[[N0:.*]]] : memref<?x?xf16> -> tensor<128x256xf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[C0]] : tensor<128x256xf16> to tensor<128x256xf32>
// CHECK: %[[INIT:.*]] = arith.addf %[[WIDE]], %[[ZERO]] : tensor<128x256xf32>
// CHECK: scf.for %[[KK:.*]] = %{{.*}} to %[[K]] step %c32 iter_args(%{{.*}} = %[[INIT]])
// CHECK:   %[[AT:.*]] = tile.load %[[A]][%[[KK]], %[[M0]]] : memref<?x?xf16> -> tensor<32x128xf16>
// CHECK:   tile.transpose %[[AT]] : tensor<32x128xf16> -> tensor<128x32xf16>
// CHECK:   %[[BT:.*]] = tile.load %[[B]][%[[N0]], %[[KK]]] : memref<?x?xf16> -> tensor<256x32xf16>
// CHECK:   tile.transpose %[[BT]] : tensor<256x32xf16> -> tensor<32x256xf16>
// CHECK: arith.truncf %{{.*}} : tensor<128x256xf32> to tensor<128x256xf16>
tile.matmul @mm_col_acc a(col) b(col) accumulate : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>) -> ()

// -----

// f32 defaults, and hints override them.
// CHECK-LABEL: tile.kernel @sgemm(
// CHECK-SAME: num_warps = 8
// CHECK: step %c32
// CHECK: tile.dot {{.*}} : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32>
// CHECK: } {tile.stages = 3 : i64}
tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// CHECK-LABEL: tile.kernel @hinted(
// CHECK-SAME: per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 64>
// CHECK-SAME: num_warps = 8
// CHECK: step %c64
// CHECK: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x256xbf16>, tensor<64x256xf32>
// CHECK: } {tile.stages = 2 : i64}
tile.matmul @hinted a(row) b(row) block [64, 256, 64] warps 8 stages 2 : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
