//===- MapWarpsExchange.cpp - Ops that move data between threads ----------===//
//
// tile.reduce: a thread first combines its own elements, then the lanes of a
// warp combine with xor-butterfly shuffles, and the warps meet in workgroup
// memory, which also puts the result in the layout of the result tile.
// tile.broadcast: the input goes through workgroup memory and every thread
// reads the elements of the result it owns.
// tile.prefix: a thread scans its own chunks, the lanes of a warp scan the
// chunk totals with shuffles up, and the warp totals meet in workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

static constexpr unsigned kLaneBits = 5;

namespace {

/// Bits of the linear index of the reduced tile that a reduction along
/// `axis` removes, and where they live in the layout.
struct ReductionPlan {
  unsigned lo, hi;         // reduced l-bits [lo, hi)
  unsigned warpLo, warpHi; // reduced l-bits that come from the warp id
  SmallVector<unsigned> laneShuffles; // xor offsets, one per reduced lane bit
  int64_t laneMask = 0;               // thread-id bits that are reduced lanes

  int64_t numWarpPartials() const { return int64_t(1) << (warpHi - warpLo); }
};

ReductionPlan planReduction(const TileLayout &layout, unsigned axis) {
  ReductionPlan plan;
  plan.lo = layout.dimShift(axis);
  plan.hi = plan.lo + layout.dimBits(axis);
  unsigned v = layout.getVectorBits();
  unsigned laneEnd = v + std::min(kLaneBits, layout.getThreadBits());
  unsigned threadEnd = v + layout.getThreadBits();
  for (unsigned b = std::max(plan.lo, v); b < std::min(plan.hi, laneEnd); ++b) {
    plan.laneShuffles.push_back(1u << (b - v));
    plan.laneMask |= int64_t(1) << (b - v);
  }
  plan.warpLo = std::max(plan.lo, laneEnd);
  plan.warpHi = std::max(plan.warpLo, std::min(plan.hi, threadEnd));
  return plan;
}

/// Reductions combine in at least 32 bits: that is what a shuffle moves, and
/// 16-bit float sums lose less in f32. Integer results are the same either
/// way (two's complement wraps alike; signed order is kept).
Type accumulatorType(Type elementType) {
  if (elementType.getIntOrFloatBitWidth() >= 32)
    return elementType;
  MLIRContext *ctx = elementType.getContext();
  return isa<FloatType>(elementType) ? Type(Float32Type::get(ctx))
                                     : Type(IntegerType::get(ctx, 32));
}

Value convertElement(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  bool isFloat = isa<FloatType>(from);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return isFloat ? arith::ExtFOp::create(b, loc, to, v).getResult()
                   : arith::ExtSIOp::create(b, loc, to, v).getResult();
  return isFloat ? arith::TruncFOp::create(b, loc, to, v).getResult()
                 : arith::TruncIOp::create(b, loc, to, v).getResult();
}

Value combine(OpBuilder &b, Location loc, tile::ReduceKind kind, Value x,
              Value y) {
  return tile::buildCombine(b, loc, kind, x, y);
}

/// l with the bits [lo, hi) removed: the linear index in the reduced tile.
Value dropBits(OpBuilder &b, Location loc, Value linear, unsigned lo,
               unsigned hi) {
  Value low = extractBits(b, loc, linear, 0, lo);
  Value high = b.createOrFold<arith::ShRUIOp>(loc, linear,
                                              indexConstant(b, loc, hi));
  Value highShifted =
      b.createOrFold<arith::ShLIOp>(loc, high, indexConstant(b, loc, lo));
  return b.createOrFold<arith::OrIOp>(loc, low, highShifted);
}

struct ReduceLowering : MapWarpsPattern<tile::ReduceOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TileLayout layout = state.layoutOf(op.getInput().getType());
    ReductionPlan plan = planReduction(layout, op.getAxis());
    tile::ReduceKind kind = op.getKind();
    Value tid = state.threadId;

    // 1. Combine this thread's slots that differ only in reduced bits.
    unsigned slotBits = layout.getNumSlotBits();
    int64_t reducedSlotMask = 0;
    for (unsigned i = 0; i < slotBits; ++i) {
      unsigned pos = layout.slotBitPosition(i);
      if (pos >= plan.lo && pos < plan.hi)
        reducedSlotMask |= int64_t(1) << i;
    }
    llvm::MapVector<int64_t, Value> partials; // representative slot -> value
    Type elementType = getElementTypeOrSelf(op.getInput());
    Type accType = accumulatorType(elementType);
    for (int64_t slot = 0; slot < layout.getPerThread(); ++slot) {
      Value element = convertElement(
          rewriter, loc,
          vector::ExtractOp::create(rewriter, loc, adaptor.getInput(), slot),
          accType);
      int64_t key = slot & ~reducedSlotMask;
      auto [it, inserted] = partials.try_emplace(key, element);
      if (!inserted)
        it->second = combine(rewriter, loc, kind, it->second, element);
    }

