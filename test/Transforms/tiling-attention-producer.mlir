// RUN: tilec-opt %s -split-input-file -tile-tiling='producer-warp=true' | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-tiling | FileCheck %s --check-prefix=OFF

// With producer-warp (the pipeline's default), causal d128 on two
// warpgroups marks both key loops for a producer warp (tile-promote-shared
// gives them one), without turns: 168 registers a thread do.
// CHECK-LABEL: tile.kernel @d128_causal(
// CHECK-SAME: num_warps = 8
// CHECK-NOT: tilegpu.turn
// CHECK: scf.for
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// CHECK: scf.for
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// OFF-LABEL: tile.kernel @d128_causal(
// OFF-NOT: tile.producer_warp
tile.attention @d128_causal layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// d128 without a mask also takes turns (ping-pong), and the producer, a
// warpgroup then, hands its registers to the tile threads (24 and 240);
// d256 hands them over too; d64 (one warpgroup) takes no producer unless
// the hint asks. Without producer-warp, only the hint gives one.
// CHECK-LABEL: tile.kernel @d128(
// CHECK: tilegpu.turn open
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK-LABEL: tile.kernel @d256(
// CHECK-NOT: tilegpu.turn
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK-LABEL: tile.kernel @d64(
// CHECK-NOT: tile.producer_warp
// CHECK-LABEL: tile.kernel @d64_hinted(
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// OFF-LABEL: tile.kernel @d128(
// OFF-NOT: tilegpu.turn
// OFF-NOT: tile.producer_warp
// OFF-LABEL: tile.kernel @d64_hinted(
// OFF: } {tile.producer_warp, tile.stages = 2 : i64}
tile.attention @d128 layout(bhsd)
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
tile.attention @d256 layout(bhsd)
    : (memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>,
       memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>) -> ()
tile.attention @d64 layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
tile.attention @d64_hinted layout(bhsd) producer_warp
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
