// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(convert-tile-kernels-to-gpu, gpu.module(tile-emit-launch-metadata))' \
// RUN:   | FileCheck %s

// The metadata text lists the parameters (a buffer is element type and
// rank), the block size and the grid rule.
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_mixed("tilec-launch 1\0Akernel mixed\0Aparams scalar:f32 buffer:bf16:2:?,1 scalar:i64 buffer:i32:1:1\0Ablock 256 1 1\0Agrid 1.0/128 2/4 -\0Ashared 0\0A\00") {addr_space = 1 : i32, alignment = 1 : i64}
// CHECK: gpu.func @mixed
tile.kernel @mixed(%a: f32, %x: memref<?x?xbf16>, %n: i64, %y: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 128>,
                        #tile.grid<arg = 2, per_program = 4>],
                num_warps = 8} {
  tile.return
}

// -----

// One global per kernel.
// CHECK-LABEL: gpu.module @tilec_kernels
// CHECK-DAG: llvm.mlir.global external constant @__tilec_launch_k1("tilec-launch 1\0Akernel k1\0Aparams buffer:f32:1:1\0Ablock 128 1 1\0Agrid 0.0/1 - -
// CHECK-DAG: llvm.mlir.global external constant @__tilec_launch_k2("tilec-launch 1\0Akernel k2\0Aparams buffer:f16:3:?,?,1\0Ablock 32 1 1\0Agrid 0.2/8 0.1/4 0.0/2
tile.kernel @k1(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}
tile.kernel @k2(%x: memref<?x?x?xf16>)
    attributes {grid = [#tile.grid<arg = 0, dim = 2, per_program = 8>,
                        #tile.grid<arg = 0, dim = 1, per_program = 4>,
                        #tile.grid<arg = 0, dim = 0, per_program = 2>],
                num_warps = 1} {
  tile.return
}

// -----

// A grid dimension that is a product of factors: one term each, joined by
// `*`.
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_packs("tilec-launch 1\0Akernel packs\0Aparams buffer:f16:3:?,?,1 buffer:f16:3:?,?,1\0Ablock 128 1 1\0Agrid 1.1/1024 1.0/1*0.0/64 -\0Ashared 0\0A\00")
tile.kernel @packs(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>)
    attributes {grid = [#tile.grid<arg = 1, dim = 1, per_program = 1024>,
                        [#tile.grid<arg = 1, dim = 0, per_program = 1>,
                         #tile.grid<arg = 0, dim = 0, per_program = 64>]]} {
  tile.return
}

// -----

// The scratch buffer of a single-pass scan is not the user's: the runtime
// passes it after the user parameters, so `params` leaves it out and the
// `scratch FIXED PER_PROGRAM` line sizes it; the kernel keeps it usable
// from launch to launch with epochs (mode 3: `epochs`).
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_scan("tilec-launch 1\0Akernel scan\0Aparams buffer:f32:1:1 buffer:f32:1:1\0Ascratch 16 32 epochs\0Ablock 128 1 1\0Agrid 0.0/4096 - -\0Ashared 0\0A\00")
tile.kernel @scan(%x: memref<?xf32>, %y: memref<?xf32>, %s: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4096>],
                tile.scratch = array<i64: 16, 32, 3>} {
  tile.return
}

// -----

// Without a mode, the runtime zero-fills the buffer before every launch.
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_zeroed("tilec-launch 1\0Akernel zeroed\0Aparams buffer:f32:1:1\0Ascratch 16 32\0Ablock 128 1 1\0Agrid 0.0/4096 - -\0Ashared 0\0A\00")
tile.kernel @zeroed(%x: memref<?xf32>, %s: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4096>],
                tile.scratch = array<i64: 16, 32>} {
  tile.return
}

// -----

// A kernel combined by a second pass names it on a `then` line; its scratch
// buffer may hold f32 partial results.
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_split("tilec-launch 1\0Akernel split\0Aparams buffer:f32:1:1\0Ascratch 0 64\0Athen split__combine\0Ablock 128 1 1\0Agrid 0.0/1024 - -\0Ashared 0\0A\00")
tile.kernel @split(%x: memref<?xf32>, %s: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1024>],
                tile.scratch = array<i64: 0, 64>, tile.then = @split__combine} {
  tile.return
}

// -----

// A then kernel that waits for the kernel before it (tile-dependent-launch)
// says so on a `waits` line.
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_combine("tilec-launch 1\0Akernel combine\0Aparams buffer:f32:1:1\0Ascratch 0 64 unzeroed\0Awaits\0Ablock 128 1 1\0Agrid 0.0/1024 - -\0Ashared 0\0A\00")
gpu.module @m {
  gpu.func @combine(%x: memref<?xf32>, %s: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 1024>],
                  tile.scratch = array<i64: 0, 64, 0>,
                  tile.waits_for_previous} {
    gpu.return
  }
}

// -----

// Split-K: z splits K, the counters at the front of the scratch buffer are
// kept zero by the kernel (`counters`), and the `split` line lets the
// runtime cap z at one block a multiprocessor in all.
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_split_k("tilec-launch 1\0Akernel split_k\0Aparams buffer:f32:2:?,1 buffer:f32:2:?,1 buffer:f32:2:?,1\0Ascratch 4096 65536 counters\0Asplit 1\0Ablock 256 1 1\0Agrid 2.1/128 2.0/128 0.1/512\0Ashared 0\0A\00")
tile.kernel @split_k(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %s: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 1, per_program = 128>,
                        #tile.grid<arg = 2, dim = 0, per_program = 128>,
                        #tile.grid<arg = 0, dim = 1, per_program = 512>],
                num_warps = 8, tile.scratch = array<i64: 4096, 65536, 2>,
                tile.split = 1 : i64} {
  tile.return
}

// -----

// A split-K kernel with fewest parts: the `split` line's second number.
// CHECK-LABEL: llvm.mlir.global external constant @__tilec_launch_split_k_min_parts("tilec-launch 1\0Akernel split_k_min_parts\0Aparams buffer:f32:2:?,1 buffer:f32:2:?,1 buffer:f32:2:?,1\0Ascratch 4096 65536 counters\0Asplit 1 4\0Ablock 256 1 1\0Agrid 2.1/128 2.0/128 0.1/512\0Ashared 0\0A\00")
tile.kernel @split_k_min_parts(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %s: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 1, per_program = 128>,
                        #tile.grid<arg = 2, dim = 0, per_program = 128>,
                        #tile.grid<arg = 0, dim = 1, per_program = 512>],
                num_warps = 8, tile.scratch = array<i64: 4096, 65536, 2>,
                tile.split = 1 : i64, tile.split_min_parts = 4 : i64} {
  tile.return
}
