//===- MapWarpsLayouts.cpp - Tile ops on tiles with layout encodings ------===//
//
// Tiles that tile-assign-layouts gave a layout encoding (a dot's
// accumulator and what is computed from it) are lowered through their
// linear layouts (tilec/Layout/LinearLayout.h), whatever the layout:
//   - tilegpu.convert_layout permutes each thread's registers where no
//     element changes thread, shuffles within warps where no element
//     changes warp, and otherwise goes through workgroup memory, swizzled
//     so that the warps' stores and loads are free of bank conflicts;
//   - tile.reduce combines a thread's slots along the axis, then the lanes
//     whose bits point along it (xor shuffles), and meets in workgroup memory
//     only when warps hold different positions along the axis; the result
//     is the slice layout, in the threads that held the rows;
//   - tile.broadcast of a slice back to its parent moves no data;
//   - tile.range computes each slot's index from the layout.
// Element-wise ops, splats, loads and stores of any layout need no pattern
// of their own (MapWarps.cpp, MapWarpsMemory.cpp).
//
//===----------------------------------------------------------------------===//

#include "LinearLayoutIR.h"
#include "MapWarpsPatterns.h"

#include "tilec/Layout/SharedLayout.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace tilec;
using layout::InDim;
using layout::kLaneBits;
using layout::LinearLayout;

/// `coords` without dimension `dim`.
static SmallVector<int64_t> dropDim(ArrayRef<int64_t> coords, unsigned dim) {
  SmallVector<int64_t> kept(coords);
  kept.erase(kept.begin() + dim);
  return kept;
}

/// Whether every basis with a part along `dim` lies wholly along it, so that
/// combining along `dim` never mixes elements of different rows.
static bool basesAlongArePure(const LinearLayout &layout, unsigned dim) {
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp})
    for (unsigned i = 0; i < layout.getNumBits(in); ++i) {
      const LinearLayout::Basis &basis = layout.getBasis(in, i);
      if (basis[dim] == 0)
        continue;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != dim && basis[d] != 0)
          return false;
    }
  return true;
}

int64_t tilec::sliceSlotOf(const LinearLayout &from, unsigned dim,
                           const LinearLayout &to, int64_t slot) {
  SmallVector<int64_t> kept = dropDim(from.apply(slot, 0, 0), dim);
  for (int64_t s = 0; s < to.getPerThread(); ++s)
    if (to.apply(s, 0, 0) == kept)
      return s;
  return -1;
}

LogicalResult tilec::checkLayoutOpSupported(Operation *op, int64_t threads) {
  auto reduce = dyn_cast<tile::ReduceOp>(op);
  if (!reduce || !reduce.getInput().getType().getEncoding())
    return success();
  LinearLayout layout =
      tilegpu::layoutOf(reduce.getInput().getType(), threads);
  if (!basesAlongArePure(layout, reduce.getAxis()))
    return op->emitOpError("along ")
           << reduce.getAxis() << " of layout " << layout.str()
           << " mixes dimensions; convert the tile to another layout first";
  // The reduction leaves each result where its row's threads are: any
  // other result layout needs a convert_layout after the reduce.
  auto result = dyn_cast<RankedTensorType>(reduce.getType());
  if (!result || !result.getEncoding())
    return success();
  LinearLayout resultLayout = tilegpu::layoutOf(result, threads);
  if (!resultLayout.isSliceOf(layout, reduce.getAxis()))
    return op->emitOpError("result layout ")
           << resultLayout.str() << " is not the input layout " << layout.str()
           << " sliced along " << reduce.getAxis()
           << "; reduce to the slice, then convert_layout";
  return success();
}

