//===- MapWarpsLookback.cpp - Ops that coordinate programs of a grid ------===//
//
// tilegpu.ticket and tilegpu.arrive: thread 0 counts with an atomic on the
// scratch buffer (the ticket's gives the launch's epoch too) and hands the
// count to the block through workgroup memory.
// tilegpu.lookback: the decoupled look-back of a single-pass scan. Thread 0
// publishes the program's totals, warp 0 reads its predecessors' status 32
// at a time (sleeping first, in launches of many programs, and between
// reads of statuses not yet published) and combines them, thread 0
// publishes the inclusive prefix, and the carry reaches the block through
// workgroup memory. Each status word holds a tag (the launch's epoch and a
// flag) in its high half and the value's bits in its low half, so one load
// gives a value together with its flag: no other memory is published, so
// relaxed device-scope atomics (PTX ld/st.relaxed.gpu) suffice. Acquire
// loads and release stores were 15% slower at 2^28 f32 on the H200 and
// order nothing that needs ordering. The epoch (from the ticket, which the
// last program of a launch advances) makes the statuses of earlier
// launches read as unpublished, so the buffer needs no zero-fill a launch.
//
//===----------------------------------------------------------------------===//

#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tilec;

namespace {

/// What a status word says about its value (the low 2 bits of its high
/// half, above them the low 30 bits of the launch's epoch); any other tag,
/// zero (the scratch buffer's initial state) or an earlier launch's, means
/// nothing was published yet.
enum StatusFlag : int64_t { kAggregate = 1, kInclusive = 2 };
constexpr int64_t kFlagBits = 2;
/// The runtime zero-fills an `epochs` buffer again before 2^30 launches have
/// used it (ScratchInfo::kEpochsPerZeroFill), so no two launches between
/// fills share a tag.
constexpr int64_t kEpochMask = (int64_t(1) << 30) - 1;

/// Global memory: the scratch buffer is a kernel argument.
constexpr unsigned kGlobalAddressSpace = 1;
/// Publications and look-backs are seen by every block of the launch.
constexpr StringLiteral kDeviceScope = "device";

Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}

/// `scratch`'s first word as a global pointer, for atomics and ordered
/// accesses that memref ops cannot express.
Value scratchPointer(OpBuilder &b, Location loc, Value scratch) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, scratch);
  Value asInt = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), kGlobalAddressSpace);
  return LLVM::IntToPtrOp::create(b, loc, ptrType, asInt);
}

/// Element `index` (i64) of an array of `elementType` at `base`.
Value elementPointer(OpBuilder &b, Location loc, Value base, Type elementType,
                     Value index) {
  return LLVM::GEPOp::create(b, loc, base.getType(), elementType, base,
                             ValueRange{index});
}

/// Thread 0 computes `words` i32 words with `compute` (it gets the pointer
/// to word 0 of the scratch buffer) and hands them to the whole block
/// through `buffer`, one word each.
SmallVector<Value> shareFromFirstThread(
    OpBuilder &b, Location loc, const MapWarpsState &state, Value buffer,
    Value scratch, int64_t words,
    function_ref<SmallVector<Value>(OpBuilder &, Value)> compute) {
  SmallVector<Value> slots;
  for (int64_t i = 0; i < words; ++i)
    slots.push_back(indexConstant(b, loc, i));
  // The buffer may still be read from an earlier count in a loop.
  gpu::BarrierOp::create(b, loc);
  inFirstThread(b, loc, state.threadId, [&](OpBuilder &b) {
    SmallVector<Value> values = compute(b, scratchPointer(b, loc, scratch));
    assert(values.size() == slots.size() && "one value a word");
    for (auto [value, slot] : llvm::zip_equal(values, slots))
      memref::StoreOp::create(b, loc, value, buffer, slot);
  });
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> shared;
  for (Value slot : slots)
    shared.push_back(memref::LoadOp::create(b, loc, buffer, slot));
  return shared;
}

Value indexFromWord(OpBuilder &b, Location loc, Value word) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), word);
}

/// Thread 0 adds 1 to the 64-bit word of the count (low half) and the epoch
/// (high half); the program with the last ticket of the grid sets the count
/// back to 0 and advances the epoch (every program has its ticket by then,
/// and the next launch on the stream starts after this one ends). Both reach
/// the block through workgroup memory.
struct TicketLowering : MapWarpsPattern<tilegpu::TicketOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult matchAndRewrite(tilegpu::TicketOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    Type i32 = b.getI32Type();
    auto take = [&](OpBuilder &b, Value header) -> SmallVector<Value> {
      Value taken = LLVM::AtomicRMWOp::create(
          b, loc, LLVM::AtomicBinOp::add, header, i64Constant(b, loc, 1),
          LLVM::AtomicOrdering::monotonic, kDeviceScope);
      Value ticket = arith::TruncIOp::create(b, loc, i32, taken);
      Value epoch = arith::TruncIOp::create(
          b, loc, i32,
          arith::ShRUIOp::create(b, loc, taken, i64Constant(b, loc, 32)));
      Value programs = gridSize(b, loc);
      Value last = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, ticket,
          arith::SubIOp::create(b, loc, programs, i32Constant(b, loc, 1)));
      buildIf(b, loc, last, [&](OpBuilder &b) {
        Value next =
            arith::AddIOp::create(b, loc, epoch, i32Constant(b, loc, 1));
        Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), next);
        Value word =
            arith::ShLIOp::create(b, loc, wide, i64Constant(b, loc, 32));
        LLVM::StoreOp::create(b, loc, word, header, /*alignment=*/8,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariantGroup=*/false,
                              LLVM::AtomicOrdering::monotonic, kDeviceScope);
      });
      return {ticket, epoch};
    };
    SmallVector<Value> shared =
        shareFromFirstThread(b, loc, state, state.exchangeBuffers.lookup(op),
                             adaptor.getScratch(), /*words=*/2, take);
    b.replaceOp(op, {indexFromWord(b, loc, shared[0]), shared[1]});
    return success();
  }

