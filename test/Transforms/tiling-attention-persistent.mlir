// RUN: tilec-opt %s -split-input-file -tile-tiling='producer-warp=true' | FileCheck %s

// `persistent`: the whole kernel is marked for a persistent grid
// (tile.persistent 1: the runtime launches at most a block a
// multiprocessor) and its body is a walk over the (query block, head,
// batch) tiles from program_id x by num_programs x, query blocks fastest;
// the walk keeps its invariants (LICM disabled: hoisted, they spilled in
// the key loops). Each tile sets up its views, runs its key loops and
// stores its rows.
// CHECK-LABEL: tile.kernel @d128(
// CHECK-SAME: tile.persistent = 1
// CHECK: %[[FIRST:.*]] = tile.program_id x
// CHECK: %[[PROGRAMS:.*]] = tile.num_programs x
// CHECK: scf.for %[[TILE:.*]] = %[[FIRST]] to %{{.*}} step %[[PROGRAMS]] {
// CHECK: arith.remui %[[TILE]]
// CHECK: arith.divui %[[TILE]]
// CHECK: tilegpu.turn open
// CHECK: scf.for
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK: tile.store
// CHECK: } {loop_annotation = #{{.*}}, tile.persistent_tiles}
// CHECK-NEXT: tile.return
tile.attention @d128 layout(bhsd) lse persistent
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?xf32>) -> ()

// -----

// Causal: the last query block of every (head, batch) first, then the
// one before, so that the blocks' strides over the tiles take about the
// same work: the query block is (blocks - 1) - tile / (heads * batches).
// CHECK: #[[LICM:.*]] = #llvm.loop_licm<disable = true>
// CHECK-LABEL: tile.kernel @d128_causal(
// CHECK-SAME: tile.persistent = 1
// CHECK: scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[PAIRS:.*]] = arith.muli
// CHECK: %[[DOWN:.*]] = arith.divui %[[TILE]], %[[PAIRS]]
// CHECK: arith.subi %{{.*}}, %[[DOWN]]
// CHECK: arith.remui %[[TILE]], %[[PAIRS]]
// CHECK: } {loop_annotation = #{{.*}}, tile.persistent_tiles}
tile.attention @d128_causal layout(bhsd) causal persistent
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
