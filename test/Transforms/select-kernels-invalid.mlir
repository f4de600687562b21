// RUN: tilec-opt %s -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(tile-select-kernels{kernels=mm,nope}))'

// expected-error @+1 {{no kernel named 'nope' to keep}}
gpu.module @missing {
  gpu.func @mm(%a: memref<?xf32>) kernel {
    gpu.return
  }
}
