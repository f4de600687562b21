//===- Vectorize.cpp - Pick the access width of tile copies ---------------===//
//
// A warp moving 16 bytes a lane issues one instruction per 512 bytes instead
// of four or eight; the width must divide what is contiguous on the
// destination side, which is known statically here.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

namespace tilec {
#define GEN_PASS_DEF_TILEVECTORIZE
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// The widest of 16, 8, 4 bytes that divides the contiguous row bytes and
/// the row pitch of `dst`, or 0 if none does (or the row is not unit-stride).
static int64_t widestAccess(MemRefType dst) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(dst.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return 0;
  int64_t elementBytes = dst.getElementTypeBitWidth() / 8;
  int64_t rowBytes = dst.getShape().back() * elementBytes;
  int64_t pitchBytes =
      dst.getRank() > 1 ? strides[dst.getRank() - 2] * elementBytes : rowBytes;
  for (int64_t bytes : {16, 8, 4})
    if (rowBytes % bytes == 0 && pitchBytes % bytes == 0 &&
        !ShapedType::isDynamic(pitchBytes))
      return bytes;
  return 0;
}

namespace {
struct TileVectorizePass : tilec::impl::TileVectorizeBase<TileVectorizePass> {
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation()->walk([&](tilegpu::CopyAsyncOp copy) {
      if (copy.getVectorBytes())
        return;
      if (int64_t bytes = widestAccess(copy.getDst().getType())) {
        copy.setVectorBytesAttr(b.getI64IntegerAttr(bytes));
        ++numVectorized;
      }
    });
  }
};
} // namespace
