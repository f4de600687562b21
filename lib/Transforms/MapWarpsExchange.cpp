//===- MapWarpsExchange.cpp - Ops that move data between threads ----------===//
//
// tile.reduce: a thread first combines its own elements, then the lanes of a
// warp combine with xor-butterfly shuffles, and the warps meet in workgroup
// memory, which also puts the result in the layout of the result tile.
// tile.broadcast: the input goes through workgroup memory and every thread
// reads the elements of the result it owns.
// (tile.prefix, the block scan, is in MapWarpsPrefix.cpp.)
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

} // namespace

Type tilec::accumulatorType(Type elementType) {
  if (elementType.getIntOrFloatBitWidth() >= 32)
    return elementType;
  MLIRContext *ctx = elementType.getContext();
  return isa<FloatType>(elementType) ? Type(Float32Type::get(ctx))
                                     : Type(IntegerType::get(ctx, 32));
}

Value tilec::convertElement(OpBuilder &b, Location loc, Value v, Type to) {
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

namespace {

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
    if (hasEncodedTile(op))
      return failure();
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
    Value laneMask = indexConstant(rewriter, loc, plan.laneMask);
    Value laneBits = rewriter.createOrFold<arith::AndIOp>(loc, tid, laneMask);
    Value zero = indexConstant(rewriter, loc, 0);
    Value isWriter = rewriter.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, laneBits, zero);
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

/// Whether broadcasting `op` along new leading dimensions keeps every
/// element in the thread that holds it: the new dimensions lie in the
/// result's chunk numbers (above the thread bits), and the input is laid
/// out with the same chunks and thread bits, so that slot s of the result
/// is slot s mod n of the input (n its slots a thread). A carry broadcast
/// down the columns of a piece is one.
static bool isThreadLocalBroadcast(tile::BroadcastOp op, int64_t threads) {
  TileLayout in(op.getInput().getType().getShape(), threads);
  TileLayout out(op.getType().getShape(), threads);
  ArrayRef<int64_t> dims = op.getDims();
  for (auto [i, d] : llvm::enumerate(dims))
    if (d != static_cast<int64_t>(i))
      return false;
  return !dims.empty() && !in.isReplicated() && !out.isReplicated() &&
         in.getVectorBits() == out.getVectorBits() &&
         in.getThreadBits() == out.getThreadBits() &&
         out.dimShift(dims.back()) >= out.getVectorBits() + out.getThreadBits();
}

struct BroadcastLowering : MapWarpsPattern<tile::BroadcastOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (hasEncodedTile(op))
      return failure();
    Location loc = op.getLoc();
    Value tid = state.threadId;
    TileLayout in = state.layoutOf(op.getInput().getType());
    TileLayout out = state.layoutOf(op.getType());
    if (isThreadLocalBroadcast(op, state.threads)) {
      SmallVector<int64_t> slots;
      for (int64_t slot = 0; slot < out.getPerThread(); ++slot)
        slots.push_back(slot % in.getPerThread());
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(
          op, adaptor.getInput(), adaptor.getInput(), slots);
      return success();
    }
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

std::optional<ExchangeBuffer> tilec::exchangeBufferFor(Operation *op,
                                                       int64_t threads) {
  if (auto prefix = dyn_cast<tile::PrefixOp>(op))
    return prefixExchangeBuffer(prefix, threads);
  if (auto store = dyn_cast<tile::StoreOp>(op))
    return stagedStoreBuffer(store, threads);
  if (isa<tilegpu::ConvertLayoutOp>(op) || hasEncodedTile(op))
    return layoutExchangeBuffer(op, threads);
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    auto input = cast<RankedTensorType>(reduce.getInput().getType());
    TileLayout layout(input.getShape(), threads);
    ReductionPlan plan = planReduction(layout, reduce.getAxis());
    int64_t resultElements = layout.getNumElements() >> (plan.hi - plan.lo);
    return ExchangeBuffer{resultElements * plan.numWarpPartials(),
                          accumulatorType(input.getElementType())};
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(op)) {
    if (isThreadLocalBroadcast(broadcast, threads))
      return std::nullopt;
    return ExchangeBuffer{broadcast.getInput().getType().getNumElements(),
                          broadcast.getInput().getType().getElementType()};
  }
  // A ticket or an arrival count, and the carries of a look-back, as i32
  // bits.
  Type i32 = IntegerType::get(op->getContext(), 32);
  // The ticket and the epoch; the arrival count.
  if (isa<tilegpu::TicketOp>(op))
    return ExchangeBuffer{2, i32};
  if (isa<tilegpu::ArriveOp>(op))
    return ExchangeBuffer{1, i32};
  if (auto lookback = dyn_cast<tilegpu::LookbackOp>(op)) {
    if (lookback.isElementwise())
      return std::nullopt;
    return ExchangeBuffer{int64_t(lookback.getTotals().size()), i32};
  }
  return std::nullopt;
}

void tilec::populateMapWarpsExchangePatterns(const TypeConverter &converter,
                                             MapWarpsState &state,
                                             RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, BroadcastLowering>(
      converter, patterns.getContext(), state);
}
