//===- tilec.cpp - The tilec compiler driver ------------------------------===//
//
//   tilec kernel.mlir -o kernel.cubin [--emit=mlir|llvm|ptx|cubin]
//         [--arch=sm_80|sm_90|sm_90a] [-O0..3]
//
// A thin driver over the compiler library: it parses flags, reads the input,
// and hands the pass manager to the standard MLIR debugging options.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/ModuleCompiler.h"
#include "tilec/Pipeline/Pipeline.h"
#include "tilec/Pipeline/Registration.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace cl = llvm::cl;

static cl::OptionCategory tilecCategory("tilec options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir, - for stdin>"),
                                          cl::init("-"), cl::cat(tilecCategory));

static cl::opt<std::string>
    outputFilename("o", cl::desc("Output file (- for stdout; default: the "
                                 "input name with the emitted extension)"),
                   cl::value_desc("file"), cl::init(""),
                   cl::cat(tilecCategory));

static cl::opt<tilec::EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(tilec::EmitKind::Cubin),
    cl::values(clEnumValN(tilec::EmitKind::MLIR, "mlir",
                          "MLIR after lowering to the NVVM dialect"),
               clEnumValN(tilec::EmitKind::LLVM, "llvm", "LLVM IR"),
               clEnumValN(tilec::EmitKind::PTX, "ptx", "PTX assembly"),
               clEnumValN(tilec::EmitKind::Cubin, "cubin",
                          "A cubin (via ptxas)")),
    cl::cat(tilecCategory));

static cl::opt<std::string> arch("arch",
                                 cl::desc("Target: sm_80, sm_90 or sm_90a"),
                                 cl::init("sm_90a"), cl::cat(tilecCategory));

static cl::opt<char> optLevel("O", cl::desc("Optimisation level, -O0 .. -O3"),
                              cl::Prefix, cl::init('3'),
                              cl::cat(tilecCategory));

static cl::opt<bool>
    lineInfo("lineinfo",
             cl::desc("Source line info in PTX (.loc) and SASS (ptxas "
                      "-lineinfo), for profilers' source views"),
             cl::init(false), cl::cat(tilecCategory));

static cl::opt<bool> alignedCopyKernels(
    "aligned-copy-kernels",
    cl::desc("Give kernels copied by the threads an element-copy twin and "
             "every cp.async width: faster on buffers whose rows are 4- or "
             "8-byte aligned (a bf16 matmul with K = 4100 or 4098), at 2.4 to "
             "3.3 times the compile time"),
    cl::init(false), cl::cat(tilecCategory));

static cl::opt<bool> producerWarp(
    "producer-warp",
    cl::desc("Warpgroup-MMA matmuls: a producer warp issues the bulk copies "
             "(the tile threads meet on barriers per pipeline slot, not on a "
             "block barrier each K step), blocks walk the tiles "
             "persistently, in clusters of two sharing B by multicast; "
             "attention on two warpgroups: a producer feeds the key loops, "
             "handing its registers over (but in the short-rows variant), "
             "with ping-pong the default at d128 above 512 query rows, "
             "causal above 1024 "
             "(on by default; "
             "--producer-warp=false for none of it)"),
    cl::init(true), cl::cat(tilecCategory));

static cl::list<std::string>
    xptxas("Xptxas", cl::desc("Pass an option to ptxas (repeatable)"),
           cl::value_desc("option"), cl::cat(tilecCategory));

static cl::list<std::string>
    kernels("kernels",
            cl::desc("Compile only these kernels (and the kernels they name "
                     "by tile.then), e.g. one variant"),
            cl::CommaSeparated, cl::value_desc("name,..."),
            cl::cat(tilecCategory));

static cl::opt<bool> mainKernelsOnly(
    "main-kernels-only",
    cl::desc("Compile only the kernels no kernel names as a variant "
             "(fallback, small-grid, narrow), as the JIT does at load"),
    cl::init(false), cl::cat(tilecCategory));

static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass (by default only between the "
             "pipeline's stages), to find the pass that broke it"),
    cl::init(false), cl::cat(tilecCategory));

static cl::opt<bool>
    progress("progress",
             cl::desc("Say on stderr what a compile longer than 2 s is "
                      "doing (on by default when stderr is a terminal)"),
             cl::init(false), cl::cat(tilecCategory));