private:
  /// The programs of the launch (i32).
  static Value gridSize(OpBuilder &b, Location loc) {
    Value size;
    for (gpu::Dimension d :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
      Value dim = arith::IndexCastUIOp::create(
          b, loc, b.getI32Type(), gpu::GridDimOp::create(b, loc, d));
      size = size ? arith::MulIOp::create(b, loc, size, dim).getResult() : dim;
    }
    return size;
  }
};

/// The block barrier before the count orders every thread's writes before
/// thread 0's release fence; thread 0's acquire fence and the barrier after
/// order the later programs' reads after it (PTX: fence.acq_rel.gpu on both
/// sides of a relaxed atom.inc).
struct ArriveLowering : MapWarpsPattern<tilegpu::ArriveOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::ArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto atomic = [&](OpBuilder &b, Value scratch) {
      Type i32 = b.getI32Type();
      Value index = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                                 adaptor.getCounter());
      Value counter = elementPointer(b, loc, scratch, i32, index);
      // atom.inc wraps to 0 after `bound`: counts 0..count-1.
      Value count = arith::IndexCastUIOp::create(b, loc, i32, adaptor.getCount());
      Value bound = arith::SubIOp::create(b, loc, count, i32Constant(b, loc, 1));
      LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel,
                            kDeviceScope);
      Value before = LLVM::AtomicRMWOp::create(
          b, loc, LLVM::AtomicBinOp::uinc_wrap, counter, bound,
          LLVM::AtomicOrdering::monotonic, kDeviceScope);
      LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel,
                            kDeviceScope);
      return SmallVector<Value>{before};
    };
    Value before = shareFromFirstThread(
        rewriter, loc, state, state.exchangeBuffers.lookup(op),
        adaptor.getScratch(), /*words=*/1, atomic)[0];
    rewriter.replaceOp(op, indexFromWord(rewriter, loc, before));
    return success();
  }
};

/// The status words of ticket t: per total, one aggregate word and one
/// inclusive word (i64 elements from the scratch pointer); for totals of
/// `elements` elements, each of these is `elements` consecutive words, so
/// that threads holding consecutive elements touch consecutive words.
struct StatusLayout {
  Value base; // global pointer to the scratch buffer
  unsigned numTotals;
  int64_t elements = 1;
  /// The high halves of this launch's status words (i64), per flag.
  Value aggregateTag, inclusiveTag;

  /// The layout of `scratch`'s statuses in the launch of epoch `epoch`.
  static StatusLayout get(OpBuilder &b, Location loc, Value scratch,
                          Value epoch, unsigned numTotals,
                          int64_t elements = 1) {
    // One statement per op: argument order is unspecified in C++.
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), epoch);
    Value low =
        arith::AndIOp::create(b, loc, wide, i64Constant(b, loc, kEpochMask));
    Value shifted =
        arith::ShLIOp::create(b, loc, low, i64Constant(b, loc, kFlagBits));
    auto tag = [&](StatusFlag flag) -> Value {
      return arith::OrIOp::create(b, loc, shifted, i64Constant(b, loc, flag));
    };
    return {scratchPointer(b, loc, scratch), numTotals, elements,
            tag(kAggregate), tag(kInclusive)};
  }

  Value tag(StatusFlag flag) const {
    return flag == kAggregate ? aggregateTag : inclusiveTag;
  }

  /// `element` (i64) picks the word of an element; null for scalars.
  Value word(OpBuilder &b, Location loc, Value ticket, StatusFlag flag,
             unsigned total, Value element = {}) const {
    int64_t header = tilegpu::LookbackOp::kHeaderBytes / 8;
    int64_t stride =
        tilegpu::LookbackOp::statusBytes(numTotals, elements) / 8;
    int64_t within =
        ((flag == kInclusive ? numTotals : 0) + total) * elements;
    // One statement per op: argument order is unspecified in C++, and the
    // IR must not depend on the host compiler.
    Value at =
        arith::MulIOp::create(b, loc, ticket, i64Constant(b, loc, stride));
    Value index = arith::AddIOp::create(b, loc, at,
                                        i64Constant(b, loc, header + within));
    if (element)
      index = arith::AddIOp::create(b, loc, index, element);
    return elementPointer(b, loc, base, b.getI64Type(), index);
  }
};

