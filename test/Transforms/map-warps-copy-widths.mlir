// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// A kernel whose copy sources the runtime keeps 4-byte aligned
// (tile.aligned_args) tries cp.async of 16, then 8, then 4 bytes, each
// unrolled (16 bytes: 1024 vectors over 128 threads, 8 a thread; 8 bytes:
// 16; 4 bytes: 32), and keeps only a rolled element loop for launches that
// break the guarantee.
// CHECK-LABEL: gpu.func @aligned(
// CHECK-COUNT-8: nvgpu.device_async_copy {{.*}}], 8, %{{[0-9]+}} {bypassL1}
// CHECK-NOT: nvgpu.device_async_copy {{.*}}], 8, %{{[0-9]+}} {bypassL1}
// CHECK: } else {
// CHECK-COUNT-16: nvgpu.device_async_copy {{.*}}], 4, %{{[0-9]+}} :
// CHECK: } else {
// CHECK-COUNT-32: nvgpu.device_async_copy {{.*}}], 2, %{{[0-9]+}} :
// CHECK: } else {
// CHECK: scf.for
// CHECK: memref.load
// CHECK: } {loop_annotation = #loop_annotation}
// CHECK-NOT: nvgpu.device_async_copy
gpu.module @m {
  gpu.func @aligned(%a: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.aligned_args = array<i64: 0>,
                  tile.fallback = @twin} {
    %s = memref.alloca() : memref<64x128xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %s {vector_bytes = 16} : memref<?x?xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>
    tilegpu.async_commit
    gpu.return
  }
}

// -----

// Any other kernel tries 16 bytes only, then copies element by element in an
// unrolled loop (each element read behind its bound check).
// CHECK-LABEL: gpu.func @twin(
// CHECK-COUNT-8: nvgpu.device_async_copy {{.*}}], 8, %{{[0-9]+}} {bypassL1}
// CHECK: } else {
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.load
// CHECK-NOT: {loop_annotation
// CHECK-NOT: nvgpu.device_async_copy
gpu.module @m {
  gpu.func @twin(%a: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.element_copies} {
    %s = memref.alloca() : memref<64x128xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %s {vector_bytes = 16} : memref<?x?xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>
    tilegpu.async_commit
    gpu.return
  }
}

// -----

// f32 in any kernel: 16, 8, then 4 bytes (one element: 64x32 over 128
// threads, 16 a thread), and the rolled element loop only for sources not
// aligned to their elements.
// CHECK-LABEL: gpu.func @sgemm(
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}], 4, %{{[0-9]+}} {bypassL1}
// CHECK: } else {
// CHECK-COUNT-8: nvgpu.device_async_copy {{.*}}], 2, %{{[0-9]+}} :
// CHECK: } else {
// CHECK-COUNT-16: nvgpu.device_async_copy {{.*}}], 1, %{{[0-9]+}} :
// CHECK: } else {
// CHECK: scf.for
// CHECK: } {loop_annotation = #loop_annotation}
gpu.module @m {
  gpu.func @sgemm(%a: memref<?x?xf32>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %s = memref.alloca() : memref<64x32xf32, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %s {vector_bytes = 16} : memref<?x?xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
    tilegpu.async_commit
    gpu.return
  }
}

// -----

// A 1-D copy is the copy of one row: 3072 f32 in vectors of 4 over 128
// threads (6 a thread), the source indexed by one index. A tile wholly
// inside its source (it starts before the end, unsigned, so that a
// negative start is outside, and ends by it) copies whole vectors,
// unrolled, with no bound check. Any other tile takes a loop (kept rolled:
// only the programs at the ends of a scan run it) in which a vector copies
// all of its 16 bytes or none (outside the source: zero-filled, the
// buffer's first element naming its address) and the vector that crosses
// the end of the source copies its elements one by one, each behind its
// bound check. Sources aligned for 8 or 4 bytes take rolled loops too.
// CHECK-LABEL: gpu.func @flat(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf32>, %[[I:[a-z0-9]+]]: index
// CHECK: %[[LEN:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf32>
// CHECK: scf.if
// CHECK: %[[STARTS_IN:.*]] = arith.cmpi ult, %[[I]], %[[LEN]] : index
// CHECK: %[[END:.*]] = arith.addi %[[I]], %c3072 : index
// CHECK: %[[ENDS_IN:.*]] = arith.cmpi ule, %[[END]], %[[LEN]] : index
// CHECK: %[[WHOLE:.*]] = arith.andi %[[STARTS_IN]], %[[ENDS_IN]] : i1
// CHECK: scf.if %[[WHOLE]] {
// CHECK-COUNT-6: nvgpu.device_async_copy %[[X]][%{{[0-9]+}}], %{{.*}}[%{{[0-9]+}}], 4 {bypassL1} : memref<?xf32> to memref<3072xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: } else {
// CHECK: scf.for
// CHECK: %[[LEFT:.*]] = arith.subi %[[LEN]], %{{.*}} : index
// CHECK: %[[SHORT:.*]] = arith.cmpi ult, %[[LEFT]], %{{.*}} : index
// CHECK: %[[CROSSES:.*]] = arith.andi %{{.*}}, %[[SHORT]] : i1
// CHECK: scf.if %[[CROSSES]] {
// CHECK-COUNT-4: memref.load %[[X]][%{{[0-9]+}}] : memref<?xf32>
// CHECK: } else {
// CHECK: %[[VALID:.*]] = arith.select %{{.*}}, %c4{{.*}}, %c0{{.*}} : index
// CHECK: nvgpu.device_async_copy %[[X]][%{{[0-9]+}}], %{{.*}}[%{{[0-9]+}}], 4, %[[VALID]] {bypassL1} : memref<?xf32> to memref<3072xf32, #gpu.address_space<workgroup>>
// CHECK: } {loop_annotation = #{{.*}}}
// CHECK: } else {
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy %[[X]][%{{[0-9]+}}], %{{.*}}[%{{[0-9]+}}], 2, %{{[0-9a-z_]+}} :
// CHECK: } {loop_annotation = #{{.*}}}
// CHECK: scf.for
// CHECK: nvgpu.device_async_copy %[[X]][%{{[0-9]+}}], %{{.*}}[%{{[0-9]+}}], 1, %{{[0-9a-z_]+}} :
// CHECK: } {loop_annotation = #{{.*}}}
gpu.module @m {
  gpu.func @flat(%x: memref<?xf32>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %s = memref.alloca() : memref<3072xf32, #gpu.address_space<workgroup>>
    tilegpu.copy_async %x[%i], %s {vector_bytes = 16} : memref<?xf32>, memref<3072xf32, #gpu.address_space<workgroup>>
    tilegpu.async_commit
    gpu.return
  }
}
