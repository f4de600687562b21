// RUN: tilec-opt %s -split-input-file -tile-split-kernel-modules | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-split-kernel-modules -tile-join-kernel-modules | FileCheck %s --check-prefix=JOIN

// One module a kernel, the heaviest first: it keeps the name, what no
// kernel reaches (the launch metadata) and the order of the symbols; a
// private helper is copied into each part that calls it. Joined, the
// module is whole again, in its order, the helper once.
// CHECK-LABEL: gpu.module @tilec_kernels attributes {tilec.part_of = "tilec_kernels", tilec.symbol_order = ["twice", "__tilec_launch_a", "__tilec_launch_c", "a", "b", "c"]}
// CHECK-NEXT: llvm.mlir.global external constant @__tilec_launch_a
// CHECK-NEXT: llvm.mlir.global external constant @__tilec_launch_c
// CHECK-NEXT: gpu.func @c
// CHECK: gpu.module @tilec_kernels_0 attributes {tilec.part_of = "tilec_kernels"}
// CHECK-NEXT: func.func private @twice
// CHECK: gpu.func @a
// CHECK: gpu.module @tilec_kernels_1 attributes {tilec.part_of = "tilec_kernels"}
// CHECK-NEXT: func.func private @twice
// CHECK: gpu.func @b

// JOIN-LABEL: gpu.module @tilec_kernels {
// JOIN-NEXT: func.func private @twice
// JOIN: llvm.mlir.global external constant @__tilec_launch_a
// JOIN-NEXT: llvm.mlir.global external constant @__tilec_launch_c
// JOIN-NEXT: gpu.func @a
// JOIN-NOT: func.func private @twice
// JOIN: gpu.func @b
// JOIN-NOT: gpu.module
// JOIN: gpu.func @c
gpu.module @tilec_kernels {
  func.func private @twice(%v: f32) -> f32 {
    %r = arith.addf %v, %v : f32
    return %r : f32
  }
  llvm.mlir.global external constant @__tilec_launch_a("a") {addr_space = 1 : i32}
  llvm.mlir.global external constant @__tilec_launch_c("c") {addr_space = 1 : i32}
  gpu.func @a(%x: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<?xf32>
    %r = func.call @twice(%v) : (f32) -> f32
    memref.store %r, %x[%c0] : memref<?xf32>
    gpu.return
  }
  gpu.func @b(%x: memref<?xf32>) kernel {
    %c1 = arith.constant 1 : index
    %v = memref.load %x[%c1] : memref<?xf32>
    %r = func.call @twice(%v) : (f32) -> f32
    memref.store %r, %x[%c1] : memref<?xf32>
    gpu.return
  }
  gpu.func @c(%x: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %v0 = memref.load %x[%c0] : memref<?xf32>
    %v1 = memref.load %x[%c1] : memref<?xf32>
    %s = arith.addf %v0, %v1 : f32
    memref.store %s, %x[%c2] : memref<?xf32>
    gpu.return
  }
}

// -----

// Kernels that call one public function stay together, with it: one part,
// so the module stays as it is.
// CHECK-LABEL: gpu.module @shared {
// CHECK-NEXT: func.func @helper
// CHECK: gpu.func @a
// CHECK: gpu.func @b
// CHECK-NOT: gpu.module
gpu.module @shared {
  func.func @helper() {
    return
  }
  gpu.func @a() kernel {
    func.call @helper() : () -> ()
    gpu.return
  }
  gpu.func @b() kernel {
    func.call @helper() : () -> ()
    gpu.return
  }
}

// -----

// A module of one kernel stays as it is.
// CHECK-LABEL: gpu.module @single {
// CHECK-NEXT: gpu.func @a
gpu.module @single {
  gpu.func @a() kernel {
    gpu.return
  }
}