/// The launch's tag with `flag` in the high half, `v`'s bits in the low
/// half.
Value packStatus(OpBuilder &b, Location loc, const StatusLayout &status,
                 Value v, StatusFlag flag) {
  Value low = arith::ExtUIOp::create(b, loc, b.getI64Type(), toWordBits(b, loc, v));
  Value high =
      arith::ShLIOp::create(b, loc, status.tag(flag), i64Constant(b, loc, 32));
  return arith::OrIOp::create(b, loc, low, high);
}
Value statusHas(OpBuilder &b, Location loc, const StatusLayout &status,
                Value word, StatusFlag flag) {
  Value high = arith::ShRUIOp::create(b, loc, word, i64Constant(b, loc, 32));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, high,
                               status.tag(flag));
}
Value statusValue(OpBuilder &b, Location loc, Value word, Type type) {
  Value low = arith::TruncIOp::create(b, loc, b.getI32Type(), word);
  return fromWordBits(b, loc, low, type);
}

/// Tickets each lane of the look-back warp reads a round (a window of 32
/// times this many). On the H200, 4 was 25% slower than 1 at 2^28 f32
/// (bench/scan/results/2026-11-21-h200-lookback-sweep): the extra reads
/// compete with the data streams, and the window rarely needs to go far.
constexpr int64_t kTilesPerLane = 1;
/// Tickets a thread reads at once for each element of an element-wise
/// look-back: on the H200, for column sums, 4 took 408 us at 65536x1024
/// where 8 took 517, 16 took 691 and one at a time 601 (more reads a round
/// cost more than the longer steps down the chain save;
/// bench/scan/results/2026-11-22-h200-columns/column-split-sweep.md).
constexpr int64_t kElementWindow = 4;
/// How long a look-back warp sleeps between reads of statuses not yet
/// published.
constexpr int64_t kSpinSleepNs = 100;
/// How long it sleeps before its first read, in launches of at least
/// kFirstReadSleepProgramsPerSm programs a multiprocessor (a wave of the
/// staged single pass, about two of the register-held one). Measured on
/// the register-held pass: on the H200 at
/// 2^28 f32 the sum ran at 2885 GB/s with no such sleep, 2984 with 500 ns, 3105
/// with 1000, 3150 to 3199 with 2000 and 3143 to 3169 with 3000, CUB 3139 in
/// the same call; at 2^24 2000 ns took it from 2080-2135 to 2253-2277 GB/s
/// (bench/scan/results/2026-11-29-h200-first-read). In a launch that
/// about fits at once the chain is short and the sleep only adds latency.
constexpr int64_t kFirstReadSleepNs = 2000;
constexpr int64_t kFirstReadSleepProgramsPerSm = 16;

/// Whether every word carries this launch's `flag`.
Value allHave(OpBuilder &b, Location loc, const StatusLayout &status,
              ValueRange words, StatusFlag flag) {
  Value all;
  for (Value word : words) {
    Value has = statusHas(b, loc, status, word, flag);
    all = all ? arith::AndIOp::create(b, loc, all, has).getResult() : has;
  }
  return all;
}

/// Relaxed device-scope accesses to status words (see the file comment).
void publish(OpBuilder &b, Location loc, Value word, Value ptr) {
  LLVM::StoreOp::create(b, loc, word, ptr, /*alignment=*/8,
                        /*isVolatile=*/false, /*isNonTemporal=*/false,
                        /*isInvariantGroup=*/false,
                        LLVM::AtomicOrdering::monotonic, kDeviceScope);
}
Value loadStatus(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::LoadOp::create(b, loc, b.getI64Type(), ptr, /*alignment=*/8,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/false,
                              /*isInvariantGroup=*/false,
                              LLVM::AtomicOrdering::monotonic, kDeviceScope);
}

Value negate(OpBuilder &b, Location loc, Value flag) {
  return arith::XOrIOp::create(b, loc, flag,
                               arith::ConstantIntOp::create(b, loc, 1, 1));
}

/// One predecessor a lane reads: its ticket, whether it belongs to the
/// segment, its status words (per total the aggregate word, then per total
/// the inclusive word) and whether they all hold the inclusive prefix.
struct LaneTile {
  Value ticket, inSegment, hasInclusive;
  SmallVector<Value> words;

  ArrayRef<Value> inclusives() const {
    return ArrayRef(words).drop_front(words.size() / 2);
  }
};

