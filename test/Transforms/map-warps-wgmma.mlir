// RUN: tilec-opt %s -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// A dot on swizzled panels (the output of tile-promote-shared{swizzle=true}
// for a 128x256x64 bf16 tile on 8 warps) becomes warpgroup MMAs:
// - copies (element-wise: tile-vectorize did not run) write the 16-byte
//   group g of row r at position g xor (r mod 8) of its panel;
// - the wait before the dot makes the copies visible to the async proxy;
// - each warpgroup issues 4 wgmma m64n256k16, A K-contiguous (row), B
//   N-contiguous (row, i.e. transposed), then keeps 1 group in flight;
// - after the loop, a wait that defines the 128 accumulator registers.
// CHECK-LABEL: gpu.func @swizzled(
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: arith.xori
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<1x128x64xbf16
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=f,=f,
// CHECK-SAME: ,127"
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.cp.async.wait.group 0

  gpu.module @m {
    gpu.func @swizzled(%arg0: memref<?x?xbf16>, %arg1: memref<?x?xbf16>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index) kernel attributes {known_block_size = array<i32: 256, 1, 1>, tile.dynamic_shared_bytes = 197632 : i64} {
      %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %dim = memref.dim %arg0, %c0 : memref<?x?xbf16>
      %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
      %intptr = memref.extract_aligned_pointer_as_index %0 : memref<?xi8, #gpu.address_space<workgroup>> -> index
      %c1024 = arith.constant 1024 : index
      %1 = arith.remui %intptr, %c1024 : index
      %c1024_0 = arith.constant 1024 : index
      %c1024_1 = arith.constant 1024 : index
      %2 = arith.subi %c1024_1, %1 : index
      %3 = arith.remui %2, %c1024_0 : index
      %c0_2 = arith.constant 0 : index
      %4 = arith.addi %c0_2, %3 : index
      %view = memref.view %0[%4][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x1x128x64xbf16, #gpu.address_space<workgroup>>
      %c65536 = arith.constant 65536 : index
      %5 = arith.addi %c65536, %3 : index
      %view_3 = memref.view %0[%5][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x4x64x64xbf16, #gpu.address_space<workgroup>>
      %c0_4 = arith.constant 0 : index
      %c0_5 = arith.constant 0 : index
      %subview = memref.subview %view[%c0_5, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<4x1x128x64xbf16, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tilegpu.copy_async %arg0[%arg3, %c0], %subview {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %c0_6 = arith.constant 0 : index
      %subview_7 = memref.subview %view_3[%c0_6, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<4x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tilegpu.copy_async %arg1[%c0, %arg4], %subview_7 {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tilegpu.async_commit
      %c1 = arith.constant 1 : index
      %c64_8 = arith.constant 64 : index
      %c1_9 = arith.constant 1 : index
      %subview_10 = memref.subview %view[%c1_9, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<4x1x128x64xbf16, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tilegpu.copy_async %arg0[%arg3, %c64_8], %subview_10 {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %c1_11 = arith.constant 1 : index
      %subview_12 = memref.subview %view_3[%c1_11, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<4x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tilegpu.copy_async %arg1[%c64_8, %arg4], %subview_12 {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tilegpu.async_commit
      %6 = scf.for %arg5 = %c0 to %dim step %c64 iter_args(%arg6 = %cst) -> (tensor<128x256xf32>) {
        %7 = arith.divui %arg5, %c64 : index
        %c4 = arith.constant 4 : index
        %8 = arith.remui %7, %c4 : index
        tilegpu.async_wait 1
        %subview_13 = memref.subview %view[%8, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<4x1x128x64xbf16, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %9 = tile.load %subview_13[] : memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>> -> tensor<128x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
        %subview_14 = memref.subview %view_3[%8, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<4x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %10 = tile.load %subview_14[] : memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>> -> tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
        %11 = tile.dot %9, %10, %arg6 {tile.in_flight = 1 : i64} : tensor<128x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<128x256xf32>
        %c2 = arith.constant 2 : index
        %c128 = arith.constant 128 : index
        %12 = arith.addi %arg5, %c128 : index
        %c4_15 = arith.constant 4 : index
        %c2_16 = arith.constant 2 : index
        %13 = arith.addi %7, %c2_16 : index
        %14 = arith.remui %13, %c4_15 : index
        %subview_17 = memref.subview %view[%14, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<4x1x128x64xbf16, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        tilegpu.copy_async %arg0[%arg3, %12], %subview_17 {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %subview_18 = memref.subview %view_3[%14, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<4x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        tilegpu.copy_async %arg1[%12, %arg4], %subview_18 {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        tilegpu.async_commit
        scf.yield %11 : tensor<128x256xf32>
      } {tile.stages = 4 : i64}
      tilegpu.async_wait 0
      tile.store %6, %arg2[%arg3, %arg4] : tensor<128x256xf32>, memref<?x?xf32>
      gpu.return
    }
  }
