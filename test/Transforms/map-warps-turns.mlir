// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' | FileCheck %s

// Two warpgroups take turns on named barriers 2 (the first's) and 3 (the
// second's), each completed by 256 threads: `take` waits on the barrier of
// the thread's warpgroup (2 + tid / 128), `pass` arrives on the next one's
// ((tid / 128 + 1) mod 2), and `open` and `close` are the first
// warpgroup's arrival on, and wait at, its own barrier.
// CHECK-LABEL: gpu.func @two_warpgroups(
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128
// CHECK: %[[WG32:.*]] = arith.index_castui %[[WG]] : index to i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[WG32]], %c0_i32
// CHECK: scf.if %[[FIRST]] {
// CHECK:   nvvm.barrier.arrive id = %c2_i32 number_of_threads = %c256_i32
// CHECK: }
// CHECK: scf.for
// CHECK:   %[[TAKE:.*]] = arith.addi %{{.*}}, %c2_i32
// CHECK:   nvvm.barrier id = %[[TAKE]] number_of_threads = %c256_i32
// CHECK:   %[[NEXT:.*]] = arith.addi %{{.*}}, %c1_i32
// CHECK:   %[[WRAPPED:.*]] = arith.remui %[[NEXT]], %c2_i32
// CHECK:   %[[PASS:.*]] = arith.addi %[[WRAPPED]], %c2_i32
// CHECK:   nvvm.barrier.arrive id = %[[PASS]] number_of_threads = %c256_i32
// CHECK: }
// CHECK: scf.if %{{.*}} {
// CHECK:   nvvm.barrier id = %c2_i32 number_of_threads = %c256_i32
// CHECK: }
// CHECK-NOT: tilegpu.turn
gpu.module @m {
  gpu.func @two_warpgroups(%n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tilegpu.turn open
    scf.for %i = %c0 to %n step %c1 {
      tilegpu.turn take
      tilegpu.turn pass
    }
    tilegpu.turn close
    gpu.return
  }
}

// -----

// Four warpgroups: the last passes the turn back to the first (mod 4).
// CHECK-LABEL: gpu.func @four_warpgroups(
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %c1_i32
// CHECK: arith.remui %[[NEXT]], %c4_i32
// CHECK: nvvm.barrier.arrive
gpu.module @m {
  gpu.func @four_warpgroups() kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    tilegpu.turn pass
    gpu.return
  }
}

// -----

// One warpgroup always has the turn: nothing is left of the steps.
// CHECK-LABEL: gpu.func @one_warpgroup(
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: tilegpu.turn
// CHECK: gpu.return
gpu.module @m {
  gpu.func @one_warpgroup() kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    tilegpu.turn open
    tilegpu.turn take
    tilegpu.turn pass
    tilegpu.turn close
    gpu.return
  }
}

// -----

// With groups, the groups take the turns (here two of 128 threads, each a
// warpgroup): `take` waits on 2 + group, `pass` arrives on 2 + (group + 1)
// mod 2, over both groups' 256 threads. Closing after %n turns, the group
// whose turn it is then (%n mod 2) takes back the turn passed to it.
// CHECK-LABEL: gpu.func @groups(
// CHECK-SAME: known_block_size = array<i32: 288, 1, 1>
// CHECK: %[[G32:.*]] = arith.divui %{{.*}}, %c4_i32 : i32
// CHECK: %[[G:.*]] = arith.index_castui %[[G32]] : i32 to index
// CHECK: scf.if
// CHECK: %[[GT:.*]] = arith.index_castui %[[G]] : index to i32
// CHECK: %[[TAKE:.*]] = arith.addi %[[GT]], %c2_i32
// CHECK: nvvm.barrier id = %[[TAKE]] number_of_threads = %c256_i32
// CHECK: %[[GP:.*]] = arith.index_castui %[[G]] : index to i32
// CHECK: %[[NEXT:.*]] = arith.addi %[[GP]], %c1_i32
// CHECK: %[[WRAPPED:.*]] = arith.remui %[[NEXT]], %c2_i32
// CHECK: %[[PASS:.*]] = arith.addi %[[WRAPPED]], %c2_i32
// CHECK: nvvm.barrier.arrive id = %[[PASS]] number_of_threads = %c256_i32
// CHECK: %[[GC:.*]] = arith.index_castui %[[G]] : index to i32
// CHECK: %[[HOLDER:.*]] = arith.remui %arg0, %c2
// CHECK: %[[HOLDER32:.*]] = arith.index_castui %[[HOLDER]] : index to i32
// CHECK: %[[OWN:.*]] = arith.addi %[[HOLDER32]], %c2_i32
// CHECK: %[[HOLDS:.*]] = arith.cmpi eq, %[[GC]], %[[HOLDER32]] : i32
// CHECK: scf.if %[[HOLDS]] {
// CHECK:   nvvm.barrier id = %[[OWN]] number_of_threads = %c256_i32
// CHECK: }
gpu.module @m {
  gpu.func @groups(%n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    tilegpu.warp_roles producer {
    } consumers {
      tilegpu.turn take
      tilegpu.turn pass
      tilegpu.turn close after %n
    } {groups = 2 : i64}
    gpu.return
  }
}
