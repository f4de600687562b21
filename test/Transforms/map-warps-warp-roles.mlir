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

// -----

// In clusters of two blocks (tile.cluster = 2): a multicast copy's tensor
// map has a box of half the rows (32 of 64); the block announces all 32 KB
// on its own barrier and copies, r being its rank in the cluster, rows
// 32 r .. 32 r + 31 of each panel to 32 r x 128 bytes into the panel, for
// both blocks (mask 0b11); an arrival with `cluster` reaches the barrier of
// both blocks through mapa; cluster_sync is barrier.cluster.arrive and
// wait, not .aligned.
// CHECK-LABEL: gpu.func @multicast(
// CHECK-SAME: tile.tensor_maps = [array<i64: 0, 64, 32, 128>]
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[RANKI:.*]] = arith.index_castui %[[RANK]] : i32 to index
// CHECK: %[[FIRST:.*]] = arith.muli %[[RANKI]], %c32
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[FIRST]]
// CHECK: arith.muli %[[FIRST]], %c128
// CHECK: %[[R32:.*]] = arith.index_cast %[[ROW]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %[[R32]]] multicast_mask = %c3_i16
// CHECK-COUNT-3: box[%{{.*}}, %{{.*}}] multicast_mask = %c3_i16
// CHECK: %[[MINE:.*]] = nvvm.mapa %{{.*}}, %c0_i32{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %[[MINE]] : !llvm.ptr<7>
// CHECK: %[[PEER:.*]] = nvvm.mapa %{{.*}}, %c1_i32{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %[[PEER]] : !llvm.ptr<7>
gpu.module @m {
  gpu.func @multicast(%b: memref<?x?xbf16>, %k: index, %n0: index, %slot: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.cluster = 2 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c1024 = arith.constant 1024 : index
    %c99328 = arith.constant 99328 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x4x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c99328][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.cluster_sync
    %slot0 = memref.subview %panels[%slot, 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<3x4x64x64xbf16, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%k, %n0], %slot0, %bars[%slot] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, multicast} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_arrive %bars[%slot] cluster : memref<3xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// An arrival with `warp`: the warp's lanes meet (bar.warp.sync, all lanes)
// and its first lane arrives for them; with `cluster`, on the barrier of
// both blocks.
// CHECK-LABEL: gpu.func @warp_arrival(
// CHECK: nvvm.bar.warp.sync %c-1_i32
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvvm.mapa %{{.*}}, %c0_i32
// CHECK-NEXT: nvvm.mbarrier.arrive
// CHECK: nvvm.mapa %{{.*}}, %c1_i32
// CHECK-NEXT: nvvm.mbarrier.arrive
// CHECK-NEXT: }
gpu.module @m {
  gpu.func @warp_arrival(%slot: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.cluster = 2 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %bars = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_arrive %bars[%slot] warp cluster : memref<3xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// With registers, the producer is a whole warpgroup (the block grows by 128
// threads to 384): all its warps give registers up (setmaxnreg decrease
// 24), then its first warp runs the region; the tile threads take 240.
// CHECK-LABEL: gpu.func @registers(
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: %[[UNIFORM:.*]], %{{.*}} = gpu.shuffle  idx
// CHECK: %[[GROUP:.*]] = arith.cmpi uge, %[[UNIFORM]], %c8_i32
// CHECK-NEXT: scf.if %[[GROUP]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 24
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[UNIFORM]], %c8_i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[TILE:.*]] = arith.cmpi ult, %[[UNIFORM]], %c8_i32
// CHECK-NEXT: scf.if %[[TILE]] {
// CHECK-NEXT: nvvm.setmaxregister increase 240
// CHECK: nvvm.mbarrier.arrive
gpu.module @m {
  gpu.func @registers(%slot: index, %phase: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %empty = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.warp_roles producer {
      tilegpu.barrier_wait %empty[%slot], %phase : memref<2xi64, #gpu.address_space<workgroup>>
    } consumers {
      tilegpu.barrier_arrive %empty[%slot] : memref<2xi64, #gpu.address_space<workgroup>>
    } {registers = array<i32: 24, 240>}
    gpu.return
  }
}

// -----

// Without register handover (targets before sm_90a, which have no
// setmaxnreg), the registers are ignored: one producer warp, no setmaxnreg.
// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps{register-handover=false})))' | FileCheck %s --check-prefix=NOHANDOVER
// NOHANDOVER-LABEL: gpu.func @no_handover(
// NOHANDOVER-SAME: known_block_size = array<i32: 288, 1, 1>
// NOHANDOVER-NOT: nvvm.setmaxregister
// NOHANDOVER: gpu.return
gpu.module @m {
  gpu.func @no_handover(%slot: index, %phase: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %empty = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    tilegpu.warp_roles producer {
      tilegpu.barrier_wait %empty[%slot], %phase : memref<2xi64, #gpu.address_space<workgroup>>
    } consumers {
      tilegpu.barrier_arrive %empty[%slot] : memref<2xi64, #gpu.address_space<workgroup>>
    } {registers = array<i32: 24, 240>}
    gpu.return
  }
}

// -----

// Two groups of 128 tile threads (warp_roles groups = 2) run the consumers
// side by side: the block is 2 x 128 + 32 threads; a thread's id in the
// program is tid mod 128 and its group the uniform warp index / 4, which
// tilegpu.group_id becomes. The producer is warp 8, after both groups,
// whose first thread (256) issues the copies. Each group has its own part
// of every workgroup buffer (the reduction's 16 bytes, one group's part
// from group x 16 of a 32-byte buffer) and its block barriers on named
// barrier 4 + group (after the turn barriers 2 and 3) over its 128 threads.
// CHECK-LABEL: gpu.func @groups(
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<32xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 288, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LOCAL:.*]] = arith.remui %[[TID]], %c128
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK: %[[WARP32:.*]] = arith.index_castui %[[WARP]] : index to i32
// CHECK: %[[UWARP:.*]], %{{.*}} = gpu.shuffle  idx %[[WARP32]], %c0_i32, %c32_i32 : i32
// CHECK: %[[G32:.*]] = arith.divui %[[UWARP]], %c4_i32 : i32
// CHECK: %[[G:.*]] = arith.index_castui %[[G32]] : i32 to index
// CHECK: %[[SHIFT:.*]] = arith.muli %[[G]], %c16 : index
// CHECK: %[[PART:.*]] = memref.view %[[BUF]][%[[SHIFT]]][] : memref<32xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %{{.*}}, %c8_i32
// CHECK-NEXT: scf.if %[[PRODUCER]] {
// CHECK: %[[ISSUER:.*]] = arith.cmpi eq, %[[TID]], %c256
// CHECK: scf.if %[[ISSUER]] {
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: %[[TILE:.*]] = arith.cmpi ult, %{{.*}}, %c8_i32
// CHECK-NEXT: scf.if %[[TILE]] {
// CHECK: arith.muli %[[LOCAL]], %c4
// CHECK: memref.load %arg1[%[[G]], %{{.*}}]
// CHECK: %[[GI32:.*]] = arith.index_castui %[[G]] : index to i32
// CHECK: %[[ID:.*]] = arith.addi %c4_i32{{.*}}, %[[GI32]] : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// CHECK: memref.store %{{.*}}, %[[PART]][%{{.*}}]
// CHECK: memref.load %[[PART]]
// CHECK: memref.store %{{.*}}, %arg2[%[[G]]] : memref<?xf32>
gpu.module @m {
  gpu.func @groups(%b: memref<?x?xbf16>, %x: memref<?x?xf32>, %y: memref<?xf32>, %k: index, %n0: index, %slot: index, %phase: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
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
      %g = tilegpu.group_id
      tilegpu.barrier_wait %full[%slot], %phase : memref<3xi64, #gpu.address_space<workgroup>>
      %t = tile.load %x[%g, %c0] : memref<?x?xf32> -> tensor<1x1024xf32>
      %s = tile.reduce add %t along 1 : tensor<1x1024xf32> -> tensor<1xf32>
      tile.store %s, %y[%g] : tensor<1xf32>, memref<?xf32>
      tilegpu.barrier_arrive %empty[%slot] : memref<3xi64, #gpu.address_space<workgroup>>
    } {groups = 2 : i64}
    gpu.return
  }
}
