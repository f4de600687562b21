//===- OccupancyHints.cpp - Resident blocks an SM, for ptxas --------------===//
//
// tile-tiling states how many blocks of a kernel should share a
// multiprocessor where it measured that more blocks in flight beat the
// registers ptxas would otherwise use; this is how NVVM says it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILEOCCUPANCYHINTS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
struct TileOccupancyHintsPass
    : tilec::impl::TileOccupancyHintsBase<TileOccupancyHintsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](gpu::GPUFuncOp func) {
      Attribute attr = func->removeAttr(tile::kMinBlocksPerSmAttrName);
      if (!attr)
        return WalkResult::advance();
      auto blocks = dyn_cast<IntegerAttr>(attr);
      if (!blocks || blocks.getInt() < 1 || blocks.getInt() > 32) {
        func.emitOpError("'")
            << tile::kMinBlocksPerSmAttrName
            << "' must be an integer from 1 to 32, got " << attr;
        return WalkResult::interrupt();
      }
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    Builder(func).getI32IntegerAttr(blocks.getInt()));
      ++numKernels;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
