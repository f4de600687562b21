// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-element-copy-fallback))' | FileCheck %s

// Vectorised copies from two arguments (through a subview): the kernel lists
// both in tile.aligned_args and falls back to a twin that copies element by
// element where needed; the twin names no narrow or small-grid kernel.
// CHECK-LABEL: gpu.module @m
// CHECK: gpu.func @mm({{.*}}) kernel attributes {{{.*}}tile.aligned_args = array<i64: 0, 1>, tile.fallback = @mm__element_copies, tile.small_grid = {kernel = @mm_small
// CHECK: gpu.func @mm__element_copies({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, tile.element_copies}
// CHECK: tilegpu.copy_async %arg1{{.*}}vector_bytes = 16
gpu.module @m {
  gpu.func @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>,
                  tile.small_grid = {kernel = @mm_small, percent_of_sms = 50 : i64}} {
    %sa = memref.alloca() : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %sb = memref.alloca() : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %view = memref.subview %a[0, 0] [64, 64] [1, 1] : memref<?x?xbf16> to memref<64x64xbf16, strided<[?, 1]>>
    tilegpu.copy_async %b[%i, %i], %sb {vector_bytes = 16} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %view[%i, %i], %sa {vector_bytes = 8} : memref<64x64xbf16, strided<[?, 1]>>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tilegpu.async_commit
    gpu.return
  }
}

// -----

// A kernel with a fallback already (a bulk-copy kernel) only lists its
// arguments: the runtime hands misaligned ones to its fallback.
// CHECK-LABEL: gpu.module @m
// CHECK: gpu.func @mm({{.*}}) kernel attributes {{{.*}}tile.aligned_args = array<i64: 0>, tile.fallback = @mm__thread_copies}
// CHECK-NOT: __element_copies
gpu.module @m {
  gpu.func @mm(%a: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.fallback = @mm__thread_copies} {
    %sa = memref.alloca() : memref<64x64xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %sa {vector_bytes = 16} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Copies without vectors have no faster path to keep apart: no twin.
// CHECK-LABEL: gpu.module @m
// CHECK-NOT: tile.aligned_args
// CHECK-NOT: __element_copies
gpu.module @m {
  gpu.func @k(%a: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %sa = memref.alloca() : memref<64x63xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %sa : memref<?x?xbf16>, memref<64x63xbf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A copy from a buffer that is not a view of an argument (its alignment
// cannot be checked at launch): the kernel keeps every path itself.
// CHECK-LABEL: gpu.module @m
// CHECK-NOT: tile.aligned_args
// CHECK-NOT: __element_copies
gpu.module @m {
  gpu.func @k(%a: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %g = memref.alloc(%i, %i) : memref<?x?xbf16>
    %sa = memref.alloca() : memref<64x64xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %sa {vector_bytes = 16} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %g[%i, %i], %sa {vector_bytes = 16} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A kernel that is itself an element-copy twin is left alone.
// CHECK-LABEL: gpu.module @m
// CHECK: gpu.func @k__element_copies({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, tile.element_copies}
// CHECK-NOT: __element_copies__element_copies
gpu.module @m {
  gpu.func @k__element_copies(%a: memref<?x?xbf16>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, tile.element_copies} {
    %sa = memref.alloca() : memref<64x64xbf16, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %sa {vector_bytes = 16} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// f32 copies need no twin: a 4-byte cp.async moves one element.
// CHECK-LABEL: gpu.module @m
// CHECK-NOT: tile.aligned_args
// CHECK-NOT: __element_copies
gpu.module @m {
  gpu.func @sgemm(%a: memref<?x?xf32>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %sa = memref.alloca() : memref<64x32xf32, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%i, %i], %sa {vector_bytes = 16} : memref<?x?xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
