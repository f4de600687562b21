//===- JoinKernelModules.cpp - Parts of a gpu.module back in one ----------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

namespace tilec {
#define GEN_PASS_DEF_TILEJOINKERNELMODULES
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace tilec {
namespace {

/// Puts the symbols named in `order` in that order, after everything else
/// (what the lowering declared, as it declares at the module's start).
void restoreOrder(gpu::GPUModuleOp gpuModule, ArrayAttr order) {
  DenseMap<Attribute, unsigned> rank;
  for (auto [index, name] : llvm::enumerate(order))
    rank.try_emplace(name, index + 1);
  SmallVector<std::pair<unsigned, Operation *>> ops;
  for (Operation &op : *gpuModule.getBody())
    ops.push_back(
        {rank.lookup(op.getAttr(SymbolTable::getSymbolAttrName())), &op});
  llvm::stable_sort(ops, llvm::less_first());
  Block *body = gpuModule.getBody();
  for (auto [_, op] : ops)
    op->moveBefore(body, body->end());
}

struct TileJoinKernelModules
    : impl::TileJoinKernelModulesBase<TileJoinKernelModules> {
  void runOnOperation() override {
    // The parts of each module, in their order (the first kept the name).
    llvm::MapVector<StringAttr, SmallVector<gpu::GPUModuleOp>> parts;
    for (gpu::GPUModuleOp gpuModule : getOperation().getOps<gpu::GPUModuleOp>())
      if (auto origin = gpuModule->getAttrOfType<StringAttr>(kPartOfAttrName))
        parts[origin].push_back(gpuModule);
    for (auto &[origin, members] : parts) {
      gpu::GPUModuleOp into = members.front();
      if (into.getName() != origin.getValue()) {
        into.emitError("the first part of gpu.module @")
            << origin.getValue() << " lost its name";
        return signalPassFailure();
      }
      if (failed(joinKernelModules(into, ArrayRef(members).drop_front())))
        return signalPassFailure();
      into->removeAttr(kPartOfAttrName);
      if (auto order = into->getAttrOfType<ArrayAttr>(kSymbolOrderAttrName))
        restoreOrder(into, order);
      into->removeAttr(kSymbolOrderAttrName);
    }
  }
};

} // namespace
} // namespace tilec