namespace {

/// The lane-affine value `f` for this thread's lane.
Value emitLaneAffine(OpBuilder &b, Location loc,
                     const LinearLayout::LaneAffine &f, Value lane) {
  Value v = indexConstant(b, loc, f.constant);
  for (unsigned i = 0; i < kLaneBits; ++i) {
    if (f.bits[i] == 0)
      continue;
    Value bit = extractBits(b, loc, lane, i, 1);
    v = b.createOrFold<arith::XOrIOp>(
        loc, v,
        b.createOrFold<arith::MulIOp>(loc, bit,
                                      indexConstant(b, loc, f.bits[i])));
  }
  return v;
}

/// Where a conversion through workgroup memory places the tile: swizzled
/// against bank conflicts for elements of at most a word, row-major for
/// wider ones.
layout::SharedLayout exchangePlacement(const LinearLayout &from,
                                       const LinearLayout &to,
                                       Type elementType) {
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (bits > 32)
    return layout::SharedLayout::rowMajor(from.getShape());
  return layout::SharedLayout::forExchange(from, to, bits);
}

/// Shuffles move 16- and 32-bit elements.
bool isShuffleable(Type elementType) {
  unsigned width = elementType.getIntOrFloatBitWidth();
  return width == 16 || width == 32;
}

struct ConvertLayoutLowering : MapWarpsPattern<tilegpu::ConvertLayoutOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LinearLayout from = state.linearLayoutOf(op.getInput().getType());
    LinearLayout to = state.linearLayoutOf(op.getType());
    if (std::optional<SmallVector<int64_t>> slots =
            from.registerPermutation(to)) {
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(
          op, adaptor.getInput(), adaptor.getInput(), *slots);
      return success();
    }
    Type elementType = op.getType().getElementType();
    if (isShuffleable(elementType))
      if (std::optional<SmallVector<LinearLayout::LaneShuffle>> plan =
              from.warpShuffles(to)) {
        rewriter.replaceOp(op, shuffleSlots(rewriter, loc, adaptor.getInput(),
                                            *plan, elementType));
        return success();
      }
    // Through workgroup memory, one copy of each element written, placed
    // so that neither side's accesses conflict in banks where a swizzle
    // can avoid it.
    layout::SharedLayout placement = exchangePlacement(from, to, elementType);
    LinearLayout written = placement.offsets(from);
    LinearLayout read = placement.offsets(to);
    Value buffer = state.exchangeBuffers.lookup(op);
    Value tid = state.threadId;
    gpu::BarrierOp::create(rewriter, loc);
    auto publish = [&](OpBuilder &b) {
      for (int64_t slot = 0; slot < from.getPerThread(); ++slot) {
        Value element =
            vector::ExtractOp::create(b, loc, adaptor.getInput(), slot);
        memref::StoreOp::create(b, loc, element, buffer,
                                emitLinearIndex(b, loc, written, tid, slot));
      }
    };
    if (Value owner = emitOwnsElements(rewriter, loc, from, tid))
      buildIf(rewriter, loc, owner, publish);
    else
      publish(rewriter);
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> elements;
    for (int64_t slot = 0; slot < to.getPerThread(); ++slot)
      elements.push_back(memref::LoadOp::create(
          rewriter, loc, buffer,
          emitLinearIndex(rewriter, loc, read, tid, slot)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, VectorType::get({to.getPerThread()}, op.getType().getElementType()),
        elements);
    return success();
  }

  Value shuffleSlots(ConversionPatternRewriter &rewriter, Location loc,
                     Value input, ArrayRef<LinearLayout::LaneShuffle> plan,
                     Type elementType) const;
};

/// Each dst slot takes its element from the lane that holds it: one
/// shuffle per source slot the lanes need, selected by the slot each lane
/// wants.
Value ConvertLayoutLowering::shuffleSlots(ConversionPatternRewriter &rewriter,
                                          Location loc, Value input,
                                          ArrayRef<LinearLayout::LaneShuffle> plan,
                                          Type elementType) const {
  Value lane = rewriter.createOrFold<arith::AndIOp>(
      loc, state.threadId, indexConstant(rewriter, loc, 31));
  Value width = arith::ConstantIntOp::create(rewriter, loc, 32, 32);
  SmallVector<Value> elements;
  for (const LinearLayout::LaneShuffle &slot : plan) {
    Value sourceLane = rewriter.createOrFold<arith::IndexCastOp>(
        loc, rewriter.getI32Type(),
        emitLaneAffine(rewriter, loc, slot.sourceLane, lane));
    Value wanted = slot.sourceSlot.isConstant()
                       ? Value()
                       : emitLaneAffine(rewriter, loc, slot.sourceSlot, lane);
    Value element;
    for (int64_t source : slot.sourceSlot.image()) {
      // 16-bit elements travel as the low half of a 32-bit word.
      bool narrow = elementType.getIntOrFloatBitWidth() == 16;
      Value sent = vector::ExtractOp::create(rewriter, loc, input, source);
      auto shuffle = gpu::ShuffleOp::create(
          rewriter, loc, narrow ? toWordBits(rewriter, loc, sent) : sent,
          sourceLane, width, gpu::ShuffleMode::IDX);
      Value moved = shuffle.getShuffleResult();
      if (narrow)
        moved = fromWordBits(rewriter, loc, moved, elementType);
      ++state.stats.shuffles;
      if (!element) {
        element = moved;
        continue;
      }
      Value isWanted = rewriter.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, wanted,
          indexConstant(rewriter, loc, source));
      element = arith::SelectOp::create(rewriter, loc, isWanted, moved, element);
    }
    elements.push_back(element);
  }
  return vector::FromElementsOp::create(
      rewriter, loc, VectorType::get({int64_t(plan.size())}, elementType),
      elements);
}