    // 2. Combine across the lanes of a warp.
    Value width = arith::ConstantIntOp::create(rewriter, loc, 32, 32);
    for (auto &[key, value] : partials) {
      for (unsigned offset : plan.laneShuffles) {
        Value offsetValue =
            arith::ConstantIntOp::create(rewriter, loc, offset, 32);
        auto shuffle = gpu::ShuffleOp::create(rewriter, loc, value,
                                              offsetValue, width,
                                              gpu::ShuffleMode::XOR);
        value = combine(rewriter, loc, kind, value, shuffle.getShuffleResult());
        ++state.stats.shuffles;
      }
    }

    // 3. One lane per group publishes its partial in workgroup memory, at
    //    (index in the result) * warpPartials + (reduced warp bits).
    Value buffer = state.exchangeBuffers.lookup(op);
    int64_t warpPartials = plan.numWarpPartials();
    gpu::BarrierOp::create(rewriter, loc);
    Value isWriter = rewriter.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq,
        rewriter.createOrFold<arith::AndIOp>(
            loc, tid, indexConstant(rewriter, loc, plan.laneMask)),
        indexConstant(rewriter, loc, 0));
    if (Value owner = layout.ownsElements(rewriter, loc, tid))
      isWriter = rewriter.createOrFold<arith::AndIOp>(loc, isWriter, owner);
    auto publish = scf::IfOp::create(rewriter, loc, isWriter);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(publish.thenBlock());
      for (auto &[slot, value] : partials) {
        Value linear = layout.linearIndex(rewriter, loc, tid, slot);
        Value resultIndex = dropBits(rewriter, loc, linear, plan.lo, plan.hi);
        Value warpIndex = extractBits(rewriter, loc, linear, plan.warpLo,
                                      plan.warpHi - plan.warpLo);
        Value address = rewriter.createOrFold<arith::AddIOp>(
            loc,
            rewriter.createOrFold<arith::MulIOp>(
                loc, resultIndex, indexConstant(rewriter, loc, warpPartials)),
            warpIndex);
        memref::StoreOp::create(rewriter, loc, value, buffer, address);
      }
    }
    gpu::BarrierOp::create(rewriter, loc);

    // 4. Every thread gathers the elements of the result it owns.
    auto gather = [&](Value resultIndex) {
      Value base = rewriter.createOrFold<arith::MulIOp>(
          loc, resultIndex, indexConstant(rewriter, loc, warpPartials));
      Value acc;
      for (int64_t w = 0; w < warpPartials; ++w) {
        Value address = rewriter.createOrFold<arith::AddIOp>(
            loc, base, indexConstant(rewriter, loc, w));
        Value v = memref::LoadOp::create(rewriter, loc, buffer, address);
        acc = acc ? combine(rewriter, loc, kind, acc, v) : v;
      }
      return convertElement(rewriter, loc, acc, elementType);
    };
    ++state.stats.reductions;
    auto resultTile = dyn_cast<RankedTensorType>(op.getType());
    if (!resultTile) {
      rewriter.replaceOp(op, gather(indexConstant(rewriter, loc, 0)));
      return success();
    }
    TileLayout resultLayout = state.layoutOf(resultTile);
    rewriter.replaceOp(op, resultLayout.buildVector(rewriter, loc, tid,
                                                    elementType, gather));
    return success();
  }

};

/// A combination that may be empty: `valid` (i1) says whether `value` holds
/// anything, so that prefixes need no identity element (the combiners of a
/// scan need not have one).
struct MaybeValue {
  Value value, valid;
};

/// earlier . later, where either may be empty.
MaybeValue combineMaybe(OpBuilder &b, Location loc, tile::ReduceKind kind,
                        MaybeValue earlier, MaybeValue later) {
  Value both = combine(b, loc, kind, earlier.value, later.value);
  Value value = b.createOrFold<arith::SelectOp>(
      loc, earlier.valid,
      b.createOrFold<arith::SelectOp>(loc, later.valid, both, earlier.value),
      later.value);
  return {value,
          b.createOrFold<arith::OrIOp>(loc, earlier.valid, later.valid)};
}

