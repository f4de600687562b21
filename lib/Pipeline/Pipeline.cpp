//===- Pipeline.cpp - The tilec pass pipeline -----------------------------===//

#include "tilec/Pipeline/Pipeline.h"
#include "tilec/Conversion/Passes.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace tilec {

std::string checkArch(llvm::StringRef arch) {
  if (arch == "sm_80" || arch == "sm_90" || arch == "sm_90a")
    return "";
  // Say what is missing for the GPUs people have.
  unsigned version = 0;
  llvm::StringRef digits = arch;
  std::string why;
  if (digits.consume_front("sm_") && !digits.rtrim('a').getAsInteger(10, version)) {
    if (version < 80)
      why = ": tilec's kernels need sm_80's cp.async and 16-bit mma.sync";
    else if (version < 90)
      why = ": use sm_80, whose cubins run on every 8.x GPU";
    else if (version >= 120)
      why = ": GeForce Blackwell has no warpgroup MMA and 99 KiB of shared "
            "memory a block, less than tilec's schedules take (163-227 KiB), "
            "and no schedules of its own yet";
    else if (version >= 100)
      why = ": Blackwell's tensor-core instructions (tcgen05, tensor memory) "
            "have no lowering in tilec yet";
  }
  return ("unsupported arch '" + arch + "'" + why +
          "; expected sm_80, sm_90 or sm_90a")
      .str();
}

/// PTX ISA 8.0 is the first with sm_90a; CUDA 12+ ptxas accepts it for all
/// our targets.
static constexpr const char *kPtxFeatures = "+ptx80";

