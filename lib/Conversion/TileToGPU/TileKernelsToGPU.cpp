//===- TileKernelsToGPU.cpp - tile.kernel -> gpu.func ---------------------===//
//
// Kernels become gpu.func kernels so that the upstream GPU -> NVVM lowering
// and gpu-module-to-binary apply to them unchanged.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILEKERNELSTOGPU
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

static gpu::Dimension toGpuDimension(tile::ProgramDim dim) {
  switch (dim) {
  case tile::ProgramDim::x:
    return gpu::Dimension::x;
  case tile::ProgramDim::y:
    return gpu::Dimension::y;
  case tile::ProgramDim::z:
    return gpu::Dimension::z;
  }
  return gpu::Dimension::x;
}

/// Rewrites the block-structure ops of a moved kernel body into gpu ops.
static void convertProgramOps(gpu::GPUFuncOp func) {
  IRRewriter rewriter(func.getContext());
  func.walk([&](Operation *op) {
    rewriter.setInsertionPoint(op);
    if (auto pid = dyn_cast<tile::ProgramIdOp>(op))
      rewriter.replaceOpWithNewOp<gpu::BlockIdOp>(pid,
                                                  toGpuDimension(pid.getDim()));
    else if (auto num = dyn_cast<tile::NumProgramsOp>(op))
      rewriter.replaceOpWithNewOp<gpu::GridDimOp>(num,
                                                  toGpuDimension(num.getDim()));
    else if (isa<tile::ReturnOp>(op))
      rewriter.replaceOpWithNewOp<gpu::ReturnOp>(op);
  });
}

FailureOr<gpu::GPUFuncOp>
tilec::outlineTileKernel(tile::KernelOp kernel, gpu::GPUModuleOp gpuModule) {
  OpBuilder builder(gpuModule.getBodyRegion());
  builder.setInsertionPointToEnd(gpuModule.getBody());
  auto func = gpu::GPUFuncOp::create(builder, kernel.getLoc(),
                                     kernel.getSymName(),
                                     kernel.getFunctionType());
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  int32_t threads = static_cast<int32_t>(kernel.getNumThreads());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr({threads, 1, 1}));
  func->setAttr("tile.grid", kernel.getGrid());
  for (StringRef name :
       {tile::kSmallGridAttrName, tile::kNarrowAttrName, tile::kScratchAttrName,
        tile::kThenAttrName, tile::kMinBlocksPerSmAttrName,
        tile::kPersistentAttrName, tile::kClusterAttrName, tile::kSplitAttrName,
        tile::kSplitMinPartsAttrName, tile::kRepitchArgsAttrName})
    if (Attribute attr = kernel->getAttr(name))
      func->setAttr(name, attr);
  if (ArrayAttr argAttrs = kernel.getArgAttrsAttr())
    func.setArgAttrsAttr(argAttrs);

  // Replace the default entry block by the kernel's body.
  func.getBody().getBlocks().clear();
  func.getBody().takeBody(kernel.getBody());
  convertProgramOps(func);
  kernel.erase();
  return func;
}

namespace {
struct ConvertTileKernelsToGPUPass
    : tilec::impl::ConvertTileKernelsToGPUBase<ConvertTileKernelsToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tile::KernelOp> kernels(module.getOps<tile::KernelOp>());
    if (kernels.empty())
      return;

    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(module.getContext()));
    auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(moduleName);
    if (!gpuModule) {
      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPointToEnd(module.getBody());
      gpuModule = gpu::GPUModuleOp::create(builder, module.getLoc(),
                                           moduleName);
    }
    for (tile::KernelOp kernel : kernels) {
      if (failed(outlineTileKernel(kernel, gpuModule)))
        return signalPassFailure();
      ++numKernels;
    }
  }
};
} // namespace
