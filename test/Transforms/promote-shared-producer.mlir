// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true bulk-copies=true})))' | FileCheck %s

// A loop marked tile.producer_warp gets a producer: a second row of
// barriers ("empty", one arrival per warp of tile threads) after the "full"
// ones, both in the room kept for the panels' alignment shift;
// the producer walks the iterations, waiting from the fifth on for the
// slot's release (parity of iteration / 4 + 1) before refilling it; the
// tile threads take the loop, with no block barrier in it, and release the
// previous iteration's slot after the dot in flight, from the second
// iteration on. The accumulator's splat and the store go with them.
// CHECK-LABEL: gpu.func @producer(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xbf16>, %[[B:[^:]*]]: memref<?x?xbf16>
// CHECK-SAME: tile.dynamic_shared_bytes = 197632 : i64
// CHECK: %[[NEEDS:.*]] = arith.addi %{{.*}}, %c64
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %[[NEEDS]], %c1024
// CHECK: %[[FIRST:.*]] = arith.select %[[FITS]], %{{.*}}, %c0
// CHECK: %[[FULL:.*]] = memref.view %{{.*}}[%[[FIRST]]][] : {{.*}} to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: %[[SECOND:.*]] = arith.addi %[[FIRST]], %c32
// CHECK: %[[EMPTY:.*]] = memref.view %{{.*}}[%[[SECOND]]][] : {{.*}} to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: tilegpu.barrier_init %[[FULL]] arrivals 2
// CHECK: tilegpu.barrier_init %[[EMPTY]] arrivals 8
// CHECK-NOT: tilegpu.copy_bulk
// CHECK: tilegpu.warp_roles producer {
// CHECK: scf.for %[[PK:.*]] = %c0 to %{{.*}} step %c64 {
// CHECK: %[[PIT:.*]] = arith.divui %[[PK]], %c64
// CHECK: %[[USE:.*]] = arith.divui %[[PIT]], %c4
// CHECK: %[[PSLOT:.*]] = arith.remui %[[PIT]], %c4
// CHECK: %[[REUSED:.*]] = arith.cmpi uge, %[[PIT]], %c4
// CHECK: scf.if %[[REUSED]] {
// CHECK: %[[PARITY:.*]] = arith.addi %[[USE]], %c1
// CHECK: tilegpu.barrier_wait %[[EMPTY]][%[[PSLOT]]], %[[PARITY]]
// CHECK: }
// CHECK: tilegpu.copy_bulk %[[A]][%{{.*}}, %[[PK]]], %{{.*}}, %[[FULL]][%[[PSLOT]]]
// CHECK: tilegpu.copy_bulk %[[B]][%{{.*}}, %[[PK]]], %{{.*}}, %[[FULL]][%[[PSLOT]]]
// CHECK: } consumers {
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %{{.*}} step %c64 iter_args(%{{.*}} = %[[ZERO]])
// CHECK: %[[IT:.*]] = arith.divui %[[K]], %c64
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %c4
// CHECK: %[[PHASE:.*]] = arith.divui %[[IT]], %c4
// CHECK: tilegpu.barrier_wait %[[FULL]][%[[SLOT]]], %[[PHASE]]
// CHECK-NOT: gpu.barrier
// CHECK: tile.dot {{.*}} {tile.in_flight = 1 : i64}
// CHECK: %[[LATER:.*]] = arith.cmpi ne, %[[IT]], %c0
// CHECK: scf.if %[[LATER]] {
// CHECK: %[[PREV:.*]] = arith.addi %[[IT]], %c3
// CHECK: %[[PSLOT2:.*]] = arith.remui %[[PREV]], %c4
// CHECK: tilegpu.barrier_arrive %[[EMPTY]][%[[PSLOT2]]] warp :
// CHECK: scf.yield
// CHECK: tile.store
// CHECK: }
// CHECK-NEXT: gpu.return
gpu.module @m {
  gpu.func @producer(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c1 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tbt = tile.load %b[%n0, %kk] : memref<?x?xbf16> -> tensor<256x64xbf16>
      %tb = tile.transpose %tbt : tensor<256x64xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 4 : i64, tile.producer_warp}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A loop nested in another is not the kernel's whole work: no producer is
// made, and the tile threads (two warpgroups) release slots themselves.
// CHECK-LABEL: gpu.func @nested(
// CHECK-NOT: tilegpu.warp_roles
// CHECK: tile.dot
// CHECK-NOT: gpu.barrier
// CHECK: tilegpu.barrier_arrive {{.*}} warp
// CHECK: tilegpu.barrier_wait {{.*}} issuer
gpu.module @m {
  gpu.func @nested(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c1 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    scf.for %t = %c0 to %n step %c1 {
      %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
        %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
        %tbt = tile.load %b[%n0, %kk] : memref<?x?xbf16> -> tensor<256x64xbf16>
        %tb = tile.transpose %tbt : tensor<256x64xbf16> -> tensor<64x256xbf16>
        %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {tile.stages = 4 : i64, tile.producer_warp}
      tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// In a persistent kernel the producer takes the loop over tiles with its
// K loop: it walks the same tiles, recomputing the tile's offsets (the
// index arithmetic before the K loop, cloned), and counts iterations over
// all tiles (tiles done x ceil(K / 64) + k / 64), as the tile threads do,
// so slots and phases go on from one tile to the next. The tile threads
// take the loop over tiles, the store with it.
// CHECK-LABEL: gpu.func @persistent(
// CHECK: tilegpu.barrier_init %[[FULL:[^ ]*]] arrivals 2
// CHECK: tilegpu.barrier_init %[[EMPTY:[^ ]*]] arrivals 8
// CHECK: tilegpu.warp_roles producer {
// CHECK: scf.for %[[PT:.*]] = %[[FIRST:[^ ]*]] to %[[TILES:[^ ]*]] step %[[PROGRAMS:[^ ]*]] {
// CHECK: %[[PM0:.*]] = arith.muli %[[PT]], %c128
// CHECK: %[[PK:.*]] = memref.dim
// CHECK: scf.for %[[KK:.*]] = %c0{{.*}} to %[[PK]] step %c64 {
// CHECK: %[[LOCAL:.*]] = arith.divui %[[KK]], %c64
// CHECK: %[[SINCE:.*]] = arith.subi %[[PT]], %[[FIRST]]
// CHECK: %[[DONE:.*]] = arith.divui %[[SINCE]], %[[PROGRAMS]]
// CHECK: %[[PER:.*]] = arith.ceildivui %[[PK]], %c64
// CHECK: %[[BEFORE:.*]] = arith.muli %[[DONE]], %[[PER]]
// CHECK: %[[IT:.*]] = arith.addi %[[BEFORE]], %[[LOCAL]]
// CHECK: tilegpu.barrier_wait %[[EMPTY]]
// CHECK: tilegpu.copy_bulk %{{.*}}[%[[PM0]], %[[KK]]]
// CHECK: } consumers {
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[TILES]] step %[[PROGRAMS]] {
// CHECK: scf.for
// CHECK: arith.subi %[[T]], %[[FIRST]]
// CHECK: tilegpu.barrier_wait %[[FULL]]
// CHECK: tile.dot
// CHECK: tilegpu.barrier_arrive %[[EMPTY]][%{{.*}}] warp :
// CHECK: tile.store
// CHECK: } {tile.persistent_tiles}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
gpu.module @m {
  gpu.func @persistent(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %first: index, %tiles: index, %programs: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n0 = arith.constant 0 : index
    scf.for %t = %first to %tiles step %programs {
      %m0 = arith.muli %t, %c128 : index
      %k = memref.dim %a, %c1 : memref<?x?xbf16>
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
        %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
        %tbt = tile.load %b[%n0, %kk] : memref<?x?xbf16> -> tensor<256x64xbf16>
        %tb = tile.transpose %tbt : tensor<256x64xbf16> -> tensor<64x256xbf16>
        %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {tile.stages = 4 : i64, tile.producer_warp}
      tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    } {tile.persistent_tiles}
    gpu.return
  }
}

// -----

// In a kernel of clusters of two blocks (tile.cluster = 2), a slot is
// filled by both blocks' producers: B (tile.cluster_shared) is copied by
// multicast; both blocks' tile threads release each slot (one arrival a
// warp, 16 a slot: tilegpu.barrier_arrive warp cluster); the blocks meet
// once their barriers are ready and again before they leave.
// CHECK-LABEL: gpu.func @cluster(
// CHECK: tilegpu.barrier_init %[[FULL:[^ ]*]] arrivals 2
// CHECK: tilegpu.barrier_init %[[EMPTY:[^ ]*]] arrivals 16
// CHECK-NEXT: tilegpu.cluster_sync
// CHECK-NEXT: tilegpu.warp_roles producer {
// CHECK: tilegpu.copy_bulk %arg0[
// CHECK-NOT: multicast
// CHECK: tilegpu.copy_bulk %arg1[{{.*}}] {layout = {{.*}}, multicast}
// CHECK: } consumers {
// CHECK: tilegpu.barrier_arrive %[[EMPTY]][%{{.*}}] warp cluster
// CHECK: tile.store
// CHECK: } {tile.persistent_tiles}
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.cluster_sync
// CHECK-NEXT: gpu.return
gpu.module @m {
  gpu.func @cluster(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %first: index, %tiles: index, %programs: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.cluster = 2 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %n0 = arith.constant 0 : index
    scf.for %t = %first to %tiles step %programs {
      %m0 = arith.muli %t, %c128 : index
      %k = memref.dim %a, %c1 : memref<?x?xbf16>
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
        %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
        %tbt = tile.load %b[%n0, %kk] {tile.cluster_shared} : memref<?x?xbf16> -> tensor<256x64xbf16>
        %tb = tile.transpose %tbt : tensor<256x64xbf16> -> tensor<64x256xbf16>
        %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {tile.stages = 4 : i64, tile.producer_warp}
      tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    } {tile.persistent_tiles}
    gpu.return
  }
}

// -----

// Two key loops (unmasked, then masked, as attention's) marked
// tile.producer_warp share one ring: the producer walks both, the second
// counting its iterations on from the first's trip count, so that slots
// and phases go on and no block barrier separates the loops. Q, loaded
// before each loop, is staged once by the tile threads (cp.async, then
// the wait's barrier over them alone) and read by both loops.
// CHECK-LABEL: gpu.func @key_loops(
// CHECK-SAME: %[[Q:[^:]*]]: memref<?x?xbf16>, %[[K:[^:]*]]: memref<?x?xbf16>, %[[V:[^:]*]]: memref<?x?xbf16>
// CHECK: %[[RUNS:.*]] = arith.cmpi sgt, %[[SPLIT:[^ ,]*]], %c0
// CHECK: %[[TRIPS:.*]] = arith.ceildivui %[[SPLIT]], %c64
// CHECK: %[[FIRST2:.*]] = arith.select %[[RUNS]], %[[TRIPS]], %c0
// CHECK: tilegpu.barrier_init %[[FULL:[^ ]*]] arrivals 2
// CHECK: tilegpu.barrier_init %[[EMPTY:[^ ]*]] arrivals 8
// CHECK: tilegpu.warp_roles producer {
// CHECK: scf.for %[[PK1:.*]] = %c0 to %[[SPLIT]] step %c64 {
// CHECK: tilegpu.copy_bulk %[[K]][%[[PK1]], %c0]
// CHECK: tilegpu.copy_bulk %[[V]][%[[PK1]], %c0]
// CHECK: scf.for %[[PK2:.*]] = %[[SPLIT]] to %{{.*}} step %c64{{.*}} {
// CHECK: %[[OFF:.*]] = arith.subi %[[PK2]], %[[SPLIT]]
// CHECK: %[[LOCAL:.*]] = arith.divui %[[OFF]], %c64
// CHECK: %[[GLOBAL:.*]] = arith.addi %[[FIRST2]], %[[LOCAL]]
// CHECK: arith.remui %[[GLOBAL]], %c2
// CHECK: tilegpu.copy_bulk %[[K]][%[[PK2]], %c0]
// CHECK: tilegpu.copy_bulk %[[V]][%[[PK2]], %c0]
// CHECK: } consumers {
// CHECK: tilegpu.copy_async %[[Q]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait %[[FULL]]
// CHECK-NOT: gpu.barrier
// CHECK: tilegpu.barrier_arrive %[[EMPTY]]
// CHECK-NOT: tilegpu.copy_async
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait %[[FULL]]
// CHECK-NOT: gpu.barrier
// CHECK: tilegpu.barrier_arrive %[[EMPTY]]
// CHECK: tile.store
gpu.module @m {
  gpu.func @key_loops(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %split: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %k, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %szero = arith.constant dense<0.0> : tensor<128x64xf32>
    %q1 = tile.load %q[%c0, %c0] : memref<?x?xbf16> -> tensor<128x128xbf16>
    %r1 = scf.for %kk = %c0 to %split step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %tk = tile.load %k[%kk, %c0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %tkt = tile.transpose %tk : tensor<64x128xbf16> -> tensor<128x64xbf16>
      %s = tile.dot %q1, %tkt, %szero : tensor<128x128xbf16>, tensor<128x64xbf16>, tensor<128x64xf32>
      %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
      %tv = tile.load %v[%kk, %c0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %p, %tv, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.producer_warp, tile.stages = 2 : i64}
    %q2 = tile.load %q[%c0, %c0] : memref<?x?xbf16> -> tensor<128x128xbf16>
    %c64_2 = arith.constant 64 : index
    %r2 = scf.for %kk = %split to %n step %c64_2 iter_args(%acc = %r1) -> (tensor<128x128xf32>) {
      %tk = tile.load %k[%kk, %c0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %tkt = tile.transpose %tk : tensor<64x128xbf16> -> tensor<128x64xbf16>
      %s = tile.dot %q2, %tkt, %szero : tensor<128x128xbf16>, tensor<128x64xbf16>, tensor<128x64xf32>
      %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
      %tv = tile.load %v[%kk, %c0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %p, %tv, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.producer_warp, tile.stages = 2 : i64}
    tile.store %r2, %o[%c0, %c0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}
