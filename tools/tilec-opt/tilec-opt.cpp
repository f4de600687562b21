//===- tilec-opt.cpp - mlir-opt for tilec ---------------------------------===//
//
// Runs tilec's passes (and the upstream ones of its pipeline) one at a time
// for lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  // --version adds tilec's version after LLVM's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tilec " TILEC_VERSION " (MLIR " TILEC_MLIR_VERSION ")\n";
  });
  tilec::registerPasses();
  mlir::DialectRegistry registry;
  tilec::registerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}
