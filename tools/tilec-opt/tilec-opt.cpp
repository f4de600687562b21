//===- tilec-opt.cpp - mlir-opt for tilec ---------------------------------===//
//
// Runs tilec's passes (and the upstream ones of its pipeline) one at a time
// for lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipeline/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  tilec::registerPasses();
  mlir::DialectRegistry registry;
  tilec::registerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}
