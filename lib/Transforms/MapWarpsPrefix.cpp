//===- MapWarpsPrefix.cpp - Block-level scans of tiles --------------------===//
//
// tile.prefix scans n tiles together: a thread scans its own chunks, the
// lanes of a warp scan the chunk totals with shuffles up (Kogge-Stone), and
// the warp totals meet in workgroup memory. Every combination keeps the
// earlier tuple on the left, so that combiner regions need not commute, and
// a validity flag stands in for an identity, which regions need not have.
// A prefix along the columns of a tile whose threads each hold whole
// columns is a running combination in each thread.
//
//===----------------------------------------------------------------------===//

#include "LinearLayoutIR.h"
#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

using namespace mlir;
using namespace tilec;

static constexpr unsigned kLaneBits = 5;

MaybeTuple tilec::combineMaybe(OpBuilder &b, Location loc,
                               const tile::TupleCombiner &combiner,
                               const MaybeTuple &earlier,
                               const MaybeTuple &later) {
  SmallVector<Value> both =
      combiner.combine(b, loc, earlier.values, later.values);
  MaybeTuple result;
  for (auto [x, y, xy] : llvm::zip_equal(earlier.values, later.values, both))
    result.values.push_back(b.createOrFold<arith::SelectOp>(
        loc, earlier.valid,
        b.createOrFold<arith::SelectOp>(loc, later.valid, xy, x), y));
  result.valid = b.createOrFold<arith::OrIOp>(loc, earlier.valid, later.valid);
  return result;
}

