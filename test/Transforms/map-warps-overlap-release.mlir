// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true bulk-copies=true},tile-map-warps)))' | FileCheck %s

// An `overlap` P V whose result only the loop yields: its wait would go
// before the yield, but the slot its V came from is released (the
// producer's "empty" barrier) at the end of the body, and the producer may
// refill it at once. The wait comes before the release.
// CHECK-LABEL: gpu.func @overlap_result_only_yielded(
// CHECK: scf.for
// CHECK: "wgmma.wait_group.sync.aligned 1;"
// CHECK: math.exp2
// CHECK: "wgmma.wait_group.sync.aligned 0;"
// CHECK: nvvm.mbarrier.arrive
// CHECK-NOT: wgmma.wait_group
// CHECK: scf.yield
gpu.module @m {
  gpu.func @overlap_result_only_yielded(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %k, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %pzero = arith.constant dense<0.0> : tensor<128x64xbf16>
    %qt = tile.load %q[%m0, %c0] : memref<?x?xbf16> -> tensor<128x64xbf16>
    %r:2 = scf.for %kb = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %pzero) -> (tensor<128x64xf32>, tensor<128x64xbf16>) {
      %kt = tile.load %k[%kb, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %ktt = tile.transpose %kt : tensor<64x64xbf16> -> tensor<64x64xbf16>
      %s = tile.dot %qt, %ktt, %zero overlap : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
      %prev = arith.subi %kb, %c64 : index
      %vt = tile.load %v[%prev, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %d = tile.dot %p, %vt, %acc overlap : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
      %e = math.exp2 %s : tensor<128x64xf32>
      %pn = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xbf16>
      scf.yield %d, %pn : tensor<128x64xf32>, tensor<128x64xbf16>
    } {tile.stages = 2 : i64, tile.producer_warp}
    tile.store %r#0, %o[%m0, %c0] : tensor<128x64xf32>, memref<?x?xf32>
    gpu.return
  }
}
