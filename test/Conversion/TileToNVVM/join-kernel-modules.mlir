// RUN: tilec-opt %s -split-input-file -tile-join-kernel-modules | FileCheck %s

// The parts' ops in order; a declaration that every part made (of a
// libdevice function, of the dynamic shared memory) is kept once, and a
// declaration gives way to the definition another part holds.
// CHECK-LABEL: gpu.module @m {
// CHECK-NEXT: llvm.mlir.global external @__dynamic_shmem__0()
// CHECK-NEXT: llvm.func @__nv_expf(f32) -> f32
// CHECK-NEXT: llvm.func @a()
// CHECK: llvm.func @b()
// CHECK: llvm.func @helper()
// CHECK-NEXT: llvm.return
// CHECK-NOT: @helper
// CHECK-NOT: gpu.module
gpu.module @m attributes {tilec.part_of = "m"} {
  llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @helper()
  llvm.func @a() attributes {nvvm.kernel} {
    llvm.call @helper() : () -> ()
    llvm.return
  }
}
gpu.module @m_0 attributes {tilec.part_of = "m"} {
  llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @b() attributes {nvvm.kernel} {
    llvm.return
  }
  llvm.func @helper() {
    llvm.return
  }
}

// -----

// The symbols go back in the order the first part lists; what the
// lowering declared comes first.
// CHECK-LABEL: gpu.module @ordered {
// CHECK-NEXT: llvm.func @__nv_expf(f32) -> f32
// CHECK-NEXT: llvm.func @a()
// CHECK: llvm.func @b()
// CHECK: llvm.func @c()
gpu.module @ordered attributes {tilec.part_of = "ordered", tilec.symbol_order = ["a", "b", "c"]} {
  llvm.func @c() attributes {nvvm.kernel} {
    llvm.return
  }
  llvm.func @a() attributes {nvvm.kernel} {
    llvm.return
  }
}
gpu.module @ordered_0 attributes {tilec.part_of = "ordered"} {
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @b() attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

// Modules that no split made are left alone.
// CHECK-LABEL: gpu.module @whole {
// CHECK: gpu.module @other {
gpu.module @whole {
}
gpu.module @other {
}
