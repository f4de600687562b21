// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-select-kernels{main-only}))' | FileCheck %s --check-prefix=MAIN
// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-select-kernels))' | FileCheck %s --check-prefix=ALL

// A matmul's main kernel, its twin, its small-grid kernel and that one's
// twin. main-only keeps @mm, still naming its variants; without options
// every kernel stays.
// MAIN-LABEL: gpu.module @variants
// MAIN: gpu.func @mm(
// MAIN-SAME: tile.fallback = @mm__thread_copies
// MAIN-SAME: tile.small_grid = {kernel = @mm__small_grid
// MAIN-NOT: gpu.func
// ALL-LABEL: gpu.module @variants
// ALL-COUNT-4: gpu.func
gpu.module @variants {
  gpu.func @mm(%a: memref<?xf32>) kernel
      attributes {tile.fallback = @mm__thread_copies,
                  tile.small_grid = {kernel = @mm__small_grid, percent_of_sms = 50 : i64}} {
    gpu.return
  }
  gpu.func @mm__thread_copies(%a: memref<?xf32>) kernel {
    gpu.return
  }
  gpu.func @mm__small_grid(%a: memref<?xf32>) kernel
      attributes {tile.fallback = @mm__small_grid__thread_copies} {
    gpu.return
  }
  gpu.func @mm__small_grid__thread_copies(%a: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

// A narrow variant and the kernel it names by tile.then: main-only erases
// both (the combine follows only the decode kernel); keeping the variant
// keeps its then kernel. A then kernel of a main kernel stays with it.
// MAIN-LABEL: gpu.module @then
// MAIN: gpu.func @attn(
// MAIN: gpu.func @attn__combine(
// MAIN-NOT: gpu.func
// ALL-LABEL: gpu.module @then
// ALL-COUNT-4: gpu.func
gpu.module @then {
  gpu.func @attn(%a: memref<?xf32>) kernel
      attributes {tile.narrow = {kernel = @attn__decode, operand = 0 : i64, dim = 0 : i64, at_most = 16 : i64},
                  tile.then = @attn__combine} {
    gpu.return
  }
  gpu.func @attn__combine(%a: memref<?xf32>) kernel {
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

// -----

// Every line of an array of narrow lines names a variant: main-only erases
// both.
// MAIN-LABEL: gpu.module @narrow_lines
// MAIN: gpu.func @mm(
// MAIN-NOT: gpu.func
// ALL-LABEL: gpu.module @narrow_lines
// ALL-COUNT-3: gpu.func
gpu.module @narrow_lines {
  gpu.func @mm(%a: memref<?x?xf32>) kernel
      attributes {tile.narrow = [{kernel = @mm__columns, operand = 0 : i64, dim = 1 : i64, at_most = 2 : i64},
                                 {kernel = @mm__rows, operand = 0 : i64, dim = 0 : i64, at_most = 2 : i64}]} {
    gpu.return
  }
  gpu.func @mm__columns(%a: memref<?x?xf32>) kernel {
    gpu.return
  }
  gpu.func @mm__rows(%a: memref<?x?xf32>) kernel {
    gpu.return
  }
}
