// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true})))' | FileCheck %s
// With swizzle, a dot that fits warpgroup MMA (8 warps, 128x256x64) has its
// operands staged in 128-byte swizzled panels: A as 1 panel of 128 rows, B
// as 4 panels of 64 rows, at a run-time 1024-byte-aligned offset (1 KB more
// is reserved: 4 * 48 KB + 1 KB). One dot stays in flight, so copies run 2
// iterations ahead (wait for 1 pending group) and follow the dot.
// CHECK-LABEL: gpu.func @swizzled(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xbf16>, %[[B:[^:]*]]: memref<?x?xbf16>
// CHECK-SAME: tile.dynamic_shared_bytes = 197632 : i64
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK: memref.extract_aligned_pointer_as_index %[[BASE]]
// CHECK: %[[SA:.*]] = memref.view %[[BASE]][%{{.*}}][] : {{.*}} to memref<4x1x128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.view %[[BASE]][%{{.*}}][] : {{.*}} to memref<4x4x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: tilegpu.copy_async %[[A]]{{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: tilegpu.copy_async %[[B]]{{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT: tilegpu.async_commit
// CHECK: tilegpu.async_commit
// CHECK-NOT: tilegpu.async_commit
// CHECK: scf.for
// CHECK: tilegpu.async_wait 1
// CHECK: %[[TA:.*]] = tile.load %{{.*}}[] : {{.*}} -> tensor<128x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
// CHECK: %[[TB:.*]] = tile.load %{{.*}}[] : {{.*}} -> tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
// CHECK: tile.dot %[[TA]], %[[TB]], %{{.*}} {tile.in_flight = 1 : i64}
// CHECK: tilegpu.copy_async %[[A]]
// CHECK: tilegpu.copy_async %[[B]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: scf.yield
// CHECK: tilegpu.async_wait 0
gpu.module @m {
  gpu.func @swizzled(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
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

// K steps of 32 do not fill a 128-byte panel of the K-contiguous A: the
// operands keep padded rows and the copies run 3 ahead, before the dot.
// CHECK-LABEL: gpu.func @narrow_k(
// CHECK-SAME: tile.dynamic_shared_bytes = 
// CHECK: memref.view {{.*}} to memref<4x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: swizzle
// CHECK: tilegpu.async_wait 2
// CHECK-NOT: tile.in_flight
gpu.module @m {
  gpu.func @narrow_k(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 32 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x32xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<32x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Two stages leave no slot for a dot in flight: the operands stay padded.
// CHECK-LABEL: gpu.func @two_stages(
// CHECK: memref.view {{.*}} to memref<2x128x72xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: swizzle
// CHECK: tilegpu.async_wait 0
// CHECK-NOT: tile.in_flight
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

// Attention's loop (4 warps, 64-row blocks): the loop-invariant Q block is
// staged once, before the loop, into one slot of swizzled panels and read
// where the dot uses it; K and V fill 2 stages of panels each. P V takes
// its lhs from registers (wgmma's register-A form), so only V is staged for
// it. Neither dot can stay in flight (S is read in the iteration, O is
// rescaled before the next dot), so 2 stages suffice: copies run one
// iteration ahead (wait for 0 pending groups), before the reads.
// CHECK-LABEL: gpu.func @attention_loop(
// CHECK-SAME: %[[Q:[^:]*]]: memref<?x?xbf16>, %[[K:[^:]*]]: memref<?x?xbf16>, %[[V:[^:]*]]: memref<?x?xbf16>
// CHECK: %[[SQ:.*]] = memref.view {{.*}} to memref<1x1x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<2x1x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<2x1x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: tilegpu.async_commit
// CHECK: tilegpu.copy_async %[[Q]]{{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}
// CHECK-NOT: tilegpu.async_commit
// CHECK: tilegpu.copy_async %[[K]]{{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}
// CHECK: tilegpu.copy_async %[[V]]{{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: scf.for
// CHECK: tilegpu.async_wait 0
// CHECK: tilegpu.copy_async %[[K]]
// CHECK: tilegpu.copy_async %[[V]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK: %[[TK:.*]] = tile.load %{{.*}}[] : {{.*}} -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
// CHECK: %[[KT:.*]] = tile.transpose %[[TK]]
// CHECK: %[[TQ:.*]] = tile.load %[[QSLOT:.*]][] : {{.*}} -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
// CHECK-NEXT: tile.dot %[[TQ]], %[[KT]], %{{[^ ]*}} :
// CHECK: %[[P:.*]] = arith.truncf
// CHECK: %[[TV:.*]] = tile.load %{{.*}}[] : {{.*}} -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
// CHECK: tile.dot %[[P]], %[[TV]], %{{[^ ]*}} :
// CHECK-NOT: tile.in_flight
// CHECK: tilegpu.async_wait 0
gpu.module @m {
  gpu.func @attention_loop(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %k, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %qt = tile.load %q[%m0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %r = scf.for %kb = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
      %kt = tile.load %k[%kb, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %ktt = tile.transpose %kt : tensor<64x64xbf16> -> tensor<64x64xbf16>
      %s = tile.dot %qt, %ktt, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %vt = tile.load %v[%kb, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %acc : tensor<64x64xf32>
      %d = tile.dot %p, %vt, %scaled : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    } {tile.stages = 2 : i64}
    tile.store %r, %o[%m0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A value block one step behind the key block (attention's overlapped
// schedule reads V at iv - 64) is pipelined too: the prologue copies block
// lb - 64 and each iteration the block behind the next key block, the
// offset recomputed from the iteration's induction variable.
// CHECK-LABEL: gpu.func @block_behind(
// CHECK: tilegpu.copy_async %arg1[%c0, %c0]
// CHECK: %[[FIRST:.*]] = arith.subi %c0, %{{.*}} : index
// CHECK: tilegpu.copy_async %arg2[%[[FIRST]], %c0]
// CHECK: tilegpu.async_commit
// CHECK: scf.for %[[IV:.*]] = %c0 to
// CHECK:   %[[NEXT:.*]] = arith.addi %[[IV]], %c64 : index
// CHECK:   tilegpu.copy_async %arg1[%[[NEXT]], %c0]
// CHECK:   %[[BEHIND:.*]] = arith.subi %[[NEXT]], %{{.*}} : index
// CHECK:   tilegpu.copy_async %arg2[%[[BEHIND]], %c0]
// CHECK:   tile.dot {{.*}} overlap
// CHECK:   tile.dot %{{.*}}, %{{.*}}, %{{.*}} overlap : tensor<64x64xbf16>, tensor<64x64xbf16, #tilegpu.shared
gpu.module @m {
  gpu.func @block_behind(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %k, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %pzero = arith.constant dense<0.0> : tensor<64x64xbf16>
    %qt = tile.load %q[%m0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %r:2 = scf.for %kb = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %pzero) -> (tensor<64x64xf32>, tensor<64x64xbf16>) {
      %kt = tile.load %k[%kb, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %ktt = tile.transpose %kt : tensor<64x64xbf16> -> tensor<64x64xbf16>
      %s = tile.dot %qt, %ktt, %zero overlap : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      %prev = arith.subi %kb, %c64 : index
      %vt = tile.load %v[%prev, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %d = tile.dot %p, %vt, %acc overlap : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      %e = math.exp2 %s : tensor<64x64xf32>
      %pn = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
      scf.yield %d, %pn : tensor<64x64xf32>, tensor<64x64xbf16>
    } {tile.stages = 2 : i64}
    tile.store %r#0, %o[%m0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A dot outside any loop whose lhs is in registers (the last P V after
// attention's key loops) has its global rhs copied into one swizzled slot,
// awaited and read where the dot is; the global load is gone.
// CHECK-LABEL: gpu.func @straight_line(
// CHECK: tilegpu.copy_async %arg1[%arg3, %c0], %{{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK: %[[V:.*]] = tile.load %{{.*}}[] : memref<1x64x64xbf16, {{.*}}#gpu.address_space<workgroup>> -> tensor<64x64xbf16, #tilegpu.shared
// CHECK: tile.dot %{{.*}}, %[[V]], %{{.*}} :
// CHECK-NOT: tile.load %arg1
gpu.module @m {
  gpu.func @straight_line(%p: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %k0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %pf = tile.load %p[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %pe = arith.extf %pf : tensor<64x64xbf16> to tensor<64x64xf32>
    %pt = arith.truncf %pe : tensor<64x64xf32> to tensor<64x64xbf16>
    %vt = tile.load %v[%k0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %pt, %vt, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    tile.store %d, %o[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A loop whose second dot does not fit warpgroup MMA (32x32) keeps that
// dot's operands in padded rows after the swizzled panels. The panels move
// by the run-time alignment shift, so the padded slots move with them:
// at a constant offset they would overlap the last panel by the shift.
// CHECK-LABEL: gpu.func @mixed(
// CHECK: arith.remui %{{.*}}, %c1024
// CHECK: %[[SHIFT:.*]] = arith.remui %{{.*}}, %c1024
// CHECK: memref.view {{.*}} to memref<3x1x128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = arith.addi %c49152, %[[SHIFT]]
// CHECK: memref.view %{{.*}}[%[[B]]][] : {{.*}} to memref<3x4x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[X:.*]] = arith.addi %c147456, %[[SHIFT]]
// CHECK: memref.view %{{.*}}[%[[X]]][] : {{.*}} to memref<3x32x72xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[Y:.*]] = arith.addi %c{{[0-9]+}}, %[[SHIFT]]
// CHECK: memref.view %{{.*}}[%[[Y]]][] : {{.*}} to memref<3x64x40xbf16, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @mixed(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %c: memref<?x?xf32>, %e: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %zero2 = arith.constant dense<0.0> : tensor<32x32xf32>
    %r:2 = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero, %acc2 = %zero2) -> (tensor<128x256xf32>, tensor<32x32xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      %tx = tile.load %x[%m0, %kk] : memref<?x?xbf16> -> tensor<32x64xbf16>
      %ty = tile.load %y[%kk, %n0] : memref<?x?xbf16> -> tensor<64x32xbf16>
      %d2 = tile.dot %tx, %ty, %acc2 : tensor<32x64xbf16>, tensor<64x32xbf16>, tensor<32x32xf32>
      scf.yield %d, %d2 : tensor<128x256xf32>, tensor<32x32xf32>
    } {tile.stages = 3 : i64}
    tile.store %r#0, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    tile.store %r#1, %e[%m0, %n0] : tensor<32x32xf32>, memref<?x?xf32>
    gpu.return
  }
}
// -----

// 256x128 on 8 warps: each warpgroup owns 128 rows (two m64 instructions,
// #tilegpu.mma strided_rows), so the operands are swizzled panels too: A
// as 1 panel of 256 rows, B as 2 panels of 64 rows.
// CHECK-LABEL: gpu.func @warpgroup_owns_128_rows(
// CHECK: memref.view {{.*}} to memref<4x1x256x64xbf16, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<4x2x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.load %{{.*}}[] : {{.*}} -> tensor<256x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
gpu.module @m {
  gpu.func @warpgroup_owns_128_rows(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<256x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<256x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<256x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<256x64xbf16>, tensor<64x128xbf16>, tensor<256x128xf32>
      scf.yield %d : tensor<256x128xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<256x128xf32>, memref<?x?xf32>
    gpu.return
  }
}
