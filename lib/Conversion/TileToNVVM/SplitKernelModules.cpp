//===- SplitKernelModules.cpp - One gpu.module a kernel group -------------===//
//
// The upstream lowering to NVVM converts a gpu.module in one piece, on one
// thread; on modules of many kernels it is the longest serial step of a
// compile. Split into modules of whole kernels, the pass manager lowers
// them in parallel; tile-join-kernel-modules puts them back together.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace tilec {
#define GEN_PASS_DEF_TILESPLITKERNELMODULES
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace tilec {
namespace {

struct TileSplitKernelModules
    : impl::TileSplitKernelModulesBase<TileSplitKernelModules> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (gpu::GPUModuleOp gpuModule :
         llvm::to_vector(module.getOps<gpu::GPUModuleOp>())) {
      // The parts come heaviest first; the join puts the symbols back in
      // this order, which the PTX and ptxas then see as without a split.
      SmallVector<Attribute> order;
      for (Operation &op : gpuModule.getBody()->getOperations())
        if (auto name =
                op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
          order.push_back(name);
      auto origin = StringAttr::get(&getContext(), gpuModule.getName());
      OwningOpRef<ModuleOp> holder = ModuleOp::create(gpuModule.getLoc());
      SmallVector<gpu::GPUModuleOp> parts =
          splitKernels(gpuModule, maxParts, *holder);
      if (parts.size() > 1) {
        parts.front()->setAttr(kSymbolOrderAttrName,
                               ArrayAttr::get(&getContext(), order));
        for (gpu::GPUModuleOp part : parts)
          part->setAttr(kPartOfAttrName, origin);
        numParts += parts.size();
      }
      // The parts replace the module (now empty), the first under its name.
      Block::iterator at = std::next(gpuModule->getIterator());
      symbols.erase(gpuModule);
      for (gpu::GPUModuleOp part : parts) {
        part->remove();
        symbols.insert(part, at);
      }
    }
  }
};

} // namespace
} // namespace tilec
