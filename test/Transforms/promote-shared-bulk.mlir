// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true bulk-copies=true})))' | FileCheck %s

// With bulk copies, the swizzled panels of kernel arguments are filled by
// tilegpu.copy_bulk on one transaction barrier per stage, and, for tile
// threads of two warpgroups, each slot has an "empty" barrier of one arrival
// a warp (2 x 4 x 8 bytes in the 1 KB kept for the panels' run-time
// alignment shift: after the panels when the shift leaves 64 bytes there,
// else before them, at 0; the kernel needs no byte more for them): the
// prologue issues the first 3 iterations, each guarded by the loop bound;
// each iteration waits on its slot's barrier with parity (iteration / 4);
// after the dot every warp releases the previous iteration's slot (from the
// second iteration on) and only the issuing thread waits for that release,
// with parity ((iteration - 1) / 4), before refilling the slot, 3 ahead: no
// block barrier in the loop. Nothing is left to wait for after it.
// CHECK-LABEL: gpu.func @bulk(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xbf16>, %[[B:[^:]*]]: memref<?x?xbf16>
// CHECK-SAME: tile.dynamic_shared_bytes = 197632 : i64
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK: arith.remui %{{.*}}, %c1024
// CHECK: %[[SHIFT:.*]] = arith.remui %{{.*}}, %c1024
// CHECK: %[[END:.*]] = arith.constant 196608 : index
// CHECK: %[[AFTER:.*]] = arith.addi %[[END]], %[[SHIFT]]
// CHECK: %[[NEEDS:.*]] = arith.addi %[[SHIFT]], %c64
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %[[NEEDS]], %c1024
// CHECK: %[[OFF:.*]] = arith.select %[[FITS]], %[[AFTER]], %c0
// CHECK: %[[BARS:.*]] = memref.view %[[BASE]][%[[OFF]]][] : {{.*}} to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: %[[EOFF:.*]] = arith.addi %[[OFF]], %c32
// CHECK: %[[EMPTY:.*]] = memref.view %[[BASE]][%[[EOFF]]][] : {{.*}} to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: tilegpu.barrier_init %[[BARS]] arrivals 2
// CHECK-NEXT: tilegpu.barrier_init %[[EMPTY]] arrivals 8
// CHECK: scf.if
// CHECK-NEXT: memref.subview
// CHECK-NEXT: tilegpu.copy_bulk %[[A]][%{{.*}}], %{{.*}}, %[[BARS]][%{{.*}}] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.subview
// CHECK-NEXT: tilegpu.copy_bulk %[[B]]
// CHECK: scf.if
// CHECK: scf.if
// CHECK-NOT: tilegpu.copy_async
// CHECK-NOT: tilegpu.async_commit
// CHECK: scf.for %[[K:.*]] = %[[LB:[^ ]*]] to %[[UB:[^ ]*]] step
// CHECK: %[[IT:.*]] = arith.divui
// CHECK: %[[SLOT:.*]] = arith.remui %[[IT]], %c4
// CHECK: %[[PHASE:.*]] = arith.divui %[[IT]], %c4
// CHECK: tilegpu.barrier_wait %[[BARS]][%[[SLOT]]], %[[PHASE]] :
// CHECK-NOT: gpu.barrier
// CHECK: tile.dot {{.*}} {tile.in_flight = 1 : i64}
// CHECK: %[[NEXT:.*]] = arith.addi %[[IT]], %c3
// CHECK-NEXT: %[[REFILLED:.*]] = arith.remui %[[NEXT]], %c4
// CHECK: %[[USED:.*]] = arith.cmpi ne, %[[IT]], %c0
// CHECK-NEXT: scf.if %[[USED]] {
// CHECK-NEXT: tilegpu.barrier_arrive %[[EMPTY]][%[[REFILLED]]] warp :
// CHECK: %[[PREV:.*]] = arith.subi %[[IT]], %c1
// CHECK: %[[USE:.*]] = arith.divui %[[PREV]], %c4
// CHECK-NEXT: tilegpu.barrier_wait %[[EMPTY]][%[[REFILLED]]], %[[USE]] issuer :
// CHECK-NEXT: }
// CHECK-NOT: gpu.barrier
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %c192
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[AHEAD]], %[[UB]]
// CHECK: scf.if %[[IN]]
// CHECK: tilegpu.copy_bulk %[[A]]{{.*}}, %[[BARS]][%[[REFILLED]]]
// CHECK: tilegpu.copy_bulk %[[B]]
// CHECK: scf.yield
// CHECK-NOT: tilegpu.async_wait
// CHECK: tilegpu.barrier_inval %[[BARS]]
// CHECK-NEXT: tilegpu.barrier_inval %[[EMPTY]]
// CHECK: tile.store
gpu.module @m {
  gpu.func @bulk(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A load marked tile.fit_rows (by tile-tiling, on the few-rows kernels'
// A) becomes a bulk copy whose box keeps to the source's rows; the other
// operand's copy is whole.
// CHECK-LABEL: gpu.func @fit_rows(
// CHECK: tilegpu.copy_bulk %arg0[{{.*}}] {fit_rows, layout
// CHECK-NEXT: memref.subview
// CHECK-NEXT: tilegpu.copy_bulk %arg1[{{.*}}] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} :
gpu.module @m {
  gpu.func @fit_rows(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x128xf32>) {
      %ta = tile.load %a[%m0, %kk] {tile.fit_rows} : memref<?x?xbf16> -> tensor<64x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
      scf.yield %d : tensor<64x128xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<64x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A fallback twin (tile.no_bulk_copies) is staged by the threads.
// CHECK-LABEL: gpu.func @twin(
// CHECK-NOT: tilegpu.copy_bulk
// CHECK: tilegpu.copy_async {{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}
// CHECK: tilegpu.async_wait 1
gpu.module @m {
  gpu.func @twin(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.no_bulk_copies} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Bulk copies need only 2 stages (the release of the previous slot frees
// it), where per-thread copies with a dot in flight need 3.
// CHECK-LABEL: gpu.func @two_stages(
// CHECK: tilegpu.barrier_init %{{.*}} arrivals 2 : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK: tilegpu.copy_bulk
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
gpu.module @m {
  gpu.func @two_stages(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 2 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A tile of one (batch, head) of a 4-D argument, through the rank-reducing
// subview that keeps its sequence and head dim whole from 0: copied from
// the argument itself, with the subview's batch and head as indices and
// the rows along dimension 1 ([batch, seq, heads, d]). The loop-invariant
// Q is copied once by the threads and waited for before the loop; only K
// arrives on the barriers.
// CHECK-LABEL: gpu.func @head_of_4d(
// CHECK-SAME: %[[Q:[^:]*]]: memref<?x?x?x64xbf16>, %[[K:[^:]*]]: memref<?x?x?x64xbf16>
// CHECK-SAME: %[[B:[^:]*]]: index, %[[H:[^:]*]]: index
// CHECK: %[[KV:.*]] = memref.subview %[[K]]
// CHECK: tilegpu.barrier_init %{{.*}} arrivals 1
// CHECK: scf.if
// CHECK: tilegpu.copy_bulk %[[K]][%[[B]], %c0{{.*}}, %[[H]], %c0{{.*}}], {{.*}} rows_dim = 1 : i64} : memref<?x?x?x64xbf16>,
// CHECK: tilegpu.copy_async %{{.*}}[%c0{{.*}}, %c0{{.*}}], {{.*}} : memref<?x?xbf16, strided<[?, 1], offset: ?>>
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait
// CHECK: tilegpu.copy_bulk %[[K]]
// CHECK-NOT: tilegpu.copy_async
gpu.module @m {
  gpu.func @head_of_4d(%q: memref<?x?x?x64xbf16>, %k: memref<?x?x?x64xbf16>, %o: memref<64x128xf32>, %b: index, %h: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %nq = memref.dim %q, %c1 : memref<?x?x?x64xbf16>
    %nk = memref.dim %k, %c1 : memref<?x?x?x64xbf16>
    %qv = memref.subview %q[%b, 0, %h, 0] [1, %nq, 1, 64] [1, 1, 1, 1] : memref<?x?x?x64xbf16> to memref<?x64xbf16, strided<[?, 1], offset: ?>>
    %qc = memref.cast %qv : memref<?x64xbf16, strided<[?, 1], offset: ?>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %kv = memref.subview %k[%b, 0, %h, 0] [1, %nk, 1, 64] [1, 1, 1, 1] : memref<?x?x?x64xbf16> to memref<?x64xbf16, strided<[?, 1], offset: ?>>
    %kc = memref.cast %kv : memref<?x64xbf16, strided<[?, 1], offset: ?>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %tq = tile.load %qc[%c0, %c0] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x64xbf16>
    %r = scf.for %kk = %c0 to %nk step %c128 iter_args(%acc = %zero) -> (tensor<64x128xf32>) {
      %tk = tile.load %kc[%kk, %c0] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<128x64xbf16>
      %kt = tile.transpose %tk : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %tq, %kt, %acc : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
      scf.yield %d : tensor<64x128xf32>
    } {tile.stages = 2 : i64}
    tile.store %r, %o[%c0, %c0] : tensor<64x128xf32>, memref<64x128xf32>
    gpu.return
  }
}

// -----

// A view of part of a sequence (its length a plain argument, not the
// buffer's whole dimension) is staged by the threads: past the view the
// copy engine would read the buffer's next rows instead of zeros.
// CHECK-LABEL: gpu.func @part_of_4d(
// CHECK-NOT: tilegpu.copy_bulk
// CHECK: scf.for
// CHECK: tilegpu.copy_async
gpu.module @m {
  gpu.func @part_of_4d(%q: memref<?x?x?x64xbf16>, %k: memref<?x?x?x64xbf16>, %o: memref<64x128xf32>, %b: index, %h: index, %nk: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %nq = memref.dim %q, %c1 : memref<?x?x?x64xbf16>
    %qv = memref.subview %q[%b, 0, %h, 0] [1, %nq, 1, 64] [1, 1, 1, 1] : memref<?x?x?x64xbf16> to memref<?x64xbf16, strided<[?, 1], offset: ?>>
    %qc = memref.cast %qv : memref<?x64xbf16, strided<[?, 1], offset: ?>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %kv = memref.subview %k[%b, 0, %h, 0] [1, %nk, 1, 64] [1, 1, 1, 1] : memref<?x?x?x64xbf16> to memref<?x64xbf16, strided<[?, 1], offset: ?>>
    %kc = memref.cast %kv : memref<?x64xbf16, strided<[?, 1], offset: ?>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %tq = tile.load %qc[%c0, %c0] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x64xbf16>
    %r = scf.for %kk = %c0 to %nk step %c128 iter_args(%acc = %zero) -> (tensor<64x128xf32>) {
      %tk = tile.load %kc[%kk, %c0] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<128x64xbf16>
      %kt = tile.transpose %tk : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %tq, %kt, %acc : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
      scf.yield %d : tensor<64x128xf32>
    } {tile.stages = 2 : i64}
    tile.store %r, %o[%c0, %c0] : tensor<64x128xf32>, memref<64x128xf32>
    gpu.return
  }
}

// -----

// A dot whose result is used within its iteration does not stay in
// flight: the slot of the iteration before is refilled first thing, after
// a block barrier, so that the copy overlaps the whole iteration, then the
// iteration waits for its own slot.
// CHECK-LABEL: gpu.func @refill_first(
// CHECK: scf.for
// CHECK-NOT: tile.dot
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: tilegpu.copy_bulk
// CHECK: tilegpu.barrier_wait
// CHECK: tile.dot
// CHECK-NOT: tile.in_flight
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
gpu.module @m {
  gpu.func @refill_first(%q: memref<?x?x?x64xbf16>, %k: memref<?x?x?x64xbf16>, %o: memref<64x128xf32>, %b: index, %h: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %nq = memref.dim %q, %c1 : memref<?x?x?x64xbf16>
    %nk = memref.dim %k, %c1 : memref<?x?x?x64xbf16>
    %qv = memref.subview %q[%b, 0, %h, 0] [1, %nq, 1, 64] [1, 1, 1, 1] : memref<?x?x?x64xbf16> to memref<?x64xbf16, strided<[?, 1], offset: ?>>
    %qc = memref.cast %qv : memref<?x64xbf16, strided<[?, 1], offset: ?>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %kv = memref.subview %k[%b, 0, %h, 0] [1, %nk, 1, 64] [1, 1, 1, 1] : memref<?x?x?x64xbf16> to memref<?x64xbf16, strided<[?, 1], offset: ?>>
    %kc = memref.cast %kv : memref<?x64xbf16, strided<[?, 1], offset: ?>> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %tq = tile.load %qc[%c0, %c0] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x64xbf16>
    %r = scf.for %kk = %c0 to %nk step %c128 iter_args(%acc = %zero) -> (tensor<64x128xf32>) {
      %tk = tile.load %kc[%kk, %c0] : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<128x64xbf16>
      %kt = tile.transpose %tk : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %tq, %kt, %zero : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
      %e = math.exp2 %d : tensor<64x128xf32>
      %s = arith.addf %acc, %e : tensor<64x128xf32>
      scf.yield %s : tensor<64x128xf32>
    } {tile.stages = 2 : i64}
    tile.store %r, %o[%c0, %c0] : tensor<64x128xf32>, memref<64x128xf32>
    gpu.return
  }
}

// -----

// Tile threads of one warpgroup keep one barrier row and meet at a block
// barrier before each refill (releases cost more than the barrier there).
// CHECK-LABEL: gpu.func @one_warpgroup(
// CHECK: tilegpu.barrier_init %[[BARS:.*]] arrivals 2 : memref<3xi64, #gpu.address_space<workgroup>>
// CHECK-NOT: tilegpu.barrier_init
// CHECK: scf.for
// CHECK: tilegpu.barrier_wait %[[BARS]]
// CHECK: tile.dot
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: tilegpu.barrier_arrive
// CHECK: tilegpu.copy_bulk
// CHECK: tilegpu.barrier_inval %[[BARS]]
// CHECK-NOT: tilegpu.barrier_inval
gpu.module @m {
  gpu.func @one_warpgroup(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<64x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
      scf.yield %d : tensor<64x128xf32>
    } {tile.stages = 3 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<64x128xf32>, memref<?x?xf32>
    gpu.return
  }
}