namespace {

using Tuple = SmallVector<Value>;

Value boolConstant(OpBuilder &b, Location loc, bool v) {
  return arith::ConstantIntOp::create(b, loc, v, 1);
}

MaybeTuple validTuple(OpBuilder &b, Location loc, Tuple values) {
  return {std::move(values), boolConstant(b, loc, true)};
}

/// Where the bits of a prefix along the innermost dimension lie: the tile's
/// linear index has, from the lowest bit, the chunk element (v bits), the
/// lane (5), the warp and the thread's chunk number; the scanned dimension
/// takes the lowest `axisBits` of them. A short row lies within a chunk or
/// within a group of lanes: segments of the chunk and of the lane scan.
struct PrefixPlan {
  unsigned v, threadBits, axisBits;
  /// Scanned bits in the chunk element, the lane, the warp id and the
  /// chunk number.
  unsigned elementAxisBits() const { return std::min(axisBits, v); }
  unsigned laneAxisBits() const {
    return std::clamp<int>(int(axisBits) - int(v), 0, kLaneBits);
  }
  unsigned warpAxisBits() const {
    unsigned end = std::min(axisBits, v + threadBits);
    return end > v + kLaneBits ? end - v - kLaneBits : 0;
  }
  unsigned chunkAxisBits() const {
    return axisBits > v + threadBits ? axisBits - v - threadBits : 0;
  }
  /// Whether rows span whole warps, whose totals meet in workgroup memory.
  bool rowsSpanWarps() const { return axisBits >= v + kLaneBits; }
  int64_t warps() const { return int64_t(1) << (threadBits - kLaneBits); }
};

/// Supported: a prefix along the innermost dimension, on at least one
/// warp, not replicated.
std::optional<PrefixPlan> planPrefix(const TileLayout &layout,
                                     RankedTensorType type, int64_t axis) {
  if (axis != type.getRank() - 1 || layout.isReplicated() ||
      layout.getThreadBits() < kLaneBits)
    return std::nullopt;
  return PrefixPlan{layout.getVectorBits(), layout.getThreadBits(),
                    layout.dimBits(axis)};
}

/// A prefix along an outer dimension that each thread holds whole: the
/// dimension's bits of the linear index all lie in the chunk number, so
/// every thread scans its own slots in turn (a column of a [P, 4T] tile on
/// T threads). Slot `other + (k << slotShift)` is the k-th element along
/// the axis; the totals tile (the axis dropped) has the slots `other` in
/// order, so it must be laid out with the same chunks and thread bits.
struct ChunkAxisPlan {
  unsigned slotShift;
  int64_t length;
};

std::optional<ChunkAxisPlan> planPrefixAlongChunks(const TileLayout &layout,
                                                   RankedTensorType type,
                                                   int64_t axis,
                                                   int64_t threads) {
  if (axis != 0 || type.getRank() != 2 || layout.isReplicated())
    return std::nullopt;
  unsigned shift = layout.dimShift(axis);
  if (shift < layout.getVectorBits() + layout.getThreadBits())
    return std::nullopt;
  TileLayout totals(type.getShape().drop_front(), threads);
  if (totals.isReplicated() ||
      totals.getVectorBits() != layout.getVectorBits() ||
      totals.getThreadBits() != layout.getThreadBits())
    return std::nullopt;
  return ChunkAxisPlan{shift - layout.getThreadBits(), type.getDimSize(axis)};
}

/// The types the scan combines in: a kind combines 16-bit elements in f32
/// or i32, a region in the elements' own types.
SmallVector<Type> combiningTypes(tile::PrefixOp op) {
  SmallVector<Type> types;
  for (Value input : op.getInputs()) {
    Type element = cast<RankedTensorType>(input.getType()).getElementType();
    types.push_back(op.getKind() ? accumulatorType(element) : element);
  }
  return types;
}

/// The identity tuple of an exclusive scan, in the combining `types`: the
/// kind's, or the op's `identity`.
Tuple exclusiveIdentity(OpBuilder &b, Location loc, tile::PrefixOp op,
                        ArrayRef<Type> types) {
  Tuple values;
  for (auto [k, type] : llvm::enumerate(types)) {
    TypedAttr value = op.getKind() ? tile::getIdentity(*op.getKind(), type)
                                   : cast<TypedAttr>((*op.getIdentity())[k]);
    values.push_back(arith::ConstantOp::create(b, loc, value));
  }
  return values;
}

/// `condition ? x : y`, value by value.
MaybeTuple selectMaybe(OpBuilder &b, Location loc, Value condition,
                       const MaybeTuple &x, const MaybeTuple &y) {
  MaybeTuple chosen;
  for (auto [xv, yv] : llvm::zip(x.values, y.values))
    chosen.values.push_back(
        b.createOrFold<arith::SelectOp>(loc, condition, xv, yv));
  chosen.valid =
      b.createOrFold<arith::SelectOp>(loc, condition, x.valid, y.valid);
  return chosen;
}

/// The scans (per-thread vectors of the element types) and the totals that
/// replace `op`, from per-slot results and per-total values in the
/// combining types.
SmallVector<Value> prefixReplacements(OpBuilder &b, Location loc,
                                      tile::PrefixOp op, int64_t perThread,
                                      ArrayRef<Tuple> results,
                                      llvm::function_ref<Value(unsigned)> total) {
  SmallVector<Value> replacements;
  for (auto [k, input] : llvm::enumerate(op.getInputs())) {
    Type elementType = cast<RankedTensorType>(input.getType()).getElementType();
    SmallVector<Value> elements;
    for (const Tuple &result : results)
      elements.push_back(convertElement(b, loc, result[k], elementType));
    replacements.push_back(vector::FromElementsOp::create(
        b, loc, VectorType::get({perThread}, elementType), elements));
  }
  for (unsigned k = 0; k < op.getTotals().size(); ++k)
    replacements.push_back(total(k));
  return replacements;
}

/// A prefix along a dimension each thread holds whole (ChunkAxisPlan): one
/// running combination per slot outside the axis, in scan order; no lanes,
/// warps or workgroup memory take part.
struct PrefixAlongChunksLowering : MapWarpsPattern<tile::PrefixOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::PrefixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    RankedTensorType type = op.getType();
    if (type.getEncoding()) // PrefixOnLayoutLowering's
      return failure();
    TileLayout layout = state.layoutOf(type);
    std::optional<ChunkAxisPlan> plan = planPrefixAlongChunks(
        layout, type, op.getAxis(), state.threads);
    if (!plan)
      return failure();
    Location loc = op.getLoc();
    tile::TupleCombiner combiner(op.getKind(), op.getCombiner());
    SmallVector<Type> types = combiningTypes(op);
    int64_t perThread = layout.getPerThread();
    int64_t stride = int64_t(1) << plan->slotShift;
    int64_t others = perThread / plan->length;
    auto element = [&](int64_t slot) {
      Tuple t;
      for (auto [input, type] : llvm::zip(adaptor.getInputs(), types))
        t.push_back(convertElement(
            b, loc, vector::ExtractOp::create(b, loc, input, slot), type));
      return t;
    };
    Tuple identity;
    if (op.getExclusive())
      identity = exclusiveIdentity(b, loc, op, types);
    SmallVector<Tuple> results(perThread);
    SmallVector<Tuple> totals;
    for (int64_t other = 0; other < others; ++other) {
      Tuple running;
      for (int64_t i = 0; i < plan->length; ++i) {
        int64_t k = op.getReverse() ? plan->length - 1 - i : i;
        int64_t slot = other + k * stride;
        Tuple own = element(slot);
        Tuple before = running;
        running = running.empty() ? own
                                  : combiner.combine(b, loc, running, own);
        results[slot] = !op.getExclusive() ? running
                        : before.empty()   ? identity
                                           : before;
      }
      totals.push_back(running);
    }
    b.replaceOp(op, prefixReplacements(b, loc, op, perThread, results,
                                       [&](unsigned k) {
      auto tileType = cast<RankedTensorType>(op.getTotals()[k].getType());
      SmallVector<Value> values;
      for (const Tuple &total : totals)
        values.push_back(
            convertElement(b, loc, total[k], tileType.getElementType()));
      return vector::FromElementsOp::create(
          b, loc, VectorType::get({others}, tileType.getElementType()),
          values).getResult();
    }));
    ++state.stats.prefixes;
    return success();
  }
};

/// A prefix on a tile with a layout encoding, in place: every bit of the
/// scanned coordinate is carried by a register, lane or warp bit
/// (LinearLayout::scanBits), the warp bits above the others. Within a warp,
/// a scan over the register and lane bits from the lowest: each element
/// keeps the combination of the elements before it in its aligned block of
/// 2^b positions (`before`, empty at first) and the block's total; at bit b
/// the partner across it (another slot of the thread, or the lane given by
/// an xor shuffle) brings its block's total, which comes first for the
/// upper half (the lower half when reversed). Warps that hold different
/// positions along the axis then meet in workgroup memory: each publishes
/// its block totals, and each element takes the totals of the warps before
/// it, in order. The totals come out in the slice of the layout.
struct PrefixOnLayoutLowering : MapWarpsPattern<tile::PrefixOp> {
  using MapWarpsPattern::MapWarpsPattern;

