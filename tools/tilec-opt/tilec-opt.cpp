//===- tilec-opt.cpp - mlir-opt for tilec ---------------------------------===//
//
// Runs tilec's passes (and the upstream ones of its pipeline) one at a time
// for lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/SourceGuards.h"
#include "tilec/Pipeline/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

/// The checks tilec runs before parsing: what crashes MLIR 22's parser or
/// overflows its stack gets a located error here too.
static mlir::LogicalResult checkInput(const llvm::MemoryBuffer &input) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  return tilec::checkSourceGuards(sourceMgr, &context);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // --version adds tilec's version after LLVM's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tilec " TILEC_VERSION " (MLIR " TILEC_MLIR_VERSION ")\n";
  });
  tilec::registerPasses();
  mlir::DialectRegistry registry;
  tilec::registerDialects(registry);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tilec optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // These read no input: MlirOptMain's own driver handles them.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, inputFilename, outputFilename, registry));

  // The input is read once (it may be stdin), checked, then handed over.
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(checkInput(*input)))
    return EXIT_FAILURE;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
