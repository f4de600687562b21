//===- ElementCopyFallback.cpp - Twins that copy element by element -------===//
//
// Per-thread copies run fastest as cp.async of 16, 8 or 4 bytes, and a
// kernel that also holds an unrolled element-by-element path for sources
// whose rows are only 2-byte aligned runs every path slower (ptxas spends
// registers and schedule slots on the path not taken). Which path a launch
// needs is known from its arguments, so the runtime picks between two
// kernels instead of the kernel picking between paths.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tilec {
#define GEN_PASS_DEF_TILEELEMENTCOPYFALLBACK
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// The argument of `kernel` that `buffer` is a view of, if any.
static std::optional<unsigned> viewedArgument(gpu::GPUFuncOp kernel,
                                              Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return std::nullopt;
  return arg.getArgNumber();
}

std::optional<SmallVector<int64_t>>
tilec::alignedCopySources(gpu::GPUFuncOp kernel) {
  SmallVector<int64_t> args;
  bool traced = true;
  kernel.walk([&](tilegpu::CopyAsyncOp copy) {
    // Copies without vectors have no faster path to keep apart, and copies
    // of elements of 4 bytes or more need no element path (a 4-byte
    // cp.async moves one).
    auto dst = cast<MemRefType>(copy.getDst().getType());
    if (copy.getVectorBytes().value_or(0) < 4 ||
        dst.getElementTypeBitWidth() >= 32)
      return WalkResult::advance();
    std::optional<unsigned> arg = viewedArgument(kernel, copy.getSrc());
    if (!arg) {
      traced = false;
      return WalkResult::interrupt();
    }
    if (!llvm::is_contained(args, *arg))
      args.push_back(*arg);
    return WalkResult::advance();
  });
  if (!traced || args.empty())
    return std::nullopt;
  llvm::sort(args);
  return args;
}

gpu::GPUFuncOp tilec::addElementCopyFallback(gpu::GPUFuncOp kernel,
                                             ArrayRef<int64_t> alignedArgs) {
  // A kernel with a fallback already (a bulk-copy kernel whose twin copies
  // by threads) hands misaligned sources to it: the twin gets its own
  // element-copy twin.
  gpu::GPUFuncOp twin;
  if (!kernel->hasAttr(tile::kFallbackAttrName))
    twin = addFallbackTwin(kernel, "__element_copies", kElementCopiesAttr);
  kernel->setAttr(tile::kAlignedArgsAttrName,
                  DenseI64ArrayAttr::get(kernel.getContext(), alignedArgs));
  return twin;
}

namespace {
struct TileElementCopyFallbackPass
    : tilec::impl::TileElementCopyFallbackBase<TileElementCopyFallbackPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<gpu::GPUFuncOp, SmallVector<int64_t>>> kernels;
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (func.isKernel() && !func->hasAttr(kElementCopiesAttr) &&
          !func->hasAttr(tile::kAlignedArgsAttrName))
        if (std::optional<SmallVector<int64_t>> args = alignedCopySources(func))
          kernels.push_back({func, std::move(*args)});
    for (auto &[kernel, args] : kernels)
      if (addElementCopyFallback(kernel, args))
        ++numFallbacks;
  }
};
} // namespace