  /// Per slot of the thread: the combination of the elements before it
  /// (in scan order), its block's total, and its own element.
  struct SlotScan {
    SmallVector<Tuple> own, total;
    SmallVector<MaybeTuple> before;
  };

  LogicalResult
  matchAndRewrite(tile::PrefixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &b) const override {
    RankedTensorType type = op.getType();
    if (!type.getEncoding() ||
        !prefixRunsOnLayout(op, type.getEncoding(), state.threads))
      return failure();
    layout::LinearLayout ll = tilegpu::layoutOf(type, state.threads);
    SmallVector<std::pair<layout::InDim, unsigned>> bits =
        *ll.scanBits(op.getAxis());
    Location loc = op.getLoc();
    SmallVector<Type> types = combiningTypes(op);
    int64_t perThread = ll.getPerThread();

    SlotScan scan;
    scan.own.resize(perThread);
    for (int64_t slot = 0; slot < perThread; ++slot) {
      for (auto [input, t] : llvm::zip(adaptor.getInputs(), types))
        scan.own[slot].push_back(convertElement(
            b, loc, vector::ExtractOp::create(b, loc, input, slot), t));
      scan.total.push_back(scan.own[slot]);
      scan.before.push_back({scan.own[slot], boolConstant(b, loc, false)});
    }
    scanWithinWarps(b, loc, op, bits, scan);
    SmallVector<unsigned> warpBits;
    for (auto [in, bit] : bits)
      if (in == layout::InDim::Warp)
        warpBits.push_back(bit);
    if (!warpBits.empty())
      combineAcrossWarps(b, loc, op, ll, warpBits, bits, scan);

    Tuple identity;
    if (op.getExclusive())
      identity = exclusiveIdentity(b, loc, op, types);
    tile::TupleCombiner combiner(op.getKind(), op.getCombiner());
    SmallVector<Tuple> results(perThread);
    for (int64_t slot = 0; slot < perThread; ++slot) {
      MaybeTuple scanned =
          op.getExclusive()
              ? scan.before[slot]
              : combineMaybe(b, loc, combiner, scan.before[slot],
                             validTuple(b, loc, scan.own[slot]));
      for (auto [k, v] : llvm::enumerate(scanned.values))
        results[slot].push_back(
            op.getExclusive()
                ? b.createOrFold<arith::SelectOp>(loc, scanned.valid, v,
                                                  identity[k])
                : v);
    }
    b.replaceOp(op, prefixReplacements(b, loc, op, perThread, results,
                                       [&](unsigned k) {
      return totalsInSlice(b, loc, op, ll, scan, k);
    }));
    ++state.stats.prefixes;
    return success();
  }

  /// The butterfly over the register and lane bits of `bits`.
  void scanWithinWarps(ConversionPatternRewriter &b, Location loc,
                       tile::PrefixOp op,
                       ArrayRef<std::pair<layout::InDim, unsigned>> bits,
                       SlotScan &scan) const;

  /// Publishes each warp's block totals and folds those of the warps
  /// before each element into its `before`; every total becomes the row's.
  void combineAcrossWarps(ConversionPatternRewriter &b, Location loc,
                          tile::PrefixOp op, const layout::LinearLayout &ll,
                          ArrayRef<unsigned> warpBits,
                          ArrayRef<std::pair<layout::InDim, unsigned>> bits,
                          SlotScan &scan) const;

  /// Totals `k` in the slice layout of the totals' type (a scalar for a
  /// 1-D tile): each slot of the slice takes the total of a slot of the
  /// tile in its row.
  Value totalsInSlice(OpBuilder &b, Location loc, tile::PrefixOp op,
                      const layout::LinearLayout &ll, const SlotScan &scan,
                      unsigned k) const;
};

