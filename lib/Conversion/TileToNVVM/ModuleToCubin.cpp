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
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
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
// Partitions
//===----------------------------------------------------------------------===//

/// Whether PTX keeps `op` inside its file: internal and private symbols are
/// not `.visible`, so each partition may hold its own copy.
static bool isFileLocal(Operation *op) {
  auto isLocal = [](LLVM::Linkage linkage) {
    return linkage == LLVM::Linkage::Internal ||
           linkage == LLVM::Linkage::Private;
  };
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
    return isLocal(func.getLinkage());
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return isLocal(global.getLinkage());
  return false;
}

/// Whether `op` only declares a symbol defined elsewhere: each partition
/// may declare it again. The dynamic shared memory, which every kernel
/// with a TMA or cp.async pipeline addresses, is one (`.extern .shared
/// ... __dynamic_shmem__0[]` in PTX).
static bool isDeclaration(Operation *op) {
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
    return func.isExternal();
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return global.getLinkage() == LLVM::Linkage::External &&
           !global.getValueOrNull() && global.getInitializerRegion().empty();
  return false;
}

static bool isKernel(Operation &op) {
  return op.hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName());
}

/// The module-level ops that `root` reaches through symbol uses in its
/// body, `root` included. Attributes on a symbol op itself are not uses:
/// a kernel's links to its variants (tile.fallback, ...) only name them.
static llvm::SetVector<Operation *> reachedFrom(Operation *root,
                                               SymbolTable &symbols) {
  llvm::SetVector<Operation *> reached;
  SmallVector<Operation *> worklist{root};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!reached.insert(op))
      continue;
    op->walk([&](Operation *nested) {
      if (nested == op)
        return;
      for (NamedAttribute attr : nested->getAttrs())
        attr.getValue().walk([&](SymbolRefAttr ref) {
          if (Operation *target = symbols.lookup(ref.getRootReference()))
            worklist.push_back(target);
        });
    });
  }
  return reached;
}

/// Balances groups of kernels over at most `maxParts` partitions, the
/// heaviest group first onto the lightest partition.
static SmallVector<SmallVector<unsigned>>
balance(ArrayRef<SmallVector<unsigned>> groups, ArrayRef<int64_t> weights,
        unsigned maxParts) {
  unsigned parts = groups.size();
  if (maxParts)
    parts = std::min(parts, maxParts);
  SmallVector<unsigned> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return weights[a] > weights[b];
  });
  SmallVector<SmallVector<unsigned>> assigned(parts);
  SmallVector<int64_t> load(parts, 0);
  for (unsigned group : order) {
    unsigned lightest = std::min_element(load.begin(), load.end()) -
                        load.begin();
    llvm::append_range(assigned[lightest], groups[group]);
    load[lightest] += weights[group];
  }
  for (SmallVector<unsigned> &part : assigned)
    llvm::sort(part); // kernels in their module order
  return assigned;
}

SmallVector<gpu::GPUModuleOp> splitKernels(gpu::GPUModuleOp gpuModule,
                                           unsigned maxPartitions,
                                           ModuleOp holder) {
  SymbolTable symbols(gpuModule);
  SmallVector<Operation *> kernels;
  for (Operation &op : gpuModule.getBody()->getOperations())
    if (isKernel(op))
      kernels.push_back(&op);

  // Kernels that reach one public symbol must be in one partition: PTX
  // may define it only once (but declare it in every file).
  SmallVector<llvm::SetVector<Operation *>> reached;
  llvm::EquivalenceClasses<unsigned> together;
  DenseMap<Operation *, unsigned> firstReacher;
  for (auto [i, kernel] : llvm::enumerate(kernels)) {
    reached.push_back(reachedFrom(kernel, symbols));
    together.insert(i);
    for (Operation *op : reached.back()) {
      if (isFileLocal(op) || isDeclaration(op))
        continue;
      auto [it, fresh] = firstReacher.try_emplace(op, i);
      if (!fresh)
        together.unionSets(it->second, i);
    }
  }
  SmallVector<SmallVector<unsigned>> groups;
  SmallVector<int64_t> weights;
  DenseMap<unsigned, unsigned> groupOfLeader;
  for (unsigned i = 0; i < kernels.size(); ++i) {
    unsigned leader = together.getLeaderValue(i);
    auto [it, fresh] = groupOfLeader.try_emplace(leader, groups.size());
    if (fresh) {
      groups.emplace_back();
      weights.push_back(0);
    }
    groups[it->second].push_back(i);
    kernels[i]->walk([&](Operation *) { ++weights[it->second]; });
  }
  if (groups.empty())
    groups.emplace_back(), weights.push_back(0);
  SmallVector<SmallVector<unsigned>> parts =
      balance(groups, weights, maxPartitions);

  // Each partition: its kernels' reached ops, in module order; the first
  // also takes what no kernel reaches (launch metadata, unused functions).
  DenseSet<Operation *> reachedByAny;
  for (const llvm::SetVector<Operation *> &set : reached)
    reachedByAny.insert(set.begin(), set.end());
  OpBuilder builder = OpBuilder::atBlockEnd(holder.getBody());
  SmallVector<gpu::GPUModuleOp> partitions;
  for (auto [index, part] : llvm::enumerate(parts)) {
    DenseSet<Operation *> wanted;
    for (unsigned kernel : part)
      wanted.insert(reached[kernel].begin(), reached[kernel].end());
    auto partition =
        cast<gpu::GPUModuleOp>(builder.insert(gpuModule->cloneWithoutRegions()));
    Block *body = &partition.getBodyRegion().emplaceBlock();
    OpBuilder inside = OpBuilder::atBlockEnd(body);
    for (Operation &op : gpuModule.getBody()->getOperations())
      if (wanted.contains(&op) || (index == 0 && !reachedByAny.contains(&op)))
        inside.clone(op);
    partitions.push_back(partition);
  }
  return partitions;
}

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
      numKernels += llvm::count_if(gpuModule.getBody()->getOperations(),
                                   [](Operation &op) { return isKernel(op); });
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
