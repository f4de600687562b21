// A global in an address space PTX has no state space for gets a located
// error (LLVM's NVPTX printer aborted on it at -O0; a fuzzer find).
// RUN: not tilec %s -O0 --emit=ptx -o %t.ptx 2>&1 | FileCheck %s
// CHECK: global-address-space.mlir:[[@LINE+2]]:3: error: 'llvm.mlir.global' op address space 6 has no PTX state space for a global: use 1 (global), 3 (shared) or 4 (constant)
gpu.module @others {
  llvm.mlir.global internal @staged() {addr_space = 6 : i32, alignment = 16 : i64} : !llvm.array<64 x i8>
  llvm.mlir.global internal @empty_global() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
}
