// RUN: tilec-opt %s -split-input-file -tile-tiling='producer-warp=true' | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-tiling | FileCheck %s --check-prefix=OFF

// With producer-warp (the pipeline's default), d128 on two warpgroups marks
// both key loops for a producer warp (tile-promote-shared gives them one).
// CHECK-LABEL: tile.kernel @d128(
// CHECK-SAME: num_warps = 8
// CHECK: scf.for
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// CHECK: scf.for
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// OFF-LABEL: tile.kernel @d128(
// OFF-NOT: tile.producer_warp
tile.attention @d128 layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// Not d64 (one warpgroup) nor d256 (its registers), unless the hint asks.
// CHECK-LABEL: tile.kernel @d64(
// CHECK-NOT: tile.producer_warp
// CHECK-LABEL: tile.kernel @d256(
// CHECK-NOT: tile.producer_warp
// CHECK-LABEL: tile.kernel @d64_hinted(
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// OFF-LABEL: tile.kernel @d64_hinted(
// OFF: } {tile.producer_warp, tile.stages = 2 : i64}
tile.attention @d64 layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
tile.attention @d256 layout(bhsd)
    : (memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>,
       memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>) -> ()
tile.attention @d64_hinted layout(bhsd) producer_warp
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
