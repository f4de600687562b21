// RUN: tilec-opt %s -pass-pipeline='builtin.module(gpu.module(tile-tensor-map-params))' | FileCheck %s

// The trailing parameters tile.tensor_maps lists become 128-byte by-value
// grid constants; the others are untouched.
// CHECK-LABEL: llvm.func @mm(
// CHECK-SAME: %{{[^:]*}}: i64,
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-LABEL: llvm.func @plain(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr)
// CHECK-NOT: grid_constant
gpu.module @m {
  llvm.func @mm(%n: i64, %ta: !llvm.ptr, %tb: !llvm.ptr) attributes {nvvm.kernel, tile.tensor_maps = [array<i64: 0, 64, 128, 128>, array<i64: 1, 64, 64, 128>]} {
    llvm.return
  }
  llvm.func @plain(%p: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}
