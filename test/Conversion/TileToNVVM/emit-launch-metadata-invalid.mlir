// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-emit-launch-metadata))' -verify-diagnostics

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.small_grid' must be {kernel = @name, percent_of_sms = 1..100}}}
  gpu.func @zero_percent(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.small_grid = {kernel = @small, percent_of_sms = 0 : i64}} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.small_grid' must be {kernel = @name, percent_of_sms = 1..100}}}
  gpu.func @no_kernel(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.small_grid = {percent_of_sms = 50 : i64}} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.tensor_maps' entries must be [buffer argument, a box extent per dimension of the buffer (innermost first), swizzle] and optionally the outer box dimension fitted at launch}}
  gpu.func @scalar_map(%x: memref<?xf32>, %n: i32, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.tensor_maps = [array<i64: 1, 64, 64, 128>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.tensor_maps' entries must be [buffer argument, a box extent per dimension of the buffer (innermost first), swizzle] and optionally the outer box dimension fitted at launch}}
  gpu.func @box_rank(%x: memref<?x?x?x64xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.tensor_maps' entries must be [buffer argument, a box extent per dimension of the buffer (innermost first), swizzle] and optionally the outer box dimension fitted at launch}}
  gpu.func @box_too_tall(%x: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.tensor_maps = [array<i64: 0, 64, 512, 128>]} {
    gpu.return
  }
}

// -----

// The innermost box dimension sets the row bytes: it is never fitted.
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.tensor_maps' entries must be [buffer argument, a box extent per dimension of the buffer (innermost first), swizzle] and optionally the outer box dimension fitted at launch}}
  gpu.func @fitted_inner(%x: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 64>],
                  tile.tensor_maps = [array<i64: 0, 64, 64, 128, 0>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.tensor_maps' entries must be [buffer argument, a box extent per dimension of the buffer (innermost first), swizzle] and optionally the outer box dimension fitted at launch}}
  gpu.func @fitted_past_the_box(%x: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 64>],
                  tile.tensor_maps = [array<i64: 0, 64, 64, 128, 2>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.scratch' must be [FIXED, PER_PROGRAM(, ZERO_FILL)] bytes on a kernel whose last user parameter is a memref<?xi32> or memref<?xf32>}}
  gpu.func @scratch_not_last(%s: memref<?xi32>, %x: memref<?xf16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 1, dim = 0, per_program = 256>],
                  tile.scratch = array<i64: 16, 16>} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' must be {kernel = @name, operand = A, dim = D, at_most = N} where A is a buffer argument of rank above D and N >= 1}}
  gpu.func @narrow_dim_past_rank(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 0, dim = 1, at_most = 8}} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' must be {kernel = @name, operand = A, dim = D, at_most = N} where A is a buffer argument of rank above D and N >= 1}}
  gpu.func @narrow_scalar_operand(%x: memref<?xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 1, dim = 0, at_most = 8}} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' must be {kernel = @name, operand = A, dim = D, at_most = N} where A is a buffer argument of rank above D and N >= 1}}
  gpu.func @narrow_zero_bound(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 0, dim = 0, at_most = 0}} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' must be {kernel = @name, operand = A, dim = D, at_most = N} where A is a buffer argument of rank above D and N >= 1}}
  gpu.func @narrow_no_kernel(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {operand = 0, dim = 0, at_most = 8}} {
    gpu.return
  }
}

// -----

// Each line of an array of narrow lines is checked.
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' must be {kernel = @name, operand = A, dim = D, at_most = N} where A is a buffer argument of rank above D and N >= 1, or an array of such lines}}
  gpu.func @narrow_array_bad_line(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = [{kernel = @n, operand = 0, dim = 0, at_most = 8},
                                 {kernel = @m, operand = 0, dim = 2, at_most = 8}]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' has two lines on operand 0 dimension 1}}
  gpu.func @narrow_array_same_extent(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = [{kernel = @n, operand = 0, dim = 1, at_most = 8},
                                 {kernel = @m, operand = 0, dim = 1, at_most = 2}]} {
    gpu.return
  }
}

// -----

// Without dim the operand must be an integer scalar: not a float,
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' without dim must be {kernel = @name, operand = A, at_most = N} where A is an i32 or i64 scalar argument and N >= 1}}
  gpu.func @narrow_float_scalar(%x: memref<?xf32>, %s: f32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 1, at_most = 8}} {
    gpu.return
  }
}

// -----

// nor a buffer (whose value is no extent),
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' without dim must be {kernel = @name, operand = A, at_most = N} where A is an i32 or i64 scalar argument and N >= 1}}
  gpu.func @narrow_buffer_without_dim(%x: memref<?xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 0, at_most = 8}} {
    gpu.return
  }
}

// -----

