//===- MapWarpsAsyncCopy.cpp - tile copies into workgroup memory ----------===//
//
// A tilegpu.copy_async becomes cp.async instructions: the tile (a 1-D tile
// as one row) is cut into vectors, handed out round-robin so that
// consecutive threads copy consecutive addresses. A vector copies all of
// its bytes or, entirely outside the source, none (zero-filled: cp.async's
// source size), so no access leaves the source: 2-D copies take vectors
// only where rows are whole vectors, and a 1-D copy copies the vector that
// crosses the end of its source element by element.
//
// Vectors need an aligned source, which only the run time knows. A kernel
// whose copy sources the runtime guarantees to be 4-byte aligned
// (`tile.aligned_args`, see tile-element-copy-fallback) takes the widest
// cp.async the source allows: `vector_bytes`, then each narrower width down
// to 4 bytes (a bf16 matrix with K = 4100 has rows 8-byte aligned only). Any
// other kernel takes `vector_bytes` or, failing that, copies element by
// element through registers (odd K in 16-bit types).
//
//===----------------------------------------------------------------------===//

#include "LinearLayoutIR.h"
#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Keeps `loop` a loop through LLVM and ptxas (llvm.loop.unroll.disable,
/// which NVPTX prints as `.pragma "nounroll"`): a path that never runs must
/// not take registers or schedule slots from the one that does.
void keepRolled(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/BoolAttr::get(ctx, true), {}, {}, {}, {}, {}, {});
  loop->setAttr("loop_annotation",
                LLVM::LoopAnnotationAttr::get(
                    ctx, {}, {}, {}, unroll, {}, {}, {}, {}, {}, {}, {}, {},
                    {}, {}, {}));
}

/// Tile element (row, col) of a copy.
struct Chunk {
  Value row, col;
};

/// One tilegpu.copy_async being lowered: where the tile comes from and where
/// each of its elements goes.
class TileCopy {
public:
  TileCopy(OpBuilder &b, tilegpu::CopyAsyncOp op, Value src, Value dst,
           ValueRange indices, const MapWarpsState &state)
      : loc(op.getLoc()), src(src), dst(dst), state(state),
        shape(op.getTileShape()) {
    auto dstType = cast<MemRefType>(dst.getType());
    elementType = dstType.getElementType();
    elementBytes = dstType.getElementTypeBitWidth() / 8;
    if (std::optional<tilegpu::SharedLayoutAttr> placement = op.getLayout())
      placed = placement->toSharedLayout(shape);
    // A 1-D copy is the copy of a single row.
    flat = shape.size() == 1;
    if (flat) {
      shape.insert(shape.begin(), 1);
      i0 = index(b, 0);
      j0 = indices[0];
      rows = index(b, 1);
      cols = b.createOrFold<memref::DimOp>(loc, src, 0);
      return;
    }
    i0 = indices[0];
    j0 = indices[1];
    rows = b.createOrFold<memref::DimOp>(loc, src, 0);
    cols = b.createOrFold<memref::DimOp>(loc, src, 1);
  }

