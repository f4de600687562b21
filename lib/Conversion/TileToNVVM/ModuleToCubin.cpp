//===- ModuleToCubin.cpp - Parallel PTX, one ptxas run --------------------===//
//
// LLVM's NVPTX back end and ptxas take most of a compile, and one module's
// kernels go through them one after the other. Here the kernels are split
// into partitions whose PTX is made in parallel by the NVVM target's own
// serialization; ptxas then takes all the PTX files at once, as one whole
// program (relocatable objects linked by nvlink would make ptxas serialise
// wgmma around calls to the 64-bit division helpers, so they are not used).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/Threading.h"

namespace tilec {
#define GEN_PASS_DEF_TILEMODULETOCUBIN
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace tilec {

//===----------------------------------------------------------------------===//
// PTX and ptxas
//===----------------------------------------------------------------------===//

/// Temporary files, removed when this goes out of scope.
class TemporaryFiles {
public:
  ~TemporaryFiles() {
    for (const std::string &path : paths)
      llvm::sys::fs::remove(path);
  }
  FailureOr<std::string> create(StringRef suffix) {
    SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("tilec", suffix, path))
      return failure();
    paths.push_back(std::string(path));
    return paths.back();
  }

private:
  SmallVector<std::string> paths;
};

static LogicalResult writeFile(StringRef path, ArrayRef<char> bytes) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error)
    return failure();
  os.write(bytes.data(), bytes.size());
  return success(!os.has_error());
}

/// A toolkit directory must hold the ptxas that tilec runs.
static bool hasPtxas(llvm::StringRef dir) {
  llvm::SmallString<128> ptxas(dir);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  return llvm::sys::fs::can_execute(ptxas);
}

std::string findCudaToolkit() {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *dir = std::getenv(var); dir && hasPtxas(dir))
      return dir;
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    return llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
        .str();
  return "/usr/local/cuda";
}

/// Runs ptxas on `ptxFiles` as one program; the cubin, or an error with
/// ptxas's log.
static FailureOr<std::string>
assemble(gpu::GPUModuleOp gpuModule, NVVM::NVVMTargetAttr target,
         ArrayRef<std::string> ptxFiles, const CubinOptions &options,
         TemporaryFiles &temporaries) {
  SmallString<128> ptxas(options.toolkitPath.empty() ? findCudaToolkit()
                                                     : options.toolkitPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  FailureOr<std::string> cubin = temporaries.create("cubin");
  FailureOr<std::string> log =
      options.dumpDirectory.empty()
          ? temporaries.create("log")
          : FailureOr<std::string>(options.dumpDirectory + "/ptxas.log");
  if (failed(cubin) || failed(log))
    return emitError(gpuModule.getLoc(), "cannot create temporary files for ptxas");

  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  SmallVector<const char *> extra;
  llvm::cl::TokenizeGNUCommandLine(options.ptxasOptions, saver, extra);
  std::string optLevel = std::to_string(target.getO());
  std::string threads = "--split-compile=" + std::to_string(options.ptxasThreads);
  SmallVector<StringRef> args = {"ptxas", "-arch", target.getChip(),
                                 "--opt-level", optLevel, threads};
  if (!options.dumpDirectory.empty())
    args.push_back("-v"); // registers, spills and stack in the kept log
  for (const char *option : extra)
    args.push_back(option);
  llvm::append_range(args, ptxFiles);
  args.append({"-o", *cubin});

  std::string message;
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(*log),
                                          StringRef(*log)};
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0) {
    auto logText = llvm::MemoryBuffer::getFile(*log);
    return emitError(gpuModule.getLoc(), "`ptxas` invocation failed")
           << (message.empty() ? "" : ": ") << message << ". Log:\n"
           << (logText ? (*logText)->getBuffer() : "");
  }
  auto bytes = llvm::MemoryBuffer::getFile(*cubin, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes)
    return emitError(gpuModule.getLoc(), "cannot read ptxas's output ") << *cubin;
  return (*bytes)->getBuffer().str();
}

