//===- MapWarpsMemory.cpp - tile.load / tile.store over threads -----------===//
//
// Each thread reads and writes the elements it owns, guarded by the buffer's
// bounds, so that no access leaves the buffer whatever the tile's position.
// Slots that sit next to each other along the innermost dimension (a run)
// move as one access of up to 16 bytes where the whole run is inside the
// buffer and the buffer's pitch, offset and pointer keep runs aligned (a
// uniform check at run time); other runs fall back to guarded elements.
//
//===----------------------------------------------------------------------===//

#include "BulkSource.h"
#include "LinearLayoutIR.h"
#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tilec;
using layout::InDim;
using layout::LinearLayout;

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
  if (type.getEncoding())
    return emitCoordinates(b, loc, state.linearLayoutOf(type), state.threadId,
                           slot);
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

/// Consecutive slots of a thread that are consecutive elements along the
/// tile's innermost dimension (starting at slots that are multiples of
/// it), capped at 16 bytes: the width of one vector access.
int64_t runLength(const MapWarpsState &state, RankedTensorType type) {
  int64_t run = 1;
  if (type.getEncoding()) {
    run = innermostRun(state.linearLayoutOf(type));
  } else {
    TileLayout layout = state.layoutOf(type);
    if (!layout.isReplicated())
      run = std::min<int64_t>(int64_t(1) << layout.getVectorBits(),
                              type.getShape().back());
  }
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  if (elementBytes == 0)
    return 1;
  return std::max<int64_t>(std::min<int64_t>(run, 16 / elementBytes), 1);
}

/// The alignment in bytes that a memref.assume_alignment promises for
/// `buffer`'s aligned pointer, looking through views that keep that
/// pointer (their offset is checked apart); 1 where nothing is promised.
int64_t promisedAlignment(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(def))
      return assume.getAlignment();
    if (!isa<memref::ReinterpretCastOp, memref::SubViewOp, memref::CastOp>(
            def))
      break;
    buffer = def->getOperand(0);
  }
  return 1;
}

/// Whether every run of `run` elements that starts at a multiple of `run`
/// in the tile at `indices` is aligned to its size in `buffer`: the
/// innermost index, the element offset, the pitch and the base pointer
/// (unless promised) are all multiples of it. Null when the innermost
/// stride is not 1.
Value runsAligned(OpBuilder &b, Location loc, Value buffer,
                  ValueRange indices, int64_t run) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return Value();
  auto c = [&](int64_t v) { return indexConstant(b, loc, v); };
  auto multipleOf = [&](Value v, int64_t n) {
    return b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq,
        b.createOrFold<arith::RemUIOp>(loc, v, c(n)), c(0));
  };
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  int64_t bytes = run * (type.getElementTypeBitWidth() / 8);
  SmallVector<Value> conditions = {multipleOf(metadata.getOffset(), run),
                                   multipleOf(indices.back(), run)};
  if (promisedAlignment(buffer) % bytes != 0)
    conditions.push_back(multipleOf(
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer),
        bytes));
  if (type.getRank() > 1)
    conditions.push_back(
        multipleOf(metadata.getStrides()[type.getRank() - 2], run));
  Value all = conditions.front();
  for (Value condition : ArrayRef<Value>(conditions).drop_front())
    all = b.createOrFold<arith::AndIOp>(loc, all, condition);
  return all;
}

/// Whether the run of `run` elements at `access` is inside the buffer: its
/// first element (every index, unsigned, so negative ones are outside) and
/// its last.
Value runInBounds(OpBuilder &b, Location loc, const ElementAccess &access,
                  ArrayRef<Value> sizes, int64_t run) {
  Value inside = access.inBounds;
  for (auto [d, index] : llvm::enumerate(access.indices)) {
    Value last = d + 1 == access.indices.size()
                     ? b.createOrFold<arith::AddIOp>(
                           loc, index, indexConstant(b, loc, run - 1))
                     : index;
    Value ok = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                             last, sizes[d]);
    inside = inside ? b.createOrFold<arith::AndIOp>(loc, inside, ok) : ok;
  }
  return inside;
}

/// How a load or store moves a tile: runs of `length` slots, each one vector
/// access where `aligned` holds and the run is inside the buffer (length 1:
/// element by element).
struct RunPlan {
  int64_t length = 1;
  Value aligned;
};

RunPlan planRuns(OpBuilder &b, Location loc, const MapWarpsState &state,
                 RankedTensorType tileType, Value buffer, ValueRange indices) {
  RunPlan plan;
  int64_t length = runLength(state, tileType);
  if (length > 1)
    plan.aligned = runsAligned(b, loc, buffer, indices, length);
  if (plan.aligned)
    plan.length = length;
  return plan;
}

/// The accesses of the run of slots starting at `first`.
SmallVector<ElementAccess> runAccesses(OpBuilder &b, Location loc,
                                       const MapWarpsState &state,
                                       RankedTensorType tileType,
                                       const RunPlan &plan, int64_t first,
                                       ValueRange indices,
                                       ArrayRef<Value> sizes) {
  SmallVector<ElementAccess> accesses;
  for (int64_t slot = first; slot < first + plan.length; ++slot)
    accesses.push_back(accessAt(
        b, loc, slotPosition(b, loc, state, tileType, slot), indices, sizes));
  return accesses;
}

/// Whether the run at `accesses` moves as one vector.
Value movesWhole(OpBuilder &b, Location loc, const RunPlan &plan,
                 ArrayRef<ElementAccess> accesses, ArrayRef<Value> sizes) {
  return b.createOrFold<arith::AndIOp>(
      loc, plan.aligned,
      runInBounds(b, loc, accesses.front(), sizes, plan.length));
}

/// Whether every one of `sizes` is at least 1 (true for none).
Value hasElements(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value all;
  for (Value size : sizes) {
    Value nonEmpty = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::uge, size, indexConstant(b, loc, 1));
    all = all ? b.createOrFold<arith::AndIOp>(loc, all, nonEmpty) : nonEmpty;
  }
  return all ? all : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
}

