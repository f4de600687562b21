//===- Compiler.cpp - tilec as a library ----------------------------------===//

#include "tilec/Compiler/Compiler.h"
#include "tilec/Compiler/ModuleCompiler.h"
#include "tilec/Compiler/SourceGuards.h"
#include "tilec/Pipeline/Pipeline.h"
#include "tilec/Pipeline/Registration.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace tilec {

const char *versionString() {
  return "tilec " TILEC_VERSION " (MLIR " TILEC_MLIR_VERSION ")";
}

static PipelineOptions::Output pipelineOutput(EmitKind emit) {
  switch (emit) {
  case EmitKind::PTX:
    return PipelineOptions::Output::PTX;
  case EmitKind::Cubin:
    return PipelineOptions::Output::Cubin;
  case EmitKind::MLIR:
  case EmitKind::LLVM:
    return PipelineOptions::Output::NVVM;
  }
  return PipelineOptions::Output::Cubin;
}

/// Writes the PTX or cubin held by the module's gpu.binary.
static LogicalResult writeBinary(ModuleOp module, raw_ostream &os) {
  SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
  if (binaries.size() != 1)
    return module.emitError("expected one gpu.binary after the pipeline, got ")
           << binaries.size();
  ArrayAttr objects = binaries.front().getObjects();
  if (objects.size() != 1)
    return binaries.front().emitError("expected one object, got ")
           << objects.size();
  os << cast<gpu::ObjectAttr>(objects[0]).getObject().getValue();
  return success();
}

/// Writes the LLVM IR of every device module.
static LogicalResult writeLLVMIR(ModuleOp module, raw_ostream &os) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(gpuModule, llvmContext, gpuModule.getName());
    if (!llvmModule)
      return gpuModule.emitError("translation to LLVM IR failed");
    llvmModule->print(os, nullptr);
  }
  return success();
}

/// The pipeline makes one binary: from the module's tile kernels and
/// descriptions, or from one gpu.module given as it is.
static LogicalResult checkCompilable(ModuleOp module) {
  size_t gpuModules = llvm::range_size(module.getOps<gpu::GPUModuleOp>());
  bool tileOps = llvm::any_of(module.getOps(), [](Operation &op) {
    return op.getDialect() && op.getDialect()->getNamespace() == "tile";
  });
  if (gpuModules == 0 && !tileOps)
    return module.emitError("nothing to compile: expected tile kernels or "
                            "descriptions (tile.kernel, tile.matmul, "
                            "tile.scan, tile.attention) or one gpu.module");
  if (gpuModules > 1)
    return module.emitError("expected at most one gpu.module, got ")
           << gpuModules << "; tilec makes one binary a file";
  // A device module holds definitions: an op outside any function (a stray
  // gpu.barrier, say) would crash the translation to LLVM IR.
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    for (Operation &op : gpuModule.getBody()->without_terminator())
      if (!isa<SymbolOpInterface>(op))
        return op.emitOpError("cannot stand directly in a gpu.module: only "
                              "functions and globals can");
  // LLVM's NVPTX printer aborts on a global in an address space PTX has no
  // state space for (found by the fuzzer at -O0, where the unused global
  // is not dropped first).
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    for (auto global : gpuModule.getOps<LLVM::GlobalOp>())
      if (unsigned space = global.getAddrSpace();
          space != 0 && space != 1 && space != 3 && space != 4)
        return global.emitOpError("address space ")
               << space
               << " has no PTX state space for a global: use 1 (global), 3 "
                  "(shared) or 4 (constant)";
  // MLIR 22's canonicalizer crashes folding a memref.dim whose constant
  // index is negative (SimplifyDimOfAllocOp); such an index is an error.
  WalkResult badDim = module.walk([](memref::DimOp dim) {
    std::optional<int64_t> index = dim.getConstantIndex();
    auto type = dyn_cast<MemRefType>(dim.getSource().getType());
    if (!index || !type || (*index >= 0 && *index < type.getRank()))
      return WalkResult::advance();
    dim.emitOpError("index ") << *index << " is out of range for a rank-"
                              << type.getRank() << " memref";
    return WalkResult::interrupt();
  });
  return failure(badDim.wasInterrupted());
}