struct LayoutReduceLowering : MapWarpsPattern<tile::ReduceOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inputType = op.getInput().getType();
    if (!inputType.getEncoding())
      return failure();
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    tile::ReduceKind kind = op.getKind();
    LinearLayout in = state.linearLayoutOf(inputType);
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    std::optional<LinearLayout> out;
    if (resultType)
      out = state.linearLayoutOf(resultType);
    Type elementType = inputType.getElementType();
    Type accType = accumulatorType(elementType);
    auto combine = [&](Value x, Value y) {
      return tile::buildCombine(rewriter, loc, kind, x, y);
    };

    // 1. Slots of this thread that differ only along the axis.
    int64_t resultSlots = out ? out->getPerThread() : 1;
    SmallVector<Value> partials(resultSlots);
    for (int64_t slot = 0; slot < in.getPerThread(); ++slot) {
      int64_t target = out ? sliceSlotOf(in, axis, *out, slot) : 0;
      if (target < 0)
        return rewriter.notifyMatchFailure(op, "result is not the slice");
      Value element = convertElement(
          rewriter, loc,
          vector::ExtractOp::create(rewriter, loc, adaptor.getInput(), slot),
          accType);
      partials[target] =
          partials[target] ? combine(partials[target], element) : element;
    }

    // 2. Lanes that hold other positions along the axis.
    Value width = arith::ConstantIntOp::create(rewriter, loc, 32, 32);
    for (Value &partial : partials)
      for (unsigned bit : in.bitsAlong(axis, InDim::Lane)) {
        ShuffledValue moved = shuffleValue(rewriter, loc, partial,
                                           int64_t(1) << bit, width,
                                           gpu::ShuffleMode::XOR);
        partial = combine(partial, moved.value);
        ++state.stats.shuffles;
      }

    // 3. Warps that hold other positions meet in workgroup memory.
    SmallVector<unsigned> warpBits = in.bitsAlong(axis, InDim::Warp);
    if (!warpBits.empty())
      partials = combineWarps(rewriter, loc, op, in, out, partials, warpBits);
    ++state.stats.reductions;

    SmallVector<Value> results;
    for (Value partial : partials)
      results.push_back(convertElement(rewriter, loc, partial, elementType));
    if (!resultType) {
      rewriter.replaceOp(op, results.front());
      return success();
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, VectorType::get({resultSlots}, elementType), results);
    return success();
  }

  /// Each warp publishes its partials at (result element) * P + (its
  /// position among the P warps along the axis); every thread then combines
  /// the P partials of each of its result elements.
  SmallVector<Value> combineWarps(ConversionPatternRewriter &rewriter,
                                  Location loc, tile::ReduceOp op,
                                  const LinearLayout &in,
                                  const std::optional<LinearLayout> &out,
                                  ArrayRef<Value> partials,
                                  ArrayRef<unsigned> warpBits) const {
    Value tid = state.threadId;
    Value buffer = state.exchangeBuffers.lookup(op);
    int64_t warpPartials = int64_t(1) << warpBits.size();
    unsigned laneBits = in.getNumBits(InDim::Lane);
    auto c = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
    // The thread's position among the warps along the axis.
    Value position = c(0);
    for (auto [i, bit] : llvm::enumerate(warpBits)) {
      Value field = extractBits(rewriter, loc, tid, laneBits + bit, 1);
      position = rewriter.createOrFold<arith::OrIOp>(
          loc, position,
          rewriter.createOrFold<arith::ShLIOp>(loc, field, c(i)));
    }
    auto resultIndex = [&](OpBuilder &b, int64_t slot) {
      return out ? emitLinearIndex(b, loc, *out, tid, slot) : c(0);
    };
    // Writers: lane 0 of the lanes along the axis, one copy of the rest.
    int64_t quiet = 0;
    for (unsigned bit : in.bitsAlong(op.getAxis(), InDim::Lane))
      quiet |= int64_t(1) << bit;
    for (InDim dim : {InDim::Lane, InDim::Warp})
      for (unsigned i = 0; i < in.getNumBits(dim); ++i)
        if (llvm::all_of(in.getBasis(dim, i), [](int64_t v) { return !v; }))
          quiet |= int64_t(1) << (i + (dim == InDim::Warp ? laneBits : 0));
    gpu::BarrierOp::create(rewriter, loc);
    Value isWriter = rewriter.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq,
        rewriter.createOrFold<arith::AndIOp>(loc, tid, c(quiet)), c(0));
    buildIf(rewriter, loc, isWriter, [&](OpBuilder &b) {
      for (auto [slot, partial] : llvm::enumerate(partials)) {
        Value base = b.createOrFold<arith::MulIOp>(loc, resultIndex(b, slot),
                                                   c(warpPartials));
        memref::StoreOp::create(
            b, loc, partial, buffer,
            b.createOrFold<arith::AddIOp>(loc, base, position));
      }
    });
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> combined;
    for (int64_t slot = 0; slot < int64_t(partials.size()); ++slot) {
      Value base = rewriter.createOrFold<arith::MulIOp>(
          loc, resultIndex(rewriter, slot), c(warpPartials));
      Value acc;
      for (int64_t w = 0; w < warpPartials; ++w) {
        Value v = memref::LoadOp::create(
            rewriter, loc, buffer,
            rewriter.createOrFold<arith::AddIOp>(loc, base, c(w)));
        acc = acc ? tile::buildCombine(rewriter, loc, op.getKind(), acc, v) : v;
      }
      combined.push_back(acc);
    }
    return combined;
  }
};

