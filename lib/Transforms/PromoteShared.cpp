//===- PromoteShared.cpp - Pipeline dot operands through shared memory ----===//
//
// Tensor-core and outer-product dots read each operand element many times;
// staging the operand tiles in workgroup memory makes those reads cheap, and
// copying several iterations ahead hides the latency of global memory.
//
//===----------------------------------------------------------------------===//

#include "DotLayout.h"
#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace tilec {
#define GEN_PASS_DEF_TILEPROMOTESHARED
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Each slot row is padded by this many bytes: rows 16 bytes apart in
/// banks, so the 8 row addresses of an ldmatrix hit 8 different bank groups.
static constexpr int64_t kRowPaddingBytes = 16;
/// Slots start on this boundary (TMA and 16-byte vectors need at least 16).
static constexpr int64_t kSlotAlignment = 128;
/// Swizzled panels have 128-byte rows, swizzled in atoms of 8 rows.
static constexpr int64_t kSwizzleBytes = 128;
static constexpr int64_t kSwizzleAtomBytes = 8 * kSwizzleBytes;

static bool isGlobal(MemRefType type) { return !type.getMemorySpace(); }

/// The load a dot operand comes from, looking through one tile.transpose.
static tile::LoadOp operandLoad(Value operand) {
  if (auto transpose = operand.getDefiningOp<tile::TransposeOp>()) {
    if (!transpose->hasOneUse())
      return nullptr;
    operand = transpose.getInput();
  }
  auto load = operand.getDefiningOp<tile::LoadOp>();
  return load && load->hasOneUse() ? load : nullptr;
}

/// A load can be issued iterations ahead if its position depends on nothing
/// computed in the loop but the induction variable, and it pads with zeros
/// (what an asynchronous copy fills in).
static bool canPipeline(scf::ForOp loop, tile::LoadOp load) {
  if (load->getBlock() != loop.getBody() ||
      !isGlobal(load.getBuffer().getType()) ||
      !loop.isDefinedOutsideOfLoop(load.getBuffer()))
    return false;
  if (std::optional<TypedAttr> padding = load.getPadding())
    if (!matchPattern(*padding, m_Zero()) &&
        !matchPattern(*padding, m_AnyZeroFloat()))
      return false;
  return llvm::all_of(load.getIndices(), [&](Value index) {
    return index == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(index);
  });
}

namespace {
/// A load to stage, and whether into swizzled panels.
struct PromotableLoad {
  tile::LoadOp load;
  bool swizzled;
};
} // namespace

/// The operand loads of the dots in `loop` that can be staged; with
/// `swizzle`, those of dots that fit warpgroup MMA on `threads` threads are
/// marked for swizzled panels.
static SmallVector<PromotableLoad>
promotableLoads(scf::ForOp loop, bool swizzle = false, int64_t threads = 0) {
  SmallVector<PromotableLoad> loads;
  for (auto dot : loop.getBody()->getOps<tile::DotOp>()) {
    tile::LoadOp lhs = operandLoad(dot.getLhs());
    tile::LoadOp rhs = operandLoad(dot.getRhs());
    bool lhsOk = lhs && canPipeline(loop, lhs);
    bool rhsOk = rhs && canPipeline(loop, rhs);
    bool swizzled = swizzle && lhsOk && rhsOk && lhs != rhs &&
                    fitsWarpgroupMma(dot, threads);
    for (auto [load, ok] : {std::pair{lhs, lhsOk}, std::pair{rhs, rhsOk}})
      if (ok && llvm::none_of(loads, [&](const PromotableLoad &p) {
            return p.load == load;
          }))
        loads.push_back({load, swizzled});
  }
  return loads;
}

namespace {

/// The workgroup slots of one promoted load: `stages` copies of its tile,
/// and how to address slot s. A padded slot is [rows, pitch]; a swizzled
/// one is [panels, rows, panel width].
struct StagedTile {
  mutable tile::LoadOp load;
  Value slots; // memref<stages x (slot shape) x T, workgroup>
  bool swizzled;