/// The indices of `access`, or all 0 where it lies outside the buffer: an
/// access outside then reads the buffer's first element (or run), which
/// exists where the buffer has elements, and its value is not used.
SmallVector<Value> clampedIndices(OpBuilder &b, Location loc,
                                  const ElementAccess &access) {
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> at;
  for (Value index : access.indices)
    at.push_back(
        b.createOrFold<arith::SelectOp>(loc, access.inBounds, index, zero));
  return at;
}

/// Whether every run of `run` elements along the innermost dimension is
/// wholly inside the buffer or wholly outside it, and the first one inside:
/// runs start at multiples of `run` and the innermost size is one too.
Value runsAreWholeOrOut(OpBuilder &b, Location loc, ArrayRef<Value> sizes,
                        int64_t run) {
  auto c = [&](int64_t v) { return indexConstant(b, loc, v); };
  Value innermost = sizes.back();
  Value multiple = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::eq,
      b.createOrFold<arith::RemUIOp>(loc, innermost, c(run)), c(0));
  Value wide = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                             innermost, c(run));
  // Named, so that the ops come in one order whatever the compiler's order
  // of evaluating arguments.
  Value runs = b.createOrFold<arith::AndIOp>(loc, multiple, wide);
  Value outer = hasElements(b, loc, sizes.drop_back());
  return b.createOrFold<arith::AndIOp>(loc, runs, outer);
}

/// One thread's part of a tile.load: runs that move as vectors where the
/// buffer allows, else element by element.
struct ThreadLoad {
  /// At the load; the helpers take the builder of their own region.
  OpBuilder &builder;
  Location loc;
  const MapWarpsState &state;
  RankedTensorType tileType;
  Value buffer;
  ValueRange indices;
  SmallVector<Value> sizes;
  Value padding;
  RunPlan plan;

  VectorType runType() const {
    return VectorType::get({plan.length}, tileType.getElementType());
  }
  int64_t runBytes() const {
    return plan.length * tileType.getElementTypeBitWidth() / 8;
  }
  SmallVector<ElementAccess> runAt(OpBuilder &b, int64_t first) const {
    return runAccesses(b, loc, state, tileType, plan, first, indices, sizes);
  }

  /// The thread's elements in slot order.
  SmallVector<Value> build() {
    OpBuilder &b = builder;
    if (plan.length == 1)
      return elementsWithoutBranches(b);
    // A blocked one-row tile (a piece of a 1-D buffer or of a row) has runs
    // that cross the buffer's edge only at its end: a branch per run. Tiles
    // with layout encodings (an epilogue's bias in an accumulator's slice,
    // a dot's accumulator or register operand) take the branch-free path
    // below: a branch per run serializes their loads (the bias of a
    // 128x256 accumulator is 32 runs a thread).
    if (tileType.getNumElements() == tileType.getShape().back() &&
        !tileType.getEncoding())
      return flatten(b, guardedRuns(b));
    // Rows that end inside the tile: where every run is whole or out (rows
    // of a whole number of runs, the usual case), no lane branches.
    auto loaded = scf::IfOp::create(
        b, loc,
        b.createOrFold<arith::AndIOp>(
            loc, plan.aligned, runsAreWholeOrOut(b, loc, sizes, plan.length)),
        [&](OpBuilder &tb, Location l) {
          scf::YieldOp::create(tb, l, gather(tb, wholeOrOutRuns(tb)));
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(eb, l, gather(eb, guardedRuns(eb)));
        });
    return slotsOf(b, loaded.getResult(0));
  }

  /// The thread's elements held in one vector, in slot order.
  SmallVector<Value> slotsOf(OpBuilder &b, Value vector) {
    SmallVector<Value> elements;
    for (int64_t slot = 0; slot < state.perThread(tileType); ++slot)
      elements.push_back(vector::ExtractOp::create(b, loc, vector, slot));
    return elements;
  }

  /// The elements of `runs`, in slot order.
  SmallVector<Value> flatten(OpBuilder &b, ArrayRef<Value> runs) {
    SmallVector<Value> elements;
    for (Value run : runs)
      for (int64_t i = 0; i < plan.length; ++i)
        elements.push_back(vector::ExtractOp::create(b, loc, run, i));
    return elements;
  }

  /// The elements of `runs` as one vector.
  Value gather(OpBuilder &b, ArrayRef<Value> runs) {
    return vector::FromElementsOp::create(
        b, loc,
        VectorType::get({state.perThread(tileType)}, tileType.getElementType()),
        flatten(b, runs));
  }

  /// Every run one vector load, without branches: a run outside the buffer
  /// reads the buffer's first run instead and takes the padding. A branch
  /// per run would make the lanes of a warp whose rows end inside the tile
  /// diverge, and a padding path writing the registers of a vector load
  /// still in flight waits for it (the scoreboard is the warp's): about
  /// 1.5x slower on rows of 100 f32 on the H200.
  SmallVector<Value> wholeOrOutRuns(OpBuilder &b) {
    Value paddingRun = vector::BroadcastOp::create(b, loc, runType(), padding);
    SmallVector<Value> runs;
    for (int64_t first = 0; first < state.perThread(tileType);
         first += plan.length) {
      // Runs are whole or out: their first element tells.
      ElementAccess access = accessAt(
          b, loc, slotPosition(b, loc, state, tileType, first), indices, sizes);
      Value inside = access.inBounds;
      Value v = vector::LoadOp::create(b, loc, runType(), buffer,
                                       clampedIndices(b, loc, access),
                                       /*nontemporal=*/false,
                                       llvm::MaybeAlign(runBytes()));
      runs.push_back(
          b.createOrFold<arith::SelectOp>(loc, inside, v, paddingRun));
    }
    return runs;
  }

