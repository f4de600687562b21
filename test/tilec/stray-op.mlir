// An op directly in a gpu.module, outside every function, gets a located
// error; it crashed the translation to LLVM IR (found by tilec-fuzz).
// `not` fails on a crash: it passes only for exit code 1.
// RUN: not tilec %s -o %t.cubin 2>&1 | FileCheck %s

gpu.module @m {
  // CHECK: stray-op.mlir:[[# @LINE + 1]]:3: error: 'gpu.barrier' op cannot stand directly in a gpu.module: only functions and globals can
  gpu.barrier
  gpu.func @k(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}