  /// The view of slot `slot` (a strided memref of the slot shape).
  Value slotView(OpBuilder &b, Location loc, Value slot) const {
    auto slotsType = cast<MemRefType>(slots.getType());
    ArrayRef<int64_t> slotShape = slotsType.getShape().drop_front();
    ArrayRef<int64_t> viewShape =
        swizzled ? slotShape : load.getType().getShape();
    SmallVector<OpFoldResult> offsets(slotsType.getRank(), b.getIndexAttr(0));
    offsets[0] = slot;
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1)};
    for (int64_t size : viewShape)
      sizes.push_back(b.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(slotsType.getRank(), b.getIndexAttr(1));
    auto viewType = memref::SubViewOp::inferRankReducedResultType(
        viewShape, slotsType, offsets, sizes, strides);
    return memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType), slots,
                                     offsets, sizes, strides);
  }

  IntegerAttr swizzleAttr(OpBuilder &b) const {
    return swizzled ? b.getI64IntegerAttr(kSwizzleBytes) : IntegerAttr();
  }

  /// Starts copying the tile the load reads when the induction variable is
  /// `iv` into slot `slot`.
  void copyInto(OpBuilder &b, Location loc, Value inductionVar, Value iv,
                Value slot) const {
    SmallVector<Value> indices;
    for (Value index : load.getIndices())
      indices.push_back(index == inductionVar ? iv : index);
    tile::CopyAsyncOp::create(b, loc, load.getBuffer(), indices,
                              slotView(b, loc, slot),
                              /*vector_bytes=*/nullptr, swizzleAttr(b));
  }

  /// Reads slot `slot` as the tile `load` read.
  Value read(OpBuilder &b, Location loc, Value slot) const {
    Value view = slotView(b, loc, slot);
    if (swizzled)
      return tile::LoadOp::create(b, loc, load.getType(), view, ValueRange{},
                                  /*padding=*/nullptr, swizzleAttr(b));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return tile::LoadOp::create(b, loc, load.getType(), view,
                                ValueRange{zero, zero});
  }
};

/// The slot shape of `type`'s tile: padded rows, or 128-byte panels.
SmallVector<int64_t> slotShape(RankedTensorType type, bool swizzled) {
  unsigned elementBytes = type.getElementTypeBitWidth() / 8;
  if (swizzled) {
    int64_t width = kSwizzleBytes / elementBytes;
    return {type.getDimSize(1) / width, type.getDimSize(0), width};
  }
  return {type.getDimSize(0),
          type.getDimSize(1) +
              std::max<int64_t>(kRowPaddingBytes / elementBytes, 1)};
}

/// Carves the slots of `load` out of the dynamic shared memory at `base`;
/// swizzled slots start at `alignedShift` plus a multiple of the swizzle
/// atom, padded ones at a constant offset.
StagedTile allocateSlots(OpBuilder &b, Location loc, PromotableLoad toStage,
                         int64_t stages, Value base, Value alignedShift,
                         int64_t &sharedBytes) {
  RankedTensorType type = toStage.load.getType();
  unsigned elementBytes = type.getElementTypeBitWidth() / 8;
  SmallVector<int64_t> shape = {stages};
  llvm::append_range(shape, slotShape(type, toStage.swizzled));
  auto slotsType = MemRefType::get(
      shape, type.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  int64_t offset = llvm::alignTo(
      sharedBytes, toStage.swizzled ? kSwizzleAtomBytes : kSlotAlignment);
  sharedBytes = offset + slotsType.getNumElements() * elementBytes;
  Value byteShift = arith::ConstantIndexOp::create(b, loc, offset);
  if (toStage.swizzled)
    byteShift = arith::AddIOp::create(b, loc, byteShift, alignedShift);
  Value slots =
      memref::ViewOp::create(b, loc, slotsType, base, byteShift, ValueRange{});
  return {toStage.load, slots, toStage.swizzled};
}

/// The bytes from `base` to the next swizzle-atom boundary: the atoms
/// TMA and wgmma swizzle within must be aligned to their size, and only
/// the run time knows where dynamic shared memory starts.
Value atomAlignmentShift(OpBuilder &b, Location loc, Value base) {
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, base);
  Value misalignment =
      arith::RemUIOp::create(b, loc, address, c(kSwizzleAtomBytes));
  return arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, c(kSwizzleAtomBytes), misalignment),
      c(kSwizzleAtomBytes));
}

} // namespace