  /// Per run, a vector load where it is whole, else element by element.
  SmallVector<Value> guardedRuns(OpBuilder &b) {
    SmallVector<Value> runs;
    for (int64_t first = 0; first < state.perThread(tileType);
         first += plan.length) {
      SmallVector<ElementAccess> accesses = runAt(b, first);
      auto loaded = scf::IfOp::create(
          b, loc, movesWhole(b, loc, plan, accesses, sizes),
          [&](OpBuilder &tb, Location l) {
            scf::YieldOp::create(
                tb, l,
                Value(vector::LoadOp::create(tb, l, runType(), buffer,
                                             accesses[0].indices,
                                             /*nontemporal=*/false,
                                             llvm::MaybeAlign(runBytes()))));
          },
          [&](OpBuilder &eb, Location l) {
            scf::YieldOp::create(
                eb, l,
                Value(vector::FromElementsOp::create(
                    eb, l, runType(), guardedElements(eb, accesses))));
          });
      runs.push_back(loaded.getResult(0));
    }
    return runs;
  }

  /// Element by element (runs of one: a strided or broadcast view), one
  /// load a slot without a branch: an element outside the buffer reads the
  /// buffer's first element instead and takes the padding. A branch per
  /// element serializes the loads (each waits for the one before), which
  /// made a decode combine reading row statistics broadcast over columns
  /// latency-bound. A buffer with no element has no first element to read:
  /// one uniform branch, and all padding there.
  SmallVector<Value> elementsWithoutBranches(OpBuilder &b) {
    int64_t count = state.perThread(tileType);
    auto vectorType = VectorType::get({count}, tileType.getElementType());
    auto loaded = scf::IfOp::create(
        b, loc, hasElements(b, loc, sizes),
        [&](OpBuilder &tb, Location l) {
          SmallVector<Value> elements;
          for (int64_t slot = 0; slot < count; ++slot) {
            ElementAccess access = accessAt(
                tb, l, slotPosition(tb, l, state, tileType, slot), indices,
                sizes);
            Value v = memref::LoadOp::create(tb, l, buffer,
                                             clampedIndices(tb, l, access));
            elements.push_back(tb.createOrFold<arith::SelectOp>(
                l, access.inBounds, v, padding));
          }
          scf::YieldOp::create(
              tb, l,
              Value(vector::FromElementsOp::create(tb, l, vectorType,
                                                   elements)));
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(
              eb, l,
              Value(vector::BroadcastOp::create(eb, l, vectorType, padding)));
        });
    return slotsOf(b, loaded.getResult(0));
  }

  SmallVector<Value> guardedElements(OpBuilder &b,
                                     ArrayRef<ElementAccess> accesses) {
    SmallVector<Value> values;
    for (const ElementAccess &access : accesses) {
      auto guarded = scf::IfOp::create(
          b, loc, access.inBounds,
          [&](OpBuilder &tb, Location tl) {
            scf::YieldOp::create(
                tb, tl,
                Value(memref::LoadOp::create(tb, tl, buffer, access.indices)));
          },
          [&](OpBuilder &eb, Location el) {
            scf::YieldOp::create(eb, el, padding);
          });
      values.push_back(guarded.getResult(0));
    }
    return values;
  }
};

struct LoadLowering : MapWarpsPattern<tile::LoadOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType tileType = op.getType();
    Value buffer = adaptor.getBuffer();
    ThreadLoad load{rewriter,
                    loc,
                    state,
                    tileType,
                    buffer,
                    adaptor.getIndices(),
                    bufferSizes(rewriter, loc, buffer),
                    arith::ConstantOp::create(rewriter, loc,
                                              op.getPaddingOrZero()),
                    planRuns(rewriter, loc, state, tileType, buffer,
                             adaptor.getIndices())};
    SmallVector<Value> elements = load.build();
    auto vectorType = VectorType::get({state.perThread(tileType)},
                                      tileType.getElementType());
    rewriter.replaceOp(op, vector::FromElementsOp::create(rewriter, loc,
                                                          vectorType, elements));
    return success();
  }
};

/// Whether the whole tile of `shape` at `indices` lies inside the buffer:
/// each index inside (unsigned, so a negative one is not) and its last
/// element too. One uniform check a tile.
Value tileInside(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                 ValueRange indices, ArrayRef<Value> sizes) {
  Value all;
  for (auto [d, index] : llvm::enumerate(indices)) {
    Value first = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                                index, sizes[d]);
    Value lastIndex = b.createOrFold<arith::AddIOp>(
        loc, index, indexConstant(b, loc, shape[d] - 1));
    Value last = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                               lastIndex, sizes[d]);
    Value both = b.createOrFold<arith::AndIOp>(loc, first, last);
    all = all ? b.createOrFold<arith::AndIOp>(loc, all, both) : both;
  }
  return all;
}

/// One thread's part of a tile.store: runs that move as vectors where the
/// buffer allows, else guarded elements.
struct ThreadStore {
  Location loc;
  const MapWarpsState &state;
  RankedTensorType tileType;
  Value buffer, value;
  ValueRange indices;
  SmallVector<Value> sizes;
  RunPlan plan;

  /// The run of `plan.length` slots from `first` as one vector store (or
  /// one element) at `at`.
  void storeRun(OpBuilder &b, int64_t first, ValueRange at) {
    int64_t run = plan.length;
    if (run == 1) {
      memref::StoreOp::create(b, loc,
                              vector::ExtractOp::create(b, loc, value, first),
                              buffer, at);
      return;
    }
    SmallVector<Value> runElements;
    for (int64_t i = 0; i < run; ++i)
      runElements.push_back(vector::ExtractOp::create(b, loc, value, first + i));
    Value slice = vector::FromElementsOp::create(
        b, loc, VectorType::get({run}, tileType.getElementType()),
        runElements);
    vector::StoreOp::create(
        b, loc, slice, buffer, at, /*nontemporal=*/false,
        llvm::MaybeAlign(run * tileType.getElementTypeBitWidth() / 8));
  }

