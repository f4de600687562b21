// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-reuse-staged-memory)))' | FileCheck %s

#wg = #gpu.address_space<workgroup>

// A buffer used only after the loop that reads the staged slots becomes a
// view at the start of dynamic shared memory; the attribution goes, a block
// barrier separates the loop's last reads from the buffer's first write,
// and the dynamic bytes stay (the buffer is smaller than the slots).
// CHECK-LABEL: gpu.func @after_loop(
// CHECK-NOT: workgroup(
// CHECK-SAME: tile.dynamic_shared_bytes = 8192 : i64
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[BUF:.*]] = memref.view %[[BASE]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<2048xf32, #gpu.address_space<workgroup>>
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store %{{.*}}, %[[BUF]][%{{.*}}]
// CHECK-NEXT: memref.load %[[BUF]]
gpu.module @m {
  gpu.func @after_loop(%out: memref<?xf32>, %i: index, %n: index) workgroup(%x : memref<256xf32, #wg>) kernel
      attributes {tile.dynamic_shared_bytes = 8192 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #wg>
    %slots = memref.view %base[%c0][] : memref<?xi8, #wg> to memref<2048xf32, #wg>
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %slots[%k] : memref<2048xf32, #wg>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    memref.store %sum, %x[%i] : memref<256xf32, #wg>
    %r = memref.load %x[%c0] : memref<256xf32, #wg>
    memref.store %r, %out[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// A barrier already between the slots' last use and the buffer's first is
// enough; buffers larger than the slots grow the dynamic bytes; several
// buffers take consecutive 16-byte-aligned places.
// CHECK-LABEL: gpu.func @two_buffers(
// CHECK-NOT: workgroup(
// CHECK-SAME: tile.dynamic_shared_bytes = 8224 : i64
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.view %{{.*}}[%[[C0]]][] : {{.*}} to memref<3xf32, #gpu.address_space<workgroup>>
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: memref.view %{{.*}}[%[[C16]]][] : {{.*}} to memref<2052xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @m {
  gpu.func @two_buffers(%i: index) workgroup(%x : memref<3xf32, #wg>, %y : memref<2052xf32, #wg>) kernel
      attributes {tile.dynamic_shared_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #wg>
    %slots = memref.view %base[%c0][] : memref<?xi8, #wg> to memref<256xf32, #wg>
    %v = memref.load %slots[%i] : memref<256xf32, #wg>
    gpu.barrier
    memref.store %v, %x[%c0] : memref<3xf32, #wg>
    memref.store %v, %y[%i] : memref<2052xf32, #wg>
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// A buffer used before the slots' last use stays where it is.
// CHECK-LABEL: gpu.func @used_before(
// CHECK-SAME: workgroup(
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @used_before(%i: index) workgroup(%x : memref<4xf32, #wg>) kernel
      attributes {tile.dynamic_shared_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #wg>
    %slots = memref.view %base[%c0][] : memref<?xi8, #wg> to memref<256xf32, #wg>
    %v = memref.load %x[%c0] : memref<4xf32, #wg>
    memref.store %v, %slots[%i] : memref<256xf32, #wg>
    %w = memref.load %slots[%c0] : memref<256xf32, #wg>
    memref.store %w, %x[%c0] : memref<4xf32, #wg>
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// A buffer used in a loop stays: the loop's next iteration could stage
// into the slots again (a persistent kernel's next tile).
// CHECK-LABEL: gpu.func @in_loop(
// CHECK-SAME: workgroup(
gpu.module @m {
  gpu.func @in_loop(%i: index, %n: index) workgroup(%x : memref<4xf32, #wg>) kernel
      attributes {tile.dynamic_shared_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #wg>
    %slots = memref.view %base[%c0][] : memref<?xi8, #wg> to memref<256xf32, #wg>
    %v = memref.load %slots[%i] : memref<256xf32, #wg>
    gpu.barrier
    scf.for %k = %c0 to %n step %c1 {
      memref.store %v, %x[%c0] : memref<4xf32, #wg>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// A warpgroup MMA's wait after the buffer's first use may still let the
// MMA read the slots: the buffer stays.
// CHECK-LABEL: gpu.func @wait_after(
// CHECK-SAME: workgroup(
gpu.module @m {
  gpu.func @wait_after(%i: index) workgroup(%x : memref<4xf32, #wg>) kernel
      attributes {tile.dynamic_shared_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #wg>
    %slots = memref.view %base[%c0][] : memref<?xi8, #wg> to memref<256xf32, #wg>
    %v = memref.load %slots[%i] : memref<256xf32, #wg>
    gpu.barrier
    memref.store %v, %x[%c0] : memref<4xf32, #wg>
    nvvm.wgmma.wait.group.sync.aligned 0
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// Uses inside a branch with no block barrier of its own: the barrier goes
// before the branch, in the block that holds the slots' last use.
// CHECK-LABEL: gpu.func @in_branch(
// CHECK-NOT: workgroup(
// CHECK: memref.load %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @m {
  gpu.func @in_branch(%i: index, %p: i1) workgroup(%x : memref<4xf32, #wg>) kernel
      attributes {tile.dynamic_shared_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %base = gpu.dynamic_shared_memory : memref<?xi8, #wg>
    %slots = memref.view %base[%c0][] : memref<?xi8, #wg> to memref<256xf32, #wg>
    %v = memref.load %slots[%i] : memref<256xf32, #wg>
    scf.if %p {
      memref.store %v, %x[%c0] : memref<4xf32, #wg>
    }
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// Without staged slots (no tile.dynamic_shared_bytes) nothing moves.
// CHECK-LABEL: gpu.func @no_slots(
// CHECK-SAME: workgroup(
gpu.module @m {
  gpu.func @no_slots(%i: index) workgroup(%x : memref<4xf32, #wg>) kernel {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %x[%c0] : memref<4xf32, #wg>
    gpu.return
  }
}

// -----

#wg = #gpu.address_space<workgroup>

// With warp roles the tile threads meet by named barriers; the producer
// warp would never reach a block barrier put in for them: nothing moves.
// CHECK-LABEL: gpu.func @named_barriers(
// CHECK-SAME: workgroup(
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @named_barriers(%i: index) workgroup(%x : memref<4xf32, #wg>) kernel
      attributes {tile.dynamic_shared_bytes = 1024 : i64} {
    %c0 = arith.constant 0 : index
    %id = arith.constant 1 : i32
    %count = arith.constant 256 : i32
    %base = gpu.dynamic_shared_memory : memref<?xi8, #wg>
    %slots = memref.view %base[%c0][] : memref<?xi8, #wg> to memref<256xf32, #wg>
    %v = memref.load %slots[%i] : memref<256xf32, #wg>
    nvvm.barrier id = %id number_of_threads = %count
    memref.store %v, %x[%c0] : memref<4xf32, #wg>
    gpu.return
  }
}
