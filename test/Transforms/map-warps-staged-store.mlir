// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// A persistent kernel's store of an MMA-layout tile (each thread holds
// 2 x 2 bytes of a row every 8 columns) goes through workgroup memory: a
// buffer of 4 warps x 16 rows x (64 + 8 pad) bf16; where the tile lies
// inside C and C's rows keep 16-byte runs aligned, each warp writes its
// 16 rows there (4-byte stores), meets, and stores them to C 16 bytes a
// lane, 4 rows an access; elsewhere the guarded stores of any tile.
// CHECK-LABEL: gpu.func @staged(
// CHECK-SAME: workgroup(%[[STAGING:[^ ]*]] : memref<4608xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.if
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-16: vector.store %{{.*}}, %[[STAGING]][%{{.*}}] {alignment = 4 : i64} : memref<4608xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: } else {
// CHECK: vector.store %{{.*}} {alignment = 4 : i64} : memref<?x?xbf16>, vector<2xbf16>
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @staged(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// Neither persistent nor a warpgroup-MMA kernel whose slots already hold it
// to its residency (the buffer could cost a block): no staging.
// CHECK-LABEL: gpu.func @direct(
// CHECK-NOT: workgroup(
// CHECK-NOT: nvvm.bar.warp.sync
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @direct(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// Rows of f32 (8 bytes a thread a row): rounds of 32 columns, 2 of them.
// CHECK-LABEL: gpu.func @staged_f32(
// CHECK-SAME: workgroup(%[[STAGING:[^ ]*]] : memref<2304xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-COUNT-2: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-COUNT-2: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @staged_f32(%c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xf32, #mma>, memref<?x?xf32>
    gpu.return
  }
}
