//===- Registration.cpp - What tilec's tools register ---------------------===//

#include "tilec/Pipeline/Registration.h"
#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/TileDialect.h"
#include "tilec/Dialect/TileGPU/TileGPUDialect.h"
#include "tilec/Pipeline/Pipeline.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::registerDialects(DialectRegistry &registry) {
  registry.insert<tile::TileDialect, tilegpu::TileGPUDialect, affine::AffineDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, nvgpu::NVGPUDialect, scf::SCFDialect,
                  ub::UBDialect,
                  vector::VectorDialect>();

  // convert-gpu-to-nvvm lowers every other dialect through these interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);

  // gpu-module-to-binary: the NVVM target and the LLVM IR translations.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

void tilec::registerPasses() {
  registerTilecConversionPasses();
  registerTilecTransformsPasses();

  // The upstream passes of the pipeline, so lit tests can run each stage.
  registerCanonicalizerPass();
  registerCSEPass();
  registerSCFToControlFlowPass();
  registerConvertGpuOpsToNVVMOps();
  registerConvertNVGPUToNVVMPass();
  memref::registerExpandStridedMetadataPass();
  registerLowerAffinePass();
  registerReconcileUnrealizedCastsPass();
  registerGpuNVVMAttachTarget();
  registerGpuModuleToBinaryPass();
  LLVM::registerDIScopeForLLVMFuncOpPass();

  PassPipelineRegistration<PipelineCLOptions>(
      "tilec-pipeline", "The whole tilec pipeline, tile.kernel to gpu.binary",
      [](OpPassManager &pm, const PipelineCLOptions &cl) {
        PipelineOptions options;
        options.arch = cl.arch;
        options.optLevel = cl.optLevel;
        options.cudaToolkitPath = cl.cudaToolkitPath;
        options.ptxasThreads = cl.ptxasThreads;
        options.ptxasOptions = cl.ptxasOptions;
        options.lineInfo = cl.lineInfo;
        options.alignedCopyKernels = cl.alignedCopyKernels;
        options.producerWarp = cl.producerWarp;
        if (cl.output == "nvvm")
          options.output = PipelineOptions::Output::NVVM;
        else if (cl.output == "ptx")
          options.output = PipelineOptions::Output::PTX;
        else
          options.output = PipelineOptions::Output::Cubin;
        buildPipeline(pm, options);
      });
}
