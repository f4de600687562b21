//===- tilec-fuzz.cpp - libFuzzer target through the whole compiler -------===//
//
// Each input is tile source. It goes where `tilec -emit=ptx` and the JIT
// send it: the nesting and upstream-bug guards, the parser, the verifiers,
// then the whole pipeline down to PTX (the LLVM NVPTX back end included,
// ptxas not). Any outcome but a crash, a sanitizer report, a hang or an exit
// is a pass: the compiler must answer every input with PTX or located
// errors.
//
// The pipeline runs for both targets the passes distinguish: sm_90a (TMA
// and wgmma paths) at -O3, as users compile, and sm_80 (cp.async and
// mma.sync paths) at -O0. The optimisation level reaches only LLVM's NVPTX
// back end, whose -O3 passes take most of a compile (1.3 of 2.2 s for an
// attention description under ASan); at -O0 it still selects every
// instruction of the IR our passes made, for a third of the time.
//
// Most mutations of a valid input leave its module unchanged (a byte of a
// comment, of whitespace, of an SSA name). The pipeline is a function of the
// parsed module, so a module already compiled in this process is not
// compiled again; the parser and the verifiers still see every input. The
// counts of both kinds are printed at exit.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/ModuleCompiler.h"
#include "tilec/Pipeline/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/xxhash.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace mlir;

namespace {

struct Counts {
  uint64_t inputs = 0, parsed = 0, compiled = 0;
};
Counts counts;

void printCounts() {
  std::fprintf(stderr,
               "tilec-fuzz: %llu inputs, %llu parsed and verified, %llu "
               "distinct modules through the pipeline\n",
               (unsigned long long)counts.inputs,
               (unsigned long long)counts.parsed,
               (unsigned long long)counts.compiled);
}

/// The module as text, without locations: equal for inputs that differ
/// only in comments, spacing or names.
uint64_t fingerprint(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, OpPrintingFlags().printGenericOpForm());
  return llvm::xxh3_64bits(text);
}

/// Compiles `module` for `arch`; a failure must come with an error.
void compileFor(ModuleOp module, const char *arch, int optLevel,
                bool &sawError) {
  tilec::CompileOptions options;
  options.arch = arch;
  options.optLevel = optLevel;
  options.emit = tilec::EmitKind::PTX;
  sawError = false;
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  if (failed(tilec::compileModule(module, options, os)) && !sawError) {
    std::fprintf(stderr, "tilec-fuzz: compile failed for %s without an "
                         "error\n", arch);
    __builtin_trap();
  }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  std::atexit(printCounts);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static llvm::DenseSet<uint64_t> compiled;
  ++counts.inputs;

  DialectRegistry registry;
  tilec::registerDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  bool sawError = false;
  // Errors are counted, not printed: a fuzzing run makes millions.
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    sawError |= diagnostic.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "<fuzz>"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = tilec::parseModule(sourceMgr, &context);
  if (!module) {
    if (!sawError) {
      std::fprintf(stderr, "tilec-fuzz: rejected without an error\n");
      __builtin_trap();
    }
    return 0;
  }
  ++counts.parsed;
  if (!compiled.insert(fingerprint(*module)).second)
    return 0;
  ++counts.compiled;

  // The pipeline rewrites the module in place: sm_80 gets a copy.
  OwningOpRef<ModuleOp> copy(module->clone());
  compileFor(*module, "sm_90a", 3, sawError);
  compileFor(*copy, "sm_80", 0, sawError);
  return 0;
}
