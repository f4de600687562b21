//===- VerifyStage.cpp - The verifier between pipeline stages -------------===//

#include "tilec/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"

namespace tilec {
#define GEN_PASS_DEF_TILEVERIFYSTAGE
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace tilec {
namespace {

struct TileVerifyStage : impl::TileVerifyStageBase<TileVerifyStage> {
  using Base::Base;

  void runOnOperation() override {
    if (succeeded(verify(getOperation())))
      return;
    getOperation().emitError("the IR is invalid after stage '") << stage << "'";
    signalPassFailure();
  }
};

} // namespace
} // namespace tilec
