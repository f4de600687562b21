// RUN: tilec-opt %s -split-input-file -verify-diagnostics \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared,tile-map-warps,cse)))' \
// RUN:   | FileCheck %s

// The row maximum of an mma accumulator whose warps own whole rows: each
// thread combines its columns, then the 4 lanes of a row (xor 1, 2); no
// workgroup memory, no barrier. Each thread holds two rows (l/4, l/4 + 8);
// one lane of the four writes them.
// CHECK-LABEL: gpu.func @row_max(
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: %[[R:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
#rows = #tilegpu.slice<dim = 1, parent_size = 64, parent = #mma>
gpu.module @m {
  gpu.func @row_max(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x64xf32, #mma>
    %m = tile.reduce max %t along 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #rows>
    tile.store %m, %y[%c0] : tensor<64xf32, #rows>, memref<?xf32>
    gpu.return
  }
}

// -----

// Column sums of the same accumulator: the lanes of a column are 8 rows
// apart (xor 4, 8, 16), and the 4 warps own different rows, so their
// partials meet in workgroup memory (64 columns x 4 warps).
// CHECK-LABEL: gpu.func @column_sum(
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK:   memref.store %{{.*}}, %[[WG]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[WG]]
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
#cols = #tilegpu.slice<dim = 0, parent_size = 64, parent = #mma>
gpu.module @m {
  gpu.func @column_sum(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x64xf32, #mma>
    %s = tile.reduce add %t along 0 : tensor<64x64xf32, #mma> -> tensor<64xf32, #cols>
    tile.store %s, %y[%c0] : tensor<64xf32, #cols>, memref<?xf32>
    gpu.return
  }
}

// -----

// Broadcasting a row slice back into its parent moves no data: each slot of
// the parent takes the slot of its row.
// CHECK-LABEL: gpu.func @broadcast_slice(
// CHECK-NOT: gpu.barrier
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1] : vector<2xf32>, vector<2xf32>
// CHECK-NOT: gpu.barrier
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
#rows = #tilegpu.slice<dim = 1, parent_size = 64, parent = #mma>
gpu.module @m {
  gpu.func @broadcast_slice(%x: memref<?xf32>, %y: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %r = tile.load %x[%c0] : memref<?xf32> -> tensor<64xf32, #rows>
    %b = tile.broadcast %r dims [1] : tensor<64xf32, #rows> -> tensor<64x64xf32, #mma>
    tile.store %b, %y[%c0, %c0] : tensor<64x64xf32, #mma>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Two encodings of one layout: a register permutation (here the identity).
// CHECK-LABEL: gpu.func @same_layout(
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: gpu.shuffle
// CHECK: %[[M:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK-NEXT: vector.shuffle %[[M]], %[[M]] [0, 1] : vector<2xf32>, vector<2xf32>
// CHECK-NOT: gpu.barrier
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
#rows64 = #tilegpu.slice<dim = 1, parent_size = 64, parent = #mma>
#rows128 = #tilegpu.slice<dim = 1, parent_size = 128, parent = #mma>
gpu.module @m {
  gpu.func @same_layout(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x64xf32, #mma>
    %r = tile.reduce max %t along 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #rows64>
    %s = tilegpu.convert_layout %r : tensor<64xf32, #rows64> -> tensor<64xf32, #rows128>
    tile.store %s, %y[%c0] : tensor<64xf32, #rows128>, memref<?xf32>
    gpu.return
  }
}

// -----

// From the accumulator to the blocked layout: through workgroup memory
// (64 x 32 f32), between two barriers. Row-major, the 8 rows of a fragment
// (lane bits 2-4) would be 32 words apart, 8 lanes to a bank; the placement
// XORs those row bits into bank bits: lane bit 2 (row 1) lands at offset
// 32 ^ 1 = 33, lane bit 3 (row 2) at 64 ^ 8 ^ 2 = 74, lane bit 4 (row 4)
// at 128 ^ 16 = 144.
// CHECK-LABEL: gpu.func @to_blocked(
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<2048xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: %[[C33:.*]] = arith.constant 33 : index
// CHECK: arith.muli %{{.*}}, %[[C33]]
// CHECK: %[[C74:.*]] = arith.constant 74 : index
// CHECK: arith.muli %{{.*}}, %[[C74]]
// CHECK: %[[C144:.*]] = arith.constant 144 : index
// CHECK: arith.muli %{{.*}}, %[[C144]]
// CHECK-COUNT-16: memref.store %{{.*}}, %[[WG]][%{{.*}}]
// CHECK: gpu.barrier
// CHECK-COUNT-16: memref.load %[[WG]][%{{.*}}]
#mma = #tilegpu.mma<warps_m = 2, warps_n = 2>
gpu.module @m {
  gpu.func @to_blocked(%x: memref<?x?xf32>, %y: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    // Used twice, so not read straight into the blocked layout.
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x32xf32, #mma>
    tile.store %t, %x[%c0, %c0] : tensor<64x32xf32, #mma>, memref<?x?xf32>
    %b = tilegpu.convert_layout %t : tensor<64x32xf32, #mma> -> tensor<64x32xf32>
    tile.store %b, %y[%c0, %c0] : tensor<64x32xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

#mma = #tilegpu.mma<warps_m = 2, warps_n = 2>
gpu.module @m {
  gpu.func @too_big(%x: memref<?x?xf32>, %y: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<128x128xf32, #mma>
    tile.store %t, %x[%c0, %c0] : tensor<128x128xf32, #mma>, memref<?x?xf32>
    // expected-error @+1 {{'tilegpu.convert_layout' op needs 65536 bytes of workgroup memory to exchange its tile; at most 49152 are supported}}
    %b = tilegpu.convert_layout %t : tensor<128x128xf32, #mma> -> tensor<128x128xf32>
    tile.store %b, %y[%c0, %c0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Back to back: the first dot's accumulator, rounded to bf16, is the second
// dot's lhs. Both dots split only rows over the 4 warps, so the rounded
// accumulator is already in A-fragment order: the conversion permutes
// registers (no workgroup exchange), and the second dot reads A from
// registers: ldmatrix only for the staged operands (A and B of the first
// dot, B of the second): 4 k steps x 8 fragments of mma.sync.
// CHECK-LABEL: gpu.func @back_to_back(
// CHECK-NOT: workgroup(
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvvm.mma.sync
// CHECK: arith.truncf %{{.*}} : vector<32xf32> to vector<32xbf16>
// CHECK-NOT: transpose = false
// CHECK: vector.shuffle %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<32xbf16>
// CHECK-NOT: transpose = false
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-32: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: gpu.return
gpu.module @m {
  gpu.func @back_to_back(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %e: memref<?x?xbf16>, %d: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %ab = scf.for %kk = %c0 to %k step %c32 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
      %ta = tile.load %a[%c0, %kk] : memref<?x?xbf16> -> tensor<64x32xbf16>
      %tb = tile.load %b[%kk, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16>
      %s = tile.dot %ta, %tb, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
      scf.yield %s : tensor<64x64xf32>
    }
    %p = arith.truncf %ab : tensor<64x64xf32> to tensor<64x64xbf16>
    %out = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
      %te = tile.load %e[%kk, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %o = tile.dot %p, %te, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %o : tensor<64x64xf32>
    }
    tile.store %out, %d[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Within one warp, from the accumulator to the blocked layout by shuffles:
// each blocked slot reads its element from the lane that holds it; where
// the source slot depends on the lane (here on lane bit 1), two shuffles and
// a select. No workgroup memory.
// CHECK-LABEL: gpu.func @warp_shuffle_conversion(
// CHECK-NOT: workgroup(
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle idx
// CHECK: gpu.shuffle idx
// CHECK: arith.select
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
#mma = #tilegpu.mma<warps_m = 1, warps_n = 1>
gpu.module @m {
  gpu.func @warp_shuffle_conversion(%x: memref<?x?xf32>, %y: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32, #mma>
    tile.store %t, %x[%c0, %c0] : tensor<16x16xf32, #mma>, memref<?x?xf32>
    %b = tilegpu.convert_layout %t : tensor<16x16xf32, #mma> -> tensor<16x16xf32>
    tile.store %b, %y[%c0, %c0] : tensor<16x16xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A prefix down the rows of an accumulator whose 4 warps hold 16 rows
// each: each warp scans its rows (a register bit, then xor shuffles over
// the lane bits 2-4); one lane per column of each warp publishes the warp's
// 4 column totals (64 words: 16 columns x 4 warps), and after a barrier each
// thread folds in the warps above it. The totals come out in the slice
// layout and are stored from it.
// CHECK-LABEL: gpu.func @prefix_across_warps(
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-4: memref.store %{{.*}}, %[[WG]][%{{.*}}]
// CHECK: gpu.barrier
// CHECK-COUNT-16: memref.load %[[WG]][%{{.*}}]
// CHECK-NOT: memref.load %[[WG]]
// CHECK: gpu.return
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @prefix_across_warps(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %t: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x16xf32, #mma>
    %p:2 = tile.prefix add %v along 0 : tensor<64x16xf32, #mma>
    tile.store %p#0, %y[%c0, %c0] : tensor<64x16xf32, #mma>, memref<?x?xf32>
    tile.store %p#1, %t[%c0] : tensor<16xf32, #tilegpu.slice<dim = 0, parent_size = 64, parent = #mma>>, memref<?xf32>
    gpu.return
  }
}
