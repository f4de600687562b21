// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared)))' | FileCheck %s

// Three stages: two copies ahead in the prologue, a wait for one pending
// group in the loop, a drain after it. Rows are padded by 16 bytes.
// CHECK-LABEL: gpu.func @mm(
// CHECK-SAME: %[[A:.*]]: memref<?x?xbf16>, %[[B:.*]]: memref<?x?xbf16>
// CHECK-SAME: tile.dynamic_shared_bytes = 56832 : i64
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[SA:.*]] = memref.view %[[BASE]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.view %[[BASE]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x136xbf16, #gpu.address_space<workgroup>>
// CHECK: tilegpu.copy_async %[[A]]
// CHECK: tilegpu.copy_async %[[B]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK: tilegpu.copy_async %[[A]]
// CHECK: tilegpu.copy_async %[[B]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK: scf.for %[[K:.*]] =
// CHECK:   tilegpu.async_wait 1
// CHECK:   tilegpu.copy_async %[[A]]
// CHECK:   tilegpu.copy_async %[[B]]
// CHECK:   tilegpu.async_commit
// CHECK:   %[[VA:.*]] = memref.subview %[[SA]][%{{.*}}, 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK:   %[[TA:.*]] = tile.load %[[VA]][%{{.*}}, %{{.*}}] : memref<128x32xbf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>> -> tensor<128x32xbf16>
// CHECK:   %[[VB:.*]] = memref.subview %[[SB]]
// CHECK:   %[[TB:.*]] = tile.load %[[VB]]
// CHECK:   tile.dot %[[TA]], %[[TB]]
// CHECK: }
// CHECK-NEXT: tilegpu.async_wait 0
gpu.module @m {
  gpu.func @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x32xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<32x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 3 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A load whose position is computed inside the loop is left alone; the
// other operand is still staged.
// CHECK-LABEL: gpu.func @moving(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf32>
// CHECK: memref.view {{.*}} to memref<3x8x68xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.view
// CHECK: scf.for
// CHECK: tile.load %[[A]][%{{.*}}] : memref<?x?xf32> -> tensor<64x8xf32>
gpu.module @m {
  gpu.func @moving(%a: memref<?x?xf32>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %k = memref.dim %a, %c0 : memref<?x?xf32>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %r = scf.for %kk = %c0 to %k step %c8 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
      %row = arith.muli %kk, %c8 : index
      %ta = tile.load %a[%row, %kk] : memref<?x?xf32> -> tensor<64x8xf32>
      %tb = tile.load %a[%kk, %c0] : memref<?x?xf32> -> tensor<8x64xf32>
      %d = tile.dot %ta, %tb, %acc : tensor<64x8xf32>, tensor<8x64xf32>, tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Two loops one after the other share their workgroup memory: the second
// loop's slots start where the first loop's did (offset 0), the kernel
// needs the larger of the two (3 x (128 x 40 + 32 x 136) x 2 bytes), and a
// block barrier before the second loop's first copies waits for every
// thread's last reads of the first loop's slots.
// CHECK-LABEL: gpu.func @two_loops(
// CHECK-SAME: tile.dynamic_shared_bytes = 56832 : i64
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK: memref.dim
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[BASE]][%[[C0]]][] : {{.*}} to memref<3x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.view %[[BASE]][%[[C0B]]][] : {{.*}} to memref<3x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK: tilegpu.copy_async
// CHECK: scf.for
gpu.module @m {
  gpu.func @two_loops(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x32xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<32x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 3 : i64}
    %r2 = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %r) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x32xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<32x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 3 : i64}
    tile.store %r2, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}
