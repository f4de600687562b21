// RUN: tilec-opt %s -split-input-file -convert-tile-kernels-to-gpu | FileCheck %s

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @tilec_kernels
// CHECK: gpu.func @ids(%{{.*}}: memref<?xf32>, %{{.*}}: i32) kernel
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK-SAME: tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>, #tile.grid<arg = 1, per_program = 1>]
// CHECK: %[[B:.*]] = gpu.block_id x
// CHECK: %[[G:.*]] = gpu.grid_dim y
// CHECK: arith.addi %[[B]], %[[G]] : index
// CHECK: gpu.return
// CHECK-NOT: tile.kernel
tile.kernel @ids(%x: memref<?xf32>, %n: i32)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>,
                        #tile.grid<arg = 1, per_program = 1>],
                num_warps = 2} {
  %p = tile.program_id x : index
  %g = tile.num_programs y : index
  %s = arith.addi %p, %g : index
  tile.return
}

// -----

// Every kernel of a module goes to the same gpu.module; tile ops other than
// the block structure stay for tile-map-warps.
// CHECK-LABEL: gpu.func @first
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: tile.load
// CHECK: gpu.func @second
// CHECK-SAME: known_block_size = array<i32: 1024, 1, 1>
tile.kernel @first(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<4xf32>
  tile.return
}
tile.kernel @second(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>],
                num_warps = 32} {
  tile.return
}

// -----

// The narrow variant a kernel names stays on its gpu.func.
// CHECK-LABEL: gpu.func @rows
// CHECK-SAME: tile.narrow = {at_most = 64 : i64, dim = 1 : i64, kernel = @rows_64, operand = 0 : i64}
tile.kernel @rows(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 2,
                tile.narrow = {kernel = @rows_64, operand = 0, dim = 1, at_most = 64}} {
  tile.return
}
tile.kernel @rows_64(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>],
                num_warps = 2} {
  tile.return
}

// -----

// The small-grid variant a kernel names stays on its gpu.func.
// CHECK-LABEL: gpu.func @big
// CHECK-SAME: tile.small_grid = {kernel = @small, percent_of_sms = 50 : i64}
tile.kernel @big(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                num_warps = 2,
                tile.small_grid = {kernel = @small, percent_of_sms = 50 : i64}} {
  tile.return
}
tile.kernel @small(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 64>],
                num_warps = 2} {
  tile.return
}

// -----

// The scratch buffer's sizes and the occupancy hint stay on the gpu.func.
// CHECK-LABEL: gpu.func @single_pass
// CHECK-SAME: tile.min_blocks_per_sm = 7 : i64
// CHECK-SAME: tile.scratch = array<i64: 16, 16>
// CHECK-SAME: tile.then = @combine
tile.kernel @single_pass(%x: memref<?xf32>, %s: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4096>],
                num_warps = 4, tile.min_blocks_per_sm = 7 : i64,
                tile.scratch = array<i64: 16, 16>, tile.then = @combine} {
  tile.return
}

// -----

// A module without tile kernels is left alone.
// CHECK-LABEL: func.func @host
// CHECK-NOT: gpu.module
func.func @host() {
  return
}