Value boolConstant(OpBuilder &b, Location loc, bool v) {
  return arith::ConstantIntOp::create(b, loc, v, 1);
}

/// Where the bits of a prefix along the innermost dimension lie: the tile's
/// linear index has, from the lowest bit, the chunk element (v bits), the
/// lane (5), the warp and the thread's chunk number; the scanned dimension
/// takes the lowest `axisBits` of them.
struct PrefixPlan {
  unsigned v, threadBits, axisBits;
  /// Scanned bits in the warp id and in the chunk number.
  unsigned warpAxisBits() const {
    unsigned end = std::min(axisBits, v + threadBits);
    return end > v + kLaneBits ? end - v - kLaneBits : 0;
  }
  unsigned chunkAxisBits() const {
    return axisBits > v + threadBits ? axisBits - v - threadBits : 0;
  }
  int64_t warps() const { return int64_t(1) << (threadBits - kLaneBits); }
};

/// Supported: a prefix along the innermost dimension whose rows span whole
/// warps (at least 32 chunks), on at least one warp, not replicated.
std::optional<PrefixPlan> planPrefix(const TileLayout &layout,
                                     RankedTensorType type, int64_t axis) {
  if (axis != type.getRank() - 1 || layout.isReplicated() ||
      layout.getThreadBits() < kLaneBits)
    return std::nullopt;
  PrefixPlan plan{layout.getVectorBits(), layout.getThreadBits(),
                  layout.dimBits(axis)};
  if (plan.axisBits < plan.v + kLaneBits)
    return std::nullopt;
  return plan;
}

