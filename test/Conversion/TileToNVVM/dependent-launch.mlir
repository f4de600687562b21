// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-dependent-launch))' | FileCheck %s

// A then kernel waits for the kernel before it first thing and is marked
// so (launch metadata `waits`); that kernel does not let it launch early.
// Other kernels are left alone.
// CHECK-LABEL: gpu.func @chunks
// CHECK-SAME: tile.then = @combine
// CHECK-NEXT: arith.constant
// CHECK-LABEL: gpu.func @combine
// CHECK-SAME: tile.waits_for_previous
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NEXT: arith.constant
// CHECK-LABEL: gpu.func @alone
// CHECK-NOT: tile.waits_for_previous
// CHECK-NOT: nvvm.griddepcontrol
// CHECK: gpu.return
gpu.module @m {
  gpu.func @chunks(%x: memref<?xf32>) kernel attributes {tile.then = @combine} {
    %c0 = arith.constant 0 : index
    gpu.return
  }
  gpu.func @combine(%x: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    gpu.return
  }
  gpu.func @alone(%x: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

// A then kernel not in this module (a kernel compiled alone) is nothing to
// wait for: neither kernel changes.
// CHECK-LABEL: gpu.func @first
// CHECK-NOT: nvvm.griddepcontrol
// CHECK: gpu.return
gpu.module @m {
  gpu.func @first(%x: memref<?xf32>) kernel attributes {tile.then = @elsewhere} {
    gpu.return
  }
}