struct LookbackLowering : MapWarpsPattern<tilegpu::LookbackOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LookbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.isElementwise())
      return failure();
    Location loc = op.getLoc();
    // A 1-element tile is the same value in every thread: its element.
    SmallVector<Value> totals;
    for (Value total : adaptor.getTotals())
      totals.push_back(isa<VectorType>(total.getType())
                           ? vector::ExtractOp::create(rewriter, loc, total, 0)
                                 .getResult()
                           : total);
    tile::TupleCombiner combiner(op.getKind(), op.getCombiner());
    StatusLayout status = StatusLayout::get(rewriter, loc, adaptor.getScratch(),
                                            adaptor.getEpoch(), totals.size());
    Value ticket = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI64Type(), adaptor.getTicket());
    Value position = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI64Type(), adaptor.getPosition());
    Value isFirst = arith::CmpIOp::create(rewriter, loc,
                                          arith::CmpIPredicate::eq, position,
                                          i64Constant(rewriter, loc, 0));
    Value zero = indexConstant(rewriter, loc, 0);

    // 1. Publish the totals at once: as the inclusive prefix for the first
    //    program of a segment, else as the aggregate.
    inFirstThread(rewriter, loc, state.threadId, [&](OpBuilder &b) {
      for (auto [k, total] : llvm::enumerate(totals)) {
        Value asAggregate = packStatus(b, loc, status, total, kAggregate);
        Value asInclusive = packStatus(b, loc, status, total, kInclusive);
        Value word = arith::SelectOp::create(b, loc, isFirst, asInclusive,
                                             asAggregate);
        Value aggregatePtr = status.word(b, loc, ticket, kAggregate, k);
        Value inclusivePtr = status.word(b, loc, ticket, kInclusive, k);
        Value ptr = arith::SelectOp::create(b, loc, isFirst, inclusivePtr,
                                            aggregatePtr);
        publish(b, loc, word, ptr);
      }
    });

    // 2. Warp 0 of a program with predecessors looks back and publishes
    //    the inclusive prefix; the carry goes through workgroup memory.
    Value buffer = state.exchangeBuffers.lookup(op);
    Value warp = rewriter.createOrFold<arith::ShRUIOp>(
        loc, state.threadId, indexConstant(rewriter, loc, 5));
    Value later = negate(rewriter, loc, isFirst);
    Value warp0 = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::eq, warp, zero);
    Value looksBack = arith::AndIOp::create(rewriter, loc, warp0, later);
    buildIf(rewriter, loc, looksBack, [&](OpBuilder &b) {
      MaybeTuple carry = lookBack(b, loc, combiner, status, ticket,
                                  position, totals);
      inFirstThread(b, loc, state.threadId, [&](OpBuilder &b) {
        SmallVector<Value> inclusives =
            combiner.combine(b, loc, carry.values, totals);
        for (auto [k, inclusive] : llvm::enumerate(inclusives)) {
          Value packed = packStatus(b, loc, status, inclusive, kInclusive);
          Value word = status.word(b, loc, ticket, kInclusive, k);
          publish(b, loc, packed, word);
          Value bits = toWordBits(b, loc, carry.values[k]);
          Value index = indexConstant(b, loc, k);
          memref::StoreOp::create(b, loc, bits, buffer, index);
        }
      });
    });
    gpu::BarrierOp::create(rewriter, loc);

    // 3. Every thread takes the carry; the first program takes the kind's
    //    identity (with a region, what it gets is unspecified).
    SmallVector<Value> carries;
    for (auto [k, total] : llvm::enumerate(totals)) {
      Type type = total.getType();
      Value bits = memref::LoadOp::create(rewriter, loc, buffer,
                                          indexConstant(rewriter, loc, k));
      Value carry = fromWordBits(rewriter, loc, bits, type);
      if (std::optional<tile::ReduceKind> kind = op.getKind())
        carry = arith::SelectOp::create(
            rewriter, loc, isFirst,
            arith::ConstantOp::create(rewriter, loc,
                                      tile::getIdentity(*kind, type)),
            carry);
      if (auto tile = dyn_cast<RankedTensorType>(op.getCarries()[k].getType()))
        carry = vector::BroadcastOp::create(
            rewriter, loc,
            VectorType::get({state.perThread(tile)}, tile.getElementType()),
            carry);
      carries.push_back(carry);
    }
    // A later look-back of a loop writes the buffer again.
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, carries);
    return success();
  }

