//===- Passes.h - tilec transformation passes -------------------*- C++ -*-===//

#ifndef TILEC_TRANSFORMS_PASSES_H
#define TILEC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#include "tilec/Transforms/Passes.h.inc"

struct MapWarpsStats {
  unsigned reductions = 0;
  unsigned shuffles = 0;
  unsigned workgroupBytes = 0;
};

/// Distributes the tiles of `kernel` over its threads (see tile-map-warps).
/// The kernel must have a known block size.
mlir::LogicalResult mapTilesToThreads(mlir::gpu::GPUFuncOp kernel,
                                      MapWarpsStats *stats = nullptr);

#define GEN_PASS_REGISTRATION
#include "tilec/Transforms/Passes.h.inc"

} // namespace tilec

#endif // TILEC_TRANSFORMS_PASSES_H
