// RUN: tilec-opt %s --tilec-pipeline="arch=sm_90 opt-level=1 output=nvvm" | FileCheck %s
// RUN: tilec-opt %s --tilec-pipeline="output=ptx" | FileCheck %s --check-prefix=PTX

// The registered pipeline is the one tilec runs: down to NVVM, no tile or
// tensor left, the target attached with the requested chip and level.
// CHECK-LABEL: gpu.module @tilec_kernels [#nvvm.target<O = 1, chip = "sm_90", features = "+ptx80">]
// CHECK: llvm.mlir.global external constant @__tilec_launch_neg
// CHECK: llvm.func @neg(
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 64, 1, 1>
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.fneg
// CHECK-NOT: tile.load
// CHECK-NOT: tensor<

// With output=ptx the module ends as a gpu.binary holding the PTX.
// PTX: gpu.binary @tilec_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, {{.*}}assembly = "
// PTX-SAME: .visible .entry neg(

tile.kernel @neg(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 64>],
                num_warps = 2} {
  %pid = tile.program_id x : index
  %c64 = arith.constant 64 : index
  %off = arith.muli %pid, %c64 : index
  %t = tile.load %x[%off] : memref<?xf32> -> tensor<64xf32>
  %n = arith.negf %t : tensor<64xf32>
  tile.store %n, %x[%off] : tensor<64xf32>, memref<?xf32>
  tile.return
}