struct PrefixLowering : MapWarpsPattern<tile::PrefixOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::PrefixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    TileLayout layout = state.layoutOf(type);
    std::optional<PrefixPlan> plan = planPrefix(layout, type, op.getAxis());
    if (!plan) // checkPrefixSupported rejected it before the rewrite
      return failure();
    tile::ReduceKind kind = op.getKind();
    // A reverse scan runs from the last element: every step below takes its
    // neighbours on the other side (higher slots, lanes, warps, chunks).
    bool reverse = op.getReverse();
    Type elementType = type.getElementType();
    Type accType = accumulatorType(elementType);
    Value tid = state.threadId;
    auto c = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
    Value lane = rewriter.createOrFold<arith::AndIOp>(loc, tid, c(31));
    Value warp = rewriter.createOrFold<arith::ShRUIOp>(loc, tid, c(kLaneBits));
    int64_t chunkSize = int64_t(1) << plan->v;
    int64_t chunks = layout.getPerThread() / chunkSize;
    // The i-th element of a chunk in scan order.
    auto inOrder = [&](int64_t i) { return reverse ? chunkSize - 1 - i : i; };

    // 1. Each thread scans its chunks.
    SmallVector<Value> x(layout.getPerThread());
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      for (int64_t i = 0; i < chunkSize; ++i) {
        int64_t slot = chunk * chunkSize + inOrder(i);
        Value element = convertElement(
            rewriter, loc,
            vector::ExtractOp::create(rewriter, loc, adaptor.getInput(), slot),
            accType);
        if (i > 0)
          element = combine(rewriter, loc, kind,
                            x[chunk * chunkSize + inOrder(i - 1)], element);
        x[slot] = element;
      }
    }

    // 2. The lanes scan the chunk totals (Kogge-Stone over shuffles up, or
    //    down for a reverse scan); a lane's prefix is its neighbour's total.
    Value width = arith::ConstantIntOp::create(rewriter, loc, 32, 32);
    auto shuffleFromEarlier = [&](Value v, int64_t offset) {
      Value offsetValue =
          arith::ConstantIntOp::create(rewriter, loc, offset, 32);
      ++state.stats.shuffles;
      return gpu::ShuffleOp::create(
          rewriter, loc, v, offsetValue, width,
          reverse ? gpu::ShuffleMode::DOWN : gpu::ShuffleMode::UP);
    };
    SmallVector<Value> laneTotals;
    SmallVector<MaybeValue> lanePrefixes;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      Value total = x[chunk * chunkSize + inOrder(chunkSize - 1)];
      for (int64_t offset = 1; offset < 32; offset *= 2) {
        auto earlier = shuffleFromEarlier(total, offset);
        total = rewriter.createOrFold<arith::SelectOp>(
            loc, earlier.getValid(),
            combine(rewriter, loc, kind, earlier.getShuffleResult(), total),
            total);
      }
      laneTotals.push_back(total);
      auto neighbour = shuffleFromEarlier(total, 1);
      lanePrefixes.push_back(
          {neighbour.getShuffleResult(), neighbour.getValid()});
    }

    // 3. The last lane in scan order publishes its warp's totals at
    //    chunk * warps + warp.
    Value buffer = state.exchangeBuffers.lookup(op);
    int64_t warps = plan->warps();
    gpu::BarrierOp::create(rewriter, loc);
    auto publish = scf::IfOp::create(
        rewriter, loc,
        rewriter.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                             lane, c(reverse ? 0 : 31)));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(publish.thenBlock());
      for (int64_t chunk = 0; chunk < chunks; ++chunk)
        memref::StoreOp::create(
            rewriter, loc, laneTotals[chunk], buffer,
            ValueRange{rewriter.createOrFold<arith::AddIOp>(
                loc, c(chunk * warps), warp)});
    }
    gpu::BarrierOp::create(rewriter, loc);

    // 4. Per chunk: the totals of the row's warps before this one in scan
    //    order, and the row's total over all its warps.
    int64_t rowWarps = int64_t(1) << plan->warpAxisBits();
    Value warpInRow =
        rewriter.createOrFold<arith::AndIOp>(loc, warp, c(rowWarps - 1));
    Value firstWarp = rewriter.createOrFold<arith::SubIOp>(loc, warp, warpInRow);
    SmallVector<MaybeValue> warpPrefixes;
    SmallVector<Value> rowTotals;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      MaybeValue prefix{x.front(), boolConstant(rewriter, loc, false)};
      Value rowTotal;
      for (int64_t i = 0; i < rowWarps; ++i) {
        int64_t w = reverse ? rowWarps - 1 - i : i;
        Value address = rewriter.createOrFold<arith::AddIOp>(
            loc, c(chunk * warps + w), firstWarp);
        Value total = memref::LoadOp::create(rewriter, loc, buffer, address);
        rowTotal = rowTotal ? combine(rewriter, loc, kind, rowTotal, total)
                            : total;
        Value earlier = rewriter.createOrFold<arith::CmpIOp>(
            loc, reverse ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult,
            c(w), warpInRow);
        prefix = combineMaybe(rewriter, loc, kind, prefix, {total, earlier});
      }
      warpPrefixes.push_back(prefix);
      rowTotals.push_back(rowTotal);
    }

    // 5. Chunks of a row follow each other in scan order: each carries the
    //    totals of the row's chunks before it. Then every element takes
    //    carry . earlier warps . earlier lanes . its own prefix.
    int64_t rowChunks = int64_t(1) << plan->chunkAxisBits();
    SmallVector<Value> results(layout.getPerThread());
    for (int64_t first = 0; first < chunks; first += rowChunks) {
      MaybeValue carry{x.front(), boolConstant(rewriter, loc, false)};
      for (int64_t k = 0; k < rowChunks; ++k) {
        int64_t chunk = first + (reverse ? rowChunks - 1 - k : k);
        MaybeValue prefix = combineMaybe(rewriter, loc, kind, carry,
                                         warpPrefixes[chunk]);
        prefix = combineMaybe(rewriter, loc, kind, prefix, lanePrefixes[chunk]);
        for (int64_t i = 0; i < chunkSize; ++i) {
          int64_t slot = chunk * chunkSize + inOrder(i);
          Value value;
          if (!op.getExclusive()) {
            value = rewriter.createOrFold<arith::SelectOp>(
                loc, prefix.valid,
                combine(rewriter, loc, kind, prefix.value, x[slot]), x[slot]);
          } else {
            // Everything before this element: the prefix, then the chunk's
            // elements before it (x holds the chunk's own scan).
            MaybeValue before =
                i == 0 ? prefix
                       : combineMaybe(rewriter, loc, kind, prefix,
                                      {x[chunk * chunkSize + inOrder(i - 1)],
                                       boolConstant(rewriter, loc, true)});
            value = rewriter.createOrFold<arith::SelectOp>(
                loc, before.valid, before.value,
                arith::ConstantOp::create(rewriter, loc,
                                          tile::getIdentity(kind, accType)));
          }
          results[slot] = convertElement(rewriter, loc, value, elementType);
        }
        carry = combineMaybe(
            rewriter, loc, kind, carry,
            {rowTotals[chunk], boolConstant(rewriter, loc, true)});
      }
    }
    ++state.stats.prefixes;
    rewriter.replaceOp(op, vector::FromElementsOp::create(
                               rewriter, loc,
                               VectorType::get({layout.getPerThread()},
                                               elementType),
                               results));
    return success();
  }
};

