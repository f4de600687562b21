// RUN: tilec-opt %s -tile-tiling='producer-warp=true' -convert-tile-kernels-to-gpu \
// RUN:   | tilec-opt -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true bulk-copies=true})))' \
// RUN:   | FileCheck %s

// Key loops in the program's guard (an scf.if: a key chunk may have no
// keys, a pack no query head) share one ring with a producer warp. The
// producer tests the same condition and, with the guard's index arithmetic
// cloned, copies every key loop's iterations; the tile threads keep the
// guard and copy Q themselves before the loops.
// CHECK-LABEL: gpu.func @d128__decode_heads(
// CHECK: tilegpu.barrier_init
// CHECK: tilegpu.warp_roles producer {
// CHECK-NEXT: scf.if %[[WORK:.*]] {
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
// CHECK: tilegpu.copy_bulk %arg1
// CHECK: tilegpu.copy_bulk %arg2
// CHECK: scf.for
// CHECK: tilegpu.copy_bulk %arg1
// CHECK: tilegpu.copy_bulk %arg2
// CHECK: } consumers {
// CHECK-NEXT: scf.if %[[WORK]] {
// CHECK: tilegpu.copy_async
// CHECK: tilegpu.async_wait 0
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
// CHECK: tilegpu.barrier_arrive
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
// CHECK: tilegpu.barrier_arrive
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
tile.attention @d128 layout(bhsd) lse producer_warp
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?xf32>) -> ()
