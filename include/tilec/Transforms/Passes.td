//===- Passes.td - tilec transformation passes -------------*- tablegen -*-===//

#ifndef TILEC_TRANSFORMS_PASSES_TD
#define TILEC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileMapWarps : Pass<"tile-map-warps", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Distribute tiles over the warps and lanes of a block";
  let description = [{
    Rewrites the tile values of a `gpu.func` kernel (statically shaped
    tensors) into per-thread vectors. Each tile of N elements is laid out
    row-major and cut into chunks of up to 4 consecutive elements; chunk c
    belongs to thread `c mod T` of the T threads of the block, so a warp
    reads consecutive addresses. Tiles smaller than the block are
    replicated across threads.

    - `arith` / `math` ops on tiles become the same ops on vectors;
      `scf.for` / `scf.if` / `scf.yield` carry the vectors.
    - `tile.load` / `tile.store` become bounds-checked element accesses.
    - `tile.reduce` reduces each thread's own elements, then the lanes of a
      warp with `gpu.shuffle xor` butterflies, then the warps through
      workgroup memory; `tile.broadcast` exchanges through workgroup memory.

    ```mlir
    // Before (128 threads)
    %t = tile.load %x[%off] : memref<?xf32> -> tensor<512xf32>
    %s = tile.reduce add %t along 0 : tensor<512xf32> -> f32
    // After (sketch)
    %v = vector.from_elements ... : vector<4xf32>     // 4 elements a thread
    %e0 = vector.extract %v[0] : f32 from vector<4xf32>
    %p = arith.addf %e0, %e1 : f32                    // ... and %e2, %e3
    %q, %ok = gpu.shuffle xor %p, %c1, %c32 : f32     // ... up to 16
    memref.store %p16, %wg[...] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    ```
  }];
  let statistics = [
    Statistic<"numReductions", "num-reductions", "Reductions distributed">,
    Statistic<"numShuffles", "num-shuffles", "Warp shuffles emitted">,
    Statistic<"numWorkgroupBytes", "workgroup-bytes",
              "Workgroup memory used for exchanges, in bytes">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::vector::VectorDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect",
  ];
}

#endif // TILEC_TRANSFORMS_PASSES_TD