/// A broadcast of a slice back along its dimension: every thread already
/// holds the row (or column) value of each of its parent slots.
struct SliceBroadcastLowering : MapWarpsPattern<tile::BroadcastOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto slice = dyn_cast_or_null<tilegpu::SliceLayoutAttr>(
        op.getInput().getType().getEncoding());
    if (!op.getType().getEncoding() || !slice || op.getDims().size() != 1 ||
        op.getDims()[0] != int64_t(slice.getDim()))
      return failure();
    LinearLayout parent = state.linearLayoutOf(op.getType());
    LinearLayout in = state.linearLayoutOf(op.getInput().getType());
    SmallVector<int64_t> slots;
    for (int64_t slot = 0; slot < parent.getPerThread(); ++slot) {
      int64_t source = sliceSlotOf(parent, slice.getDim(), in, slot);
      if (source < 0)
        return rewriter.notifyMatchFailure(op, "input is not the slice");
      slots.push_back(source);
    }
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getInput(),
                                                   adaptor.getInput(), slots);
    return success();
  }
};

struct LayoutRangeLowering : MapWarpsPattern<tile::RangeOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().getEncoding())
      return failure();
    Location loc = op.getLoc();
    LinearLayout layout = state.linearLayoutOf(op.getType());
    Type elementType = op.getType().getElementType();
    SmallVector<Value> elements;
    for (int64_t slot = 0; slot < layout.getPerThread(); ++slot)
      elements.push_back(rewriter.createOrFold<arith::IndexCastUIOp>(
          loc, elementType,
          emitLinearIndex(rewriter, loc, layout, state.threadId, slot)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, VectorType::get({layout.getPerThread()}, elementType), elements);
    return success();
  }
};

} // namespace

std::optional<ExchangeBuffer> tilec::layoutExchangeBuffer(Operation *op,
                                                          int64_t threads) {
  if (auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(op)) {
    LinearLayout from = tilegpu::layoutOf(convert.getInput().getType(), threads);
    LinearLayout to = tilegpu::layoutOf(convert.getType(), threads);
    if (from.registerPermutation(to) ||
        (isShuffleable(convert.getType().getElementType()) &&
         from.warpShuffles(to)))
      return std::nullopt;
    return ExchangeBuffer{convert.getType().getNumElements(),
                          convert.getType().getElementType()};
  }
  auto reduce = dyn_cast<tile::ReduceOp>(op);
  if (!reduce || !reduce.getInput().getType().getEncoding())
    return std::nullopt;
  LinearLayout in = tilegpu::layoutOf(reduce.getInput().getType(), threads);
  SmallVector<unsigned> warpBits = in.bitsAlong(reduce.getAxis(), InDim::Warp);
  if (warpBits.empty())
    return std::nullopt;
  RankedTensorType input = reduce.getInput().getType();
  int64_t resultElements =
      input.getNumElements() / input.getDimSize(reduce.getAxis());
  return ExchangeBuffer{resultElements << warpBits.size(),
                        accumulatorType(input.getElementType())};
}

LogicalResult tilec::checkExchangeBufferFits(Operation *op,
                                             const ExchangeBuffer &buffer) {
  int64_t bytes = buffer.bytes();
  if (bytes <= kMaxStaticSharedBytes)
    return success();
  return op->emitOpError("needs ")
         << bytes << " bytes of workgroup memory to exchange its tile; at most "
         << kMaxStaticSharedBytes << " are supported";
}

void tilec::populateMapWarpsLayoutPatterns(const TypeConverter &converter,
                                           MapWarpsState &state,
                                           RewritePatternSet &patterns) {
  // Above the blocked layout's patterns for the same ops.
  patterns.add<ConvertLayoutLowering, LayoutReduceLowering,
               SliceBroadcastLowering, LayoutRangeLowering>(
      converter, patterns.getContext(), state, /*benefit=*/2);
}
