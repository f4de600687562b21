//===- SelectKernels.cpp - Keep only the kernels a launch needs -----------===//
//
// The JIT compiles a description's main kernels first and each variant
// (fallback, small-grid, narrow) when a launch first selects it: lowering
// and ptxas dominate compile time, and one launch runs one kernel.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Transforms/Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace tilec {
#define GEN_PASS_DEF_TILESELECTKERNELS
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
/// The kernel a variant attribute names: @name, or {kernel = @name, ...}.
StringAttr namedKernel(Attribute attr) {
  if (auto ref = dyn_cast_or_null<FlatSymbolRefAttr>(attr))
    return ref.getAttr();
  if (auto dict = dyn_cast_or_null<DictionaryAttr>(attr))
    return namedKernel(dict.get("kernel"));
  return {};
}

/// The kernels `kernel` names as variants the runtime launches instead.
SmallVector<StringAttr> variantsOf(gpu::GPUFuncOp kernel) {
  SmallVector<StringAttr> names;
  for (StringRef attr : {tile::kFallbackAttrName, tile::kSmallGridAttrName})
    if (StringAttr name = namedKernel(kernel->getAttr(attr)))
      names.push_back(name);
  if (Attribute narrow = kernel->getAttr(tile::kNarrowAttrName))
    for (Attribute line : tile::narrowLines(narrow))
      if (StringAttr name = namedKernel(line))
        names.push_back(name);
  return names;
}

struct TileSelectKernelsPass
    : tilec::impl::TileSelectKernelsBase<TileSelectKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<gpu::GPUFuncOp> all;
    for (auto func : module.getOps<gpu::GPUFuncOp>())
      if (func.isKernel())
        all.push_back(func);
    FailureOr<llvm::SetVector<StringAttr>> roots = rootsOf(all);
    if (failed(roots))
      return signalPassFailure();
    // The kept kernels and, after each, the one it names by tile.then.
    llvm::SetVector<StringAttr> kept = *roots;
    SymbolTable symbols(module);
    for (size_t i = 0; i < kept.size(); ++i)
      if (auto kernel = symbols.lookup<gpu::GPUFuncOp>(kept[i]))
        if (StringAttr then = namedKernel(kernel->getAttr(tile::kThenAttrName)))
          kept.insert(then);
    for (gpu::GPUFuncOp kernel : all)
      if (!kept.contains(kernel.getNameAttr())) {
        kernel.erase();
        ++numErased;
      }
  }

  /// The kernels to keep before their then kernels: those of `kernels`, or
  /// with main-only those no kernel names as a variant or then kernel, or
  /// all.
  FailureOr<llvm::SetVector<StringAttr>>
  rootsOf(ArrayRef<gpu::GPUFuncOp> all) {
    llvm::SetVector<StringAttr> roots;
    if (!kernels.empty()) {
      llvm::StringSet<> present;
      for (gpu::GPUFuncOp kernel : all)
        present.insert(kernel.getName());
      for (const std::string &name : kernels) {
        if (!present.contains(name)) {
          emitError(getOperation().getLoc())
              << "no kernel named '" << name << "' to keep";
          return failure();
        }
        roots.insert(StringAttr::get(&getContext(), name));
      }
      return roots;
    }
    // Variants, and then kernels, which come with the kernel they follow.
    DenseSet<StringAttr> followers;
    for (gpu::GPUFuncOp kernel : all) {
      for (StringAttr name : variantsOf(kernel))
        followers.insert(name);
      if (StringAttr then = namedKernel(kernel->getAttr(tile::kThenAttrName)))
        followers.insert(then);
    }
    for (gpu::GPUFuncOp kernel : all)
      if (!mainOnly || !followers.contains(kernel.getNameAttr()))
        roots.insert(kernel.getNameAttr());
    return roots;
  }
};
} // namespace
