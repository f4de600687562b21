//===- Pipeline.h - The tilec pass pipeline ---------------------*- C++ -*-===//
//
// One typed builder for the whole pipeline, shared by `tilec`, `tilec-opt`
// (as `--tilec-pipeline`) and the JIT. Stages, each followed by the
// verifier:
//
//   tile.kernel ──convert-tile-kernels-to-gpu──▶ gpu.func + tile ops
//     ──tile-map-warps──▶ gpu/scf/vector/memref (per-thread code)
//     ──tile-emit-launch-metadata, nvvm-attach-target──▶
//     ──convert-scf-to-cf, convert-gpu-to-nvvm──▶ NVVM + LLVM dialects
//     ──gpu-module-to-binary──▶ PTX or cubin (ptxas)
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINE_PIPELINE_H
#define TILEC_PIPELINE_PIPELINE_H

#include "tilec/Conversion/Passes.h" // findCudaToolkit

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>
#include <vector>

namespace tilec {

struct PipelineOptions {
  enum class Output {
    /// Stop after lowering to the NVVM and LLVM dialects.
    NVVM,
    /// A gpu.binary holding PTX.
    PTX,
    /// A gpu.binary holding a cubin.
    Cubin,
  };

  std::string arch = "sm_90a";
  unsigned optLevel = 3;
  Output output = Output::Cubin;
  /// Where ptxas and libdevice are; empty means the NVVM target's default
  /// search (PATH, CUDA_ROOT, ...).
  std::string cudaToolkitPath;
  /// Threads ptxas optimises the kernels of the module with
  /// (--split-compile): 0 means one per core, 1 one thread. The code is the
  /// same either way.
  unsigned ptxasThreads = 0;
  /// Further ptxas options, space-separated (tilec --Xptxas).
  std::string ptxasOptions;
  /// PTX carries .file/.loc directives pointing at the source's lines and
  /// ptxas keeps them (-lineinfo), for profilers' source views.
  bool lineInfo = false;
  /// Where tile-module-to-cubin leaves the PTX and ptxas's log; empty: no
  /// dump.
  std::string dumpDirectory;
  /// Kernels copied by the threads get an element-copy twin and every
  /// cp.async width (tile-element-copy-fallback): faster on buffers whose
  /// rows are 4- or 8-byte aligned, at 2.4 to 3.3 times the compile time.
  bool alignedCopyKernels = false;
  /// Warpgroup-MMA matmuls get a producer warp issuing their bulk copies
  /// (tilegpu.warp_roles) instead of a block barrier each K step, walk
  /// their tiles persistently, in clusters of two blocks sharing B.
  bool producerWarp = true;
  /// Lower only these kernels (and the kernels they name by tile.then);
  /// empty: every kernel (tile-select-kernels).
  std::vector<std::string> kernels;
  /// Lower only the kernels no kernel names as a variant (fallback,
  /// small-grid, narrow), and their then kernels: the JIT compiles the
  /// variants on first need.
  bool mainKernelsOnly = false;
};

/// The same options for textual pipelines:
///   --tilec-pipeline="arch=sm_90a opt-level=3 output=cubin"
struct PipelineCLOptions : mlir::PassPipelineOptions<PipelineCLOptions> {
  Option<std::string> arch{*this, "arch",
                           llvm::cl::desc("sm_80, sm_90 or sm_90a"),
                           llvm::cl::init("sm_90a")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("Optimisation level 0..3"),
                            llvm::cl::init(3)};
  Option<std::string> output{*this, "output",
                             llvm::cl::desc("nvvm, ptx or cubin"),
                             llvm::cl::init("cubin")};
  Option<std::string> cudaToolkitPath{
      *this, "cuda-toolkit", llvm::cl::desc("CUDA toolkit directory"),
      llvm::cl::init("")};
  Option<unsigned> ptxasThreads{
      *this, "ptxas-threads",
      llvm::cl::desc("ptxas --split-compile threads (0: one per core)"),
      llvm::cl::init(0)};
  Option<std::string> ptxasOptions{
      *this, "ptxas-options",
      llvm::cl::desc("Further ptxas options, space-separated"),
      llvm::cl::init("")};
  Option<bool> lineInfo{*this, "lineinfo",
                        llvm::cl::desc("Source line info in PTX and SASS"),
                        llvm::cl::init(false)};
  Option<bool> alignedCopyKernels{
      *this, "aligned-copy-kernels",
      llvm::cl::desc("Element-copy twins and every cp.async width "
                     "(tile-element-copy-fallback)"),
      llvm::cl::init(false)};
  Option<bool> producerWarp{
      *this, "producer-warp",
      llvm::cl::desc("A producer warp issues warpgroup-MMA matmuls' bulk "
                     "copies; persistent tiles in clusters of two"),
      llvm::cl::init(true)};
};

/// Adds the pipeline to `pm`, which must be anchored on builtin.module.
void buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Returns an empty string if `arch` is supported, else a message.
std::string checkArch(llvm::StringRef arch);

} // namespace tilec

#endif // TILEC_PIPELINE_PIPELINE_H
