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

#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// The buffer arguments of `kernel` (all but the runtime's scratch buffer,
/// the last argument under tile.scratch, which is its own aligned
/// allocation).
static ArrayRef<BlockArgument> bufferArguments(gpu::GPUFuncOp kernel) {
  unsigned count = kernel.getNumArguments() -
                   (kernel->hasAttr(tile::kScratchAttrName) ? 1 : 0);
  return kernel.getArguments().take_front(count);
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
  return llvm::all_of(bufferArguments(kernel), [&](BlockArgument arg) {
    return !isa<MemRefType>(arg.getType()) ||
           copied.contains(arg.getArgNumber());
  });
}

/// tile.repitch_args for a kernel written by hand, which lists none: each
/// buffer argument copied from one program on, a written one copied in
/// before the kernel as well as back after it (the kernel may leave some
/// of it unwritten). Null when a buffer has a use other than tile.load,
/// tile.store and memref.dim (a view of it, an atomic): what such a use
/// reaches is not known here, and the twin stays.
static ArrayAttr derivedRepitchArgs(gpu::GPUFuncOp kernel) {
  Builder b(kernel.getContext());
  SmallVector<Attribute> entries;
  for (BlockArgument arg : bufferArguments(kernel)) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    bool written = false;
    for (OpOperand &use : arg.getUses()) {
      Operation *user = use.getOwner();
      if (auto store = dyn_cast<tile::StoreOp>(user);
          store && store.getBuffer() == arg)
        written = true;
      else if (!(isa<tile::LoadOp>(user) && use.getOperandNumber() == 0) &&
               !isa<memref::DimOp>(user))
        return nullptr;
    }
    int64_t number = arg.getArgNumber();
    entries.push_back(
        written ? b.getDenseI64ArrayAttr(
                      {number, tile::kRepitchWrittenAxis, /*readFirst=*/1})
                : b.getDenseI64ArrayAttr({number, /*x*/ 0, /*programs=*/1}));
  }
  return entries.empty() ? nullptr : b.getArrayAttr(entries);
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
      if (!kernel->hasAttr(tile::kRepitchArgsAttrName))
        if (ArrayAttr derived = derivedRepitchArgs(kernel)) {
          kernel->setAttr(tile::kRepitchArgsAttrName, derived);
          ++numDerived;
        }
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
