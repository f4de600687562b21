// RUN: tilec-opt %s -split-input-file -tile-tiling | FileCheck %s

// A 1-D scan is one program (a grid term that gives 1 for any length up
// to 2^62, 0 for an empty buffer) walking the buffer in pieces of 1024:
// the piece is read with the identity as padding, scanned, offset by the
// carry, stored; its total extends the carry.
// CHECK-LABEL: tile.kernel @cumsum(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf32>, %[[Y:[a-z0-9]+]]: memref<?xf32>)
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 4611686018427387904>], num_warps = 8
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[LEN:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf32>
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %[[LEN]] step %c1024 iter_args(%[[CARRY:.*]] = %[[ZERO]]) -> (f32)
// CHECK:   %[[T:.*]] = tile.load %[[X]][%[[COL]]] {padding = 0.000000e+00 : f32} : memref<?xf32> -> tensor<1024xf32>
// CHECK:   %[[P:.*]] = tile.prefix add %[[T]] along 0 : tensor<1024xf32>
// CHECK:   %[[C:.*]] = tile.splat %[[CARRY]] : f32 -> tensor<1024xf32>
// CHECK:   %[[R:.*]] = arith.addf %[[C]], %[[P]] : tensor<1024xf32>
// CHECK:   tile.store %[[R]], %[[Y]][%[[COL]]]
// CHECK:   %[[S:.*]] = tile.reduce add %[[T]] along 0 : tensor<1024xf32> -> f32
// CHECK:   %[[NEXT:.*]] = arith.addf %[[CARRY]], %[[S]] : f32
// CHECK:   scf.yield %[[NEXT]] : f32
tile.scan @cumsum add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// Rows: one program per row; bf16 is scanned in f32 and rounded once; an
// exclusive max starts from -inf, which also pads.
// CHECK-LABEL: tile.kernel @rows_max
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]
// CHECK: %[[INIT:.*]] = arith.constant dense<0xFF800000> : tensor<1xf32>
// CHECK: %[[ROW:.*]] = tile.program_id x : index
// CHECK: scf.for %[[COL:.*]] = {{.*}} iter_args(%[[CARRY:.*]] = %[[INIT]]) -> (tensor<1xf32>)
// CHECK:   %[[T:.*]] = tile.load %{{.*}}[%[[ROW]], %[[COL]]] {padding = 0xFF80 : bf16} : memref<?x?xbf16> -> tensor<1x1024xbf16>
// CHECK:   %[[E:.*]] = arith.extf %[[T]] : tensor<1x1024xbf16> to tensor<1x1024xf32>
// CHECK:   %[[P:.*]] = tile.prefix max exclusive %[[E]] along 1 : tensor<1x1024xf32>
// CHECK:   %[[C:.*]] = tile.broadcast %[[CARRY]] dims [1] : tensor<1xf32> -> tensor<1x1024xf32>
// CHECK:   %[[R:.*]] = arith.maximumf %[[C]], %[[P]] : tensor<1x1024xf32>
// CHECK:   arith.truncf %[[R]] : tensor<1x1024xf32> to tensor<1x1024xbf16>
// CHECK:   tile.reduce max %[[E]] along 1 : tensor<1x1024xf32> -> tensor<1xf32>
tile.scan @rows_max max exclusive along 1 : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// Several operands with a kind: each is scanned on its own, in one loop.
// CHECK-LABEL: tile.kernel @pair
// CHECK: scf.for {{.*}} -> (i32, i32)
// CHECK:   tile.prefix mul {{.*}} : tensor<1024xi32>
// CHECK:   tile.prefix mul {{.*}} : tensor<1024xi32>
// CHECK:   scf.yield %{{.*}}, %{{.*}} : i32, i32
tile.scan @pair mul inclusive along 0 : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()

// -----

// Reverse: the pieces are taken from the end (the first starts before the
// buffer when the length is not a multiple of 1024: padding, not stored).
// CHECK-LABEL: tile.kernel @suffix
// CHECK: %[[LEN:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xf32>
// CHECK: scf.for %[[OFF:.*]] = %{{.*}} to %[[LEN]] step %[[STEP:.*]] iter_args
// CHECK:   %[[END:.*]] = arith.addi %[[OFF]], %[[STEP]] : index
// CHECK:   %[[COL:.*]] = arith.subi %[[LEN]], %[[END]] : index
// CHECK:   %[[T:.*]] = tile.load %{{.*}}[%{{.*}}, %[[COL]]]
// CHECK:   tile.prefix add exclusive reverse %[[T]] along 1 : tensor<1x1024xf32>
// CHECK:   tile.store %{{.*}}, %{{.*}}[%{{.*}}, %[[COL]]]
tile.scan @suffix add exclusive reverse along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
