// RUN: tilec %s --emit=ptx -o - | FileCheck %s

// The tiled online softmax down to PTX (d128: 128x128 scores on 256
// threads, 64 a thread; two key loops): each score's exponential is one
// flushing ex2 (no subnormal handling around it), 2 more a loop rescale
// the rows.
// The output is divided once a row, then multiplied.
// CHECK-LABEL: .entry attn(
// CHECK-NOT: ex2.approx.f32
// CHECK-COUNT-132: ex2.approx.ftz.f32
// CHECK-NOT: ex2.approx
// CHECK-NOT: div.rn.f32
// CHECK: rcp.rn.f32
// CHECK: .entry attn__decode(
tile.attention @attn layout(bhsd)
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
