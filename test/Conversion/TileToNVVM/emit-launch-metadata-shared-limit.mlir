// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-emit-launch-metadata{max-shared-bytes=232448}))' -verify-diagnostics

// More dynamic shared memory than a block may have (227 KB on sm_90): a
// located error, not a launch that fails.
gpu.module @tilec_kernels {
  // expected-error @+1 {{needs 232449 bytes of dynamic shared memory, more than the target's 232448 a block: use fewer pipeline stages or smaller tiles}}
  gpu.func @too_much(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.dynamic_shared_bytes = 232449 : i64} {
    gpu.return
  }
}

// -----

// Exactly the limit is fine.
gpu.module @tilec_kernels {
  gpu.func @at_the_limit(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.dynamic_shared_bytes = 232448 : i64} {
    gpu.return
  }
}

// -----

// Workgroup buffers come before the dynamic shared memory, which starts
// 1024-byte aligned: 16 KiB of them and 216 KiB of slots are over.
gpu.module @tilec_kernels {
  // expected-error @+1 {{needs 221184 bytes of dynamic shared memory after 16400 bytes of workgroup buffers, more than the target's 232448 a block}}
  gpu.func @with_buffers(%x: memref<?xf32>) workgroup(%staged: memref<4096xf32, #gpu.address_space<workgroup>>, %flag: memref<4xi32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                  tile.dynamic_shared_bytes = 221184 : i64} {
    gpu.return
  }
}
