// RUN: tilec-opt %s -tile-tiling='warpgroup-mma=true producer-warp=true' -convert-tile-kernels-to-gpu \
// RUN:   | tilec-opt -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true bulk-copies=true})))' \
// RUN:   | FileCheck %s

// A ping-pong matmul (tile.consumer_groups = 2 on its K loop): the warp
// roles run two groups of tile threads, the producer a warpgroup handing
// its registers over. The producer walks every tile of the block in order
// (lb to ub by step); group g walks the tiles lb + g step, lb + (g + 2)
// step, ..., and counts its iterations over the whole walk ((t - lb) /
// step tiles before), so it reads the slots and phases the producer filled
// for its tiles. The groups take turns at the K loop: take before it, pass
// after it (once its dots have completed), and after the walk the group
// whose turn it is after all the walk's tiles takes it back (close with
// the count of tiles, max(ceil((ub - lb) / step), 0)).
// CHECK-LABEL: gpu.func @pingpong(
// CHECK: tilegpu.warp_roles producer {
// CHECK: scf.for %[[PT:.*]] = %[[LB:.*]] to %[[UB:.*]] step %[[STEP:[^ ]*]] {
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
// CHECK: tilegpu.copy_bulk
// CHECK: tilegpu.copy_bulk
// CHECK: } consumers {
// CHECK: %[[G:.*]] = tilegpu.group_id
// CHECK: %[[OFFSET:.*]] = arith.muli %[[G]], %[[STEP]] : index
// CHECK: %[[FIRST:.*]] = arith.addi %[[LB]], %[[OFFSET]] : index
// CHECK: %[[STRIDE:.*]] = arith.muli %[[STEP]], %c2{{.*}} : index
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK: %[[TILES:.*]] = arith.ceildivsi %[[SPAN]], %[[STEP]] : index
// CHECK: %[[TURNS:.*]] = arith.maxsi %[[TILES]], %c0{{.*}} : index
// CHECK: tilegpu.turn open
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[UB]] step %[[STRIDE]] {
// CHECK: tilegpu.turn take
// CHECK-NEXT: scf.for
// CHECK: %[[DONE:.*]] = arith.subi %[[T]], %[[LB]] : index
// CHECK: arith.divui %[[DONE]], %[[STEP]] : index
// CHECK: tilegpu.barrier_wait
// CHECK: tile.dot
// CHECK: tilegpu.barrier_arrive
// CHECK: } {tile.consumer_groups = 2 : i64
// CHECK-NEXT: tilegpu.turn pass
// CHECK: tile.store
// CHECK: } {tile.persistent_tiles}
// CHECK-NEXT: tilegpu.turn close after %[[TURNS]]
// CHECK-NEXT: } {groups = 2 : i64, registers = array<i32: 40, 232>}
tile.matmul @pingpong a(row) b(row) pingpong : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