private:

  /// The combination of the totals of tickets ticket - position to
  /// ticket - 1, run by one warp, a window of 32 * kTilesPerLane tickets a
  /// round.
  MaybeTuple lookBack(OpBuilder &b, Location loc,
                      const tile::TupleCombiner &combiner,
                      const StatusLayout &status, Value ticket,
                      Value position, ValueRange totals) const {
    unsigned n = totals.size();
    sleepBeforeFirstRead(b, loc);
    Value lane = arith::IndexCastUIOp::create(
        b, loc, b.getI64Type(),
        b.createOrFold<arith::AndIOp>(loc, state.threadId,
                                      indexConstant(b, loc, 31)));
    Value one = i64Constant(b, loc, 1);
    Value falseValue = arith::ConstantIntOp::create(b, loc, 0, 1);

    // Loop state: carry values, carry validity, next ticket to read, tickets
    // of the segment still unread, done.
    SmallVector<Value> init;
    SmallVector<Type> types;
    for (Value total : totals) {
      init.push_back(total); // any value: invalid until combined
      types.push_back(total.getType());
    }
    init.append({falseValue, arith::SubIOp::create(b, loc, ticket, one),
                 position, falseValue});
    types.append({b.getI1Type(), b.getI64Type(), b.getI64Type(),
                  b.getI1Type()});
    auto loop = scf::WhileOp::create(b, loc, types, init);
    {
      Block *before = b.createBlock(&loop.getBefore(), {}, types,
                                    SmallVector<Location>(types.size(), loc));
      Value done = before->getArguments().back();
      Value more = negate(b, loc, done);
      scf::ConditionOp::create(b, loc, more, before->getArguments());
    }
    {
      Block *after = b.createBlock(&loop.getAfter(), {}, types,
                                   SmallVector<Location>(types.size(), loc));
      ValueRange args = after->getArguments();
      MaybeTuple carry{SmallVector<Value>(args.take_front(n)), args[n]};
      Value next = args[n + 1], remaining = args[n + 2];

      // Lane i reads tickets next - (kTilesPerLane * i + j), j = 0 nearest.
      SmallVector<LaneTile> tiles;
      for (int64_t j = 0; j < kTilesPerLane; ++j) {
        Value tilesPerLane = i64Constant(b, loc, kTilesPerLane);
        Value laneFirst = arith::MulIOp::create(b, loc, lane, tilesPerLane);
        Value distance = arith::AddIOp::create(b, loc, laneFirst,
                                               i64Constant(b, loc, j));
        LaneTile tile;
        tile.ticket = arith::SubIOp::create(b, loc, next, distance);
        tile.inSegment = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, distance, remaining);
        tiles.push_back(tile);
      }
      waitForStatus(b, loc, status, tiles, n);

      // The nearest tile that has an inclusive prefix, or that lies before
      // the segment, ends the look-back: nearer tiles contribute their
      // aggregates, it contributes its inclusive prefix. stopAt: the lane's
      // first such j (kTilesPerLane if none).
      Value stopAt = i64Constant(b, loc, kTilesPerLane);
      for (int64_t j = kTilesPerLane - 1; j >= 0; --j) {
        LaneTile &tile = tiles[j];
        tile.hasInclusive =
            allHave(b, loc, status, tile.inclusives(), kInclusive);
        Value stops = arith::OrIOp::create(b, loc, tile.hasInclusive,
                                           negate(b, loc, tile.inSegment));
        stopAt = arith::SelectOp::create(b, loc, stops, i64Constant(b, loc, j),
                                         stopAt);
      }
      Value laneStops = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, stopAt,
          i64Constant(b, loc, kTilesPerLane));
      Value ballot = NVVM::VoteSyncOp::create(
          b, loc, b.getI32Type(), i32Constant(b, loc, -1), laneStops,
          NVVM::VoteSyncKindAttr::get(b.getContext(),
                                      NVVM::VoteSyncKind::ballot));
      Value one = i32Constant(b, loc, 1);
      Value lane32 = arith::TruncIOp::create(b, loc, b.getI32Type(), lane);
      Value laneBit = arith::ShLIOp::create(b, loc, one, lane32);
      Value nearestStop = arith::AndIOp::create(
          b, loc, ballot,
          arith::SubIOp::create(b, loc, i32Constant(b, loc, 0), ballot));
      Value noStop = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           ballot, i32Constant(b, loc, 0));
      Value beforeStop = arith::OrIOp::create(
          b, loc, noStop,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, laneBit,
                                nearestStop));
      Value isStopLane = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, laneBit, nearestStop);
      // The lane's tiles, earliest (farthest) first.
      MaybeTuple mine{SmallVector<Value>(carry.values), falseValue};
      for (int64_t j = kTilesPerLane - 1; j >= 0; --j) {
        const LaneTile &tile = tiles[j];
        Value upToStop = arith::AndIOp::create(
            b, loc, tile.inSegment,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                  i64Constant(b, loc, j), stopAt));
        MaybeTuple value;
        for (unsigned k = 0; k < n; ++k) {
          Type type = totals[k].getType();
          Value inclusive = statusValue(b, loc, tile.words[n + k], type);
          Value aggregate = statusValue(b, loc, tile.words[k], type);
          value.values.push_back(arith::SelectOp::create(
              b, loc, tile.hasInclusive, inclusive, aggregate));
        }
        value.valid = arith::OrIOp::create(
            b, loc, beforeStop,
            arith::AndIOp::create(b, loc, isStopLane, upToStop));
        mine = combineMaybe(b, loc, combiner, mine, value);
      }

      MaybeTuple window = reduceWindow(b, loc, combiner, mine);
      MaybeTuple combined = combineMaybe(b, loc, combiner, window, carry);
      SmallVector<Value> yielded(combined.values);
      Value windowTiles = i64Constant(b, loc, 32 * kTilesPerLane);
      yielded.append(
          {combined.valid, arith::SubIOp::create(b, loc, next, windowTiles),
           arith::SubIOp::create(b, loc, remaining, windowTiles),
           negate(b, loc, noStop)});
      scf::YieldOp::create(b, loc, yielded);
    }
    b.setInsertionPointAfter(loop);
    return {SmallVector<Value>(loop.getResults().take_front(n)),
            loop.getResult(n)};
  }

  /// In a launch of many programs, sleeps before the first read: the
  /// nearest predecessors have rarely published by then, and reads that
  /// find nothing compete with every program's data for the L2.
  void sleepBeforeFirstRead(OpBuilder &b, Location loc) const {
    Value programs;
    for (gpu::Dimension d :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
      Value dim = gpu::GridDimOp::create(b, loc, d);
      programs = programs
                     ? arith::MulIOp::create(b, loc, programs, dim).getResult()
                     : dim;
    }
    // %nsmid bounds the multiprocessors' ids: at least their number.
    Value sms = arith::IndexCastUIOp::create(
        b, loc, b.getIndexType(),
        NVVM::SmDimOp::create(b, loc, b.getI32Type()));
    Value threshold = arith::MulIOp::create(
        b, loc, sms, indexConstant(b, loc, kFirstReadSleepProgramsPerSm));
    Value many = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                       programs, threshold);
    buildIf(b, loc, many, [&](OpBuilder &b) {
      NVVM::NanosleepOp::create(b, loc, i32Constant(b, loc, kFirstReadSleepNs));
    });
  }

  /// Fills each tile's aggregate and inclusive words, reloaded until every
  /// tile of the warp's window in the segment has one of them published
  /// (tiles outside it read nothing and see zeros).
  void waitForStatus(OpBuilder &b, Location loc, const StatusLayout &status,
                     MutableArrayRef<LaneTile> tiles, unsigned n) const {
    SmallVector<Type> wordTypes(2 * n * tiles.size(), b.getI64Type());
    auto spin = scf::WhileOp::create(b, loc, wordTypes, ValueRange{});
    {
      b.createBlock(&spin.getBefore());
      SmallVector<Value> words;
      Value waiting = arith::ConstantIntOp::create(b, loc, 0, 1);
      for (const LaneTile &tile : tiles) {
        auto read = scf::IfOp::create(b, loc, SmallVector<Type>(2 * n, b.getI64Type()),
                                      tile.inSegment, /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(read.thenBlock());
          SmallVector<Value> loaded;
          for (StatusFlag flag : {kAggregate, kInclusive})
            for (unsigned k = 0; k < n; ++k)
              loaded.push_back(loadStatus(
                  b, loc, status.word(b, loc, tile.ticket, flag, k)));
          scf::YieldOp::create(b, loc, loaded);
          b.setInsertionPointToStart(read.elseBlock());
          scf::YieldOp::create(
              b, loc, SmallVector<Value>(2 * n, i64Constant(b, loc, 0)));
        }
        ValueRange tileWords = read.getResults();
        Value aggregates =
            allHave(b, loc, status, tileWords.take_front(n), kAggregate);
        Value inclusives =
            allHave(b, loc, status, tileWords.drop_front(n), kInclusive);
        Value ready = arith::OrIOp::create(b, loc, aggregates, inclusives);
        waiting = arith::OrIOp::create(
            b, loc, waiting,
            arith::AndIOp::create(b, loc, tile.inSegment,
                                  negate(b, loc, ready)));
        words.append(tileWords.begin(), tileWords.end());
      }
      Value anyWaiting = NVVM::VoteSyncOp::create(
          b, loc, b.getI1Type(), i32Constant(b, loc, -1), waiting,
          NVVM::VoteSyncKindAttr::get(b.getContext(), NVVM::VoteSyncKind::any));
      scf::ConditionOp::create(b, loc, anyWaiting, words);
    }
    // Back off before reading again: spinning warps compete with the data
    // streams of every program for the L2.
    b.createBlock(&spin.getAfter(), {}, wordTypes,
                  SmallVector<Location>(wordTypes.size(), loc));
    NVVM::NanosleepOp::create(b, loc, i32Constant(b, loc, kSpinSleepNs));
    scf::YieldOp::create(b, loc, ValueRange{});
    b.setInsertionPointAfter(spin);
    for (auto [i, tile] : llvm::enumerate(tiles))
      tile.words = SmallVector<Value>(
          spin.getResults().slice(2 * n * i, 2 * n));
  }


  /// Combines the lanes' tuples, higher lanes (earlier tickets) on the
  /// left, and gives the result to every lane.
  MaybeTuple reduceWindow(OpBuilder &b, Location loc,
                          const tile::TupleCombiner &combiner,
                          MaybeTuple mine) const {
    Value width = i32Constant(b, loc, 32);
    auto shuffle = [&](Value v, int64_t offset, gpu::ShuffleMode mode) {
      ++state.stats.shuffles;
      return shuffleValue(b, loc, v, offset, width, mode);
    };
    auto shuffleTuple = [&](const MaybeTuple &t, int64_t offset,
                            gpu::ShuffleMode mode) {
      MaybeTuple moved;
      for (Value v : t.values)
        moved.values.push_back(shuffle(v, offset, mode).value);
      Value validBits =
          arith::ExtUIOp::create(b, loc, b.getI32Type(), t.valid);
      ShuffledValue validMoved = shuffle(validBits, offset, mode);
      moved.valid = arith::AndIOp::create(
          b, loc, validMoved.valid,
          arith::TruncIOp::create(b, loc, b.getI1Type(), validMoved.value));
      return moved;
    };
    for (int64_t offset = 1; offset < 32; offset *= 2)
      mine = combineMaybe(b, loc, combiner,
                          shuffleTuple(mine, offset, gpu::ShuffleMode::DOWN),
                          mine);
    return shuffleTuple(mine, 0, gpu::ShuffleMode::IDX);
  }
};

