// RUN: tilec-opt %s -tile-tiling='producer-warp=true' -convert-tile-kernels-to-gpu \
// RUN:   | tilec-opt -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true bulk-copies=true})))' \
// RUN:   | FileCheck %s

// Key loops in a persistent walk over tiles (tile.persistent_tiles) share
// one ring with a producer warp. The producer walks the same tiles with the
// tile's index arithmetic cloned and copies every key loop's iterations;
// both sides carry the ring position from tile to tile (a tile's loops
// take as many iterations as its keys need), so the slots and phases go
// on across tiles. Q, copied by the tile threads, waits first for every
// tile thread to be done with the previous tile's.
// CHECK-LABEL: gpu.func @d128(
// CHECK: tilegpu.warp_roles producer {
// CHECK: %{{.*}} = scf.for %[[PT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PBASE:.*]] = %{{.*}}) -> (index) {
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
// CHECK: tilegpu.copy_bulk
// CHECK: scf.for
// CHECK: tilegpu.copy_bulk
// CHECK: scf.yield %{{.*}} : index
// CHECK-NEXT: } {loop_annotation = #{{.*}}, tile.persistent_tiles}
// CHECK: } consumers {
// CHECK: %{{.*}} = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BASE:.*]] = %{{.*}}) -> (index) {
// CHECK: tilegpu.async_wait 0
// CHECK: tilegpu.copy_async
// CHECK: tilegpu.async_wait 0
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
// CHECK: tilegpu.barrier_arrive
// CHECK: scf.for
// CHECK: tilegpu.barrier_arrive
// CHECK: scf.yield %{{.*}} : index
// CHECK-NEXT: } {loop_annotation = #{{.*}}, tile.persistent_tiles}
tile.attention @d128 layout(bhsd) lse persistent
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?xf32>) -> ()