void PrefixOnLayoutLowering::scanWithinWarps(
    ConversionPatternRewriter &b, Location loc, tile::PrefixOp op,
    ArrayRef<std::pair<layout::InDim, unsigned>> bits, SlotScan &scan) const {
  tile::TupleCombiner combiner(op.getKind(), op.getCombiner());
  int64_t perThread = scan.own.size();
  Value lane = arith::IndexCastUIOp::create(
      b, loc, b.getI32Type(),
      b.createOrFold<arith::RemUIOp>(loc, state.threadId,
                                     indexConstant(b, loc, 32)));
  Value width = i32Constant(b, loc, 32);
  bool reverse = op.getReverse();
  for (auto [in, bit] : bits) {
    if (in == layout::InDim::Warp)
      continue;
    SmallVector<Tuple> partner(perThread);
    for (int64_t slot = 0; slot < perThread; ++slot) {
      if (in == layout::InDim::Register) {
        partner[slot] = scan.total[slot ^ (int64_t(1) << bit)];
        continue;
      }
      for (Value v : scan.total[slot])
        partner[slot].push_back(shuffleValue(b, loc, v, int64_t(1) << bit,
                                             width, gpu::ShuffleMode::XOR)
                                    .value);
    }
    // Whether this element's block comes after its partner's.
    Value laneAfter;
    if (in == layout::InDim::Lane) {
      Value bitMask = i32Constant(b, loc, int64_t(1) << bit);
      Value laneBit = arith::AndIOp::create(b, loc, lane, bitMask);
      Value zero = i32Constant(b, loc, 0);
      Value set = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        laneBit, zero);
      laneAfter = reverse ? arith::XOrIOp::create(b, loc, set,
                                                  boolConstant(b, loc, true))
                          : set;
    }
    for (int64_t slot = 0; slot < perThread; ++slot) {
      auto withPartner = [&] {
        return combineMaybe(b, loc, combiner, validTuple(b, loc, partner[slot]),
                            scan.before[slot]);
      };
      auto partnerFirst = [&] {
        return combiner.combine(b, loc, partner[slot], scan.total[slot]);
      };
      auto ownFirst = [&] {
        return combiner.combine(b, loc, scan.total[slot], partner[slot]);
      };
      // A register bit is known per slot: only its side is built.
      if (in == layout::InDim::Register) {
        bool after = ((slot >> bit) & 1) != (reverse ? 1 : 0);
        if (after)
          scan.before[slot] = withPartner();
        scan.total[slot] = after ? partnerFirst() : ownFirst();
        continue;
      }
      scan.before[slot] =
          selectMaybe(b, loc, laneAfter, withPartner(), scan.before[slot]);
      Tuple nextTotal, upper = partnerFirst(), lower = ownFirst();
      for (auto [x, y] : llvm::zip(upper, lower))
        nextTotal.push_back(
            b.createOrFold<arith::SelectOp>(loc, laneAfter, x, y));
      scan.total[slot] = nextTotal;
    }
  }
}

/// The workgroup word type of a prefix's warp totals: the combining type
/// when the inputs share one, else i32 bits.
static Type prefixWordType(tile::PrefixOp op) {
  SmallVector<Type> types = combiningTypes(op);
  return llvm::all_equal(types) ? types.front()
                                : Type(IntegerType::get(op.getContext(), 32));
}

void PrefixOnLayoutLowering::combineAcrossWarps(
    ConversionPatternRewriter &b, Location loc, tile::PrefixOp op,
    const layout::LinearLayout &ll, ArrayRef<unsigned> warpBits,
    ArrayRef<std::pair<layout::InDim, unsigned>> bits, SlotScan &scan) const {
  using layout::InDim;
  tile::TupleCombiner combiner(op.getKind(), op.getCombiner());
  unsigned axis = op.getAxis();
  Value tid = state.threadId;
  Value buffer = state.exchangeBuffers.lookup(op);
  Type wordType = prefixWordType(op);
  SmallVector<Type> types = combiningTypes(op);
  int64_t blocks = int64_t(1) << warpBits.size();
  int64_t rows = ll.getNumElements() / ll.getShape()[axis];
  auto c = [&](int64_t v) { return indexConstant(b, loc, v); };

  // This warp's block along the axis: its scanned warp bits, lowest first.
  Value block = c(0);
  for (auto [i, bit] : llvm::enumerate(warpBits))
    block = b.createOrFold<arith::OrIOp>(
        loc, block,
        b.createOrFold<arith::ShLIOp>(
            loc, extractBits(b, loc, tid, kLaneBits + bit, 1), c(i)));
  // One writer per (row, block): lanes and slots at position 0 of their
  // scanned bits, and no thread or slot that holds a copy.
  int64_t copyThreadBits = copyingThreadBits(ll), copySlotBits = 0;
  for (auto [in, bit] : bits) {
    if (in == InDim::Lane)
      copyThreadBits |= int64_t(1) << bit;
    if (in == InDim::Register)
      copySlotBits |= int64_t(1) << bit;
  }
  for (unsigned i = 0; i < ll.getNumBits(InDim::Register); ++i)
    if (llvm::all_of(ll.getBasis(InDim::Register, i),
                     [](int64_t v) { return v == 0; }))
      copySlotBits |= int64_t(1) << i;

  // Each slot's row: its coordinates without the axis, row-major.
  SmallVector<Value> rowOf;
  for (int64_t slot = 0; slot < ll.getPerThread(); ++slot) {
    SmallVector<Value> coords = emitCoordinates(b, loc, ll, tid, slot);
    Value row = c(0);
    for (unsigned d = 0; d < coords.size(); ++d) {
      if (d == axis)
        continue;
      row = b.createOrFold<arith::AddIOp>(
          loc, b.createOrFold<arith::MulIOp>(loc, row, c(ll.getShape()[d])),
          coords[d]);
    }
    rowOf.push_back(row);
  }
  auto wordIndex = [&](OpBuilder &wb, unsigned k, Value blk, Value row) {
    // One constant a statement: argument order is unspecified in C++, and
    // the IR must not depend on the host compiler.
    Value kConst = c(k), blocksConst = c(blocks);
    Value first = wb.createOrFold<arith::MulIOp>(loc, kConst, blocksConst);
    Value block = wb.createOrFold<arith::AddIOp>(loc, first, blk);
    Value rowsConst = c(rows);
    Value base = wb.createOrFold<arith::MulIOp>(loc, block, rowsConst);
    return wb.createOrFold<arith::AddIOp>(loc, base, row);
  };

  gpu::BarrierOp::create(b, loc);
  Value writer = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      b.createOrFold<arith::AndIOp>(loc, tid, c(copyThreadBits)), c(0));
  buildIf(b, loc, writer, [&](OpBuilder &wb) {
    for (int64_t slot = 0; slot < ll.getPerThread(); ++slot) {
      if (slot & copySlotBits)
        continue;
      for (auto [k, v] : llvm::enumerate(scan.total[slot])) {
        Value word = wordType == v.getType() ? v : toWordBits(wb, loc, v);
        memref::StoreOp::create(wb, loc, word, buffer,
                                wordIndex(wb, k, block, rowOf[slot]));
      }
    }
  });
  gpu::BarrierOp::create(b, loc);

  bool reverse = op.getReverse();
  for (int64_t slot = 0; slot < ll.getPerThread(); ++slot) {
    MaybeTuple carry{scan.own[slot], boolConstant(b, loc, false)};
    std::optional<Tuple> all;
    for (int64_t step = 0; step < blocks; ++step) {
      int64_t j = reverse ? blocks - 1 - step : step;
      Tuple published;
      for (auto [k, t] : llvm::enumerate(types)) {
        Value word = memref::LoadOp::create(
            b, loc, buffer, wordIndex(b, k, c(j), rowOf[slot]));
        published.push_back(word.getType() == t
                                ? word
                                : fromWordBits(b, loc, word, t));
      }
      all = all ? combiner.combine(b, loc, *all, published) : published;
      if (step == blocks - 1)
        break; // The last block in scan order comes before no other.
      Value comesBefore = arith::CmpIOp::create(
          b, loc,
          reverse ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult,
          c(j), block);
      carry = selectMaybe(
          b, loc, comesBefore,
          combineMaybe(b, loc, combiner, carry, validTuple(b, loc, published)),
          carry);
    }
    scan.before[slot] = combineMaybe(b, loc, combiner, carry, scan.before[slot]);
    scan.total[slot] = *all;
  }
}