FailureOr<std::string> compileToCubin(gpu::GPUModuleOp gpuModule,
                                      const CubinOptions &options,
                                      unsigned *numPartitions) {
  ArrayAttr targets = gpuModule.getTargetsAttr();
  auto target = targets && targets.size() == 1
                    ? dyn_cast<NVVM::NVVMTargetAttr>(targets[0])
                    : NVVM::NVVMTargetAttr();
  if (!target)
    return emitError(gpuModule.getLoc(), "expected one #nvvm.target on the module");

  OwningOpRef<ModuleOp> holder = ModuleOp::create(gpuModule.getLoc());
  SmallVector<gpu::GPUModuleOp> partitions =
      splitKernels(gpuModule, options.maxPartitions, *holder);
  if (numPartitions)
    *numPartitions = partitions.size();


  // The NVVM target's serialization, stopped at PTX, one partition a
  // thread (one after the other if the context has no threads).
  gpu::TargetOptions toPtx(options.toolkitPath, {}, "", "",
                           gpu::CompilationTarget::Assembly);
  auto serializer = cast<gpu::TargetAttrInterface>(target);
  SmallVector<std::optional<SmallVector<char, 0>>> ptx(partitions.size());
  if (failed(failableParallelForEach(
          gpuModule.getContext(), llvm::seq<size_t>(0, partitions.size()),
          [&](size_t i) {
            ptx[i] = serializer.serializeToObject(partitions[i], toPtx);
            return success(ptx[i].has_value());
          })))
    return emitError(gpuModule.getLoc(), "PTX generation failed");

  TemporaryFiles temporaries;
  if (!options.dumpDirectory.empty() &&
      llvm::sys::fs::create_directories(options.dumpDirectory))
    return emitError(gpuModule.getLoc(), "cannot create the dump folder ")
           << options.dumpDirectory;
  SmallVector<std::string> ptxFiles;
  for (auto [index, text] : llvm::enumerate(ptx)) {
    // The assembly may end with a NUL, which ptxas would read as text.
    ArrayRef<char> bytes(*text);
    while (!bytes.empty() && bytes.back() == '\0')
      bytes = bytes.drop_back();
    FailureOr<std::string> path =
        options.dumpDirectory.empty()
            ? temporaries.create("ptx")
            : FailureOr<std::string>(options.dumpDirectory + "/ptx-" +
                                     std::to_string(index) + ".ptx");
    if (failed(path) || failed(writeFile(*path, bytes)))
      return emitError(gpuModule.getLoc(), "cannot write PTX to a temporary file");
    ptxFiles.push_back(*path);
  }
  return assemble(gpuModule, target, ptxFiles, options, temporaries);
}

namespace {

struct TileModuleToCubin
    : impl::TileModuleToCubinBase<TileModuleToCubin> {
  using Base::Base;

  void runOnOperation() override {
    CubinOptions options{toolkitPath, maxPartitions, ptxasThreads,
                         ptxasOptions, dumpDirectory};
    SmallVector<gpu::GPUModuleOp> modules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : modules) {
      numKernels +=
          llvm::count_if(gpuModule.getBody()->getOperations(),
                         [](Operation &op) { return isKernelFunction(op); });
      unsigned partitions = 0;
      FailureOr<std::string> cubin =
          compileToCubin(gpuModule, options, &partitions);
      numPartitions += partitions;
      if (failed(cubin))
        return signalPassFailure();
      replaceWithBinary(gpuModule, *cubin);
    }
  }

  /// gpu.binary @name [#gpu.object<target, bin = cubin>], made by the
  /// target so that its properties are those gpu-module-to-binary gives.
  void replaceWithBinary(gpu::GPUModuleOp gpuModule, StringRef cubin) {
    Attribute target = gpuModule.getTargetsAttr()[0];
    SmallVector<char, 0> bytes(cubin.begin(), cubin.end());
    gpu::TargetOptions asBinary(toolkitPath, {}, "", "",
                                gpu::CompilationTarget::Binary);
    Attribute object = cast<gpu::TargetAttrInterface>(target).createObject(
        gpuModule, bytes, asBinary);
    OpBuilder builder(gpuModule);
    gpu::BinaryOp::create(builder, gpuModule.getLoc(), gpuModule.getName(),
                          gpuModule.getOffloadingHandlerAttr(),
                          ArrayRef<Attribute>{object});
    gpuModule.erase();
  }
};

} // namespace
} // namespace tilec