LogicalResult
compileModule(ModuleOp module, const CompileOptions &options, raw_ostream &os,
              function_ref<LogicalResult(PassManager &)> configure) {
  if (std::string error = checkArch(options.arch); !error.empty())
    return module.emitError(error);
  if (options.optLevel < 0 || options.optLevel > 3)
    return module.emitError("optimisation level must be 0..3, got ")
           << options.optLevel;

  if (failed(checkCompilable(module)))
    return failure();

  PipelineOptions pipeline;
  pipeline.arch = options.arch;
  pipeline.optLevel = static_cast<unsigned>(options.optLevel);
  pipeline.output = pipelineOutput(options.emit);
  pipeline.lineInfo = options.lineInfo;
  pipeline.alignedCopyKernels = options.alignedCopyKernels;
  pipeline.producerWarp = options.producerWarp;
  pipeline.kernels = options.kernels;
  pipeline.mainKernelsOnly = options.mainKernelsOnly;
  pipeline.ptxasOptions = options.ptxasOptions;
  pipeline.dumpDirectory = options.dumpDirectory;
  PassManager pm(module.getContext());
  // The pipeline verifies between its stages (tile-verify-stage).
  pm.enableVerifier(options.verifyEachPass);
  buildPipeline(pm, pipeline);
  if (configure && failed(configure(pm)))
    return failure();
  // The dump folder also keeps the IR after every pass.
  std::unique_ptr<llvm::raw_fd_ostream> passLog;
  if (!options.dumpDirectory.empty()) {
    std::error_code error =
        llvm::sys::fs::create_directories(options.dumpDirectory);
    if (!error)
      passLog = std::make_unique<llvm::raw_fd_ostream>(
          options.dumpDirectory + "/passes.mlir", error);
    if (error)
      return module.emitError("cannot write to the dump folder ")
             << options.dumpDirectory << ": " << error.message();
    pm.enableIRPrinting([](Pass *, Operation *) { return false; },
                        [](Pass *, Operation *) { return true; },
                        /*printModuleScope=*/false,
                        /*printAfterOnlyOnChange=*/false,
                        /*printAfterOnlyOnFailure=*/false, *passLog);
  }
  // Some upstream stages report an error yet succeed (a missing CUDA path
  // while emitting PTX); any error fails the compilation.
  bool sawError = false;
  ScopedDiagnosticHandler errorWatch(module.getContext(), [&](Diagnostic &d) {
    sawError |= d.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // let the caller's handler print it
  });
  if (failed(pm.run(module)) || sawError)
    return failure();

  switch (options.emit) {
  case EmitKind::MLIR:
    module.print(os);
    os << "\n";
    return success();
  case EmitKind::LLVM:
    return writeLLVMIR(module, os);
  case EmitKind::PTX:
  case EmitKind::Cubin:
    return writeBinary(module, os);
  }
  return failure();
}

OwningOpRef<ModuleOp> parseModule(llvm::SourceMgr &sourceMgr,
                                  MLIRContext *context) {
  if (failed(checkSourceGuards(sourceMgr, context)))
    return nullptr;
  return parseSourceFile<ModuleOp>(sourceMgr, context);
}

CompileResult compile(std::string_view source, const CompileOptions &options) {
  DialectRegistry registry;
  registerDialects(registry);
  // Threads: a module's kernels run the per-function passes and become PTX
  // in parallel (tile-module-to-cubin).
  MLIRContext context(registry);
  // Diagnostics point at the user's source; a dump of the op adds nothing.
  context.printOpOnDiagnostic(false);

  CompileResult result;
  llvm::raw_string_ostream diagnostics(result.diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(source.data(), source.size()), options.bufferName),
      llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseModule(sourceMgr, &context);
  if (!module)
    return result;
  llvm::raw_string_ostream output(result.output);
  result.ok = succeeded(compileModule(*module, options, output));
  if (!result.ok)
    result.output.clear();
  return result;
}

} // namespace tilec
