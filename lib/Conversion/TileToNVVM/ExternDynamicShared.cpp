//===- ExternDynamicShared.cpp - Dynamic shared memory after static -------===//
//
// CUDA places `extern __shared__` arrays after every static shared variable
// of a kernel; PTX does the same for `.extern .shared` declarations. The
// GPU to NVVM conversion declares dynamic shared memory as an internal
// zero-length array instead, which PTX treats as one more static variable.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILEEXTERNDYNAMICSHARED
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// The NVPTX address space of shared memory.
static constexpr unsigned kSharedAddressSpace = 3;
/// What 128-byte-swizzled TMA copies and warpgroup MMA panels need of the
/// slots that promotion lays out from the dynamic base.
static constexpr uint64_t kDynamicSharedAlignment = 1024;

bool tilec::externDynamicShared(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  if (global.getAddrSpace() != kSharedAddressSpace || !array ||
      array.getNumElements() != 0)
    return false;
  global.setLinkage(LLVM::Linkage::External);
  global.setAlignment(
      std::max<uint64_t>(global.getAlignment().value_or(1),
                         kDynamicSharedAlignment));
  return true;
}

namespace {
struct TileExternDynamicSharedPass
    : tilec::impl::TileExternDynamicSharedBase<TileExternDynamicSharedPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>())
      numSymbols += externDynamicShared(global);
  }
};
} // namespace
