// REQUIRES: ptxas
// A module's kernels become PTX in partitions that one ptxas run
// assembles (tile-module-to-cubin): every kernel and its launch metadata
// end in the one cubin, and a function that two kernels call (public in
// PTX, so those kernels share a partition) is defined once, while the
// dynamic shared memory that k4 and k5 address (an extern declaration in
// PTX) is declared in each of their partitions, which stay apart. Threads
// change nothing in the cubin, nor does verifying after every pass.
// RUN: tilec %s -o %t.cubin
// RUN: tilec-cubin-info %t.cubin | FileCheck %s
// RUN: tilec %s -o %t.serial.cubin --mlir-disable-threading
// RUN: cmp %t.cubin %t.serial.cubin
// RUN: tilec %s -o %t.verified.cubin --verify-each
// RUN: cmp %t.cubin %t.verified.cubin

// CHECK-DAG: k1 {{.*}} 32 threads / ceil(dim0(arg0)/4)
// CHECK-DAG: k2 {{.*}} 32 threads / ceil(dim0(arg0)/4)
// CHECK-DAG: k3 {{.*}} 32 threads / ceil(dim0(arg0)/4)
// CHECK-DAG: k4 {{.*}} 32 threads / ceil(dim0(arg0)/4)
// CHECK-DAG: k5 {{.*}} 32 threads / ceil(dim0(arg0)/4)

gpu.module @tilec_kernels {
  func.func @twice(%v: f32) -> f32 {
    %r = arith.addf %v, %v : f32
    return %r : f32
  }
  gpu.func @k1(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>]} {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xf32>
    %r = func.call @twice(%v) : (f32) -> f32
    memref.store %r, %x[%c0] : memref<?xf32>
    gpu.return
  }
  gpu.func @k2(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>]} {
    %c1 = arith.constant 1 : index
    %v = memref.load %x[%c1] : memref<?xf32>
    %r = func.call @twice(%v) : (f32) -> f32
    memref.store %r, %x[%c1] : memref<?xf32>
    gpu.return
  }
  gpu.func @k3(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>]} {
    %c2 = arith.constant 2 : index
    %v = memref.load %x[%c2] : memref<?xf32>
    memref.store %v, %x[%c2] : memref<?xf32>
    gpu.return
  }
  gpu.func @k4(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>]} {
    %c0 = arith.constant 0 : index
    %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %staged = memref.view %bytes[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
        to memref<4xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%c0] : memref<?xf32>
    memref.store %v, %staged[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    %w = memref.load %staged[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %w, %x[%c0] : memref<?xf32>
    gpu.return
  }
  gpu.func @k5(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %bytes = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %staged = memref.view %bytes[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
        to memref<4xf32, #gpu.address_space<workgroup>>
    %v = memref.load %x[%c3] : memref<?xf32>
    memref.store %v, %staged[%c3] : memref<4xf32, #gpu.address_space<workgroup>>
    %w = memref.load %staged[%c3] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %w, %x[%c3] : memref<?xf32>
    gpu.return
  }
}