FailureOr<unsigned>
tilec::promoteDotOperands(RewriterBase &rewriter, scf::ForOp loop,
                          int64_t stages, Value sharedBase,
                          int64_t &sharedBytes, bool swizzle,
                          int64_t threads) {
  // A warpgroup dot in flight needs a third slot; with two, stay padded.
  SmallVector<PromotableLoad> loads =
      promotableLoads(loop, swizzle && stages >= 3, threads);
  if (loads.empty())
    return 0u;
  if (stages < 2)
    return loop.emitOpError("needs at least 2 pipeline stages, got ")
           << stages;
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value alignedShift;
  if (llvm::any_of(loads, [](const PromotableLoad &p) { return p.swizzled; }))
    alignedShift = atomAlignmentShift(rewriter, loc, sharedBase);
  SmallVector<StagedTile> tiles;
  for (const PromotableLoad &load : loads)
    tiles.push_back(allocateSlots(rewriter, loc, load, stages, sharedBase,
                                  alignedShift, sharedBytes));
  // Room for the run-time alignment shift.
  if (alignedShift)
    sharedBytes += kSwizzleAtomBytes;

  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value iv = loop.getInductionVar();
  Value lb = loop.getLowerBound(), step = loop.getStep();

  // A dot on swizzled panels (warpgroup MMA) stays in flight for one more
  // iteration, so its slot is not free until two iterations later: copies
  // run one stage less ahead, and are issued after the dot so that their
  // address arithmetic overlaps the tensor cores.
  bool dotInFlight = llvm::any_of(
      tiles, [](const StagedTile &t) { return t.swizzled; });
  int64_t distance = dotInFlight ? stages - 2 : stages - 1;
  if (distance < 1)
    return loop.emitOpError("needs at least ")
           << (dotInFlight ? 3 : 2)
           << " pipeline stages to keep a warpgroup dot in flight, got "
           << stages;

  // Prologue: iterations 0 .. distance-1 go to slots 0 .. distance-1.
  for (int64_t j = 0; j < distance; ++j) {
    Value ivJ = rewriter.createOrFold<arith::AddIOp>(
        loc, lb, rewriter.createOrFold<arith::MulIOp>(loc, step, constant(j)));
    for (const StagedTile &t : tiles)
      t.copyInto(rewriter, loc, iv, ivJ, constant(j));
    tile::AsyncCommitOp::create(rewriter, loc);
  }

  // Steady state: wait for this iteration's slot, refill the slot freed
  // `stages - distance` iterations ago (every thread is past its reads
  // after the wait's barrier), and read this iteration's tiles from
  // workgroup memory.
  rewriter.setInsertionPointToStart(loop.getBody());
  Value iteration = rewriter.createOrFold<arith::DivUIOp>(
      loc, rewriter.createOrFold<arith::SubIOp>(loc, iv, lb), step);
  Value slot = rewriter.createOrFold<arith::RemUIOp>(loc, iteration,
                                                     constant(stages));
  tile::AsyncWaitOp::create(rewriter, loc, distance - 1);
  if (dotInFlight)
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  Value ahead = rewriter.createOrFold<arith::AddIOp>(
      loc, iv,
      rewriter.createOrFold<arith::MulIOp>(loc, step, constant(distance)));
  Value aheadSlot = rewriter.createOrFold<arith::RemUIOp>(
      loc, rewriter.createOrFold<arith::AddIOp>(loc, iteration,
                                                constant(distance)),
      constant(stages));
  for (const StagedTile &t : tiles)
    t.copyInto(rewriter, loc, iv, ahead, aheadSlot);
  tile::AsyncCommitOp::create(rewriter, loc);

  for (const StagedTile &t : tiles) {
    rewriter.setInsertionPoint(t.load);
    rewriter.replaceOp(t.load, t.read(rewriter, loc, slot));
  }
  if (dotInFlight)
    for (tile::DotOp dot : loop.getBody()->getOps<tile::DotOp>())
      dot->setAttr(kDotInFlightAttr, rewriter.getI64IntegerAttr(1));

  // Copies still in flight past the last iteration must land before the
  // kernel ends or reuses the memory.
  rewriter.setInsertionPointAfter(loop);
  tile::AsyncWaitOp::create(rewriter, loc, 0);
  return static_cast<unsigned>(tiles.size());
}

namespace {
struct TilePromoteSharedPass
    : tilec::impl::TilePromoteSharedBase<TilePromoteSharedPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (!promotableLoads(loop).empty())
        loops.push_back(loop);
    });
    if (loops.empty())
      return;
    int64_t threads = 0;
    if (std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize())
      threads = (*block)[0] * (*block)[1] * (*block)[2];

    IRRewriter rewriter(&getContext());
    rewriter.setInsertionPointToStart(&func.getBody().front());
    auto workgroup = gpu::AddressSpaceAttr::get(&getContext(),
                                                gpu::AddressSpace::Workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(
        rewriter, func.getLoc(),
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
    int64_t sharedBytes = 0;
    if (auto existing =
            func->getAttrOfType<IntegerAttr>("tile.dynamic_shared_bytes"))
      sharedBytes = existing.getInt();
    for (scf::ForOp loop : loops) {
      int64_t stages = defaultStages;
      if (auto attr = loop->getAttrOfType<IntegerAttr>("tile.stages"))
        stages = attr.getInt();
      FailureOr<unsigned> promoted =
          promoteDotOperands(rewriter, loop, stages, base, sharedBytes,
                             swizzle, threads);
      if (failed(promoted))
        return signalPassFailure();
      numPromotedTiles += *promoted;
    }
    numSharedBytes = sharedBytes;
    func->setAttr("tile.dynamic_shared_bytes",
                  rewriter.getI64IntegerAttr(sharedBytes));
  }
};
} // namespace
