// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-extern-dynamic-shared))' | FileCheck %s

// The dynamic shared memory symbol the GPU to NVVM conversion makes
// becomes external (PTX: .extern .shared, after the static buffers) and
// 1024-byte aligned.
// CHECK-LABEL: gpu.module @m
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
gpu.module @m {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
}

// -----

// Static shared buffers, and zero-length arrays elsewhere, stay as they are.
// CHECK-LABEL: gpu.module @others
// CHECK: llvm.mlir.global internal @staged() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
// CHECK: llvm.mlir.global internal @empty_global() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
gpu.module @others {
  llvm.mlir.global internal @staged() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
  llvm.mlir.global internal @empty_global() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
}