void buildPipeline(OpPassManager &pm, const PipelineOptions &options) {
  // Descriptions -> block programs -> per-thread GPU code (target-neutral).
  // Hopper's arch-specific features bring warpgroup MMA (wgmma), which
  // reads operands from swizzled panels with its own tile schedule.
  bool warpgroupMma = options.arch == "sm_90a";
  // sm_90 and sm_90a: TMA, the async proxy, 227 KB of shared memory.
  bool hopper = options.arch != "sm_80";
  TileTilingOptions tiling;
  tiling.warpgroupMma = warpgroupMma;
  // Shapes are known only at launch: unhinted matmuls carry a smaller-tile
  // kernel that the runtime picks for grids too small to fill the GPU.
  tiling.smallGridVariants = true;
  tiling.producerWarp = options.producerWarp;
  pm.addPass(createTileTiling(tiling));
  pm.addPass(createConvertTileKernelsToGPU());
  pm.addPass(createTileVerifyStage({"tiled"}));
  OpPassManager &gpuModulePM = pm.nest<gpu::GPUModuleOp>();
  // Hopper stages warpgroup-MMA operands with TMA, and keeps a twin staged
  // by the threads for buffers TMA cannot describe, where the runtime does
  // not copy them.
  if (warpgroupMma)
    gpuModulePM.addPass(createTileBulkCopyFallback());
  OpPassManager &stagingPM = gpuModulePM.nest<gpu::GPUFuncOp>();
  TilePromoteSharedOptions promotion;
  promotion.swizzle = warpgroupMma;
  promotion.bulkCopies = warpgroupMma;
  stagingPM.addPass(createTileStageWindows());
  stagingPM.addPass(createTilePromoteShared(promotion));
  stagingPM.addPass(createTileVectorize());
  // Sources aligned for cp.async and sources that are not go to different
  // kernels, picked by the runtime.
  if (options.alignedCopyKernels)
    gpuModulePM.addPass(createTileElementCopyFallback());
  // Every variant exists from here on; the JIT lowers only what a launch
  // needs.
  if (!options.kernels.empty() || options.mainKernelsOnly) {
    TileSelectKernelsOptions select;
    select.kernels.assign(options.kernels.begin(), options.kernels.end());
    select.mainOnly = options.mainKernelsOnly;
    gpuModulePM.addPass(createTileSelectKernels(select));
  }
  // Function-local passes nest on the kernels, which the pass manager
  // runs in parallel; on the module they would take them one by one.
  OpPassManager &mappedPM = gpuModulePM.nest<gpu::GPUFuncOp>();
  // setmaxnreg is sm_90a's: elsewhere a producer keeps its one warp.
  TileMapWarpsOptions mapping;
  mapping.registerHandover = warpgroupMma;
  mapping.bulkCopies = hopper;
  mappedPM.addPass(createTileMapWarps(mapping));
  mappedPM.addPass(createCanonicalizerPass());
  mappedPM.addPass(createCSEPass());
  mappedPM.addPass(createTileReuseStagedMemory());

  // NVIDIA-specific from here on.
  // Programmatic dependent launch (griddepcontrol) came with sm_90.
  if (hopper)
    gpuModulePM.addPass(createTileDependentLaunch());
  // The most dynamic shared memory a block may opt into: 163 KB on sm_80
  // (A100), 227 KB on sm_90 (H100, H200).
  gpuModulePM.addPass(createTileEmitLaunchMetadata(
      {/*maxSharedBytes=*/hopper ? 232448 : 166912}));
  gpuModulePM.addPass(createTileOccupancyHints());
  pm.addPass(createTileVerifyStage({"mapped"}));
  // The module-level lowering below converts a module on one thread: on
  // its kernels apart, the pass manager runs it on all cores.
  pm.addPass(createTileSplitKernelModules());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.arch;
  target.features = kPtxFeatures;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &lowerPM = pm.nest<gpu::GPUModuleOp>();
  OpPassManager &kernelLowerPM = lowerPM.nest<gpu::GPUFuncOp>();
  // Subviews of staged tiles become plain pointer arithmetic.
  kernelLowerPM.addPass(memref::createExpandStridedMetadataPass());
  kernelLowerPM.addPass(createLowerAffinePass());
  kernelLowerPM.addPass(createSCFToControlFlowPass());
  // Before the GPU conversion, which would send them to libdevice.
  kernelLowerPM.addPass(createTileApproxMathToNVVM());
  // nvgpu before the GPU conversion: it lowers memref operands the GPU
  // conversion would change.
  lowerPM.addPass(createConvertNVGPUToNVVMPass());
  lowerPM.addPass(createConvertGpuOpsToNVVMOps());
  lowerPM.addPass(createTileExternDynamicShared());
  lowerPM.addPass(createTileTensorMapParams());
  // wgmma and proxy fences have no LLVM intrinsic: they become inline PTX.
  OpPassManager &llvmFuncPM = lowerPM.nest<LLVM::LLVMFuncOp>();
  llvmFuncPM.addPass(createConvertNVVMToLLVMPass());
  llvmFuncPM.addPass(createCanonicalizerPass());
  llvmFuncPM.addPass(createCSEPass());
  lowerPM.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createTileJoinKernelModules());
  pm.addPass(createTileVerifyStage({"nvvm"}));

  // Line info: each llvm.func gets a debug scope, so that the translation
  // to LLVM IR carries the ops' file:line locations and NVPTX writes them
  // as .loc directives (no DWARF: what nvcc -lineinfo gives).
  if (options.lineInfo) {
    LLVM::DIScopeForLLVMFuncOpPassOptions scopes;
    scopes.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopes));
  }
  if (options.output == PipelineOptions::Output::NVVM)
    return;
  std::string toolkit = options.cudaToolkitPath.empty()
                            ? findCudaToolkit()
                            : options.cudaToolkitPath;
  if (options.output == PipelineOptions::Output::PTX) {
    GpuModuleToBinaryPassOptions binary;
    binary.toolkitPath = toolkit;
    binary.compilationTarget = "isa";
    pm.addPass(createGpuModuleToBinaryPass(binary));
    return;
  }
  // Cubins: the kernels' PTX in parallel, then one ptxas run over all of it
  // (--split-compile: ptxas's optimisation on every core too; the SASS is
  // that of a one-thread compile).
  TileModuleToCubinOptions cubin;
  cubin.toolkitPath = toolkit;
  cubin.ptxasThreads = options.ptxasThreads;
  cubin.ptxasOptions =
      (options.lineInfo ? "-lineinfo " : "") + options.ptxasOptions;
  cubin.dumpDirectory = options.dumpDirectory;
  pm.addPass(createTileModuleToCubin(cubin));
}

} // namespace tilec