  /// Each run guarded by the bounds (and, for replicated tiles, `owner`).
  void storeGuarded(OpBuilder &b, Value owner) {
    int64_t run = plan.length;
    for (int64_t first = 0; first < state.perThread(tileType); first += run) {
      SmallVector<ElementAccess> accesses = runAccesses(
          b, loc, state, tileType, plan, first, indices, sizes);
      auto storeElements = [&](OpBuilder &eb) {
        for (int64_t i = 0; i < int64_t(accesses.size()); ++i) {
          const ElementAccess &access = accesses[i];
          Value write = owner ? eb.createOrFold<arith::AndIOp>(
                                    loc, owner, access.inBounds)
                              : access.inBounds;
          Value element =
              vector::ExtractOp::create(eb, loc, value, first + i);
          buildIf(eb, loc, write, [&](OpBuilder &ib) {
            memref::StoreOp::create(ib, loc, element, buffer, access.indices);
          });
        }
      };
      if (run == 1) {
        storeElements(b);
        continue;
      }
      Value whole = movesWhole(b, loc, plan, accesses, sizes);
      if (owner)
        whole = b.createOrFold<arith::AndIOp>(loc, whole, owner);
      auto ifOp = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      storeRun(b, first, accesses[0].indices);
      b.setInsertionPointToStart(ifOp.elseBlock());
      storeElements(b);
    }
  }
};

} // namespace

/// Bytes of workgroup memory a block may have on sm_90 (227 KiB).
static constexpr int64_t kMaxBlockSharedBytes = 232448;

/// Bytes a warp's lane writes to global memory in one staged access.
static constexpr int64_t kStagedAccessBytes = 16;
/// Bulk stores read 128-byte rows swizzled in atoms of 8 rows (1024 bytes):
/// 16-byte chunk c of row r sits at chunk c ^ (r mod 8), so that the 8 rows
/// a warp's MMA-layout write touches fall in different banks.
static constexpr int64_t kSwizzleAtomBytes = 1024;
static constexpr int64_t kSwizzleRowBytes = 128;
/// Rows of a bulk copy's box at most (TMA).
static constexpr int64_t kMaxBoxRows = 256;
/// A bulk store moves a warp's rows of a round in this many parts, each
/// written to its own part of the buffer while the store of the other is
/// in flight.
static constexpr int64_t kBulkStoreParts = 2;
/// Bytes of a staged row in workgroup memory: 128 and a 16-byte pad.
static constexpr int64_t kStagedRowBytes = 128 + 16;

/// Bytes of shared memory a multiprocessor has on sm_90, and what each
/// resident block costs besides its own.
static constexpr int64_t kMultiprocessorSharedBytes = 233472;
static constexpr int64_t kBlockReservedSharedBytes = 1024;

/// A warp's part of a staged store (see stagedStorePlan): the rows it
/// holds, the columns of one round (128 bytes), the element size, and
/// whether a bulk tensor store (TMA) moves each round.
/// The warp's rows are its first row plus any sum of the bits of
/// `threadRows`: a run of rows together (the low bits), repeated at the
/// higher bits where the rows are strided (#tilegpu.mma strided_rows). In
/// the buffer they are dense: row r of the tile is row denseRow(r) there.
struct StagedStore {
  int64_t rowsPerWarp, roundColumns, elementBytes, warps, rounds;
  int64_t threadRows = 0;
  bool bulk = false;

  /// Rows of the warp that lie together in the tile: the run of low bits.
  int64_t contiguousRows() const {
    return int64_t(1) << llvm::countr_one(uint64_t(threadRows));
  }
  /// The buffer row of the tile row `row` (its bits of threadRows, packed).
  int64_t denseRow(int64_t row) const {
    int64_t dense = 0, to = 0;
    for (int64_t bit = 0; (int64_t(1) << bit) <= threadRows; ++bit)
      if (threadRows >> bit & 1)
        dense |= (row >> bit & 1) << to++;
    return dense;
  }
  Value denseRow(OpBuilder &b, Location loc, Value row) const {
    auto c = [&](int64_t v) { return indexConstant(b, loc, v); };
    int64_t low = contiguousRows();
    Value dense = b.createOrFold<arith::AndIOp>(loc, row, c(low - 1));
    int64_t to = llvm::countr_one(uint64_t(threadRows));
    for (int64_t bit = to; (int64_t(1) << bit) <= threadRows; ++bit) {
      if (!(threadRows >> bit & 1))
        continue;
      // Bit `bit` of the row moves down to bit `to` of the buffer row.
      // (Each op built in its own statement: argument order is unspecified.)
      Value mask = c(int64_t(1) << bit);
      Value set = b.createOrFold<arith::AndIOp>(loc, row, mask);
      Value shift = c(bit - to++);
      Value moved = b.createOrFold<arith::ShRUIOp>(loc, set, shift);
      dense = b.createOrFold<arith::OrIOp>(loc, dense, moved);
    }
    return dense;
  }
  /// The tile row, from the warp's first, of buffer row `dense`.
  int64_t tileRow(int64_t dense) const {
    int64_t row = 0, from = 0;
    for (int64_t bit = 0; (int64_t(1) << bit) <= threadRows; ++bit)
      if (threadRows >> bit & 1)
        row |= (dense >> from++ & 1) << bit;
    return row;
  }

  /// Buffer elements of one warp: its rows of one round's columns, padded
  /// by 16 bytes, or (bulk) dense and swizzled as the copy engine reads them.
  int64_t warpElements() const {
    return rowsPerWarp * (roundColumns + (bulk ? 0 : 16 / elementBytes));
  }
  /// The workgroup buffer all warps stage `op`'s rounds in.
  ExchangeBuffer buffer(tile::StoreOp op) const {
    return ExchangeBuffer{warps * warpElements(),
                          op.getValue().getType().getElementType(),
                          bulk ? kSwizzleAtomBytes : 16};
  }
};

