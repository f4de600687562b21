// RUN: tilec-opt %s -split-input-file -tile-tiling="warpgroup-mma=true small-grid-variants=true producer-warp=true" | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-tiling="producer-warp=true" | FileCheck %s --check-prefix=NOWGMMA

// With producer-warp, a warpgroup-MMA matmul is persistent (tile.persistent
// = 1: the runtime launches at most one block a multiprocessor): program x
// walks the ceil(M/128) x ceil(N/256) tiles pid, pid + programs, ... in the
// grouped order, computing each as before; its K loop is marked for a
// producer warp. The small-grid kernel keeps one tile a program (its grid
// leaves multiprocessors idle anyway), its K loop marked too.
// CHECK-LABEL: tile.kernel @mm(
// CHECK-SAME: grid = [#tile.grid<arg = 2, dim = 1, per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 128>]
// CHECK-SAME: tile.persistent = 1 : i64
// CHECK: %[[M:.*]] = memref.dim %{{.*}}, %c0
// CHECK: %[[ROWS:.*]] = arith.ceildivui %[[M]], %c128
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c1
// CHECK: %[[COLS:.*]] = arith.ceildivui %[[N]], %c256
// CHECK: %[[PID:.*]] = tile.program_id x
// CHECK: %[[PROGRAMS:.*]] = tile.num_programs x
// CHECK: %[[TILES:.*]] = arith.muli %[[ROWS]], %[[COLS]]
// CHECK: scf.for %[[T:.*]] = %[[PID]] to %[[TILES]] step %[[PROGRAMS]] {
// CHECK: arith.divui %[[T]],
// CHECK: scf.for
// CHECK: tile.dot
// CHECK: } {tile.producer_warp, tile.stages = 4 : i64}
// CHECK: tile.store
// CHECK: } {tile.persistent_tiles}
// CHECK-LABEL: tile.kernel @mm__small_grid(
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
