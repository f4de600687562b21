//===- BulkCopyFallback.cpp - Twins of kernels that use bulk copies -------===//
//
// Whether a buffer can be bulk-copied is only known at launch, so a kernel
// staged with bulk copies is compiled twice: the runtime picks the twin
// staged by the threads when the copy engine cannot describe a buffer.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Transforms/Passes.h"

namespace tilec {
#define GEN_PASS_DEF_TILEBULKCOPYFALLBACK
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

gpu::GPUFuncOp tilec::addFallbackTwin(gpu::GPUFuncOp kernel,
                                      StringRef suffix, StringRef marker) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  SymbolTable symbols(module);
  auto twin = cast<gpu::GPUFuncOp>(kernel->clone());
  twin.setName((kernel.getName() + suffix).str());
  twin->setAttr(marker, UnitAttr::get(kernel.getContext()));
  // The runtime picks the narrow and small-grid kernels before the twin,
  // never after.
  twin->removeAttr(tile::kSmallGridAttrName);
  twin->removeAttr(tile::kNarrowAttrName);
  // The twin reads its buffers where they are, aligned or not.
  twin->removeAttr(tile::kRepitchArgsAttrName);
  // Inserting renames the twin if the name is taken.
  symbols.insert(twin, std::next(Block::iterator(kernel)));
  kernel->setAttr(tile::kFallbackAttrName, FlatSymbolRefAttr::get(twin.getNameAttr()));
  return twin;
}

gpu::GPUFuncOp tilec::addBulkCopyFallback(gpu::GPUFuncOp kernel) {
  return addFallbackTwin(kernel, "__thread_copies", kNoBulkCopiesAttr);
}

namespace {
struct TileBulkCopyFallbackPass
    : tilec::impl::TileBulkCopyFallbackBase<TileBulkCopyFallbackPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (func.isKernel() && !func->hasAttr(kNoBulkCopiesAttr) &&
          !func->hasAttr(tile::kFallbackAttrName) &&
          stagesWithBulkCopies(func, defaultStages))
        kernels.push_back(func);
    for (gpu::GPUFuncOp kernel : kernels) {
      addBulkCopyFallback(kernel);
      ++numFallbacks;
    }
  }
};
} // namespace