Value PrefixOnLayoutLowering::totalsInSlice(OpBuilder &b, Location loc,
                                            tile::PrefixOp op,
                                            const layout::LinearLayout &ll,
                                            const SlotScan &scan,
                                            unsigned k) const {
  Type totalsType = op.getTotals()[k].getType();
  auto sliceType = dyn_cast<RankedTensorType>(totalsType);
  if (!sliceType)
    return convertElement(b, loc, scan.total[0][k], totalsType);
  layout::LinearLayout slice = tilegpu::layoutOf(sliceType, state.threads);
  SmallVector<Value> elements(slice.getPerThread());
  for (int64_t slot = 0; slot < ll.getPerThread(); ++slot) {
    Value &element = elements[sliceSlotOf(ll, op.getAxis(), slice, slot)];
    if (!element)
      element = convertElement(b, loc, scan.total[slot][k],
                               sliceType.getElementType());
  }
  return vector::FromElementsOp::create(
      b, loc,
      VectorType::get({slice.getPerThread()}, sliceType.getElementType()),
      elements);
}

struct PrefixLowering : MapWarpsPattern<tile::PrefixOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::PrefixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (type.getEncoding()) // PrefixOnLayoutLowering's
      return failure();
    TileLayout layout = state.layoutOf(type);
    std::optional<PrefixPlan> plan = planPrefix(layout, type, op.getAxis());
    if (!plan) // checkPrefixSupported rejected it before the rewrite
      return failure();
    Lowering lowering{rewriter,
                      op.getLoc(),
                      op,
                      tile::TupleCombiner(op.getKind(), op.getCombiner()),
                      layout,
                      *plan,
                      combiningTypes(op),
                      state};
    lowering.run(adaptor.getInputs());
    ++state.stats.prefixes;
    return success();
  }

