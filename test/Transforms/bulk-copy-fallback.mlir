// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-bulk-copy-fallback))' | FileCheck %s

// A kernel whose dot fits warpgroup MMA, with operands from kernel
// arguments, gets a twin staged by the threads, named in tile.fallback.
// CHECK-LABEL: gpu.module @m
// The runtime picks narrow and small-grid kernels before the twin: the twin
// names none, and reads its buffers in place (no tile.repitch_args).
// CHECK: gpu.func @mm({{.*}}) kernel attributes {{{.*}}tile.fallback = @mm__thread_copies, tile.narrow = {{.*}}, tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 1, 1, 2>], tile.small_grid = {kernel = @mm_small
// CHECK: tile.load %arg0
// CHECK: gpu.func @mm__thread_copies({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, tile.no_bulk_copies}
// CHECK: tile.load %arg0
gpu.module @m {
  gpu.func @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.narrow = {kernel = @mm_narrow, operand = 0, dim = 1, at_most = 64},
                  tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 1, 1, 2>],
                  tile.small_grid = {kernel = @mm_small, percent_of_sms = 50 : i64}} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// An f32 dot (SIMT FMA, per-thread copies anyway) gets no twin.
// CHECK-LABEL: gpu.module @m
// CHECK-NOT: tile.fallback
// CHECK-NOT: __thread_copies
gpu.module @m {
  gpu.func @sgemm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %k = memref.dim %a, %c0 : memref<?x?xf32>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c8 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xf32> -> tensor<128x8xf32>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xf32> -> tensor<8x128xf32>
      %d = tile.dot %ta, %tb, %acc : tensor<128x8xf32>, tensor<8x128xf32>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 3 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Without a block size (or with too few threads for a warpgroup) no dot fits
// warpgroup MMA, and no twin is made; tile-map-warps reports the block size.
// (Found by tilec-fuzz: 0 threads divided by zero.)
// CHECK-LABEL: gpu.module @m
// CHECK-NOT: tile.fallback
gpu.module @m {
  gpu.func @no_block_size(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A kernel whose tile.repitch_args list every buffer, each copied from one
// program on (C written), gets no twin: the runtime copies whatever TMA
// rejects. One that leaves a buffer out (C) or copies from two programs
// on (A) gets its own; the variants no longer share the main kernel's.
// CHECK-LABEL: gpu.module @m
// CHECK: gpu.func @mm({{.*}}tile.fallback = @mm__thread_copies
// CHECK: gpu.func @mm__thread_copies(
// CHECK: gpu.func @mm_small({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, tile.repitch_args =
// CHECK: gpu.func @mm_narrow({{.*}}tile.fallback = @mm_narrow__thread_copies
// CHECK: gpu.func @mm_narrow__thread_copies(
// CHECK-NOT: @mm_small__thread_copies
gpu.module @m {
  gpu.func @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.narrow = {kernel = @mm_narrow, operand = 0, dim = 1, at_most = 64},
                  tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 1, 1, 1>],
                  tile.small_grid = {kernel = @mm_small, percent_of_sms = 50 : i64}} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    gpu.return
  }
  gpu.func @mm_small(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 0>]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
  gpu.func @mm_narrow(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.repitch_args = [array<i64: 0, 0, 2>, array<i64: 1, 1, 1>, array<i64: 2, -1, 0>]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// The runtime's scratch buffer (the last argument under tile.scratch) is
// its own aligned allocation: it need not be listed for the kernel to go
// without a twin.
// CHECK-LABEL: gpu.module @m
// CHECK: gpu.func @split({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, tile.repitch_args =
// CHECK-NOT: __thread_copies
gpu.module @m {
  gpu.func @split(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index, %scratch: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 0>],
                  tile.scratch = array<i64: 16, 65536, 0>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A kernel written by hand lists no tile.repitch_args: where its buffers
// are used only by tile.load, tile.store and memref.dim, the pass lists
// them, read ones from one program on and the written C copied in and
// back (the kernel might leave part of it unwritten), and makes no twin.
// CHECK-LABEL: gpu.module @m
// CHECK: gpu.func @by_hand({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 0, 1>, array<i64: 2, 0, 1>, array<i64: 3, -1, 1>]}
// CHECK-NOT: __thread_copies
gpu.module @m {
  gpu.func @by_hand(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %bias: memref<?xf32>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 4 : i64}
    %tbias = tile.load %bias[%n0] : memref<?xf32> -> tensor<128xf32>
    tile.store %r, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A buffer with another use (here a view of it) keeps the kernel's twin:
// what the view reaches is not known here. Nothing is listed.
// CHECK-LABEL: gpu.module @m
// CHECK: gpu.func @viewed({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, tile.fallback = @viewed__thread_copies}
// CHECK: gpu.func @viewed__thread_copies(
gpu.module @m {
  gpu.func @viewed(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %n = memref.dim %c, %c1 : memref<?x?xf32>
    %cv = memref.subview %c[0, 0] [128, %n] [1, 1] : memref<?x?xf32> to memref<128x?xf32, strided<[?, 1]>>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %r = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x128xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    } {tile.stages = 4 : i64}
    tile.store %r, %cv[%c0, %n0] : tensor<128x128xf32>, memref<128x?xf32, strided<[?, 1]>>
    gpu.return
  }
}
