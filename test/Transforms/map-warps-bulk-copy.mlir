// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// Bulk copies become TMA issued by thread 0: the kernel takes one tensor
// map per source and box (appended, listed in tile.tensor_maps), the
// barriers are initialized by thread 0 and fenced for the copy engine, a
// copy announces all its bytes (4 panels x 64 rows x 128 bytes) and issues
// one cp.async.bulk.tensor per panel at column n0 + 64 p, row k; the wait
// polls the barrier's phase parity.
// CHECK-LABEL: gpu.func @bulk(
// CHECK-SAME: %[[B:[^:]*]]: memref<?x?xbf16>, %{{[^:]*}}: index, %[[N0:[^:]*]]: index, %[[SLOT:[^:]*]]: index, %[[PHASE:[^:]*]]: index, %[[MAP:[^:]*]]: !llvm.ptr)
// CHECK-SAME: tile.tensor_maps = [array<i64: 0, 64, 64, 128>]
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: scf.if %[[FIRST]]
// CHECK-COUNT-3: nvvm.mbarrier.init %{{.*}}, %c2_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %c32768_i32 : !llvm.ptr<3>, i32
// CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: %[[COL:.*]] = arith.index_cast %[[N0]] : index to i32
// CHECK: %[[ROW:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[ROW]]]
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %[[MAP]],
// CHECK: %[[PARITY:.*]] = arith.andi %{{.*}}, %c1_i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %c10000000_i32
// Retiring the barriers: every thread past its waits, thread 0 invalidates
// each, and the threads meet again before the memory is reused.
// CHECK: gpu.barrier
// CHECK: %[[RETIRER:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK-NEXT: scf.if %[[RETIRER]]
// CHECK-COUNT-3: nvvm.mbarrier.inval %{{.*}} : !llvm.ptr<3>
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gpu.return
gpu.module @m {
  gpu.func @bulk(%b: memref<?x?xbf16>, %k: index, %n0: index, %slot: index, %phase: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c99328 = arith.constant 99328 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x4x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c99328][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_init %bars arrivals 2 : memref<3xi64, #gpu.address_space<workgroup>>
    %slot0 = memref.subview %panels[%slot, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<3x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%k, %n0], %slot0, %bars[%slot] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_wait %bars[%slot], %phase : memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_inval %bars : memref<3xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A fitted copy (fit_rows) lists the box dimension the runtime fits to the
// source (its rows, 1) after the swizzle, so it gets a tensor map of its
// own, and announces the rows the fitted box brings: A's rows rounded up
// to 8, at most the panel's 64, times 2 panels of 128-byte rows. Still
// one copy a panel.
// CHECK-LABEL: gpu.func @fitted(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xbf16>, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[MAP:[^:]*]]: !llvm.ptr, %[[WHOLE:[^:]*]]: !llvm.ptr)
// CHECK-SAME: tile.tensor_maps = [array<i64: 0, 64, 64, 128, 1>, array<i64: 0, 64, 64, 128>]
// CHECK: %[[ROWS:.*]] = memref.dim %[[A]], %c0
// CHECK: %[[UP:.*]] = arith.addi %[[ROWS]], %c7
// CHECK: %[[PARTS:.*]] = arith.divui %[[UP]], %c8
// CHECK: %[[SOME:.*]] = arith.maxui %[[PARTS]], %c1
// CHECK: %[[FITTED:.*]] = arith.muli %[[SOME]], %c8
// CHECK: %[[BOX:.*]] = arith.minui %[[FITTED]], %c64
// CHECK: %[[BOX32:.*]] = arith.index_castui %[[BOX]] : index to i32
// CHECK: %[[BYTES:.*]] = arith.muli %[[BOX32]], %c256_i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %[[MAP]],
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %[[MAP]],
// The same source copied whole: the full tile's bytes.
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}, %[[WHOLE]],
gpu.module @m {
  gpu.func @fitted(%a: memref<?x?xbf16>, %m0: index, %k: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16384 = arith.constant 16384 : index
    %panels = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %a[%m0, %k], %panels, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, fit_rows} : memref<?x?xbf16>, memref<2x64x64xbf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %a[%m0, %k], %panels, %bars[%c1] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<2x64x64xbf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Copies of one buffer with one box share a tensor map; another box of the
// same buffer gets its own.
// CHECK-LABEL: gpu.func @shared_maps(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr, %{{[^:]*}}: !llvm.ptr)
// CHECK-SAME: tile.tensor_maps = [array<i64: 0, 64, 64, 128>, array<i64: 0, 64, 128, 128>]
gpu.module @m {
  gpu.func @shared_maps(%b: memref<?x?xbf16>, %k: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c65536 = arith.constant 65536 : index
    %p64 = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x64x64xbf16, #gpu.address_space<workgroup>>
    %p128 = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c65536][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%k, %c0], %p64, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x64x64xbf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%k, %c1], %p64, %bars[%c1] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x64x64xbf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%k, %c0], %p128, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x128x64xbf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A 4-D source ([batch, seq, heads, d]): rows along dimension 1, one
// element thick in the others. The box lists a panel's 64 columns, 1 head,
// 128 rows and 1 batch (innermost first), and so do the coordinates.
// CHECK-LABEL: gpu.func @bshd(
// CHECK-SAME: %[[B:[^:]*]]: memref<?x?x?x64xbf16, strided<[?, ?, 64, 1]>>, %[[BATCH:[^:]*]]: index, %[[HEAD:[^:]*]]: index, %[[KEY:[^:]*]]: index, %[[MAP:[^:]*]]: !llvm.ptr)
// CHECK-SAME: tile.tensor_maps = [array<i64: 0, 64, 1, 128, 1, 128>]
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %c16384_i32
// CHECK-DAG: %[[COL:.*]] = arith.index_cast %c0 : index to i32
// CHECK-DAG: %[[H:.*]] = arith.index_cast %[[HEAD]] : index to i32
// CHECK-DAG: %[[ROW:.*]] = arith.index_cast %[[KEY]] : index to i32
// CHECK-DAG: %[[BB:.*]] = arith.index_cast %[[BATCH]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %[[BAR]], box[%[[COL]], %[[H]], %[[ROW]], %[[BB]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
gpu.module @m {
  gpu.func @bshd(%k: memref<?x?x?x64xbf16, strided<[?, ?, 64, 1]>>, %batch: index, %head: index, %key: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c33792 = arith.constant 33792 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x128x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c33792][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_init %bars arrivals 1 : memref<2xi64, #gpu.address_space<workgroup>>
    %slot0 = memref.subview %panels[%c0, 0, 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<2x1x128x64xbf16, #gpu.address_space<workgroup>> to memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %k[%batch, %key, %head, %c0], %slot0, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, rows_dim = 1 : i64} : memref<?x?x?x64xbf16, strided<[?, ?, 64, 1]>>, memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_wait %bars[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A wait with `issuer` is thread 0's alone (the thread that issues the bulk
// copies, waiting for a slot's release); the others go past it.
// CHECK-LABEL: gpu.func @issuer_waits(
// CHECK-SAME: %[[SLOT:[^:]*]]: index, %[[USE:[^:]*]]: index)
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[ISSUER:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK-NEXT: scf.if %[[ISSUER]] {
// CHECK: %[[PARITY:.*]] = arith.andi %{{.*}}, %c1_i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %c10000000_i32
// CHECK-NEXT: }
// CHECK-NOT: nvvm.mbarrier.try_wait.parity
// CHECK: gpu.return
gpu.module @m {
  gpu.func @issuer_waits(%slot: index, %use: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %empty = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_wait %empty[%slot], %use issuer : memref<2xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// tile.repitch_args keeps the buffers that got a tensor map: %a is read by
// the threads, so only %b (argument 1) can be staged for TMA.
// CHECK-LABEL: gpu.func @repitch_mapped(
// CHECK-SAME: tile.repitch_args = [array<i64: 1, 1, 2>]
// CHECK-SAME: tile.tensor_maps = [array<i64: 1, 64, 64, 128>]
gpu.module @m {
  gpu.func @repitch_mapped(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %k: index, %n0: index, %slot: index, %phase: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 1, 1, 2>]} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c1024 = arith.constant 1024 : index
    %c99328 = arith.constant 99328 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x4x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c99328][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_init %bars arrivals 2 : memref<3xi64, #gpu.address_space<workgroup>>
    %slot0 = memref.subview %panels[%slot, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<3x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%k, %n0], %slot0, %bars[%slot] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_wait %bars[%slot], %phase : memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_inval %bars : memref<3xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Without any tensor map (no bulk copy) there is nothing to stage: the
// attribute goes.
// CHECK-LABEL: gpu.func @repitch_unmapped(
// CHECK-NOT: tile.repitch_args
// CHECK: gpu.return
gpu.module @m {
  gpu.func @repitch_unmapped(%a: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.repitch_args = [array<i64: 0, 0, 2>]} {
    gpu.return
  }
}
