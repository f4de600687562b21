// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-occupancy-hints))' -verify-diagnostics | FileCheck %s

// tile.min_blocks_per_sm becomes NVVM's nvvm.minctasm (PTX .minnctapersm);
// kernels without it are left alone.
// CHECK-LABEL: gpu.func @hinted
// CHECK-SAME: nvvm.minctasm = 7 : i32
// CHECK-NOT: tile.min_blocks_per_sm
// CHECK-LABEL: gpu.func @plain
// CHECK-NOT: nvvm.minctasm
gpu.module @m {
  gpu.func @hinted() kernel attributes {tile.min_blocks_per_sm = 7 : i64} {
    gpu.return
  }
  gpu.func @plain() kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op 'tile.min_blocks_per_sm' must be an integer from 1 to 32, got 0 : i64}}
  gpu.func @zero() kernel attributes {tile.min_blocks_per_sm = 0 : i64} {
    gpu.return
  }
}
