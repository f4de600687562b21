//===- TensorMapParams.cpp - TMA descriptors as grid-constant params ------===//
//
// TMA reads its descriptor from parameter, constant or global memory, never
// from a thread's local copy: the kernel parameter must stay in parameter
// space, which is what a by-value __grid_constant__ parameter guarantees.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILETENSORMAPPARAMS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// The size and alignment CUDA gives a CUtensorMap.
static constexpr int64_t kTensorMapBytes = 128;
static constexpr int64_t kTensorMapAlignment = 64;

unsigned tilec::passTensorMapsByValue(LLVM::LLVMFuncOp kernel) {
  auto maps = kernel->getAttrOfType<ArrayAttr>(tile::kTensorMapsAttrName);
  if (!maps)
    return 0;
  MLIRContext *ctx = kernel.getContext();
  Builder b(ctx);
  unsigned params = kernel.getNumArguments();
  unsigned first = params - std::min<unsigned>(maps.size(), params);
  for (unsigned i = first; i < params; ++i) {
    kernel.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(LLVM::LLVMArrayType::get(
                          b.getI8Type(), kTensorMapBytes)));
    kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      b.getI64IntegerAttr(kTensorMapAlignment));
    kernel.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                      UnitAttr::get(ctx));
  }
  return params - first;
}

namespace {
struct TileTensorMapParamsPass
    : tilec::impl::TileTensorMapParamsBase<TileTensorMapParamsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>())
      numParams += passTensorMapsByValue(func);
  }
};
} // namespace