/// A look-back over totals of many elements (a strip of columns' totals):
/// each thread looks back for the elements it holds on its own, one
/// predecessor at a time, reading each element's words and stopping, for
/// each element, at the nearest predecessor that has published the
/// inclusive prefix; no warp or block takes part, and the carries stay in
/// the threads.
struct ElementwiseLookbackLowering : MapWarpsPattern<tilegpu::LookbackOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::LookbackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    if (!op.isElementwise())
      return failure();
    Location loc = op.getLoc();
    auto tileType = cast<RankedTensorType>(op.getTotals()[0].getType());
    TileLayout layout = state.layoutOf(tileType);
    unsigned n = op.getTotals().size();
    int64_t slots = layout.getPerThread();
    tile::TupleCombiner combiner(op.getKind(), op.getCombiner());
    StatusLayout status =
        StatusLayout::get(b, loc, adaptor.getScratch(), adaptor.getEpoch(), n,
                          tileType.getNumElements());
    Value ticket = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                                adaptor.getTicket());
    Value position = arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                                  adaptor.getPosition());
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          position, i64Constant(b, loc, 0));
    // Per slot: its element's index and its totals.
    SmallVector<Value> elements;
    SmallVector<SmallVector<Value>> totals(slots);
    for (int64_t slot = 0; slot < slots; ++slot) {
      elements.push_back(arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(),
          layout.linearIndex(b, loc, state.threadId, slot)));
      for (Value total : adaptor.getTotals())
        totals[slot].push_back(vector::ExtractOp::create(b, loc, total, slot));
    }

    // 1. Publish the totals: as the inclusive prefix for the first program
    //    of a segment, else as the aggregate.
    for (int64_t slot = 0; slot < slots; ++slot)
      for (unsigned k = 0; k < n; ++k) {
        Value asAggregate =
            packStatus(b, loc, status, totals[slot][k], kAggregate);
        Value asInclusive =
            packStatus(b, loc, status, totals[slot][k], kInclusive);
        Value word = arith::SelectOp::create(b, loc, isFirst, asInclusive,
                                             asAggregate);
        Value aggregatePtr =
            status.word(b, loc, ticket, kAggregate, k, elements[slot]);
        Value inclusivePtr =
            status.word(b, loc, ticket, kInclusive, k, elements[slot]);
        Value ptr = arith::SelectOp::create(b, loc, isFirst, inclusivePtr,
                                            aggregatePtr);
        publish(b, loc, word, ptr);
      }

    // 2. Look back (the first program has nothing to do), then publish the
    //    inclusive prefix.
    SmallVector<MaybeTuple> carries =
        lookBack(b, loc, combiner, status, ticket, position, isFirst,
                 elements, totals);
    buildIf(b, loc, negate(b, loc, isFirst), [&](OpBuilder &b) {
      for (int64_t slot = 0; slot < slots; ++slot) {
        SmallVector<Value> inclusive =
            combiner.combine(b, loc, carries[slot].values, totals[slot]);
        for (unsigned k = 0; k < n; ++k) {
          Value packed = packStatus(b, loc, status, inclusive[k], kInclusive);
          Value word =
              status.word(b, loc, ticket, kInclusive, k, elements[slot]);
          publish(b, loc, packed, word);
        }
      }
    });

    // 3. The carries as tiles; the first program takes the kind's identity
    //    (with a region, what it gets is unspecified).
    SmallVector<Value> results;
    for (unsigned k = 0; k < n; ++k) {
      Type type =
          cast<RankedTensorType>(op.getTotals()[k].getType()).getElementType();
      SmallVector<Value> values;
      for (int64_t slot = 0; slot < slots; ++slot) {
        Value carry = carries[slot].values[k];
        if (std::optional<tile::ReduceKind> kind = op.getKind())
          carry = arith::SelectOp::create(
              b, loc, isFirst,
              arith::ConstantOp::create(b, loc,
                                        tile::getIdentity(*kind, type)),
              carry);
        values.push_back(carry);
      }
      results.push_back(vector::FromElementsOp::create(
          b, loc, VectorType::get({slots}, type), values));
    }
    b.replaceOp(op, results);
    return success();
  }

