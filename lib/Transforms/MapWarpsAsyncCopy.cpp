//===- MapWarpsAsyncCopy.cpp - tile copies into workgroup memory ----------===//
//
// A tilegpu.copy_async becomes cp.async instructions: the tile is cut into
// vectors of `vector_bytes`, handed out round-robin so that consecutive
// threads copy consecutive addresses. A vector that crosses the end of a
// source row copies only its inside part and zero-fills the rest (cp.async's
// source size), one entirely outside copies nothing; so no access leaves the
// source. Vectors need an aligned source, which only the run time knows: a
// misaligned source is copied element by element instead.
//
//===----------------------------------------------------------------------===//

#include "LinearLayoutIR.h"
#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace tilec;

namespace {

struct CopyAsyncLowering : MapWarpsPattern<tilegpu::CopyAsyncOp> {
  using MapWarpsPattern::MapWarpsPattern;

  /// Element i of the copy: row, column in the tile.
  struct Chunk {
    Value row, col;
  };

  /// Calls `body` for each chunk of `vector` elements this thread copies.
  void forEachChunk(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                    int64_t vector,
                    function_ref<void(OpBuilder &, Chunk)> body) const {
    int64_t perRow = shape[1] / vector;
    int64_t chunks = shape[0] * perRow;
    for (int64_t first = 0; first < chunks; first += state.threads) {
      Value q = b.createOrFold<arith::AddIOp>(loc, state.threadId,
                                              indexConstant(b, loc, first));
      Chunk chunk{
          b.createOrFold<arith::DivUIOp>(loc, q, indexConstant(b, loc, perRow)),
          b.createOrFold<arith::MulIOp>(
              loc,
              b.createOrFold<arith::RemUIOp>(loc, q,
                                             indexConstant(b, loc, perRow)),
              indexConstant(b, loc, vector))};
      if (first + state.threads <= chunks) {
        body(b, chunk);
        continue;
      }
      Value inside = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ult, q, indexConstant(b, loc, chunks));
      auto guarded = scf::IfOp::create(b, loc, inside);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(guarded.thenBlock());
      body(b, chunk);
    }
  }

  LogicalResult
  matchAndRewrite(tilegpu::CopyAsyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value src = adaptor.getSrc(), dst = adaptor.getDst();
    auto dstType = cast<MemRefType>(dst.getType());
    SmallVector<int64_t> shape = op.getTileShape();
    if (shape.size() != 2)
      return rewriter.notifyMatchFailure(op, "only 2-D tiles are copied");
    int64_t elementBytes = dstType.getElementTypeBitWidth() / 8;
    std::optional<tilegpu::SharedLayoutAttr> placement = op.getLayout();
    std::optional<layout::SharedLayout> placed;
    if (placement)
      placed = placement->toSharedLayout(shape);
    // Where tile element (row, col) goes in `dst`: its offset in the
    // placement, as indices of `dst`'s (contiguous) shape. A vector never
    // straddles the placement's vectors, so its first element's offset
    // stands for it.
    auto dstIndices = [&](OpBuilder &b, Location l,
                          Chunk chunk) -> SmallVector<Value> {
      if (!placed)
        return {chunk.row, chunk.col};
      Value offset =
          emitSharedOffset(b, l, *placed, ValueRange{chunk.row, chunk.col});
      SmallVector<Value> indices;
      int64_t shift = 0;
      for (int64_t size : llvm::reverse(dstType.getShape())) {
        indices.push_back(
            extractBits(b, l, offset, shift, llvm::Log2_64(size)));
        shift += llvm::Log2_64(size);
      }
      std::reverse(indices.begin(), indices.end());
      return indices;
    };
    int64_t vectorBytes = op.getVectorBytes().value_or(0);
    Value i0 = adaptor.getIndices()[0], j0 = adaptor.getIndices()[1];
    Value rows = rewriter.createOrFold<memref::DimOp>(loc, src, 0);
    Value cols = rewriter.createOrFold<memref::DimOp>(loc, src, 1);
    auto c = [&](int64_t v) { return indexConstant(rewriter, loc, v); };

    // One element: read where inside the source, zero elsewhere.
    auto copyElement = [&](OpBuilder &cb, Location l, Chunk chunk) {
      Value gi = cb.createOrFold<arith::AddIOp>(l, i0, chunk.row);
      Value gj = cb.createOrFold<arith::AddIOp>(l, j0, chunk.col);
      Value inside = cb.createOrFold<arith::AndIOp>(
          l,
          cb.createOrFold<arith::CmpIOp>(l, arith::CmpIPredicate::ult, gi,
                                         rows),
          cb.createOrFold<arith::CmpIOp>(l, arith::CmpIPredicate::ult, gj,
                                         cols));
      Type elementType = dstType.getElementType();
      auto read = scf::IfOp::create(
          cb, l, inside,
          [&](OpBuilder &tb, Location tl) {
            scf::YieldOp::create(
                tb, tl,
                ValueRange{memref::LoadOp::create(tb, tl, src,
                                                  ValueRange{gi, gj})});
          },
          [&](OpBuilder &eb, Location el) {
            Value zero = arith::ConstantOp::create(
                eb, el, cast<TypedAttr>(eb.getZeroAttr(elementType)));
            scf::YieldOp::create(eb, el, zero);
          });
      memref::StoreOp::create(cb, l, read.getResult(0), dst,
                              dstIndices(cb, l, chunk));
    };

    // Element by element in a loop over this thread's elements, not
    // unrolled: unrolled, the addresses of a path taken only for
    // misaligned sources are hoisted out of the kernel's loop and held in
    // registers all along it.
    auto copyElements = [&](OpBuilder &b, Location l) {
      int64_t elements = shape[0] * shape[1];
      auto ci = [&](int64_t v) { return indexConstant(b, l, v); };
      scf::ForOp::create(
          b, l, ci(0), ci(elements), ci(state.threads), ValueRange{},
          [&](OpBuilder &fb, Location fl, Value first, ValueRange) {
            Value q = arith::AddIOp::create(fb, fl, first, state.threadId);
            auto copyOne = [&](OpBuilder &cb) {
              Chunk chunk{arith::DivUIOp::create(cb, fl, q, ci(shape[1])),
                          arith::RemUIOp::create(cb, fl, q, ci(shape[1]))};
              copyElement(cb, fl, chunk);
            };
            if (elements % state.threads == 0) {
              copyOne(fb);
            } else {
              auto guarded = scf::IfOp::create(
                  fb, fl,
                  arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::ult, q,
                                        ci(elements)));
              OpBuilder::InsertionGuard guard(fb);
              fb.setInsertionPointToStart(guarded.thenBlock());
              copyOne(fb);
            }
            scf::YieldOp::create(fb, fl);
          });
    };

