//===- MapWarpsMemory.cpp - tile.load / tile.store over threads -----------===//
//
// Each thread reads and writes the elements it owns, guarded by the buffer's
// bounds, so that no access leaves the buffer whatever the tile's position.
//
//===----------------------------------------------------------------------===//

#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Indices into the buffer of one tile element, and whether they are inside.
struct ElementAccess {
  SmallVector<Value> indices;
  Value inBounds;
};

ElementAccess accessElement(OpBuilder &b, Location loc,
                            const TileLayout &layout, Value linear,
                            ValueRange base, ArrayRef<Value> sizes) {
  ElementAccess access;
  for (unsigned d = 0; d < base.size(); ++d) {
    Value local =
        extractBits(b, loc, linear, layout.dimShift(d), layout.dimBits(d));
    Value index = b.createOrFold<arith::AddIOp>(loc, base[d], local);
    // Unsigned compare also rejects negative indices.
    Value inside = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ult, index, sizes[d]);
    access.indices.push_back(index);
    access.inBounds =
        access.inBounds
            ? b.createOrFold<arith::AndIOp>(loc, access.inBounds, inside)
            : inside;
  }
  return access;
}

SmallVector<Value> bufferSizes(OpBuilder &b, Location loc, Value buffer) {
  SmallVector<Value> sizes;
  auto type = cast<MemRefType>(buffer.getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(b.createOrFold<memref::DimOp>(loc, buffer, d));
  return sizes;
}

struct LoadLowering : MapWarpsPattern<tile::LoadOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TileLayout layout = state.layoutOf(op.getType());
    Type elementType = op.getType().getElementType();
    SmallVector<Value> sizes = bufferSizes(rewriter, loc, adaptor.getBuffer());
    Value padding = arith::ConstantOp::create(rewriter, loc,
                                              op.getPaddingOrZero());
    auto loadElement = [&](Value linear) -> Value {
      ElementAccess access = accessElement(rewriter, loc, layout, linear,
                                           adaptor.getIndices(), sizes);
      auto guarded = scf::IfOp::create(
          rewriter, loc, access.inBounds,
          [&](OpBuilder &b, Location l) {
            Value v = memref::LoadOp::create(b, l, adaptor.getBuffer(),
                                             access.indices);
            scf::YieldOp::create(b, l, v);
          },
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, padding);
          });
      return guarded.getResult(0);
    };
    rewriter.replaceOp(op, layout.buildVector(rewriter, loc, state.threadId,
                                              elementType, loadElement));
    return success();
  }

};

struct StoreLowering : MapWarpsPattern<tile::StoreOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TileLayout layout = state.layoutOf(op.getValue().getType());
    SmallVector<Value> sizes = bufferSizes(rewriter, loc, adaptor.getBuffer());
    Value owner = layout.ownsElements(rewriter, loc, state.threadId);
    for (int64_t slot = 0; slot < layout.getPerThread(); ++slot) {
      Value linear = layout.linearIndex(rewriter, loc, state.threadId, slot);
      ElementAccess access = accessElement(rewriter, loc, layout, linear,
                                           adaptor.getIndices(), sizes);
      Value write = owner ? rewriter.createOrFold<arith::AndIOp>(
                                loc, owner, access.inBounds)
                          : access.inBounds;
      Value element =
          vector::ExtractOp::create(rewriter, loc, adaptor.getValue(), slot);
      auto guarded = scf::IfOp::create(rewriter, loc, write);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(guarded.thenBlock());
      memref::StoreOp::create(rewriter, loc, element, adaptor.getBuffer(),
                              access.indices);
    }
    rewriter.eraseOp(op);
    return success();
  }

};

} // namespace

void tilec::populateMapWarpsMemoryPatterns(const TypeConverter &converter,
                                           MapWarpsState &state,
                                           RewritePatternSet &patterns) {
  patterns.add<LoadLowering, StoreLowering>(converter, patterns.getContext(),
                                            state);
}
