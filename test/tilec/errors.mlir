// Invalid input gets a located error and exit code 1, never a crash.
// RUN: not tilec %s -o %t.cubin 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not tilec %s --arch=sm_70 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not tilec %s --arch=sm_100a 2>&1 | FileCheck %s --check-prefix=BLACKWELL
// RUN: not tilec %s --arch=sm_120 2>&1 | FileCheck %s --check-prefix=GEFORCE
// RUN: not tilec %s --arch=sm_89 2>&1 | FileCheck %s --check-prefix=ADA
// RUN: not tilec %s --arch=gfx942 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not tilec %s -O7 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not tilec %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo 'tile.kernel @broken(' | not tilec - -o - 2>&1 | FileCheck %s --check-prefix=SYNTAX

tile.kernel @bad(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1000>]} {
  %c0 = arith.constant 0 : index
  // VERIFY: errors.mlir:[[# @LINE + 1]]:8: error: 'tile.load' op tile dimension 0 is 1000; tile dimensions must be powers of two
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<1000xf32>
  tile.return
}

// ARCH: tilec: error: unsupported arch 'sm_70': tilec's kernels need sm_80's cp.async and 16-bit mma.sync; expected sm_80, sm_90 or sm_90a
// BLACKWELL: tilec: error: unsupported arch 'sm_100a': Blackwell's tensor-core instructions (tcgen05, tensor memory) have no lowering in tilec yet; expected sm_80, sm_90 or sm_90a
// GEFORCE: tilec: error: unsupported arch 'sm_120': GeForce Blackwell has no warpgroup MMA and 99 KiB of shared memory a block, less than tilec's schedules take (163-227 KiB), and no schedules of its own yet; expected sm_80, sm_90 or sm_90a
// ADA: tilec: error: unsupported arch 'sm_89': use sm_80, whose cubins run on every 8.x GPU; expected sm_80, sm_90 or sm_90a
// OTHER: tilec: error: unsupported arch 'gfx942'; expected sm_80, sm_90 or sm_90a
// OPT: tilec: error: invalid optimisation level -O7; expected -O0 .. -O3
// MISSING: tilec: error: cannot open input file '{{.*}}missing.mlir': No such file or directory
// SYNTAX: <stdin>:1:21: error: expected non-function type