  /// Copies the tile, `vectorBytes` (0: none) at a time where the source
  /// allows. Narrower widths pay where misaligned sources are rare: in
  /// kernels whose copy sources the runtime keeps 4-byte aligned, and for
  /// elements of 4 bytes or more, which a 4-byte cp.async takes whenever the
  /// source is aligned to its elements (f32 matmuls with unaligned rows ran
  /// 1.06-1.19x faster on the H200).
  void lower(OpBuilder &b, int64_t vectorBytes) {
    copyWidestFirst(b, vectorBytes,
                    /*narrower=*/state.alignedCopies || elementBytes >= 4,
                    /*widest=*/true);
  }

private:
  /// Copies the tile with cp.async of `vectorBytes` where the source is
  /// aligned for it; otherwise, with `narrower`, with the widest narrower
  /// width down to 4 bytes that it is aligned for, and only then element by
  /// element in a rolled loop, for sources the runtime or the element size
  /// makes rare; without `narrower`, element by element unrolled (rolled,
  /// odd-K bf16 matmuls ran at 14 TFLOP/s on the H200 instead of 105).
  /// `vectorBytes` 0: elements only. Narrower widths of 2-D tiles are
  /// unrolled (in loops, the 4- and 8-byte rows of matmuls ran 0.81x and
  /// 0.79x as fast on the H200); those of a 1-D copy (a staged scan piece,
  /// whose source is misaligned only as a view at an odd offset) loop, which
  /// halves the scan kernel's code and its ptxas time.
  void copyWidestFirst(OpBuilder &b, int64_t vectorBytes, bool narrower,
                       bool widest) {
    if (vectorBytes < 4 || vectorBytes < elementBytes) {
      scf::ForOp loop = copyGuardedElements(b);
      if (narrower)
        keepRolled(loop);
      return;
    }
    scf::IfOp::create(
        b, loc, alignedFor(b, vectorBytes),
        [&](OpBuilder &tb, Location) {
          copyVectors(tb, vectorBytes / elementBytes,
                      /*rolled=*/flat && !widest);
          scf::YieldOp::create(tb, loc);
        },
        [&](OpBuilder &eb, Location) {
          copyWidestFirst(eb, narrower ? vectorBytes / 2 : 0, narrower,
                          /*widest=*/false);
          scf::YieldOp::create(eb, loc);
        });
  }

  Value index(OpBuilder &b, int64_t v) const {
    return indexConstant(b, loc, v);
  }

  /// Where tile element `chunk` goes in `dst`: its offset in the placement,
  /// as indices of `dst`'s (contiguous) shape. A vector never straddles the
  /// placement's vectors, so its first element's offset stands for it.
  SmallVector<Value> dstIndices(OpBuilder &b, Chunk chunk) const {
    if (flat)
      return {chunk.col};
    if (!placed)
      return {chunk.row, chunk.col};
    Value offset =
        emitSharedOffset(b, loc, *placed, ValueRange{chunk.row, chunk.col});
    SmallVector<Value> indices;
    int64_t shift = 0;
    for (int64_t size : llvm::reverse(cast<MemRefType>(dst.getType()).getShape())) {
      indices.push_back(extractBits(b, loc, offset, shift, llvm::Log2_64(size)));
      shift += llvm::Log2_64(size);
    }
    std::reverse(indices.begin(), indices.end());
    return indices;
  }

  /// The indices of `src` at source row `gi`, column `gj`.
  SmallVector<Value> srcIndices(Value gi, Value gj) const {
    if (flat)
      return {gj};
    return {gi, gj};
  }

  /// The tile element that thread-relative element `q` (in row-major order
  /// of the tile, `vector` elements per step) starts at.
  Chunk chunkAt(OpBuilder &b, Value q, int64_t vector) const {
    int64_t perRow = shape[1] / vector;
    return {b.createOrFold<arith::DivUIOp>(loc, q, index(b, perRow)),
            b.createOrFold<arith::MulIOp>(
                loc, b.createOrFold<arith::RemUIOp>(loc, q, index(b, perRow)),
                index(b, vector))};
  }