    if (vectorBytes == 0) {
      copyElements(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }

    int64_t vector = vectorBytes / elementBytes;
    // The source start, row pitch and tile column must all be multiples of
    // the vector for every vector to be aligned.
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, src);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc,
                                                                src);
    Value start = rewriter.createOrFold<arith::AddIOp>(
        loc, base,
        rewriter.createOrFold<arith::MulIOp>(loc, metadata.getOffset(),
                                             c(elementBytes)));
    auto multipleOf = [&](Value v, int64_t m) {
      return rewriter.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq,
          rewriter.createOrFold<arith::RemUIOp>(loc, v, c(m)), c(0));
    };
    Value aligned = rewriter.createOrFold<arith::AndIOp>(
        loc, multipleOf(start, vectorBytes),
        rewriter.createOrFold<arith::AndIOp>(
            loc, multipleOf(metadata.getStrides()[0], vector),
            multipleOf(j0, vector)));

    auto copyVectors = [&](OpBuilder &b, Location l) {
      forEachChunk(b, l, shape, vector, [&](OpBuilder &cb, Chunk chunk) {
        Value gi = cb.createOrFold<arith::AddIOp>(l, i0, chunk.row);
        Value gj = cb.createOrFold<arith::AddIOp>(l, j0, chunk.col);
        Value rowInside = cb.createOrFold<arith::CmpIOp>(
            l, arith::CmpIPredicate::ult, gi, rows);
        Value colInside = cb.createOrFold<arith::CmpIOp>(
            l, arith::CmpIPredicate::ult, gj, cols);
        Value inside = cb.createOrFold<arith::AndIOp>(l, rowInside, colInside);
        Value left = cb.createOrFold<arith::MinUIOp>(
            l, cb.createOrFold<arith::SubIOp>(l, cols, gj), c(vector));
        Value valid = arith::SelectOp::create(cb, l, inside, left, c(0));
        // A vector that copies nothing still names an address: use the
        // buffer's first element, so no address past the buffer is formed.
        Value si = arith::SelectOp::create(cb, l, inside, gi, c(0));
        Value sj = arith::SelectOp::create(cb, l, inside, gj, c(0));
        nvgpu::DeviceAsyncCopyOp::create(
            cb, l, nvgpu::DeviceAsyncTokenType::get(cb.getContext()), dst,
            dstIndices(cb, l, chunk), src, ValueRange{si, sj},
            cb.getIndexAttr(vector), valid,
            vectorBytes == 16 ? cb.getUnitAttr() : UnitAttr());
      });
      scf::YieldOp::create(b, l);
    };
    scf::IfOp::create(rewriter, loc, aligned, copyVectors,
                      [&](OpBuilder &b, Location l) {
                        copyElements(b, l);
                        scf::YieldOp::create(b, l);
                      });
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitLowering : OpConversionPattern<tilegpu::AsyncCommitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitLowering : MapWarpsPattern<tilegpu::AsyncWaitOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::AsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(
        rewriter, op.getLoc(),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getPending())));
    // Warpgroup MMAs read workgroup memory through the async proxy: each
    // thread's copies must be made visible to it before the barrier.
    if (state.asyncProxyReads)
      NVVM::FenceProxyOp::create(
          rewriter, op.getLoc(),
          NVVM::ProxyKindAttr::get(rewriter.getContext(),
                                   NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    // cp.async only orders this thread's copies; the barrier publishes
    // every thread's copies (and the element fallback's stores).
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

} // namespace

void tilec::populateMapWarpsAsyncCopyPatterns(const TypeConverter &converter,
                                              MapWarpsState &state,
                                              RewritePatternSet &patterns) {
  patterns.add<CopyAsyncLowering, AsyncWaitLowering>(
      converter, patterns.getContext(), state);
  patterns.add<AsyncCommitLowering>(converter, patterns.getContext());
}
