// RUN: tilec-opt %s -split-input-file -tile-tiling=warpgroup-mma=true | FileCheck %s

// On Hopper the key-chunk kernels take three stages of K and V; at d128 the
// runtime caps their chunks at one program a multiprocessor (`tile.split`).
// CHECK-LABEL: tile.kernel @decode_d128__decode(
// CHECK-SAME: tile.split = 1 : i64, tile.then = @decode_d128__decode_combine
// CHECK: scf.for %{{.*}} step %c64
// CHECK: } {tile.stages = 3 : i64}
// CHECK-LABEL: tile.kernel @decode_d128__decode_heads(
// CHECK-SAME: tile.split = 1 : i64, tile.then = @decode_d128__decode_heads_combine
// CHECK: } {tile.stages = 3 : i64}
tile.attention @decode_d128 layout(bhsd)
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// d64: keys in blocks of 128 through three stages, and at most two programs
// a multiprocessor, which the three stages leave room for.
// CHECK-LABEL: tile.kernel @decode_d64__decode(
// CHECK-SAME: tile.split = 2 : i64, tile.then = @decode_d64__decode_combine
// CHECK: scf.for %{{.*}} step %c128
// CHECK: } {tile.stages = 3 : i64}
// CHECK-LABEL: tile.kernel @decode_d64__decode_heads(
// CHECK-SAME: tile.split = 2 : i64, tile.then = @decode_d64__decode_heads_combine
// CHECK: } {tile.stages = 3 : i64}
tile.attention @decode_d64 layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
