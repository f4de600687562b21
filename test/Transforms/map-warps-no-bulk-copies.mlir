// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps{bulk-copies=false})))' -verify-diagnostics | FileCheck %s

// Without bulk copies (sm_80) a barrier's initialisation takes no proxy
// fence (sm_90's instruction): mbarrier.init alone.
// CHECK-LABEL: gpu.func @barriers_only(
// CHECK: nvvm.mbarrier.init
// CHECK-NOT: nvvm.fence.mbarrier.init
// CHECK: gpu.return
gpu.module @m {
  gpu.func @barriers_only() kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %bars = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_init %bars arrivals 1 : memref<2xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @bulk(%b: memref<?x?xbf16>, %k: index, %n0: index, %slot: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c1024 = arith.constant 1024 : index
    %c99328 = arith.constant 99328 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x4x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c99328][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
    %slot0 = memref.subview %panels[%slot, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<3x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    // expected-error @+2 {{'tilegpu.copy_bulk' op needs bulk tensor copies (TMA): sm_90 or later}}
    // expected-error @+1 {{failed to legalize operation 'tilegpu.copy_bulk'}}
    tilegpu.copy_bulk %b[%k, %n0], %slot0, %bars[%slot] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}
