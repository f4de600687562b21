// RUN: tilec-opt %s -split-input-file | tilec-opt -split-input-file | FileCheck %s

// CHECK-LABEL: tile.attention @fwd layout(bhsd) causal :
// CHECK-SAME: (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
tile.attention @fwd layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// Grouped-query attention in [batch, seq, heads, d] order from strided
// views, with a scale and the log-sum-exp.
// CHECK-LABEL: tile.attention @gqa layout(bshd) scale 1.250000e-01 lse :
// CHECK-SAME: memref<2x32x?xf32>
tile.attention @gqa layout(bshd) scale 0.125 lse
    : (memref<2x?x32x64xf16, strided<[?, ?, 64, 1]>>,
       memref<2x?x8x64xf16, strided<[?, ?, 64, 1]>>,
       memref<2x?x8x64xf16, strided<[?, ?, 64, 1]>>,
       memref<2x?x32x64xf16>, memref<2x32x?xf32>) -> ()

// -----

// A score modification: logit soft-capping.
// CHECK-LABEL: tile.attention @capped layout(bhsd) :
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: math.tanh
// CHECK: tile.yield %{{.*}} : f32
tile.attention @capped layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %c = arith.constant 30.0 : f32
  %x = arith.divf %s, %c : f32
  %t = math.tanh %x : f32
  %r = arith.mulf %t, %c : f32
  tile.yield %r : f32
}

// -----

// Schedule hints: the warpgroups take turns at their dots.
// CHECK-LABEL: tile.attention @turns layout(bhsd) stages 2 pingpong :
tile.attention @turns layout(bhsd) stages 2 pingpong
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// Schedule hints: a producer warp issues the key loops' copies.
// CHECK-LABEL: tile.attention @producer layout(bhsd) causal pingpong producer_warp :
tile.attention @producer layout(bhsd) causal pingpong producer_warp
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// Schedule hints: blocks walk the tiles of a persistent grid.
// CHECK-LABEL: tile.attention @walks layout(bhsd) causal persistent :
tile.attention @walks layout(bhsd) causal persistent
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
