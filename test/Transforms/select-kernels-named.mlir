// RUN: tilec-opt %s -pass-pipeline='builtin.module(gpu.module(tile-select-kernels{kernels=mm__small_grid,attn__decode}))' | FileCheck %s

// Named kernels stay, with the kernel each names by tile.then; every other
// kernel goes, their own variants too (the runtime asks for them by name).
// CHECK-LABEL: gpu.module @named
// CHECK-NOT: gpu.func @mm(
// CHECK: gpu.func @mm__small_grid(
// CHECK-SAME: tile.fallback = @mm__small_grid__thread_copies
// CHECK-NOT: gpu.func @mm__small_grid__thread_copies
// CHECK-NOT: gpu.func @attn(
// CHECK: gpu.func @attn__decode(
// CHECK: gpu.func @attn__decode_combine(
// CHECK-NOT: gpu.func
gpu.module @named {
  gpu.func @mm(%a: memref<?xf32>) kernel
      attributes {tile.small_grid = {kernel = @mm__small_grid, percent_of_sms = 50 : i64}} {
    gpu.return
  }
  gpu.func @mm__small_grid(%a: memref<?xf32>) kernel
      attributes {tile.fallback = @mm__small_grid__thread_copies} {
    gpu.return
  }
  gpu.func @mm__small_grid__thread_copies(%a: memref<?xf32>) kernel {
    gpu.return
  }
  gpu.func @attn(%a: memref<?xf32>) kernel
      attributes {tile.narrow = {kernel = @attn__decode, operand = 0 : i64, dim = 0 : i64, at_most = 16 : i64}} {
    gpu.return
  }
  gpu.func @attn__decode(%a: memref<?xf32>) kernel
      attributes {tile.then = @attn__decode_combine} {
    gpu.return
  }
  gpu.func @attn__decode_combine(%a: memref<?xf32>) kernel {
    gpu.return
  }
}
