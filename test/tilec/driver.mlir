// RUN: tilec --version | FileCheck %s --check-prefix=VERSION
// RUN: tilec --help | FileCheck %s --check-prefix=HELP
// RUN: tilec %s --emit=mlir -o - | FileCheck %s --check-prefix=MLIR
// RUN: tilec %s --emit=llvm -o - | FileCheck %s --check-prefix=LLVM
// RUN: cat %s | tilec - --emit=ptx -O2 --arch=sm_90 -o - | FileCheck %s --check-prefix=PTX
// RUN: tilec %s --emit=ptx -o /dev/null --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: tilec %s --emit=ptx -o /dev/null --mlir-print-ir-after=tile-map-warps 2>&1 | FileCheck %s --check-prefix=PRINT-ONE
// RUN: tilec %s --emit=ptx -o /dev/null --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir && tilec %s --emit=ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.dir/driver.ptx
// RUN: tilec %s --emit=ptx -o - | FileCheck %s --check-prefix=NOLINES
// RUN: tilec %s --emit=ptx --lineinfo -o - | FileCheck %s --check-prefix=LINES

// VERSION: tilec 0.1.0 (MLIR 22.
// HELP: USAGE: tilec [options] <input .mlir, - for stdin>
// HELP: --arch=<string>
// HELP: --emit=<value>
// HELP: -o <file>

// MLIR: gpu.module @tilec_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// MLIR: llvm.func @scale(
// MLIR-SAME: nvvm.kernel

// LLVM: @__tilec_launch_scale = addrspace(1) constant [{{[0-9]+}} x i8] c"tilec-launch 1\0Akernel scale
// LLVM: define ptx_kernel void @scale(float %0, ptr %1, ptr %2

// PTX: .target sm_90
// PTX: .visible .entry scale(

// Without --lineinfo, no line directives; with it, the tile ops' lines.
// NOLINES-NOT: .loc
// LINES: .visible .entry scale(
// LINES: .loc 1 [[# @LINE + 20]] 8
// LINES: .file 1 "{{.*}}driver.mlir"

// PRINT: IR Dump After ConvertTileKernelsToGPU
// PRINT: IR Dump After TileMapWarps
// PRINT: IR Dump After GpuModuleToBinaryPass

// One pass by name: the passes are registered before the flags are made.
// PRINT-ONE-NOT: IR Dump After TileTiling
// PRINT-ONE: IR Dump After TileMapWarps (tile-map-warps)
// PRINT-ONE-NOT: IR Dump After

// TIMING: Execution time report
// TIMING: TileMapWarps

tile.kernel @scale(%a: f32, %x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 512>]} {
  %pid = tile.program_id x : index
  %c512 = arith.constant 512 : index
  %off = arith.muli %pid, %c512 : index
  %t = tile.load %x[%off] : memref<?xf32> -> tensor<512xf32>
  %s = tile.splat %a : f32 -> tensor<512xf32>
  %r = arith.mulf %t, %s : tensor<512xf32>
  tile.store %r, %x[%off] : tensor<512xf32>, memref<?xf32>
  tile.return
}
