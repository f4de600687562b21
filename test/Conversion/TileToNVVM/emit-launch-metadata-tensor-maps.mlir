// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-emit-launch-metadata))' | FileCheck %s

// Trailing tensor-map parameters (tile.tensor_maps) are not user
// parameters: the metadata lists them on their own line, with the buffer
// each describes, its box and swizzle; tile.fallback names the fallback.
// CHECK: @__tilec_launch_mm("tilec-launch 1\0Akernel mm\0Aparams buffer:bf16:2:?,1 buffer:bf16:2:?,1 buffer:f32:2:?,1\0Atensormaps 0:64x128:128 1:64x64:128\0Afallback mm__thread_copies\0Ablock 256 1 1\0Agrid 2.0/128 - -\0Ashared 197664\0A\00")
gpu.module @tilec_kernels {
  gpu.func @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %ta: !llvm.ptr, %tb: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 2, dim = 0, per_program = 128>],
                  tile.dynamic_shared_bytes = 197664 : i64,
                  tile.fallback = @mm__thread_copies,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>, array<i64: 1, 64, 64, 128>]} {
    gpu.return
  }
}

// -----

// A box dimension fitted at launch (a fifth element) follows its entry's
// swizzle as fitD.
// CHECK-LABEL: @__tilec_launch_mm_fitted
// CHECK-SAME: tensormaps 0:64x64:128:fit1 1:64x64:128\0A
gpu.module @tilec_kernels {
  gpu.func @mm_fitted(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %ta: !llvm.ptr, %tb: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 2, dim = 0, per_program = 64>],
                  tile.tensor_maps = [array<i64: 0, 64, 64, 128, 1>, array<i64: 1, 64, 64, 128>]} {
    gpu.return
  }
}

// -----

// tile.repitch_args becomes the repitch line, ARG:AXIS:MIN with the axis
// as a letter, before the fallback line it comes with.
// CHECK-LABEL: @__tilec_launch_mm_repitch
// CHECK-SAME: tensormaps 0:64x128:128 1:64x64:128\0Arepitch 0:x:2 1:y:3\0Afallback mm_repitch__thread_copies\0A
gpu.module @tilec_kernels {
  gpu.func @mm_repitch(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %ta: !llvm.ptr, %tb: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 2, dim = 0, per_program = 128>],
                  tile.fallback = @mm_repitch__thread_copies,
                  tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 1, 1, 3>],
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>, array<i64: 1, 64, 64, 128>]} {
    gpu.return
  }
}

// -----

// A written entry (axis -1) becomes ARG:out, or ARG:inout where the kernel
// reads the buffer first (1).
// CHECK-LABEL: @__tilec_launch_mm_written
// CHECK-SAME: tensormaps 0:64x128:128 2:64x8:128\0Arepitch 0:x:2 2:out\0Afallback
gpu.module @tilec_kernels {
  gpu.func @mm_written(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %ta: !llvm.ptr, %tc: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 2, dim = 0, per_program = 128>],
                  tile.fallback = @mm_written__thread_copies,
                  tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 2, -1, 0>],
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>, array<i64: 2, 64, 8, 128>]} {
    gpu.return
  }
}

// -----

// A kernel whose every buffer the runtime copies has no fallback: the
// repitch line stands alone, and a launch no copy mends is refused.
// CHECK-LABEL: @__tilec_launch_mm_copied
// CHECK-SAME: tensormaps 0:64x128:128 1:64x8:128\0Arepitch 0:x:1 1:out\0Ablock
gpu.module @tilec_kernels {
  gpu.func @mm_copied(%a: memref<?x?xbf16>, %c: memref<?x?xbf16>, %ta: !llvm.ptr, %tc: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 1, dim = 0, per_program = 128>],
                  tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, -1, 0>],
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>, array<i64: 1, 64, 8, 128>]} {
    gpu.return
  }
}

// -----

// CHECK-LABEL: @__tilec_launch_mm_accumulated
// CHECK-SAME: tensormaps 0:64x128:128 2:64x8:128\0Arepitch 0:x:2 2:inout\0Afallback
gpu.module @tilec_kernels {
  gpu.func @mm_accumulated(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %ta: !llvm.ptr, %tc: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 2, dim = 0, per_program = 128>],
                  tile.fallback = @mm_accumulated__thread_copies,
                  tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 2, -1, 1>],
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>, array<i64: 2, 64, 8, 128>]} {
    gpu.return
  }
}

// -----

// tile.small_grid becomes the smallgrid line, after the fallback.
// CHECK: @__tilec_launch_big("tilec-launch 1\0Akernel big\0Aparams buffer:f32:1:1\0Asmallgrid big__small_grid 50\0Ablock 64 1 1\0Agrid 0.0/256 - -\0Ashared 0\0A\00")
gpu.module @tilec_kernels {
  gpu.func @big(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.small_grid = {kernel = @big__small_grid, percent_of_sms = 50 : i64}} {
    gpu.return
  }
}