/// Whether a staged store of `op` (warps of `rowsPerWarp` rows) goes out as
/// bulk tensor stores: its kernel copies its operands in bulk already (so
/// the runtime describes its buffers with tensor maps, and a twin without
/// them runs where a buffer cannot be described), and the buffer is one of
/// the kernel's arguments, or a slice of one whole in its two dimensions
/// (bulkSource), with contiguous rows: the copy engine leaves out what
/// lies outside the argument, which is what lies outside the view.
static bool storesInBulk(tile::StoreOp op, int64_t rowsPerWarp) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  auto type = cast<MemRefType>(op.getBuffer().getType());
  if (type.getRank() != 2 || !type.isLastDimUnitStride() ||
      rowsPerWarp > kMaxBoxRows ||
      rowsPerWarp % (kBulkStoreParts * kSwizzleAtomBytes / kSwizzleRowBytes) ||
      !bulkSource(op.getBuffer()))
    return false;
  return func.walk([](tilegpu::CopyBulkOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// A tile.store that could be staged through workgroup memory: the store
/// of a layout-encoded tile whose threads hold runs of less than 16 bytes
/// (a warpgroup MMA accumulator: 4 bytes a row a thread, so each warp store
/// wrote 8 rows x 16 bytes, half a sector each) to a global buffer, each
/// warp holding whole rows of it.
static std::optional<StagedStore> stagedStoreCandidate(tile::StoreOp op,
                                                       int64_t threads) {
  auto type = cast<RankedTensorType>(op.getValue().getType());
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  auto bufferType = cast<MemRefType>(op.getBuffer().getType());
  if (!type.getEncoding() || type.getRank() != 2 || !func ||
      bufferType.getMemorySpace())
    return std::nullopt;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits != 16 && bits != 32)
    return std::nullopt;
  StagedStore plan;
  plan.elementBytes = bits / 8;
  plan.roundColumns = 128 / plan.elementBytes;
  LinearLayout layout = tilegpu::layoutOf(type, threads);
  int64_t columns = type.getDimSize(1);
  if (innermostRun(layout) * plan.elementBytes >= kStagedAccessBytes ||
      columns % plan.roundColumns != 0 || copyingThreadBits(layout) != 0 ||
      !layout.isInjective())
    return std::nullopt;
  // Lanes and registers spread a warp over rows 0..h-1 (low row bits) and
  // lanes over the columns of one round; warps over rows only, above h.
  int64_t threadRows = 0, warpRows = 0, laneRows = 0;
  for (InDim in : {InDim::Register, InDim::Lane})
    for (const LinearLayout::Basis &basis : layout.getBases(in)) {
      threadRows |= basis[0];
      if (in == InDim::Lane && basis[1] >= plan.roundColumns)
        return std::nullopt;
      if (in == InDim::Lane)
        laneRows |= basis[0];
    }
  for (const LinearLayout::Basis &basis : layout.getBases(InDim::Warp)) {
    if (basis[1] != 0)
      return std::nullopt;
    warpRows |= basis[0];
  }
  plan.threadRows = threadRows;
  plan.rowsPerWarp = int64_t(1) << llvm::popcount(uint64_t(threadRows));
  plan.warps = layout.getNumWarps();
  plan.rounds = columns / plan.roundColumns;
  // Each access of the warp stores rows that lie together.
  if ((threadRows & warpRows) ||
      plan.contiguousRows() % (32 * kStagedAccessBytes / 128) != 0 ||
      layout.getPerThread() * 32 != plan.rowsPerWarp * columns)
    return std::nullopt;
  // A bulk store's part of a warp's rows is a register's choice (every
  // lane writes its elements of a part in the same step) and rows that lie
  // together (one box).
  int64_t partRows = plan.rowsPerWarp / kBulkStoreParts;
  plan.bulk = storesInBulk(op, plan.rowsPerWarp) &&
              plan.denseRow(laneRows) < partRows &&
              partRows <= plan.contiguousRows();
  return plan;
}

/// Bytes a workgroup buffer takes at most among others, with the padding
/// its alignment may put before it.
static int64_t paddedBytes(const ExchangeBuffer &buffer) {
  return llvm::alignTo(buffer.bytes(), 16) + buffer.alignment - 16;
}

/// The stores of `store`'s kernel other than it that could be staged.
static SmallVector<std::pair<tile::StoreOp, StagedStore>>
otherCandidates(tile::StoreOp store, int64_t threads) {
  SmallVector<std::pair<tile::StoreOp, StagedStore>> candidates;
  store->getParentOfType<gpu::GPUFuncOp>().walk([&](tile::StoreOp other) {
    if (other == store)
      return;
    if (std::optional<StagedStore> plan = stagedStoreCandidate(other, threads))
      candidates.emplace_back(other, *plan);
  });
  return candidates;
}

/// Bytes of the workgroup buffers of `store`'s kernel other than its own:
/// every exchanging op's, and every other store's that could be staged
/// (counted whether or not it is, so that the choice of one store does not
/// depend on that of another).
static int64_t otherBufferBytes(tile::StoreOp store, int64_t threads,
                                int64_t groups) {
  int64_t bytes = 0;
  for (auto &[other, plan] : otherCandidates(store, threads))
    bytes += paddedBytes(plan.buffer(other).forGroups(groups));
  store->getParentOfType<gpu::GPUFuncOp>().walk([&](Operation *op) {
    if (isa<tile::StoreOp>(op))
      return;
    if (std::optional<ExchangeBuffer> buffer = exchangeBufferFor(op, threads))
      bytes += paddedBytes(buffer->forGroups(groups));
  });
  return bytes;
}

/// Whether `store`'s staging buffer costs its kernel no residency: the
/// block's shared memory holds it next to the kernel's other workgroup
/// buffers (48 KiB of static ones at most) and staged tiles (dynamic
/// shared memory starts 1024-byte aligned after the buffers), and the
/// kernel is persistent (one block a multiprocessor), or a warpgroup-MMA
/// kernel (sm_90a, whose sizes these are) whose staged slots already hold
/// as few blocks a multiprocessor by shared memory.
static bool costsNoResidency(tile::StoreOp store, const StagedStore &plan,
                             int64_t threads) {
  auto func = store->getParentOfType<gpu::GPUFuncOp>();
  auto dynamicAttr =
      func->getAttrOfType<IntegerAttr>(tile::kDynamicSharedBytesAttrName);
  int64_t dynamic = dynamicAttr ? dynamicAttr.getInt() : 0;
  // Every group of tile threads has its own buffers.
  int64_t groups = consumerGroups(func);
  int64_t staticBytes = otherBufferBytes(store, threads, groups) +
                        paddedBytes(plan.buffer(store).forGroups(groups));
  if (staticBytes > kMaxStaticSharedBytes ||
      dynamic + llvm::alignTo(staticBytes, 1024) > kMaxBlockSharedBytes)
    return false;
  if (func->hasAttr(tile::kPersistentAttrName))
    return true;
  bool warpgroupMma = func.walk([](tile::LoadOp load) {
                            return load.getPlacement() ? WalkResult::interrupt()
                                                       : WalkResult::advance();
                          })
                          .wasInterrupted();
  auto blocks = [](int64_t shared) {
    return kMultiprocessorSharedBytes / (shared + kBlockReservedSharedBytes);
  };
  // The others may take retired slots' bytes (tile-reuse-staged-memory);
  // this buffer need not cost a block even where the sum would.
  return warpgroupMma && dynamic > 0 &&
         blocks(dynamic) ==
             blocks(dynamic + llvm::alignTo(plan.buffer(store).bytes(), 1024));
}

/// A tile.store worth staging: a candidate whose buffer costs its kernel
/// no residency.
static std::optional<StagedStore> stagedStorePlan(tile::StoreOp op,
                                                  int64_t threads) {
  std::optional<StagedStore> plan = stagedStoreCandidate(op, threads);
  if (!plan || !costsNoResidency(op, *plan, threads))
    return std::nullopt;
  return plan;
}

std::optional<ExchangeBuffer> tilec::stagedStoreBuffer(tile::StoreOp op,
                                                       int64_t threads) {
  std::optional<StagedStore> plan = stagedStorePlan(op, threads);
  if (!plan)
    return std::nullopt;
  return plan->buffer(op);
}

std::optional<BulkStoreBox> tilec::bulkStoreBox(tile::StoreOp op,
                                                 int64_t threads) {
  std::optional<StagedStore> plan = stagedStorePlan(op, threads);
  if (!plan || !plan->bulk)
    return std::nullopt;
  // Innermost first: 128 bytes of columns, a warp's part of its rows along
  // the argument's rows, one element in every other dimension.
  BulkSource source = *bulkSource(op.getBuffer());
  unsigned rank = cast<MemRefType>(source.arg.getType()).getRank();
  SmallVector<int64_t> box(rank, 1);
  box[0] = plan->roundColumns;
  box[rank - 1 - source.rowsDim] = plan->rowsPerWarp / kBulkStoreParts;
  return BulkStoreBox{source.arg.getArgNumber(), box};
}

namespace {

/// Writes this thread's runs of `value` (a tile of `layout`) whose first
/// slot's position for lane 0 of warp 0 passes `selected` into `staging`,
/// each at the element `element(row in the warp, byte in the round)` gives.
void writeRuns(OpBuilder &b, Location loc, const MapWarpsState &state,
               const StagedStore &plan, const LinearLayout &layout, Value value,
               Value staging, function_ref<bool(ArrayRef<int64_t>)> selected,
               function_ref<Value(Value, Value)> element) {
  auto c = [&](int64_t v) { return indexConstant(b, loc, v); };
  int64_t run = innermostRun(layout), eb = plan.elementBytes;
  Type elementType = cast<VectorType>(value.getType()).getElementType();
  for (int64_t slot = 0; slot < layout.getPerThread(); slot += run) {
    if (!selected(layout.apply(slot, 0, 0)))
      continue;
    SmallVector<Value> at =
        emitCoordinates(b, loc, layout, state.threadId, slot);
    Value row = plan.denseRow(b, loc, at[0]);
    Value byte = b.createOrFold<arith::MulIOp>(
        loc,
        b.createOrFold<arith::AndIOp>(loc, at[1], c(plan.roundColumns - 1)),
        c(eb));
    SmallVector<Value> elements;
    for (int64_t i = 0; i < run; ++i)
      elements.push_back(vector::ExtractOp::create(b, loc, value, slot + i));
    Value slice = vector::FromElementsOp::create(
        b, loc, VectorType::get({run}, elementType), elements);
    vector::StoreOp::create(b, loc, slice, staging,
                            ValueRange{element(row, byte)},
                            /*nontemporal=*/false, llvm::MaybeAlign(run * eb));
  }
}

/// Each warp moves its rows through its part of `buffer` a round of 128
/// bytes of columns at a time: its threads write their runs there, the
/// warp meets, and each lane stores 16 bytes, eight lanes a 128-byte row.
void storeStaged(OpBuilder &b, Location loc, const MapWarpsState &state,
                 const StagedStore &plan, RankedTensorType tileType,
                 Value value, Value staging, Value global,
                 ValueRange indices) {
  LinearLayout layout = state.linearLayoutOf(tileType);
  auto c = [&](int64_t v) { return indexConstant(b, loc, v); };
  Value tid = state.threadId;
  Value lane = b.createOrFold<arith::RemUIOp>(loc, tid, c(32));
  Value warpBase = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::DivUIOp>(loc, tid, c(32)),
      c(plan.warpElements()));
  int64_t eb = plan.elementBytes;
  // The warp's first row in the tile (its warp bits only).
  Value firstRow = b.createOrFold<arith::AndIOp>(
      loc, emitCoordinates(b, loc, layout, tid, 0)[0], c(~plan.threadRows));
  // Element index in the warp's part of the buffer of (row, byte in row):
  // rows padded by 16 bytes, so that the 8 rows a warp's MMA-layout write
  // touches fall in different banks, while each address stays a per-lane
  // base plus a constant (an XOR swizzle needed one register a column
  // block, and ptxas spilled).
  auto padded = [&](Value row, Value byte) {
    Value offset = b.createOrFold<arith::AddIOp>(
        loc, b.createOrFold<arith::MulIOp>(loc, row, c(kStagedRowBytes)),
        byte);
    return b.createOrFold<arith::AddIOp>(
        loc, warpBase, b.createOrFold<arith::DivUIOp>(loc, offset, c(eb)));
  };
  Type elementType = tileType.getElementType();
  int64_t lanesPerRow = 128 / kStagedAccessBytes;
  int64_t rowsPerAccess = 32 / lanesPerRow;
  int64_t accessElements = kStagedAccessBytes / eb;
  Value accessRow = b.createOrFold<arith::DivUIOp>(loc, lane, c(lanesPerRow));
  Value accessByte = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::RemUIOp>(loc, lane, c(lanesPerRow)),
      c(kStagedAccessBytes));
  Value allLanes = arith::ConstantIntOp::create(b, loc, -1, 32);
  for (int64_t round = 0; round < plan.rounds; ++round) {
    // The previous round's (or tile's) reads are done.
    NVVM::SyncWarpOp::create(b, loc, allLanes);
    writeRuns(
        b, loc, state, plan, layout, value, staging,
        [&](ArrayRef<int64_t> position) {
          return position[1] / plan.roundColumns == round;
        },
        padded);
    NVVM::SyncWarpOp::create(b, loc, allLanes);
    for (int64_t first = 0; first < plan.rowsPerWarp;
         first += rowsPerAccess) {
      Value row = b.createOrFold<arith::AddIOp>(loc, accessRow, c(first));
      Value moved = vector::LoadOp::create(
          b, loc, VectorType::get({accessElements}, elementType), staging,
          ValueRange{padded(row, accessByte)}, /*nontemporal=*/false,
          llvm::MaybeAlign(kStagedAccessBytes));
      // The access's rows lie together: `first` is a multiple of them.
      Value tileRow =
          b.createOrFold<arith::AddIOp>(loc, accessRow, c(plan.tileRow(first)));
      Value globalRow = b.createOrFold<arith::AddIOp>(
          loc, indices[0],
          b.createOrFold<arith::AddIOp>(loc, firstRow, tileRow));
      Value globalColumn = b.createOrFold<arith::AddIOp>(
          loc, indices[1],
          b.createOrFold<arith::AddIOp>(
              loc, c(round * plan.roundColumns),
              b.createOrFold<arith::DivUIOp>(loc, accessByte, c(eb))));
      vector::StoreOp::create(b, loc, moved, global,
                              ValueRange{globalRow, globalColumn},
                              /*nontemporal=*/false,
                              llvm::MaybeAlign(kStagedAccessBytes));
    }
  }
}