private:
  /// Per slot, the combination of its element's totals over the tickets
  /// of the segment before `ticket`: a loop in which each slot reads the
  /// statuses of the kElementWindow tickets before the nearest it has not
  /// combined yet (all loads in flight at once), and combines them nearest
  /// first in front of its carry, up to the first that has published
  /// nothing yet; a slot is done at an inclusive prefix (the segment's
  /// first program publishes one at once, so no slot goes past it), and
  /// the first program starts done. A round in which no slot gets further
  /// sleeps before the next.
  SmallVector<MaybeTuple>
  lookBack(OpBuilder &b, Location loc, const tile::TupleCombiner &combiner,
           const StatusLayout &status, Value ticket, Value position,
           Value isFirst, ArrayRef<Value> elements,
           ArrayRef<SmallVector<Value>> totals) const {
    unsigned n = status.numTotals;
    int64_t slots = elements.size();
    Value segmentStart = arith::SubIOp::create(b, loc, ticket, position);
    // Loop state per slot: its carry values, validity, whether it is done
    // and the nearest ticket it has not combined yet.
    int64_t perSlot = n + 3;
    SmallVector<Value> init;
    SmallVector<Type> types;
    Value falseValue = arith::ConstantIntOp::create(b, loc, 0, 1);
    Value before = arith::SubIOp::create(b, loc, ticket, i64Constant(b, loc, 1));
    for (int64_t slot = 0; slot < slots; ++slot) {
      for (Value total : totals[slot]) {
        init.push_back(total); // any value: invalid until combined
        types.push_back(total.getType());
      }
      init.append({falseValue, isFirst, before});
      types.append({b.getI1Type(), b.getI1Type(), b.getI64Type()});
    }

    auto loop = scf::WhileOp::create(b, loc, types, init);
    {
      Block *entry = b.createBlock(&loop.getBefore(), {}, types,
                                   SmallVector<Location>(types.size(), loc));
      ValueRange args = entry->getArguments();
      Value allDone;
      for (int64_t slot = 0; slot < slots; ++slot) {
        Value done = args[slot * perSlot + n + 1];
        allDone = allDone ? arith::AndIOp::create(b, loc, allDone, done)
                                .getResult()
                          : done;
      }
      scf::ConditionOp::create(b, loc, negate(b, loc, allDone), args);
    }
    Block *body = b.createBlock(&loop.getAfter(), {}, types,
                                SmallVector<Location>(types.size(), loc));
    ValueRange args = body->getArguments();
    SmallVector<Value> yielded;
    Value progress = falseValue;
    for (int64_t slot = 0; slot < slots; ++slot) {
      ValueRange state = args.slice(slot * perSlot, perSlot);
      MaybeTuple carry{SmallVector<Value>(state.take_front(n)), state[n]};
      Value done = state[n + 1], next = state[n + 2];
      // Read the window: tickets outside the segment (or a done slot's)
      // read the program's own words instead, so that no read leaves the
      // buffer; they are not combined.
      SmallVector<Value> inSegment;
      SmallVector<SmallVector<Value>> words(kElementWindow);
      for (int64_t j = 0; j < kElementWindow; ++j) {
        Value read = arith::SubIOp::create(b, loc, next, i64Constant(b, loc, j));
        Value afterStart = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, read, segmentStart);
        Value looking = negate(b, loc, done);
        Value inside = arith::AndIOp::create(b, loc, looking, afterStart);
        inSegment.push_back(inside);
        read = arith::SelectOp::create(b, loc, inside, read, ticket);
        for (StatusFlag flag : {kAggregate, kInclusive})
          for (unsigned k = 0; k < n; ++k)
            words[j].push_back(loadStatus(
                b, loc, status.word(b, loc, read, flag, k, elements[slot])));
      }
      // Combine nearest first while each has a status and none so far was
      // an inclusive prefix.
      Value going = negate(b, loc, done);
      Value steps = i64Constant(b, loc, 0);
      for (int64_t j = 0; j < kElementWindow; ++j) {
        ArrayRef<Value> w = words[j];
        Value hasInclusive =
            allHave(b, loc, status, w.drop_front(n), kInclusive);
        Value ready = arith::OrIOp::create(
            b, loc, allHave(b, loc, status, w.take_front(n), kAggregate),
            hasInclusive);
        Value takes = arith::AndIOp::create(
            b, loc, going, arith::AndIOp::create(b, loc, inSegment[j], ready));
        MaybeTuple earlier;
        for (unsigned k = 0; k < n; ++k) {
          Type type = totals[slot][k].getType();
          Value inclusive = statusValue(b, loc, w[n + k], type);
          Value aggregate = statusValue(b, loc, w[k], type);
          earlier.values.push_back(arith::SelectOp::create(
              b, loc, hasInclusive, inclusive, aggregate));
        }
        earlier.valid = takes;
        carry = combineMaybe(b, loc, combiner, earlier, carry);
        steps = arith::AddIOp::create(
            b, loc, steps,
            arith::ExtUIOp::create(b, loc, b.getI64Type(), takes));
        done = arith::OrIOp::create(
            b, loc, done, arith::AndIOp::create(b, loc, takes, hasInclusive));
        going = arith::AndIOp::create(b, loc, takes, negate(b, loc, hasInclusive));
      }
      progress = arith::OrIOp::create(
          b, loc, progress,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, steps,
                                i64Constant(b, loc, 0)));
      yielded.append(carry.values.begin(), carry.values.end());
      yielded.append(
          {carry.valid, done, arith::SubIOp::create(b, loc, next, steps)});
    }
    // Nothing published yet where every slot stands: back off.
    buildIf(b, loc, negate(b, loc, progress), [&](OpBuilder &b) {
      NVVM::NanosleepOp::create(b, loc, i32Constant(b, loc, kSpinSleepNs));
    });
    scf::YieldOp::create(b, loc, yielded);
    b.setInsertionPointAfter(loop);
    SmallVector<MaybeTuple> carries;
    for (int64_t slot = 0; slot < slots; ++slot) {
      ValueRange state = loop.getResults().slice(slot * perSlot, perSlot);
      carries.push_back({SmallVector<Value>(state.take_front(n)), state[n]});
    }
    return carries;
  }
};

} // namespace

void tilec::populateMapWarpsLookbackPatterns(const TypeConverter &converter,
                                             MapWarpsState &state,
                                             RewritePatternSet &patterns) {
  patterns.add<TicketLowering, ArriveLowering, LookbackLowering, ElementwiseLookbackLowering>(
      converter, patterns.getContext(), state);
}
