//===- BulkCopyFallback.cpp - Twins of kernels that use bulk copies -------===//
//
// Whether a buffer can be bulk-copied is only known at launch, so a kernel
// staged with bulk copies is compiled twice: the runtime picks the twin
// staged by the threads when the copy engine cannot describe a buffer,
// unless the runtime copies every buffer of the kernel into rows it can.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"

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

/// Whether the runtime copies every buffer argument of `kernel` that TMA
/// rejects, at any grid: tile.repitch_args lists each, copied from one
/// program on (written ones always are). The runtime's copy kernels mend
/// any such buffer (rows that repeat, overlap or run backwards included),
/// so a twin would never run; what no copy can stage (a written buffer
/// whose rows overlap, 2^32 rows) is refused at launch.
static bool copiesEveryBuffer(gpu::GPUFuncOp kernel) {
  auto entries = kernel->getAttrOfType<ArrayAttr>(tile::kRepitchArgsAttrName);
  if (!entries || entries.empty())
    return false;
  llvm::SmallDenseSet<int64_t> copied;
  for (Attribute entry : entries) {
    auto values = dyn_cast<DenseI64ArrayAttr>(entry);
    if (!values || values.size() != 3 ||
        (values[1] != tile::kRepitchWrittenAxis && values[2] > 1))
      return false;
    copied.insert(values[0]);
  }
  // The runtime's scratch buffer, the last argument where there is one
  // (tile.scratch), is its own allocation, aligned for any copy.
  unsigned buffers = kernel.getNumArguments() -
                     (kernel->hasAttr(tile::kScratchAttrName) ? 1 : 0);
  return llvm::all_of(kernel.getArguments().take_front(buffers),
                      [&](BlockArgument arg) {
                        return !isa<MemRefType>(arg.getType()) ||
                               copied.contains(arg.getArgNumber());
                      });
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
      if (copiesEveryBuffer(kernel)) {
        ++numCopiedInstead;
        continue;
      }
      addBulkCopyFallback(kernel);
      ++numFallbacks;
    }
  }
};
} // namespace
