// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(func.func(tile-vectorize))' | FileCheck %s

// 64-byte rows with an 80-byte pitch: 16-byte vectors.
// CHECK-LABEL: func.func @wide
// CHECK: tilegpu.copy_async {{.*}} {vector_bytes = 16 : i64}
func.func @wide(%src: memref<?x?xbf16>, %dst: memref<128x32xbf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>, %i: index) {
  tilegpu.copy_async %src[%i, %i], %dst : memref<?x?xbf16>, memref<128x32xbf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
  return
}

// -----

// A 36-byte pitch only allows 4-byte accesses.
// CHECK-LABEL: func.func @narrow_pitch
// CHECK: tilegpu.copy_async {{.*}} {vector_bytes = 4 : i64}
func.func @narrow_pitch(%src: memref<?x?xf32>, %dst: memref<8x8xf32, strided<[9, 1], offset: ?>, #gpu.address_space<workgroup>>, %i: index) {
  tilegpu.copy_async %src[%i, %i], %dst : memref<?x?xf32>, memref<8x8xf32, strided<[9, 1], offset: ?>, #gpu.address_space<workgroup>>
  return
}

// -----

// 2-byte rows: no vector at all, element copies.
// CHECK-LABEL: func.func @tiny
// CHECK: tilegpu.copy_async
// CHECK-NOT: vector_bytes
func.func @tiny(%src: memref<?x?xf16>, %dst: memref<4x1xf16, #gpu.address_space<workgroup>>, %i: index) {
  tilegpu.copy_async %src[%i, %i], %dst : memref<?x?xf16>, memref<4x1xf16, #gpu.address_space<workgroup>>
  return
}