namespace {

/// Reports a long compile on stderr: after 2 s, then every 5 s, the time so
/// far and the pass that started last (passes run on several threads; any
/// of them says where the compile is).
class ProgressReport : public PassInstrumentation {
public:
  explicit ProgressReport(std::string input)
      : input(std::move(input)), start(Clock::now()),
        reporter([this] { report(); }) {}
  ~ProgressReport() override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    wake.notify_all();
    reporter.join();
  }
  void runBeforePass(Pass *pass, Operation *) override {
    std::lock_guard<std::mutex> lock(mutex);
    current = pass->getName().str();
  }

private:
  using Clock = std::chrono::steady_clock;

  void report() {
    std::unique_lock<std::mutex> lock(mutex);
    Clock::time_point next = start + std::chrono::seconds(2);
    while (!wake.wait_until(lock, next, [this] { return done; })) {
      auto seconds =
          std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start);
      llvm::errs() << "tilec: " << input << ": " << seconds.count()
                   << " s so far, in " << current << "\n";
      next += std::chrono::seconds(5);
    }
  }

  std::string input;
  Clock::time_point start;
  std::mutex mutex;
  std::condition_variable wake;
  std::string current = "parsing";
  bool done = false;
  std::thread reporter; // last: starts once the rest is set up
};

} // namespace

static const char *defaultExtension(tilec::EmitKind kind) {
  switch (kind) {
  case tilec::EmitKind::MLIR:
    return ".nvvm.mlir";
  case tilec::EmitKind::LLVM:
    return ".ll";
  case tilec::EmitKind::PTX:
    return ".ptx";
  case tilec::EmitKind::Cubin:
    return ".cubin";
  }
  return ".out";
}

static std::string outputPath() {
  if (!outputFilename.empty())
    return outputFilename;
  if (inputFilename == "-")
    return "-";
  llvm::SmallString<128> path(llvm::sys::path::filename(inputFilename));
  llvm::sys::path::replace_extension(path, defaultExtension(emitKind));
  return std::string(path);
}

static LogicalResult run() {
  if (optLevel < '0' || optLevel > '3') {
    llvm::errs() << "tilec: error: invalid optimisation level -O" << optLevel
                 << "; expected -O0 .. -O3\n";
    return failure();
  }
  if (std::string error = tilec::checkArch(arch); !error.empty()) {
    llvm::errs() << "tilec: error: " << error << "\n";
    return failure();
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << "tilec: error: " << errorMessage << "\n";
    return failure();
  }

  DialectRegistry registry;
  tilec::registerDialects(registry);
  // Threads: a module's kernels run the per-function passes and become PTX
  // in parallel (tile-module-to-cubin).
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = tilec::parseModule(sourceMgr, &context);
  if (!module)
    return failure();

  tilec::CompileOptions options;
  options.arch = arch;
  options.optLevel = optLevel - '0';
  options.emit = emitKind;
  options.bufferName = inputFilename;
  options.lineInfo = lineInfo;
  options.alignedCopyKernels = alignedCopyKernels;
  options.producerWarp = producerWarp;
  options.ptxasOptions = llvm::join(xptxas, " ");
  options.kernels.assign(kernels.begin(), kernels.end());
  options.mainKernelsOnly = mainKernelsOnly;
  options.verifyEachPass = verifyEach;

  std::string artifact;
  llvm::raw_string_ostream os(artifact);
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope timingScope = timing.getRootScope();
  auto configure = [&](PassManager &pm) -> LogicalResult {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    pm.enableTiming(timingScope);
    if (progress || llvm::sys::Process::StandardErrIsDisplayed())
      pm.addInstrumentation(std::make_unique<ProgressReport>(inputFilename));
    return success();
  };
  if (failed(tilec::compileModule(*module, options, os, configure)))
    return failure();

  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputPath(), &errorMessage);
  if (!output) {
    llvm::errs() << "tilec: error: " << errorMessage << "\n";
    return failure();
  }
  output->os() << artifact;
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Before the pass manager's options: --mlir-print-ir-before/after=<pass>
  // take the names registered when they are made.
  tilec::registerPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << tilec::versionString() << "\n";
  });
  cl::HideUnrelatedOptions({&tilecCategory});
  // The MLIR debugging flags the overview mentions stay out of --help but
  // are listed by --help-hidden; the rest of LLVM's are not listed.
  for (auto &entry : cl::getRegisteredOptions())
    if (entry.first.starts_with("mlir-"))
      entry.second->setHiddenFlag(cl::Hidden);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tilec: compiles tile kernels to cubins for NVIDIA GPUs\n\n"
      "  tilec kernel.mlir -o kernel.cubin\n\n"
      "The standard MLIR debugging flags (--mlir-print-ir-after-all,\n"
      "--mlir-timing, --mlir-print-ir-before=<pass>, ...) are accepted;\n"
      "--help-hidden lists them.\n");
  return failed(run()) ? 1 : 0;
}