private:
  /// One rewrite: the op, its layout and plan, and the steps.
  struct Lowering {
    ConversionPatternRewriter &b;
    Location loc;
    tile::PrefixOp op;
    tile::TupleCombiner combiner;
    TileLayout layout;
    PrefixPlan plan;
    SmallVector<Type> types; // combining type per input
    MapWarpsState &state;
    Value lane = {}, warp = {}, width = {};

    unsigned numInputs() const { return types.size(); }
    int64_t chunkSize() const { return int64_t(1) << plan.v; }
    int64_t chunks() const { return layout.getPerThread() / chunkSize(); }
    /// A reverse scan runs from the last element: every step takes its
    /// neighbours on the other side (higher slots, lanes, warps, chunks).
    bool reverse() { return op.getReverse(); }
    /// The i-th element of a chunk in scan order.
    int64_t inOrder(int64_t i) {
      return reverse() ? chunkSize() - 1 - i : i;
    }
    Value c(int64_t v) { return indexConstant(b, loc, v); }
    Tuple combine(ValueRange earlier, ValueRange later) {
      return combiner.combine(b, loc, earlier, later);
    }
    MaybeTuple combineMaybe(const MaybeTuple &earlier,
                            const MaybeTuple &later) {
      return tilec::combineMaybe(b, loc, combiner, earlier, later);
    }
    MaybeTuple empty(const Tuple &like) {
      return {like, boolConstant(b, loc, false)};
    }

    void run(ValueRange inputs) {
      lane = b.createOrFold<arith::AndIOp>(loc, state.threadId, c(31));
      warp = b.createOrFold<arith::ShRUIOp>(loc, state.threadId, c(kLaneBits));
      SmallVector<Tuple> x = scanChunks(inputs);
      width = i32Constant(b, loc, 32);
      SmallVector<Tuple> laneTotals;
      SmallVector<MaybeTuple> lanePrefixes;
      scanLanes(x, laneTotals, lanePrefixes);
      SmallVector<MaybeTuple> warpPrefixes;
      SmallVector<Tuple> rowTotals;
      if (plan.rowsSpanWarps()) {
        publishWarpTotals(laneTotals);
        combineWarpTotals(x.front(), warpPrefixes, rowTotals);
      } else {
        // Rows within a warp: no warp stage. Such a tile has several rows,
        // so its totals are placeholders (see replace).
        warpPrefixes.assign(chunks(), empty(x.front()));
        rowTotals.assign(laneTotals.begin(), laneTotals.end());
      }
      SmallVector<Tuple> results(layout.getPerThread());
      Tuple total =
          applyCarries(x, lanePrefixes, warpPrefixes, rowTotals, results);
      replace(results, total);
    }

    /// Elements of a chunk in one row: rows shorter than a chunk start
    /// again every `segment()` elements.
    int64_t segment() const { return int64_t(1) << plan.elementAxisBits(); }

    /// 1. Each thread scans its chunks: x[slot] is the prefix of the slot's
    ///    row segment in the chunk up to the slot, in the combining types.
    SmallVector<Tuple> scanChunks(ValueRange inputs) {
      SmallVector<Tuple> x(layout.getPerThread());
      for (int64_t chunk = 0; chunk < chunks(); ++chunk) {
        for (int64_t i = 0; i < chunkSize(); ++i) {
          int64_t slot = chunk * chunkSize() + inOrder(i);
          Tuple element;
          for (auto [input, accType] : llvm::zip(inputs, types))
            element.push_back(convertElement(
                b, loc, vector::ExtractOp::create(b, loc, input, slot),
                accType));
          x[slot] = i % segment() == 0
                        ? element
                        : combine(x[chunk * chunkSize() + inOrder(i - 1)],
                                  element);
        }
      }
      return x;
    }

    ShuffledValue shuffleFromEarlier(Value v, int64_t offset) {
      ++state.stats.shuffles;
      return shuffleValue(
          b, loc, v, offset, width,
          reverse() ? gpu::ShuffleMode::DOWN : gpu::ShuffleMode::UP);
    }

    /// The tuple of the lane `offset` before this one in scan order, and
    /// whether there is one in the same row (rows of fewer than 32 chunks
    /// span aligned groups of lanes).
    MaybeTuple tupleFromEarlier(const Tuple &t, int64_t offset) {
      MaybeTuple moved;
      for (Value v : t) {
        ShuffledValue shuffle = shuffleFromEarlier(v, offset);
        moved.values.push_back(shuffle.value);
        moved.valid = shuffle.valid;
      }
      int64_t rowLanes = int64_t(1) << plan.laneAxisBits();
      if (rowLanes < 32) {
        Value laneInRow =
            b.createOrFold<arith::AndIOp>(loc, lane, c(rowLanes - 1));
        moved.valid =
            reverse()
                ? b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                                laneInRow, c(rowLanes - offset))
                : b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                                laneInRow, c(offset));
      }
      return moved;
    }

    /// 2. The lanes of a row scan the chunk totals (Kogge-Stone over
    ///    shuffles up, or down for a reverse scan); a lane's prefix is its
    ///    neighbour's total. Rows within a chunk skip this.
    void scanLanes(ArrayRef<Tuple> x, SmallVectorImpl<Tuple> &laneTotals,
                   SmallVectorImpl<MaybeTuple> &lanePrefixes) {
      int64_t rowLanes = int64_t(1) << plan.laneAxisBits();
      for (int64_t chunk = 0; chunk < chunks(); ++chunk) {
        Tuple total = x[chunk * chunkSize() + inOrder(chunkSize() - 1)];
        if (rowLanes == 1) {
          laneTotals.push_back(total);
          lanePrefixes.push_back(empty(total));
          continue;
        }
        for (int64_t offset = 1; offset < rowLanes; offset *= 2) {
          MaybeTuple earlier = tupleFromEarlier(total, offset);
          Tuple both = combine(earlier.values, total);
          for (auto [t, e] : llvm::zip(total, both))
            t = b.createOrFold<arith::SelectOp>(loc, earlier.valid, e, t);
        }
        laneTotals.push_back(total);
        lanePrefixes.push_back(tupleFromEarlier(total, 1));
      }
    }

    /// Word of the exchange buffer for input k, chunk and warp.
    Value wordIndex(unsigned k, int64_t chunk, Value warp) {
      int64_t base = (int64_t(k) * chunks() + chunk) * plan.warps();
      return b.createOrFold<arith::AddIOp>(loc, c(base), warp);
    }

    /// A total as a word of the exchange buffer: itself when the inputs
    /// share a type (the buffer's), else its bits.
    Value toExchangeWord(Value v, Type wordType) {
      return v.getType() == wordType ? v : toWordBits(b, loc, v);
    }
    Value fromExchangeWord(Value word, Type type) {
      return word.getType() == type ? word : fromWordBits(b, loc, word, type);
    }

    /// 3. The last lane in scan order publishes its warp's totals.
    void publishWarpTotals(ArrayRef<Tuple> laneTotals) {
      Value buffer = state.exchangeBuffers.lookup(op);
      Type wordType = cast<MemRefType>(buffer.getType()).getElementType();
      gpu::BarrierOp::create(b, loc);
      Value isLast = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, lane, c(reverse() ? 0 : 31));
      buildIf(b, loc, isLast, [&](OpBuilder &) {
        for (int64_t chunk = 0; chunk < chunks(); ++chunk)
          for (unsigned k = 0; k < numInputs(); ++k) {
            Value index = wordIndex(k, chunk, warp);
            Value word = toExchangeWord(laneTotals[chunk][k], wordType);
            memref::StoreOp::create(b, loc, word, buffer, ValueRange{index});
          }
      });
      gpu::BarrierOp::create(b, loc);
    }

    /// 4. Per chunk: the totals of the row's warps before this one in scan
    ///    order, and the row's total over all its warps.
    void combineWarpTotals(const Tuple &like,
                           SmallVectorImpl<MaybeTuple> &warpPrefixes,
                           SmallVectorImpl<Tuple> &rowTotals) {
      Value buffer = state.exchangeBuffers.lookup(op);
      int64_t rowWarps = int64_t(1) << plan.warpAxisBits();
      Value warpInRow = b.createOrFold<arith::AndIOp>(loc, warp, c(rowWarps - 1));
      Value firstWarp = b.createOrFold<arith::SubIOp>(loc, warp, warpInRow);
      for (int64_t chunk = 0; chunk < chunks(); ++chunk) {
        MaybeTuple prefix = empty(like);
        Tuple rowTotal;
        for (int64_t i = 0; i < rowWarps; ++i) {
          int64_t w = reverse() ? rowWarps - 1 - i : i;
          Value wInRow =
              b.createOrFold<arith::AddIOp>(loc, c(w), firstWarp);
          Tuple total;
          for (unsigned k = 0; k < numInputs(); ++k)
            total.push_back(fromExchangeWord(
                memref::LoadOp::create(b, loc, buffer,
                                       wordIndex(k, chunk, wInRow)),
                types[k]));
          rowTotal = rowTotal.empty() ? total : combine(rowTotal, total);
          Value earlier = b.createOrFold<arith::CmpIOp>(
              loc,
              reverse() ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult,
              c(w), warpInRow);
          prefix = combineMaybe(prefix, {total, earlier});
        }
        warpPrefixes.push_back(prefix);
        rowTotals.push_back(rowTotal);
      }
    }

    /// The identity tuple of an exclusive scan, in the combining types.
    Tuple identity() { return exclusiveIdentity(b, loc, op, types); }

    /// 5. Chunks of a row follow each other in scan order: each carries the
    ///    totals of the row's chunks before it. Then every element takes
    ///    carry . earlier warps . earlier lanes . its own prefix. Returns the
    ///    total of the last row group (the tile's, for a one-row tile).
    Tuple applyCarries(ArrayRef<Tuple> x, ArrayRef<MaybeTuple> lanePrefixes,
                       ArrayRef<MaybeTuple> warpPrefixes,
                       ArrayRef<Tuple> rowTotals,
                       MutableArrayRef<Tuple> results) {
      int64_t rowChunks = int64_t(1) << plan.chunkAxisBits();
      Tuple exclusiveIdentity;
      if (op.getExclusive())
        exclusiveIdentity = identity();
      MaybeTuple carry = empty(x.front());
      for (int64_t first = 0; first < chunks(); first += rowChunks) {
        carry = empty(x.front());
        for (int64_t step = 0; step < rowChunks; ++step) {
          int64_t chunk = first + (reverse() ? rowChunks - 1 - step : step);
          MaybeTuple prefix = combineMaybe(carry, warpPrefixes[chunk]);
          prefix = combineMaybe(prefix, lanePrefixes[chunk]);
          for (int64_t i = 0; i < chunkSize(); ++i) {
            int64_t slot = chunk * chunkSize() + inOrder(i);
            results[slot] =
                op.getExclusive()
                    ? exclusiveValue(prefix, x, chunk, i, exclusiveIdentity)
                    : inclusiveValue(prefix, x[slot]);
          }
          carry = combineMaybe(carry, validTuple(b, loc, rowTotals[chunk]));
        }
      }
      return carry.values;
    }

    Tuple inclusiveValue(const MaybeTuple &prefix, const Tuple &own) {
      Tuple both = combine(prefix.values, own);
      Tuple values;
      for (auto [p, o] : llvm::zip(both, own))
        values.push_back(
            b.createOrFold<arith::SelectOp>(loc, prefix.valid, p, o));
      return values;
    }

    /// Everything before element i of `chunk`: the prefix, then the chunk's
    /// elements before it (x holds the chunk's own scan); the identity for
    /// the first element of a row.
    Tuple exclusiveValue(const MaybeTuple &prefix, ArrayRef<Tuple> x,
                         int64_t chunk, int64_t i, const Tuple &identity) {
      MaybeTuple before;
      if (i == 0)
        before = prefix;
      else if (i % segment() == 0) // a row starts inside the chunk
        before = empty(identity);
      else
        before = combineMaybe(
            prefix, validTuple(b, loc, x[chunk * chunkSize() + inOrder(i - 1)]));
      Tuple values;
      for (auto [v, id] : llvm::zip(before.values, identity))
        values.push_back(
            b.createOrFold<arith::SelectOp>(loc, before.valid, v, id));
      return values;
    }

    /// The scans as per-thread vectors of the element types, then the
    /// totals. A one-row tile's total is the last row group's, held by
    /// every thread; tiles of several rows have no totals to give
    /// (checkPrefixSupported), and get placeholders that nothing uses.
    void replace(ArrayRef<Tuple> results, const Tuple &total) {
      b.replaceOp(op, prefixReplacements(
                          b, loc, op, layout.getPerThread(), results,
                          [&](unsigned k) {
        Value totalValue = op.getTotals()[k];
        Value value = convertElement(b, loc, total[k],
                                     getElementTypeOrSelf(totalValue));
        auto tileType = dyn_cast<RankedTensorType>(totalValue.getType());
        if (!tileType)
          return value;
        TileLayout totalLayout = state.layoutOf(tileType);
        return totalLayout.buildVector(b, loc, state.threadId,
                                       tileType.getElementType(),
                                       [&](Value) { return value; });
      }));
    }
  };
};

} // namespace

