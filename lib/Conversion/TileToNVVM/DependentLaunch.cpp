//===- DependentLaunch.cpp - Then kernels launched while the first ends --===//
//
// A then kernel reads what the kernel before it left, so it may not run
// before that kernel ends; but it may be launched as that kernel's blocks
// exit, and wait for its end itself (programmatic dependent launch, sm_90).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace tilec {
#define GEN_PASS_DEF_TILEDEPENDENTLAUNCH
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {
/// Puts `griddepcontrol kind` first in `func`'s entry block.
void insertAtEntry(gpu::GPUFuncOp func, NVVM::GridDepActionKind kind) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  NVVM::GriddepcontrolOp::create(b, func.getLoc(), kind);
}

struct TileDependentLaunchPass
    : tilec::impl::TileDependentLaunchBase<TileDependentLaunchPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Analysis first: the then kernels present here, each once.
    llvm::SetVector<gpu::GPUFuncOp> followers;
    for (auto func : module.getOps<gpu::GPUFuncOp>()) {
      auto then = func->getAttrOfType<FlatSymbolRefAttr>(tile::kThenAttrName);
      if (!func.isKernel() || !then)
        continue;
      if (auto follower = symbols.lookup<gpu::GPUFuncOp>(then.getValue()))
        if (!follower->hasAttr(tile::kWaitsForPreviousAttrName))
          followers.insert(follower);
    }
    // The first kernel does not let its dependents launch before its
    // blocks exit (griddepcontrol.launch_dependents on entry): split-K then
    // ran 0.81-0.83x as fast at 128 splits on the H200, its sum kernel's
    // blocks made resident while only the few multiprocessors the split
    // kernel left free could take them, it seems
    // (bench/matmul/results/2026-12-01-h200-split-sum).
    for (gpu::GPUFuncOp follower : followers) {
      insertAtEntry(follower, NVVM::GridDepActionKind::wait);
      follower->setAttr(tile::kWaitsForPreviousAttrName,
                        UnitAttr::get(&getContext()));
      ++numWaiting;
    }
  }
};
} // namespace
