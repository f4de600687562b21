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
