// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// A warpgroup owning 128 rows (4 warps, a 128x64 tile) issues two m64n64
// instructions per 16 of K, each on its own 64 rows of A (the second 64
// rows x 128 bytes = 8192 bytes on) and the same B, each into its own 32
// registers: 8 instructions for K = 64, one group, one wait.
// CHECK-LABEL: gpu.func @one_warpgroup_two_instructions(
// CHECK: %[[A0:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[ROWS64:.*]] = arith.constant 8192 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.index_castui %[[ROWS64]] : index to i64
// CHECK-NEXT: %[[A1:.*]] = arith.addi %{{.*}}, %[[OFF]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: arith.shrui %[[A0]]
// CHECK: %[[D0:.*]] = nvvm.wgmma.mma_async %{{.*}}, %[[B:.*]], %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>]
// CHECK: arith.shrui %[[A1]]
// CHECK: %[[D1:.*]] = nvvm.wgmma.mma_async %{{.*}}, %[[B]], %{{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>]
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[D0]], <m = 64, n = 64, k = 16>, D[<f32>, <one>]
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[D1]], <m = 64, n = 64, k = 16>, D[<f32>, <one>]
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
gpu.module @m {
  gpu.func @one_warpgroup_two_instructions(%pa: memref<1x128x64xbf16, #gpu.address_space<workgroup>>, %pb: memref<1x64x64xbf16, #gpu.address_space<workgroup>>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %a = tile.load %pa[] : memref<1x128x64xbf16, #gpu.address_space<workgroup>> -> tensor<128x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %b = tile.load %pb[] : memref<1x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %d = tile.dot %a, %b, %zero : tensor<128x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<128x64xf32>
    tile.store %d, %c[%c0, %c0] : tensor<128x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Two warpgroups owning 128 rows each of a 256x64 tile with A stored
// M-contiguous (transposed: panels of 64 rows of A, each [64 of K][64 of
// M], 8192 bytes): warpgroup g's instruction i reads panel g + 2 i, so the
// second instruction's A starts two panels (16384 bytes) after the first.
// CHECK-LABEL: gpu.func @two_warpgroups_transposed_a(
// CHECK: %[[WG:.*]] = arith.divui %{{.*}}, %c128 : index
// CHECK: %[[WGROW:.*]] = arith.remui %[[WG]], %c2 : index
// CHECK: %[[ROW0:.*]] = arith.muli %[[WGROW]], %c64{{.*}} : index
// CHECK: arith.divui %[[ROW0]], %c64
// CHECK: %[[ROW1:.*]] = arith.addi %[[ROW0]], %c128{{.*}} : index
// CHECK: arith.divui %[[ROW1]], %c64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <{{zero|one}}>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
gpu.module @m {
  gpu.func @two_warpgroups_transposed_a(%pa: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %pb: memref<1x64x64xbf16, #gpu.address_space<workgroup>>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<256x64xf32>
    %at = tile.load %pa[] : memref<4x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %a = tile.transpose %at : tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>> -> tensor<256x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>>
    %b = tile.load %pb[] : memref<1x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %d = tile.dot %a, %b, %zero : tensor<256x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>>, tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<256x64xf32>
    tile.store %d, %c[%c0, %c0] : tensor<256x64xf32>, memref<?x?xf32>
    gpu.return
  }
}