// -----

// tile.narrow becomes the narrow line, after the smallgrid line.
// CHECK: @__tilec_launch_rows("tilec-launch 1\0Akernel rows\0Aparams buffer:f32:2:?,1\0Asmallgrid rows__small_grid 100\0Anarrow rows__rows_64 0.1 64\0Ablock 64 1 1\0Agrid 0.0/1 - -\0Ashared 0\0A\00")
gpu.module @tilec_kernels {
  gpu.func @rows(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                  tile.small_grid = {kernel = @rows__small_grid, percent_of_sms = 100 : i64},
                  tile.narrow = {kernel = @rows__rows_64, operand = 0, dim = 1, at_most = 64}} {
    gpu.return
  }
}

// -----

// An array of tile.narrow lines becomes narrow lines in its order (a
// matmul's on C's columns, then on its rows).
// CHECK: @__tilec_launch_mm("tilec-launch 1\0Akernel mm\0Aparams buffer:f32:2:?,1 buffer:f32:2:?,1 buffer:f32:2:?,1\0Anarrow mm__small 2.1 128\0Anarrow mm__rows 2.0 4\0Ablock 64 1 1\0Agrid 2.0/1 - -\0Ashared 0\0A\00")
gpu.module @tilec_kernels {
  gpu.func @mm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 2, dim = 0, per_program = 1>],
                  tile.narrow = [{kernel = @mm__small, operand = 2, dim = 1, at_most = 128},
                                 {kernel = @mm__rows, operand = 2, dim = 0, at_most = 4}]} {
    gpu.return
  }
}

// -----

// A tile.narrow without dim chooses on the value of an integer scalar (the
// longest packed query sequence): the narrow line names the argument alone,
// with no .DIM.
// CHECK: @__tilec_launch_packed("tilec-launch 1\0Akernel packed\0Aparams buffer:bf16:3:?,?,1 buffer:i32:1:1 scalar:i32\0Anarrow packed__decode 2 16\0Ablock 128 1 1\0Agrid 0.0/64 - -\0Ashared 0\0A\00")
gpu.module @tilec_kernels {
  gpu.func @packed(%q: memref<?x?x?xbf16>, %cu: memref<?xi32>, %max_q: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 64>],
                  tile.narrow = {kernel = @packed__decode, operand = 2 : i64, at_most = 16 : i64}} {
    gpu.return
  }
}

// -----

// On an i64 as on an i32, before the scratch line.
// CHECK: @__tilec_launch_packed64("tilec-launch 1\0Akernel packed64\0Aparams scalar:i64 buffer:f32:2:?,1\0Anarrow packed64__decode 0 1\0Ascratch 0 64\0Ablock 128 1 1\0Agrid 1.0/64 - -\0Ashared 0\0A\00")
gpu.module @tilec_kernels {
  gpu.func @packed64(%max_q: i64, %x: memref<?x?xf32>, %s: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>,
                  tile.grid = [#tile.grid<arg = 1, dim = 0, per_program = 64>],
                  tile.scratch = array<i64: 0, 64>,
                  tile.narrow = {kernel = @packed64__decode, operand = 0 : i64, at_most = 1 : i64}} {
    gpu.return
  }
}

// -----

// A 4-D buffer's map has a box extent per dimension, innermost first: 64
// columns of one head's 128 rows ([batch, heads, seq, d] order).
// CHECK: @__tilec_launch_attn("tilec-launch 1\0Akernel attn\0Aparams buffer:bf16:4:?,?,128,1\0Atensormaps 0:64x128x1x1:128\0Ablock 256 1 1\0Agrid 0.2/128 - -\0Ashared 0\0A\00")
gpu.module @tilec_kernels {
  gpu.func @attn(%k: memref<?x?x?x128xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 2, per_program = 128>],
                  tile.tensor_maps = [array<i64: 0, 64, 128, 1, 1, 128>]} {
    gpu.return
  }
}

// -----

// tile.aligned_args becomes the aligned line, before the fallback.
// CHECK: @__tilec_launch_mm("tilec-launch 1\0Akernel mm\0Aparams buffer:bf16:2:?,1 buffer:bf16:2:?,1 buffer:f32:2:?,1\0Aaligned 0 1\0Afallback mm__element_copies\0Ablock 256 1 1\0Agrid 2.0/128 - -\0Ashared 0\0A\00")
gpu.module @tilec_kernels {
  gpu.func @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.grid = [#tile.grid<arg = 2, dim = 0, per_program = 128>],
                  tile.aligned_args = array<i64: 0, 1>,
                  tile.fallback = @mm__element_copies} {
    gpu.return
  }
}