struct BroadcastLowering : MapWarpsPattern<tile::BroadcastOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tid = state.threadId;
    TileLayout in = state.layoutOf(op.getInput().getType());
    TileLayout out = state.layoutOf(op.getType());
    Value buffer = state.exchangeBuffers.lookup(op);

    // Publish the input in row-major order.
    gpu::BarrierOp::create(rewriter, loc);
    Value owner = in.ownsElements(rewriter, loc, tid);
    Block *publishBlock = nullptr;
    if (owner)
      publishBlock = scf::IfOp::create(rewriter, loc, owner).thenBlock();
    {
      OpBuilder::InsertionGuard guard(rewriter);
      if (publishBlock)
        rewriter.setInsertionPointToStart(publishBlock);
      for (int64_t slot = 0; slot < in.getPerThread(); ++slot) {
        Value element =
            vector::ExtractOp::create(rewriter, loc, adaptor.getInput(), slot);
        memref::StoreOp::create(rewriter, loc, element, buffer,
                                in.linearIndex(rewriter, loc, tid, slot));
      }
    }
    gpu::BarrierOp::create(rewriter, loc);

    // Read back: the input index keeps the result's non-broadcast dims.
    ArrayRef<int64_t> newDims = op.getDims();
    auto readElement = [&](Value linear) -> Value {
      Value inputIndex = indexConstant(rewriter, loc, 0);
      unsigned inputDim = 0;
      for (unsigned d = 0; d < out.getShape().size(); ++d) {
        if (llvm::is_contained(newDims, d))
          continue;
        Value index =
            extractBits(rewriter, loc, linear, out.dimShift(d), out.dimBits(d));
        Value placed = rewriter.createOrFold<arith::ShLIOp>(
            loc, index, indexConstant(rewriter, loc, in.dimShift(inputDim++)));
        inputIndex = rewriter.createOrFold<arith::OrIOp>(loc, inputIndex, placed);
      }
      return memref::LoadOp::create(rewriter, loc, buffer, inputIndex);
    };
    rewriter.replaceOp(op, out.buildVector(rewriter, loc, tid,
                                           op.getType().getElementType(),
                                           readElement));
    return success();
  }

};

} // namespace

LogicalResult tilec::checkPrefixSupported(tile::PrefixOp op,
                                          int64_t threads) {
  TileLayout layout(op.getType().getShape(), threads);
  if (planPrefix(layout, op.getType(), op.getAxis()))
    return success();
  return op.emitOpError("is supported along the innermost dimension, with "
                        "rows of at least 32 x ")
         << (int64_t(1) << layout.getVectorBits())
         << " elements, on at least one warp";
}

std::optional<ExchangeBuffer> tilec::exchangeBufferFor(Operation *op,
                                                       int64_t threads) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    auto input = cast<RankedTensorType>(reduce.getInput().getType());
    TileLayout layout(input.getShape(), threads);
    ReductionPlan plan = planReduction(layout, reduce.getAxis());
    int64_t resultElements = layout.getNumElements() >> (plan.hi - plan.lo);
    return ExchangeBuffer{resultElements * plan.numWarpPartials(),
                          accumulatorType(input.getElementType())};
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(op))
    return ExchangeBuffer{broadcast.getInput().getType().getNumElements(),
                          broadcast.getInput().getType().getElementType()};
  // A ticket, and the carries of a look-back, as i32 bits.
  Type i32 = IntegerType::get(op->getContext(), 32);
  if (isa<tile::TicketOp>(op))
    return ExchangeBuffer{1, i32};
  if (auto lookback = dyn_cast<tile::LookbackOp>(op))
    return ExchangeBuffer{int64_t(lookback.getTotals().size()), i32};
  if (auto prefix = dyn_cast<tile::PrefixOp>(op)) {
    // One total per warp and chunk of a thread.
    TileLayout layout(prefix.getType().getShape(), threads);
    int64_t chunks = layout.getPerThread() >> layout.getVectorBits();
    int64_t warps = std::max<int64_t>(threads / 32, 1);
    return ExchangeBuffer{std::max<int64_t>(chunks, 1) * warps,
                          accumulatorType(prefix.getType().getElementType())};
  }
  return std::nullopt;
}

void tilec::populateMapWarpsExchangePatterns(const TypeConverter &converter,
                                             MapWarpsState &state,
                                             RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, BroadcastLowering, PrefixLowering>(
      converter, patterns.getContext(), state);
}