/// Each warp moves its rows through its 1024-byte-aligned part of `staging`
/// a round of 128 bytes of columns at a time, in two halves of its rows
/// (kBulkStoreParts), each with its own half of the buffer: once the copy
/// engine has read that half (the other half's store may still be in
/// flight), the threads write their runs of the rows there, swizzled, make
/// them visible to the async proxy, meet, and the first lane issues one
/// bulk tensor store of them through `tensorMap`. The copy engine leaves
/// out the part of the box outside the buffer, so edge tiles need no
/// guard, and the warp goes on while the store is in flight.
void storeStagedBulk(OpBuilder &b, Location loc, const MapWarpsState &state,
                     const StagedStore &plan, RankedTensorType tileType,
                     Value value, Value staging, Value tensorMap,
                     const BulkSource &source, ValueRange indices) {
  LinearLayout layout = state.linearLayoutOf(tileType);
  MLIRContext *ctx = b.getContext();
  auto c = [&](int64_t v) { return indexConstant(b, loc, v); };
  Value tid = state.threadId;
  Value lane = b.createOrFold<arith::RemUIOp>(loc, tid, c(32));
  Value warpBytes = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::DivUIOp>(loc, tid, c(32)),
      c(plan.warpElements() * plan.elementBytes));
  int64_t eb = plan.elementBytes;
  int64_t partRows = plan.rowsPerWarp / kBulkStoreParts;
  Value firstRow = b.createOrFold<arith::AndIOp>(
      loc, emitCoordinates(b, loc, layout, tid, 0)[0], c(~plan.threadRows));
  // Element index of (row of the warp, byte in row) in the buffer: rows of
  // one part are consecutive, each part a whole number of swizzle atoms.
  int64_t chunkBytes = 16, atomRows = kSwizzleAtomBytes / kSwizzleRowBytes;
  auto swizzled = [&](Value row, Value byte) {
    Value chunk = b.createOrFold<arith::XOrIOp>(
        loc, b.createOrFold<arith::DivUIOp>(loc, byte, c(chunkBytes)),
        b.createOrFold<arith::RemUIOp>(loc, row, c(atomRows)));
    Value offset = b.createOrFold<arith::AddIOp>(
        loc,
        b.createOrFold<arith::AddIOp>(
            loc, warpBytes,
            b.createOrFold<arith::MulIOp>(loc, row, c(kSwizzleRowBytes))),
        b.createOrFold<arith::AddIOp>(
            loc, b.createOrFold<arith::MulIOp>(loc, chunk, c(chunkBytes)),
            b.createOrFold<arith::RemUIOp>(loc, byte, c(chunkBytes))));
    return b.createOrFold<arith::DivUIOp>(loc, offset, c(eb));
  };
  Value firstLane =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, c(0));
  Value allLanes = arith::ConstantIntOp::create(b, loc, -1, 32);
  auto toI32 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
  };
  Value warpAddress = b.createOrFold<arith::AddIOp>(
      loc, sharedAddress(b, loc, staging),
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), warpBytes));
  Type sharedPointerType = LLVM::LLVMPointerType::get(ctx, /*shared=*/3);
  for (int64_t round = 0; round < plan.rounds; ++round) {
    for (int64_t part = 0; part < kBulkStoreParts; ++part) {
      // The copy engine has read this half of the buffer (the store of
      // the round or tile before); the other half's may be in flight.
      buildIf(b, loc, firstLane, [&](OpBuilder &t) {
        NVVM::CpAsyncBulkWaitGroupOp::create(
            t, loc, t.getI32IntegerAttr(kBulkStoreParts - 1), t.getUnitAttr());
      });
      NVVM::SyncWarpOp::create(b, loc, allLanes);
      writeRuns(
          b, loc, state, plan, layout, value, staging,
          [&](ArrayRef<int64_t> position) {
            return position[1] / plan.roundColumns == round &&
                   plan.denseRow(position[0]) / partRows == part;
          },
          swizzled);
      // The generic proxy's writes, seen by the copy engine's reads.
      NVVM::FenceProxyOp::create(
          b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
      NVVM::SyncWarpOp::create(b, loc, allLanes);
      // Innermost first, in the argument behind the view.
      SmallVector<Value> argIndices = bulkSourceIndices(
          b, loc, source,
          b.createOrFold<arith::AddIOp>(
              loc, indices[0],
              b.createOrFold<arith::AddIOp>(loc, firstRow,
                                            c(plan.tileRow(part * partRows)))),
          b.createOrFold<arith::AddIOp>(loc, indices[1],
                                        c(round * plan.roundColumns)));
      SmallVector<Value> coordinates;
      for (Value index : llvm::reverse(argIndices))
        coordinates.push_back(toI32(index));
      Value rowsAddress = LLVM::IntToPtrOp::create(
          b, loc, sharedPointerType,
          b.createOrFold<arith::AddIOp>(
              loc, warpAddress,
              arith::ConstantIntOp::create(
                  b, loc, part * partRows * kSwizzleRowBytes, 64)));
      buildIf(b, loc, firstLane, [&](OpBuilder &t) {
        NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
            t, loc, tensorMap, rowsAddress, coordinates,
            /*l2CacheHint=*/nullptr,
            NVVM::TMAStoreModeAttr::get(ctx, NVVM::TMAStoreMode::TILE),
            /*predicate=*/nullptr);
        NVVM::CpAsyncBulkCommitGroupOp::create(t, loc);
      });
    }
  }
}