// nor an integer of another width than i32 and i64 (no launch passes one),
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' without dim must be {kernel = @name, operand = A, at_most = N} where A is an i32 or i64 scalar argument and N >= 1}}
  gpu.func @narrow_i16_scalar(%x: memref<?xf32>, %n: i16) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 1, at_most = 8}} {
    gpu.return
  }
}

// -----

// nor an index (which has no launch ABI).
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' without dim must be {kernel = @name, operand = A, at_most = N} where A is an i32 or i64 scalar argument and N >= 1}}
  gpu.func @narrow_index_scalar(%x: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 1, at_most = 8}} {
    gpu.return
  }
}

// -----

// The scalar form takes an argument of the kernel
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' without dim must be {kernel = @name, operand = A, at_most = N} where A is an i32 or i64 scalar argument and N >= 1}}
  gpu.func @narrow_scalar_past_arguments(%x: memref<?xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 2, at_most = 8}} {
    gpu.return
  }
}

// -----

// and a bound of at least 1.
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' without dim must be {kernel = @name, operand = A, at_most = N} where A is an i32 or i64 scalar argument and N >= 1}}
  gpu.func @narrow_scalar_zero_bound(%x: memref<?xf32>, %n: i64) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {kernel = @n, operand = 1, at_most = 0}} {
    gpu.return
  }
}

// -----

// and a kernel.
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.narrow' without dim must be {kernel = @name, operand = A, at_most = N} where A is an i32 or i64 scalar argument and N >= 1}}
  gpu.func @narrow_scalar_no_kernel(%x: memref<?xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.narrow = {operand = 1, at_most = 8}} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.then' must be a kernel symbol, on a kernel with a scratch buffer}}
  gpu.func @then_without_scratch(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.then = @next} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.aligned_args' must list buffer arguments in increasing order, on a kernel with a 'tile.fallback'}}
  gpu.func @no_fallback(%x: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.aligned_args = array<i64: 0>} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.aligned_args' must list buffer arguments in increasing order, on a kernel with a 'tile.fallback'}}
  gpu.func @scalar(%x: memref<?x?xbf16>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.aligned_args = array<i64: 1>, tile.fallback = @twin} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.aligned_args' must list buffer arguments in increasing order, on a kernel with a 'tile.fallback'}}
  gpu.func @twice(%x: memref<?x?xbf16>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.aligned_args = array<i64: 0, 0>, tile.fallback = @twin} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.persistent' must be a number of blocks a multiprocessor, 1 to 32}}
  gpu.func @no_blocks(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.persistent = 0 : i64} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.persistent' must be a number of blocks a multiprocessor, 1 to 32}}
  gpu.func @not_a_number(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.persistent = "all"} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.cluster' must be 2 to 8 blocks, on a persistent kernel}}
  gpu.func @cluster_not_persistent(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.cluster = 2 : i64} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.cluster' must be 2 to 8 blocks, on a persistent kernel}}
  gpu.func @cluster_of_sixteen(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.persistent = 1 : i64, tile.cluster = 16 : i64} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.split' must be a number of blocks a multiprocessor, 1 to 32, on a kernel that is not persistent}}
  gpu.func @split_of_none(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.split = 0 : i64} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.split' must be a number of blocks a multiprocessor, 1 to 32, on a kernel that is not persistent}}
  gpu.func @split_persistent(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.persistent = 1 : i64, tile.split = 1 : i64} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.split_min_parts' must be 2 to 1024 splits, on a kernel with 'tile.split'}}
  gpu.func @min_parts_unsplit(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.split_min_parts = 4 : i64} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.split_min_parts' must be 2 to 1024 splits, on a kernel with 'tile.split'}}
  gpu.func @min_parts_of_one(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.split = 1 : i64, tile.split_min_parts = 1 : i64} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_no_map(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = [array<i64: 1, 0, 2>], tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_twice(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 0, 1, 2>], tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_not_array(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = 0 : i64, tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_axis(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = [array<i64: 0, 3, 2>], tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_no_programs(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = [array<i64: 0, 0, 0>], tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_short(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = [array<i64: 0, 0>], tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

// A written entry's last value says whether the kernel reads the buffer
// first: 0 or 1.
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_written_twice(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = [array<i64: 0, -1, 2>], tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}

// -----

// Axes below -1 name nothing.
gpu.module @tilec_kernels {
  // expected-error @+1 {{'tile.repitch_args' must list [buffer argument with a tensor map, grid axis 0..2, programs >= 1] or [buffer argument with a tensor map, -1, read first 0 or 1] entries in increasing argument order}}
  gpu.func @repitch_axis_below(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %t: !llvm.ptr) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.repitch_args = [array<i64: 0, -2, 1>], tile.fallback = @twin,
                  tile.tensor_maps = [array<i64: 0, 64, 128, 128>]} {
    gpu.return
  }
}