  /// The source position of `chunk` and whether it lies inside the source.
  std::tuple<Value, Value, Value> sourceOf(OpBuilder &b, Chunk chunk) const {
    Value gi = b.createOrFold<arith::AddIOp>(loc, i0, chunk.row);
    Value gj = b.createOrFold<arith::AddIOp>(loc, j0, chunk.col);
    // Named, so that the ops come in this order (argument evaluation order
    // is the C++ compiler's choice).
    Value rowInside =
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, gi, rows);
    Value colInside =
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, gj, cols);
    return {gi, gj, b.createOrFold<arith::AndIOp>(loc, rowInside, colInside)};
  }

  /// Whether accesses of `bytes` are aligned for every vector of the tile:
  /// the source start, the row pitch and the tile's first column are
  /// multiples of them.
  Value alignedFor(OpBuilder &b, int64_t bytes) const {
    int64_t vector = bytes / elementBytes;
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, src);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, src);
    Value start = b.createOrFold<arith::AddIOp>(
        loc, base,
        b.createOrFold<arith::MulIOp>(loc, metadata.getOffset(),
                                      index(b, elementBytes)));
    auto multipleOf = [&](Value v, int64_t m) {
      return b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq,
          b.createOrFold<arith::RemUIOp>(loc, v, index(b, m)), index(b, 0));
    };
    Value aligned = b.createOrFold<arith::AndIOp>(loc, multipleOf(start, bytes),
                                                  multipleOf(j0, vector));
    if (flat)
      return aligned;
    // Rows of whole vectors: no vector crosses the end of a row.
    return b.createOrFold<arith::AndIOp>(
        loc, aligned,
        b.createOrFold<arith::AndIOp>(
            loc, multipleOf(metadata.getStrides()[0], vector),
            multipleOf(cols, vector)));
  }

  /// Calls `body` for each chunk of `vector` elements this thread copies,
  /// unrolled or, `rolled`, in a loop kept rolled.
  void forEachChunk(OpBuilder &b, int64_t vector, bool rolled,
                    function_ref<void(OpBuilder &, Chunk)> body) const {
    int64_t chunks = shape[0] * (shape[1] / vector);
    if (rolled) {
      keepRolled(chunkLoop(b, vector, body));
      return;
    }
    for (int64_t first = 0; first < chunks; first += state.threads) {
      Value q = b.createOrFold<arith::AddIOp>(loc, state.threadId,
                                              index(b, first));
      if (first + state.threads <= chunks) {
        body(b, chunkAt(b, q, vector));
        continue;
      }
      Value inside = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ult, q, index(b, chunks));
      auto guarded = scf::IfOp::create(b, loc, inside);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(guarded.thenBlock());
      body(b, chunkAt(b, q, vector));
    }
  }

  /// cp.async of `vector` elements a chunk; the source must be aligned for
  /// them (alignedFor).
  void copyVectors(OpBuilder &b, int64_t vector, bool rolled) const {
    bool bypassL1 = vector * elementBytes == 16;
    if (flat && !rolled) {
      // Only a 1-D tile that reaches past either end of its source needs
      // each vector's bound checks: it takes them in a loop, every other
      // tile copies whole vectors unrolled.
      // Named, so that the ops come in this order (argument evaluation
      // order is the C++ compiler's choice).
      Value startsIn = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ult, j0, cols);
      Value end = b.createOrFold<arith::AddIOp>(loc, j0, index(b, shape[1]));
      Value endsIn = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ule, end, cols);
      Value whole = b.createOrFold<arith::AndIOp>(loc, startsIn, endsIn);
      scf::IfOp::create(
          b, loc, whole,
          [&](OpBuilder &tb, Location) {
            forEachChunk(
                tb, vector, /*rolled=*/false, [&](OpBuilder &cb, Chunk chunk) {
                  nvgpu::DeviceAsyncCopyOp::create(
                      cb, loc,
                      nvgpu::DeviceAsyncTokenType::get(cb.getContext()), dst,
                      dstIndices(cb, chunk), src,
                      srcIndices(i0, cb.createOrFold<arith::AddIOp>(loc, j0,
                                                                    chunk.col)),
                      cb.getIndexAttr(vector), Value(),
                      bypassL1 ? cb.getUnitAttr() : UnitAttr());
                });
            scf::YieldOp::create(tb, loc);
          },
          [&](OpBuilder &eb, Location) {
            copyVectors(eb, vector, /*rolled=*/true);
            scf::YieldOp::create(eb, loc);
          });
      return;
    }
    forEachChunk(b, vector, rolled, [&](OpBuilder &cb, Chunk chunk) {
      auto [gi, gj, inside] = sourceOf(cb, chunk);
      auto copy = [&, gi = gi, gj = gj, inside = inside](OpBuilder &vb) {
        // A vector copies all of its bytes or none (alignedFor keeps 2-D
        // rows whole vectors; a 1-D copy copies the vector across the
        // end element by element).
        Value valid = arith::SelectOp::create(vb, loc, inside,
                                              index(vb, vector), index(vb, 0));
        // A vector that copies nothing still names an address: use the
        // buffer's first element, so no address past the buffer is formed.
        Value si = arith::SelectOp::create(vb, loc, inside, gi, index(vb, 0));
        Value sj = arith::SelectOp::create(vb, loc, inside, gj, index(vb, 0));
        nvgpu::DeviceAsyncCopyOp::create(
            vb, loc, nvgpu::DeviceAsyncTokenType::get(vb.getContext()), dst,
            dstIndices(vb, chunk), src, srcIndices(si, sj),
            vb.getIndexAttr(vector), valid,
            bypassL1 ? vb.getUnitAttr() : UnitAttr());
      };
      if (!flat || vector == 1) {
        copy(cb);
        return;
      }
      Value crossesEnd = cb.createOrFold<arith::AndIOp>(
          loc, inside,
          cb.createOrFold<arith::CmpIOp>(
              loc, arith::CmpIPredicate::ult,
              cb.createOrFold<arith::SubIOp>(loc, cols, gj),
              index(cb, vector)));
      scf::IfOp::create(
          cb, loc, crossesEnd,
          [&](OpBuilder &tb, Location) {
            for (int64_t e = 0; e < vector; ++e)
              copyElement(tb, {chunk.row, tb.createOrFold<arith::AddIOp>(
                                              loc, chunk.col, index(tb, e))});
            scf::YieldOp::create(tb, loc);
          },
          [&](OpBuilder &eb, Location) {
            copy(eb);
            scf::YieldOp::create(eb, loc);
          });
    });
  }

  /// Tile element `chunk`, read behind a bound check (zero outside the
  /// source).
  void copyElement(OpBuilder &b, Chunk chunk) const {
    auto [gi, gj, inside] = sourceOf(b, chunk);
    auto read = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &tb, Location) {
          scf::YieldOp::create(tb, loc,
                               ValueRange{memref::LoadOp::create(
                                   tb, loc, src, srcIndices(gi, gj))});
        },
        [&](OpBuilder &eb, Location) {
          Value zero = arith::ConstantOp::create(
              eb, loc, cast<TypedAttr>(eb.getZeroAttr(elementType)));
          scf::YieldOp::create(eb, loc, zero);
        });
    memref::StoreOp::create(b, loc, read.getResult(0), dst,
                            dstIndices(b, chunk));
  }

  /// A loop calling `body` for each chunk of `vector` elements this thread
  /// copies, one a thread an iteration.
  scf::ForOp chunkLoop(OpBuilder &b, int64_t vector,
                       function_ref<void(OpBuilder &, Chunk)> body) const {
    int64_t chunks = shape[0] * (shape[1] / vector);
    return scf::ForOp::create(
        b, loc, index(b, 0), index(b, chunks), index(b, state.threads),
        ValueRange{}, [&](OpBuilder &fb, Location, Value first, ValueRange) {
          Value q = arith::AddIOp::create(fb, loc, first, state.threadId);
          if (chunks % state.threads == 0) {
            body(fb, chunkAt(fb, q, vector));
          } else {
            auto guarded = scf::IfOp::create(
                fb, loc,
                arith::CmpIOp::create(fb, loc, arith::CmpIPredicate::ult, q,
                                      index(fb, chunks)));
            OpBuilder::InsertionGuard guard(fb);
            fb.setInsertionPointToStart(guarded.thenBlock());
            body(fb, chunkAt(fb, q, vector));
          }
          scf::YieldOp::create(fb, loc);
        });
  }

  /// One element a thread at a time, each read behind a bound check.
  scf::ForOp copyGuardedElements(OpBuilder &b) const {
    return chunkLoop(
        b, 1, [&](OpBuilder &cb, Chunk chunk) { copyElement(cb, chunk); });
  }

  Location loc;
  Value src, dst;
  const MapWarpsState &state;
  SmallVector<int64_t> shape;
  Value i0, j0, rows, cols;
  /// A 1-D copy, lowered as the copy of one row.
  bool flat = false;
  Type elementType;
  int64_t elementBytes = 0;
  std::optional<layout::SharedLayout> placed;
};

struct CopyAsyncLowering : MapWarpsPattern<tilegpu::CopyAsyncOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::CopyAsyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getTileShape().size() > 2)
      return rewriter.notifyMatchFailure(op,
                                         "only 1-D and 2-D tiles are copied");
    TileCopy copy(rewriter, op, adaptor.getSrc(), adaptor.getDst(),
                  adaptor.getIndices(), state);
    copy.lower(rewriter, op.getVectorBytes().value_or(0));
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
