// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// Warp roles become two branches on the warp index, read from lane 0 (a
// shuffle: ptxas then knows each branch warp-uniform): the producer is warp
// 8, appended after the 256 tile threads (the block grows to 288), whose
// first thread (256) issues the bulk copies; the tile threads (warps below
// 8) arrive on the "empty" barrier, and their block barriers become named
// barrier 1 over 256 threads, which the producer warp never reaches. The
// barriers' own initialization still synchronizes the whole block
// (gpu.barrier) before the roles split.
// CHECK-LABEL: gpu.func @roles(
// CHECK-SAME: known_block_size = array<i32: 288, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: nvvm.mbarrier.init
// CHECK: gpu.barrier
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: %[[WARP32:.*]] = arith.index_castui %[[WARP]] : index to i32
// CHECK: %[[UNIFORM:.*]], %{{.*}} = gpu.shuffle  idx %[[WARP32]], %c0_i32, %c32_i32 : i32
// CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %[[UNIFORM]], %c8_i32
// CHECK-NEXT: scf.if %[[PRODUCER]] {
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[ISSUER:.*]] = arith.cmpi eq, %[[TID]], %c256
// CHECK: scf.if %[[ISSUER]] {
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: }
// CHECK: %[[TILE:.*]] = arith.cmpi ult, %[[UNIFORM]], %c8_i32
// CHECK-NEXT: scf.if %[[TILE]] {
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: gpu.barrier
// CHECK-DAG: %[[ID:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[COUNT:.*]] = arith.constant 256 : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[COUNT]]
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: }
// CHECK-NEXT: gpu.return
gpu.module @m {
  gpu.func @roles(%b: memref<?x?xbf16>, %k: index, %n0: index, %slot: index, %phase: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c1024 = arith.constant 1024 : index
    %c99328 = arith.constant 99328 : index
    %c99360 = arith.constant 99360 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x4x64x64xbf16, #gpu.address_space<workgroup>>
    %full = memref.view %base[%c99328][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
    %empty = memref.view %base[%c99360][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_init %full arrivals 1 : memref<3xi64, #gpu.address_space<workgroup>>
    %slot0 = memref.subview %panels[%slot, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<3x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    tilegpu.warp_roles producer {
      tilegpu.barrier_wait %empty[%slot], %phase : memref<3xi64, #gpu.address_space<workgroup>>
      tilegpu.copy_bulk %b[%k, %n0], %slot0, %full[%slot] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
    } consumers {
      tilegpu.barrier_wait %full[%slot], %phase : memref<3xi64, #gpu.address_space<workgroup>>
      gpu.barrier
      tilegpu.barrier_arrive %empty[%slot] : memref<3xi64, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}