/// Whether each row of the tile is the whole tile (rank 1 or leading
/// dimensions of 1).
static bool hasOneRow(RankedTensorType type, int64_t axis) {
  return type.getNumElements() == type.getDimSize(axis);
}

bool tilec::prefixRunsOnLayout(tile::PrefixOp op, Attribute encoding,
                               int64_t threads) {
  if (!isa_and_nonnull<tile::LayoutEncodingAttrInterface>(encoding) ||
      llvm::any_of(combiningTypes(op), [](Type t) {
        return t.getIntOrFloatBitWidth() > 32;
      }))
    return false;
  layout::LinearLayout layout =
      tilegpu::layoutOf(op.getType().cloneWithEncoding(encoding), threads);
  std::optional<SmallVector<std::pair<layout::InDim, unsigned>>> bits =
      layout.scanBits(op.getAxis());
  // Warps combine their blocks last: their bits must be the highest.
  return bits && llvm::is_sorted(*bits, [](auto x, auto y) {
           return x.first != layout::InDim::Warp &&
                  y.first == layout::InDim::Warp;
         });
}

LogicalResult tilec::checkPrefixSupported(tile::PrefixOp op,
                                          int64_t threads) {
  RankedTensorType type = op.getType();
  if (type.getEncoding()) {
    if (prefixRunsOnLayout(op, type.getEncoding(), threads))
      return success();
    return op.emitOpError("on a tile with layout ")
           << type.getEncoding()
           << " needs combining types of at most 32 bits and every bit of "
              "the scanned coordinate carried by one register, lane or warp "
              "bit, the warp bits highest";
  }
  TileLayout layout(type.getShape(), threads);
  if (planPrefixAlongChunks(layout, type, op.getAxis(), threads))
    return success();
  if (!planPrefix(layout, type, op.getAxis()))
    return op.emitOpError("is supported along the innermost dimension of "
                          "tiles of at least 32 x ")
           << (int64_t(1) << layout.getVectorBits())
           << " elements, on at least one warp, or along dimension 0 of a "
              "2-D tile whose rows each cover every thread's chunk";
  bool totalsUsed = llvm::any_of(op.getTotals(),
                                 [](Value total) { return !total.use_empty(); });
  if (totalsUsed && !hasOneRow(type, op.getAxis()))
    return op.emitOpError("gives totals only for tiles of one row, got ")
           << type;
  return success();
}

