// RUN: tilec-opt %s -split-input-file -tile-tiling='small-grid-variants=true warpgroup-mma=true' | FileCheck %s

// An unhinted 16-bit matmul gets a second kernel with 128x128 tiles, named
// by the main kernel (128x256 tiles) with the grid share under which the
// runtime launches it.
// CHECK-LABEL: tile.kernel @mm(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 128>
// CHECK-SAME: tile.small_grid = {kernel = @mm__small_grid, percent_of_sms = 50 : i64}
// CHECK: tile.dot {{.*}} : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
// CHECK-LABEL: tile.kernel @mm__small_grid(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 128>
// CHECK-SAME: num_warps = 8
// CHECK-NOT: tile.small_grid
// CHECK: tile.dot {{.*}} : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
// CHECK: } {tile.stages = 4 : i64}
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// f32: 32x128 tiles of K 32 on 4 warps for small grids.
// CHECK-LABEL: tile.kernel @sgemm(
// CHECK-SAME: tile.small_grid = {kernel = @sgemm__small_grid, percent_of_sms = 50 : i64}
// CHECK-LABEL: tile.kernel @sgemm__small_grid(
// CHECK-SAME: per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 32>
// CHECK-SAME: num_warps = 4
// CHECK: tile.dot {{.*}} : tensor<32x32xf32>, tensor<32x128xf32>, tensor<32x128xf32>
// CHECK: } {tile.stages = 3 : i64}
tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// A hinted schedule is the user's choice for every shape: no variant.
// CHECK-LABEL: tile.kernel @hinted(
// CHECK-NOT: tile.small_grid
// CHECK-NOT: @hinted__small_grid
tile.matmul @hinted a(row) b(row) stages 3 : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
