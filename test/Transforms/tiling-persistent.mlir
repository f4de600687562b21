// RUN: tilec-opt %s -split-input-file -tile-tiling="warpgroup-mma=true small-grid-variants=true producer-warp=true" | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-tiling="producer-warp=true" | FileCheck %s --check-prefix=NOWGMMA

// With producer-warp, a warpgroup-MMA matmul is persistent (tile.persistent
// = 1: the runtime launches at most one block a multiprocessor) and runs in
// clusters of two blocks (tile.cluster = 2): the pair (program x / 2) walks
// the ceil(ceil(M/128) / 2) x ceil(N/256) pairs of tile rows in the grouped
// order, block x % 2 taking row 2 g + x % 2 of each; B's load is marked
// tile.cluster_shared (both blocks read it); the K loop is marked for a
// producer warp. The small-grid kernel keeps one tile a program (its grid
// leaves multiprocessors idle anyway), its K loop marked too.
// CHECK-LABEL: tile.kernel @mm(
// CHECK-SAME: grid = [#tile.grid<arg = 2, dim = 1, per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 128>]
// CHECK-SAME: tile.cluster = 2 : i64
// CHECK-SAME: tile.persistent = 1 : i64
// CHECK: %[[M:.*]] = memref.dim %{{.*}}, %c0
// CHECK: %[[ROWS:.*]] = arith.ceildivui %[[M]], %c128
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c1
// CHECK: %[[COLS:.*]] = arith.ceildivui %[[N]], %c256
// CHECK: %[[PID:.*]] = tile.program_id x
// CHECK: %[[PROGRAMS:.*]] = tile.num_programs x
// CHECK: %[[RANK:.*]] = arith.remui %[[PID]], %c2
// CHECK: %[[GROUPS:.*]] = arith.ceildivui %[[ROWS]], %c2
// CHECK: %[[PAIR:.*]] = arith.divui %[[PID]], %c2
// CHECK: %[[TILES:.*]] = arith.muli %[[GROUPS]], %[[COLS]]
// CHECK: %[[PAIRS:.*]] = arith.divui %[[PROGRAMS]], %c2
// CHECK: scf.for %[[T:.*]] = %[[PAIR]] to %[[TILES]] step %[[PAIRS]] {
// CHECK: arith.divui %[[T]],
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c2
// CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[RANK]]
// CHECK: %[[M0:.*]] = arith.muli %[[ROW]], %c128
// CHECK: scf.for
// CHECK: tile.load %{{.*}}[%[[M0]], %{{.*}}] {tile.fit_rows} : memref<?x?xbf16> -> tensor<128x64xbf16>
// CHECK: tile.load {{.*}} {tile.cluster_shared} : memref<?x?xbf16> -> tensor<256x64xbf16>
// CHECK: tile.dot
// CHECK: } {tile.producer_warp, tile.stages = 4 : i64}
// CHECK: tile.store
// CHECK: } {tile.persistent_tiles}
// CHECK-LABEL: tile.kernel @mm__small_grid(
// CHECK-NOT: tile.cluster
// CHECK-NOT: tile.persistent
// CHECK: tile.program_id y
// CHECK: {tile.producer_warp, tile.stages = 4 : i64}

// Without warpgroup MMA there are no bulk copies for a producer.
// NOWGMMA-LABEL: tile.kernel @mm(
// NOWGMMA-NOT: tile.persistent
// NOWGMMA-NOT: tile.producer_warp
tile.matmul @mm a(row) b(col) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// f32 matmuls run on the threads' FMAs: no producer, no persistence.
// CHECK-LABEL: tile.kernel @sgemm(
// CHECK-NOT: tile.persistent
// CHECK-NOT: tile.producer_warp
// CHECK: tile.return
tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// A tile taller than wide (hinted 256x128): the pair of blocks takes tiles
// on adjacent columns, walking ceil(M/256) x ceil(ceil(N/128) / 2) pairs,
// block x % 2 taking column 2 g + x % 2; A's load (the larger tile) is
// the shared one.
// CHECK-LABEL: tile.kernel @tall(
// CHECK-SAME: tile.cluster = 2 : i64
// CHECK: %[[ROWS:.*]] = arith.ceildivui %{{.*}}, %c256
// CHECK: %[[COLS:.*]] = arith.ceildivui %{{.*}}, %c128
// CHECK: %[[PID:.*]] = tile.program_id x
// CHECK: %[[RANK:.*]] = arith.remui %[[PID]], %c2
// CHECK: %[[GROUPS:.*]] = arith.ceildivui %[[COLS]], %c2
// CHECK: %[[TILES:.*]] = arith.muli %[[ROWS]], %[[GROUPS]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[TILES]] step
// CHECK: %[[FIRST:.*]] = arith.muli %{{.*}}, %c2
// CHECK: %[[COL:.*]] = arith.addi %[[FIRST]], %[[RANK]]
// CHECK: %[[N0:.*]] = arith.muli %[[COL]], %c128
// CHECK: scf.for
// CHECK: tile.load {{.*}} {tile.cluster_shared} : memref<?x?xbf16> -> tensor<256x64xbf16>
// CHECK: tile.load %{{.*}}[%{{.*}}, %[[N0]]] : memref<?x?xbf16> -> tensor<64x128xbf16>
// CHECK-NOT: tile.cluster_shared
// CHECK: tile.dot
// NOWGMMA-LABEL: tile.kernel @tall(
tile.matmul @tall a(row) b(row) block [256, 128, 64] warps 8 stages 4 : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// `pingpong`: the program is one warpgroup's (4 warps) computing a 128x128
// tile in 5 stages, and its K loop asks tile-promote-shared for two groups
// of tile threads (tile.consumer_groups) and a producer warpgroup handing
// its registers over (40 kept, 232 for the tile threads); no small-grid
// kernel (a hinted schedule is used for every shape).
// CHECK-LABEL: tile.kernel @pingpong(
// CHECK-SAME: grid = [#tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 128>]
// CHECK-SAME: num_warps = 4 : i64, tile.cluster = 2 : i64, tile.persistent = 1 : i64
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tile.dot
// CHECK: } {tile.consumer_groups = 2 : i64, tile.producer_registers = array<i32: 40, 232>, tile.producer_warp, tile.stages = 5 : i64}
// CHECK: } {tile.persistent_tiles}
// CHECK-NOT: tile.kernel @pingpong__small_grid
// NOWGMMA-LABEL: tile.kernel @pingpong(
// NOWGMMA-SAME: num_warps = 8 : i64
// NOWGMMA-NOT: tile.consumer_groups
tile.matmul @pingpong a(row) b(row) pingpong : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