/// The workgroup words that carry the warp totals: one per input, warp and
/// chunk of a thread, in the combining type when the inputs share one, else
/// as i32 bits. Rows within a warp need none.
std::optional<ExchangeBuffer>
tilec::prefixExchangeBuffer(tile::PrefixOp op, int64_t threads) {
  if (Attribute encoding = op.getType().getEncoding()) {
    // On a layout: the block totals of the warps along the axis.
    if (!prefixRunsOnLayout(op, encoding, threads))
      return std::nullopt;
    layout::LinearLayout ll = tilegpu::layoutOf(op.getType(), threads);
    int64_t warpBits = llvm::count_if(*ll.scanBits(op.getAxis()), [](auto bit) {
      return bit.first == layout::InDim::Warp;
    });
    if (warpBits == 0)
      return std::nullopt;
    int64_t rows = ll.getNumElements() / ll.getShape()[op.getAxis()];
    return ExchangeBuffer{int64_t(op.getInputs().size()) * (rows << warpBits),
                          prefixWordType(op)};
  }
  TileLayout layout(op.getType().getShape(), threads);
  std::optional<PrefixPlan> plan =
      planPrefix(layout, op.getType(), op.getAxis());
  if ((plan && !plan->rowsSpanWarps()) ||
      planPrefixAlongChunks(layout, op.getType(), op.getAxis(), threads))
    return std::nullopt;
  int64_t chunks =
      std::max<int64_t>(layout.getPerThread() >> layout.getVectorBits(), 1);
  int64_t warps = std::max<int64_t>(threads / 32, 1);
  return ExchangeBuffer{int64_t(op.getInputs().size()) * chunks * warps,
                        prefixWordType(op)};
}

void tilec::populateMapWarpsPrefixPatterns(const TypeConverter &converter,
                                           MapWarpsState &state,
                                           RewritePatternSet &patterns) {
  patterns.add<PrefixLowering, PrefixAlongChunksLowering,
               PrefixOnLayoutLowering>(
      converter, patterns.getContext(), state);
}
