// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// A persistent kernel's store of an MMA-layout tile (each thread holds
// 2 x 2 bytes of a row every 8 columns) goes through workgroup memory: a
// buffer of 4 warps x 16 rows x (64 + 8 pad) bf16; where the tile lies
// inside C and C's rows keep 16-byte runs aligned, each warp writes its
// 16 rows there (4-byte stores), meets, and stores them to C 16 bytes a
// lane, 4 rows an access; elsewhere the guarded stores of any tile.
// CHECK-LABEL: gpu.func @staged(
// CHECK-SAME: workgroup(%[[STAGING:[^ ]*]] : memref<4608xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.if
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-16: vector.store %{{.*}}, %[[STAGING]][%{{.*}}] {alignment = 4 : i64} : memref<4608xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: } else {
// CHECK: vector.store %{{.*}} {alignment = 4 : i64} : memref<?x?xbf16>, vector<2xbf16>
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @staged(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// Neither persistent nor a warpgroup-MMA kernel whose slots already hold it
// to its residency (the buffer could cost a block): no staging.
// CHECK-LABEL: gpu.func @direct(
// CHECK-NOT: workgroup(
// CHECK-NOT: nvvm.bar.warp.sync
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @direct(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// Rows of f32 (8 bytes a thread a row): rounds of 32 columns, 2 of them.
// CHECK-LABEL: gpu.func @staged_f32(
// CHECK-SAME: workgroup(%[[STAGING:[^ ]*]] : memref<2304xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-COUNT-2: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-COUNT-2: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @staged_f32(%c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xf32, #mma>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// In a kernel that copies its operands in bulk (so the runtime describes
// its buffers by tensor maps, and its twin without them takes the rest),
// the staged store of a kernel argument goes out as bulk tensor stores: a
// tensor map for C (argument 0, boxes of 64 columns x 8 rows, 128-byte
// swizzle) is appended; each warp's 16 rows pass through its own
// 1024-byte-aligned 2 KiB (two halves of 8 swizzled rows); for each half
// of each round the first lane waits until at most the other half's store
// is unread, the warp writes its 4-byte runs, fences them for the async
// proxy, meets, and the first lane stores the half at (n0 + 64 r, m0 + 16 w
// + 8 h) and commits it. No guard: the copy engine leaves out what lies
// outside C. Before the return, every bulk store has been read.
// CHECK-LABEL: gpu.func @bulk_store(
// CHECK-SAME: %{{[^:]*}}: memref<?x?xbf16>, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: memref<?x?xbf16>, %{{[^:]*}}: !llvm.ptr, %[[MAP:[^:]*]]: !llvm.ptr)
// CHECK-SAME: workgroup(%[[STAGING:[^ ]*]] : memref<4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// CHECK-SAME: tile.tensor_maps = [array<i64: 3, 64, 64, 128>, array<i64: 0, 64, 8, 128>]
// CHECK-NOT: vector.store %{{.*}} : memref<?x?xbf16>
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-8: vector.store %{{.*}}, %[[STAGING]][%{{.*}}] {alignment = 4 : i64} : memref<4096xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.bar.warp.sync
// CHECK: scf.if
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %{{.*}}, box[%{{.*}}, %{{.*}}]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NOT: vector.store %{{.*}} : memref<?x?xbf16>
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: gpu.return
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @bulk_store(%c: memref<?x?xbf16>, %m0: index, %n0: index, %b: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c8192 = arith.constant 8192 : index
    %panel = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%m0, %n0], %panel, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x64x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    %one = arith.constant dense<1.0> : tensor<64x128xbf16, #mma>
    tile.store %one, %c[%m0, %n0] : tensor<64x128xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// The twin of a bulk-copying kernel (no bulk copies of its own) keeps the
// 16-byte stores of C.
// CHECK-LABEL: gpu.func @no_bulk_copies(
// CHECK-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @no_bulk_copies(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %one = arith.constant dense<1.0> : tensor<64x128xbf16, #mma>
    tile.store %one, %c[%m0, %n0] : tensor<64x128xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// A slice of a 4-D argument whole in its last two dimensions (one (batch,
// head) of attention's O, viewed by its own length) stores in bulk too,
// through a 4-D tensor map of the argument (box 64 columns x 8 rows x 1 x
// 1): coordinates innermost first, the slice's offsets outermost.
// CHECK-LABEL: gpu.func @bulk_store_slice(
// CHECK-SAME: %[[O:[^:]*]]: memref<?x?x?x128xbf16>, %[[B:[^:]*]]: index, %[[H:[^:]*]]: index, %{{[^:]*}}: index,
// CHECK-SAME: %{{[^:]*}}: memref<?x?xbf16>, %{{[^:]*}}: !llvm.ptr, %[[MAP:[^:]*]]: !llvm.ptr)
// CHECK-SAME: tile.tensor_maps = [array<i64: 4, 64, 64, 128>, array<i64: 0, 64, 8, 1, 1, 128>]
// CHECK-DAG: %[[HI:.*]] = arith.index_cast %[[H]] : index to i32
// CHECK-DAG: %[[BI:.*]] = arith.index_cast %[[B]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %{{.*}}, box[%{{.*}}, %{{.*}}, %[[HI]], %[[BI]]]
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @bulk_store_slice(%o: memref<?x?x?x128xbf16>, %b: index, %h: index, %m0: index, %k: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c8192 = arith.constant 8192 : index
    %panel = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %k[%m0, %c0], %panel, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x64x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    %rows = memref.dim %o, %c2 : memref<?x?x?x128xbf16>
    %slice = memref.subview %o[%b, %h, 0, 0] [1, 1, %rows, 128] [1, 1, 1, 1] : memref<?x?x?x128xbf16> to memref<?x128xbf16, strided<[128, 1], offset: ?>>
    %one = arith.constant dense<1.0> : tensor<64x128xbf16, #mma>
    tile.store %one, %slice[%m0, %c0] : tensor<64x128xbf16, #mma>, memref<?x128xbf16, strided<[128, 1], offset: ?>>
    gpu.return
  }
}

// -----

// A slice that may be shorter than its argument (its rows counted by
// another buffer) keeps the 16-byte stores: the copy engine would write
// up to the argument's end.
// CHECK-LABEL: gpu.func @partial_slice(
// CHECK-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<?x128xbf16, strided<[128, 1], offset: ?>>, vector<8xbf16>
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @partial_slice(%o: memref<?x?x?x128xbf16>, %b: index, %h: index, %m0: index, %k: memref<?x?xbf16>, %q: memref<?x?x?x128xbf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c8192 = arith.constant 8192 : index
    %panel = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %k[%m0, %c0], %panel, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x64x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    %rows = memref.dim %q, %c2 : memref<?x?x?x128xbf16>
    %slice = memref.subview %o[%b, %h, 0, 0] [1, 1, %rows, 128] [1, 1, 1, 1] : memref<?x?x?x128xbf16> to memref<?x128xbf16, strided<[128, 1], offset: ?>>
    %one = arith.constant dense<1.0> : tensor<64x128xbf16, #mma>
    tile.store %one, %slice[%m0, %c0] : tensor<64x128xbf16, #mma>, memref<?x128xbf16, strided<[128, 1], offset: ?>>
    gpu.return
  }
}

// -----

// Strided rows (each warp holds rows 16w..16w+15 and 64+16w..64+16w+15 of
// a 128x64 tile on 4 warps): a warp's 32 rows sit densely in its part of
// the buffer, the row's bit 64 moved down to bit 16 (shrui by 2); each
// access stores 4 rows that lie together, the second run of 16 rows at
// the warp's first row plus 64.
// CHECK-LABEL: gpu.func @staged_strided(
// CHECK-SAME: workgroup(%[[STAGING:[^ ]*]] : memref<9216xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.if
// CHECK: %[[LOW:.*]] = arith.andi %[[ROW:.*]], %c15{{.*}} : index
// CHECK-NEXT: %[[BIT:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[HIGH:.*]] = arith.andi %[[ROW]], %[[BIT]] : index
// CHECK-NEXT: %[[BY:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[DOWN:.*]] = arith.shrui %[[HIGH]], %[[BY]] : index
// CHECK-NEXT: arith.ori %[[LOW]], %[[DOWN]] : index
// CHECK-COUNT-32: vector.store %{{.*}}, %[[STAGING]][%{{.*}}] {alignment = 4 : i64}
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK: arith.addi %{{.*}}, %c64{{.*}} : index
// CHECK-COUNT-4: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<?x?xbf16>, vector<8xbf16>
// CHECK-NOT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64}
// CHECK: } else {
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1, strided_rows = true>
gpu.module @m {
  gpu.func @staged_strided(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %zero = arith.constant dense<1.0> : tensor<128x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<128x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// The buffer (4 warps x 16 rows x 72 bf16, 9216 bytes) fits exactly next
// to the staged tiles: 223232 + 9216 bytes is the 232448 a block has.
// CHECK-LABEL: gpu.func @fits_exactly(
// CHECK-SAME: workgroup(%{{[^ ]*}} : memref<4608xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: nvvm.bar.warp.sync
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @fits_exactly(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64,
                  tile.dynamic_shared_bytes = 223232 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// A byte more of staged tiles and the buffer no longer fits: direct stores.
// CHECK-LABEL: gpu.func @one_byte_over(
// CHECK-NOT: workgroup(
// CHECK-NOT: nvvm.bar.warp.sync
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @one_byte_over(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64,
                  tile.dynamic_shared_bytes = 223233 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// Two stores, each of whose buffers would fit alone: each counts the
// other's, so neither is staged (the choice of one never depends on the
// other's).
// CHECK-LABEL: gpu.func @two_stores(
// CHECK-NOT: workgroup(
// CHECK-NOT: nvvm.bar.warp.sync
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @two_stores(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64,
                  tile.dynamic_shared_bytes = 223232 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    tile.store %zero, %c[%n0, %m0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// With room for both, both stores are staged, each in its own buffer.
// CHECK-LABEL: gpu.func @two_stores_fit(
// CHECK-SAME: workgroup(%{{[^ ]*}} : memref<4608xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{[^ ]*}} : memref<4608xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @two_stores_fit(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64,
                  tile.dynamic_shared_bytes = 214016 : i64} {
    %zero = arith.constant dense<1.0> : tensor<64x64xbf16, #mma>
    tile.store %zero, %c[%m0, %n0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    tile.store %zero, %c[%n0, %m0] : tensor<64x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// Two stores that could go out in bulk, with room for both: each in its
// own 1024-byte-aligned buffer.
// CHECK-LABEL: gpu.func @bulk_stores_two(
// CHECK-SAME: workgroup(%{{[^ ]*}} : memref<4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %{{[^ ]*}} : memref<4096xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// CHECK-NOT: nvvm.cp.async.bulk.wait_group 3
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
gpu.module @m {
  gpu.func @bulk_stores_two(%c: memref<?x?xbf16>, %m0: index, %n0: index, %b: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.persistent = 1 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c8192 = arith.constant 8192 : index
    %panel = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c8192][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%m0, %n0], %panel, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x64x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    %one = arith.constant dense<1.0> : tensor<64x128xbf16, #mma>
    tile.store %one, %c[%m0, %n0] : tensor<64x128xbf16, #mma>, memref<?x?xbf16>
    tile.store %one, %c[%n0, %m0] : tensor<64x128xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}

// -----

// Three stores whose buffers (8 warps x 16 rows x 72 bf16, 18 KiB each)
// would need 54 KiB of static workgroup memory, more than a kernel may
// declare (48 KiB): none is staged.
// CHECK-LABEL: gpu.func @static_limit(
// CHECK-NOT: workgroup(
// CHECK-NOT: nvvm.bar.warp.sync
#mma = #tilegpu.mma<warps_m = 8, warps_n = 1>
gpu.module @m {
  gpu.func @static_limit(%c: memref<?x?xbf16>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.persistent = 1 : i64} {
    %one = arith.constant dense<1.0> : tensor<128x64xbf16, #mma>
    tile.store %one, %c[%m0, %n0] : tensor<128x64xbf16, #mma>, memref<?x?xbf16>
    tile.store %one, %c[%n0, %m0] : tensor<128x64xbf16, #mma>, memref<?x?xbf16>
    tile.store %one, %c[%m0, %m0] : tensor<128x64xbf16, #mma>, memref<?x?xbf16>
    gpu.return
  }
}