struct StoreLowering : MapWarpsPattern<tile::StoreOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto tileType = cast<RankedTensorType>(op.getValue().getType());
    Value buffer = adaptor.getBuffer();
    Value staging = state.exchangeBuffers.lookup(op);
    std::optional<StagedStore> staged =
        staging ? stagedStorePlan(op, state.threads) : std::nullopt;
    if (staged && staged->bulk) {
      storeStagedBulk(rewriter, loc, state, *staged, tileType,
                      adaptor.getValue(), staging, state.tensorMaps.lookup(op),
                      *bulkSource(op.getBuffer()), adaptor.getIndices());
      rewriter.eraseOp(op);
      return success();
    }
    // Replicated tiles are written by one owner per element.
    Value owner =
        tileType.getEncoding()
            ? emitOwnsElements(rewriter, loc, state.linearLayoutOf(tileType),
                               state.threadId)
            : state.layoutOf(tileType).ownsElements(rewriter, loc,
                                                    state.threadId);
    ThreadStore store{loc,
                      state,
                      tileType,
                      buffer,
                      adaptor.getValue(),
                      adaptor.getIndices(),
                      bufferSizes(rewriter, loc, buffer),
                      planRuns(rewriter, loc, state, tileType, buffer,
                               adaptor.getIndices())};
    // A staged store (a buffer was set aside for it) moves a tile wholly
    // inside C, whose rows keep 16-byte runs aligned, in 16-byte accesses
    // after one uniform check; edge tiles take the guarded stores.
    Value aligned = staged ? runsAligned(rewriter, loc, buffer, store.indices,
                                         kStagedAccessBytes /
                                             staged->elementBytes)
                           : Value();
    if (!aligned) {
      store.storeGuarded(rewriter, owner);
    } else {
      Value inside = rewriter.createOrFold<arith::AndIOp>(
          loc,
          tileInside(rewriter, loc, tileType.getShape(), store.indices,
                     store.sizes),
          aligned);
      auto ifOp = scf::IfOp::create(rewriter, loc, inside,
                                    /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      storeStaged(rewriter, loc, state, *staged, tileType, adaptor.getValue(),
                  staging, buffer, store.indices);
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      store.storeGuarded(rewriter, owner);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tilec::finishBulkStores(gpu::GPUFuncOp func) {
  bool bulkStores = func.walk([](NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp) {
                          return WalkResult::interrupt();
                        })
                        .wasInterrupted();
  if (!bulkStores)
    return;
  // A thread with no bulk store in flight passes the wait at once.
  func.walk([](gpu::ReturnOp ret) {
    OpBuilder b(ret);
    NVVM::CpAsyncBulkWaitGroupOp::create(
        b, ret.getLoc(), b.getI32IntegerAttr(0), b.getUnitAttr());
  });
}

void tilec::populateMapWarpsMemoryPatterns(const TypeConverter &converter,
                                           MapWarpsState &state,
                                           RewritePatternSet &patterns) {
  patterns.add<LoadLowering, StoreLowering>(converter, patterns.getContext(),
                                            state);
}
