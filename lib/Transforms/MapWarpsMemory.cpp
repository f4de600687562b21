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

/// The access to the tile element at `local` (its position in the tile).
ElementAccess accessAt(OpBuilder &b, Location loc, ArrayRef<Value> local,
                       ValueRange base, ArrayRef<Value> sizes) {
  ElementAccess access;
  for (unsigned d = 0; d < base.size(); ++d) {
    Value index = b.createOrFold<arith::AddIOp>(loc, base[d], local[d]);
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

/// The position in the tile of slot `slot` of this thread.
SmallVector<Value> slotPosition(OpBuilder &b, Location loc,
                                const MapWarpsState &state,
                                RankedTensorType type, int64_t slot) {
  if (std::optional<DotLayout> dot = DotLayout::get(type)) {
    auto [row, col] = dot->coords(b, loc, state.threadId, slot);
    return {row, col};
  }
  TileLayout layout = state.layoutOf(type);
  Value linear = layout.linearIndex(b, loc, state.threadId, slot);
  SmallVector<Value> local;
  for (unsigned d = 0; d < type.getRank(); ++d)
    local.push_back(
        extractBits(b, loc, linear, layout.dimShift(d), layout.dimBits(d)));
  return local;
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
    Type elementType = op.getType().getElementType();
    SmallVector<Value> sizes = bufferSizes(rewriter, loc, adaptor.getBuffer());
    Value padding = arith::ConstantOp::create(rewriter, loc,
                                              op.getPaddingOrZero());
    SmallVector<Value> elements;
    for (int64_t slot = 0; slot < state.perThread(op.getType()); ++slot) {
      ElementAccess access =
          accessAt(rewriter, loc,
                   slotPosition(rewriter, loc, state, op.getType(), slot),
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
      elements.push_back(guarded.getResult(0));
    }
    auto vectorType = VectorType::get({state.perThread(op.getType())},
                                      elementType);
    rewriter.replaceOp(op, vector::FromElementsOp::create(rewriter, loc,
                                                          vectorType, elements));
    return success();
  }

};

struct StoreLowering : MapWarpsPattern<tile::StoreOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tileType = cast<RankedTensorType>(op.getValue().getType());
    SmallVector<Value> sizes = bufferSizes(rewriter, loc, adaptor.getBuffer());
    // Replicated blocked tiles are written by one owner per element.
    Value owner = DotLayout::get(tileType)
                      ? Value()
                      : state.layoutOf(tileType).ownsElements(
                            rewriter, loc, state.threadId);
    for (int64_t slot = 0; slot < state.perThread(tileType); ++slot) {
      ElementAccess access =
          accessAt(rewriter, loc,
                   slotPosition(rewriter, loc, state, tileType, slot),
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
