//===- BulkCopyFallback.cpp - Twins of kernels that use bulk copies -------===//
//
// Whether a buffer can be bulk-copied is only known at launch, so a kernel
// staged with bulk copies is compiled twice: the runtime picks the twin
// staged by the threads when the copy engine cannot describe a buffer.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

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

/// Whether the runtime copies every buffer of `variant`'s tile.repitch_args
/// that TMA rejects for its start or row pitch at any grid (each read
/// entry's minimum is one program; written ones always are). The tilings list every operand they stage, so
/// such a variant's own twin would run only for what no copy mends (rows
/// that repeat or overlap, pitches past 2^31 bytes, no memory for the
/// copy): rare enough for the twin of the kernel naming it, at that
/// kernel's tiles, to take them instead, a kernel fewer to compile (on the
/// H200 that twin ran those cases 1.3-3.5x slower on small grids,
/// bench/results/2026-11-29-h200-shared-twin).
static bool repitchesAtAnyGrid(gpu::GPUFuncOp variant) {
  auto entries = variant->getAttrOfType<ArrayAttr>(tile::kRepitchArgsAttrName);
  return entries && !entries.empty() &&
         llvm::all_of(entries, [](Attribute entry) {
           auto values = dyn_cast<DenseI64ArrayAttr>(entry);
           // A written buffer is copied at any grid.
           return values && values.size() == 3 &&
                  (values[1] == tile::kRepitchWrittenAxis || values[2] == 1);
         });
}

/// The small-grid and narrow variants that `kernel` names.
static SmallVector<StringAttr> variantNames(gpu::GPUFuncOp kernel) {
  SmallVector<StringAttr> names;
  for (StringRef attr : {tile::kSmallGridAttrName, tile::kNarrowAttrName})
    if (auto variant = kernel->getAttrOfType<DictionaryAttr>(attr))
      if (auto name = variant.getAs<FlatSymbolRefAttr>("kernel"))
        names.push_back(name.getAttr());
  return names;
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
    // Variants that fall back to the twin of the kernel naming them (one
    // that gets a twin of its own).
    DenseMap<StringAttr, gpu::GPUFuncOp> byName;
    for (gpu::GPUFuncOp kernel : kernels)
      byName[kernel.getNameAttr()] = kernel;
    llvm::MapVector<gpu::GPUFuncOp, gpu::GPUFuncOp> parentOf;
    for (gpu::GPUFuncOp kernel : kernels)
      for (StringAttr name : variantNames(kernel))
        if (gpu::GPUFuncOp variant = byName.lookup(name))
          if (repitchesAtAnyGrid(variant))
            parentOf.try_emplace(variant, kernel);
    for (gpu::GPUFuncOp kernel : kernels) {
      if (parentOf.contains(kernel))
        continue;
      addBulkCopyFallback(kernel);
      ++numFallbacks;
    }
    for (auto [variant, parent] : parentOf) {
      Attribute twin = parent->getAttr(tile::kFallbackAttrName);
      if (twin) {
        variant->setAttr(tile::kFallbackAttrName, twin);
        ++numSharedFallbacks;
        continue;
      }
      // The parent is such a variant itself: no twin to share.
      addBulkCopyFallback(variant);
      ++numFallbacks;
    }
  }
};
} // namespace
