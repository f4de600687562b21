//===- PromoteShared.cpp - Pipeline dot operands through shared memory ----===//
//
// Tensor-core and outer-product dots read each operand element many times;
// staging the operand tiles in workgroup memory makes those reads cheap, and
// copying several iterations ahead hides the latency of global memory.
//
//===----------------------------------------------------------------------===//

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

static SmallVector<tile::LoadOp> promotableLoads(scf::ForOp loop) {
  SmallVector<tile::LoadOp> loads;
  for (auto dot : loop.getBody()->getOps<tile::DotOp>())
    for (Value operand : {dot.getLhs(), dot.getRhs()})
      if (tile::LoadOp load = operandLoad(operand);
          load && canPipeline(loop, load) && !llvm::is_contained(loads, load))
        loads.push_back(load);
  return loads;
}

namespace {

/// The workgroup slots of one promoted load: `stages` padded copies of its
/// tile, and how to address slot s.
struct StagedTile {
  mutable tile::LoadOp load;
  Value slots; // memref<stages x rows x pitch x T, workgroup>

  /// The rows x cols view of slot `slot` (a strided memref).
  Value slotView(OpBuilder &b, Location loc, Value slot) const {
    auto slotsType = cast<MemRefType>(slots.getType());
    ArrayRef<int64_t> tileShape = load.getType().getShape();
    SmallVector<OpFoldResult> offsets = {slot, b.getIndexAttr(0),
                                         b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                       b.getIndexAttr(tileShape[0]),
                                       b.getIndexAttr(tileShape[1])};
    SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
    auto viewType = memref::SubViewOp::inferRankReducedResultType(
        tileShape, slotsType, offsets, sizes, strides);
    return memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType), slots,
                                     offsets, sizes, strides);
  }

  /// Starts copying the tile the load reads when the induction variable is
  /// `iv` into slot `slot`.
  void copyInto(OpBuilder &b, Location loc, Value inductionVar, Value iv,
                Value slot) const {
    SmallVector<Value> indices;
    for (Value index : load.getIndices())
      indices.push_back(index == inductionVar ? iv : index);
    tile::CopyAsyncOp::create(b, loc, load.getBuffer(), indices,
                              slotView(b, loc, slot), /*vector_bytes=*/nullptr);
  }
};

/// Carves the slots of `load` out of the dynamic shared memory at `base`.
StagedTile allocateSlots(OpBuilder &b, Location loc, tile::LoadOp load,
                         int64_t stages, Value base, int64_t &sharedBytes) {
  RankedTensorType type = load.getType();
  unsigned elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t pitch = type.getDimSize(1) +
                  std::max<int64_t>(kRowPaddingBytes / elementBytes, 1);
  auto slotsType = MemRefType::get(
      {stages, type.getDimSize(0), pitch}, type.getElementType(),
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  int64_t offset = llvm::alignTo(sharedBytes, kSlotAlignment);
  sharedBytes = offset + stages * type.getDimSize(0) * pitch * elementBytes;
  Value slots = memref::ViewOp::create(
      b, loc, slotsType, base, arith::ConstantIndexOp::create(b, loc, offset),
      ValueRange{});
  return {load, slots};
}

} // namespace

FailureOr<unsigned> tilec::promoteDotOperands(RewriterBase &rewriter,
                                              scf::ForOp loop, int64_t stages,
                                              Value sharedBase,
                                              int64_t &sharedBytes) {
  SmallVector<tile::LoadOp> loads = promotableLoads(loop);
  if (loads.empty())
    return 0u;
  if (stages < 2)
    return loop.emitOpError("needs at least 2 pipeline stages, got ")
           << stages;
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<StagedTile> tiles;
  for (tile::LoadOp load : loads)
    tiles.push_back(
        allocateSlots(rewriter, loc, load, stages, sharedBase, sharedBytes));

  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value iv = loop.getInductionVar();
  Value lb = loop.getLowerBound(), step = loop.getStep();

  // Prologue: iterations 0 .. stages-2 go to slots 0 .. stages-2.
  for (int64_t j = 0; j + 1 < stages; ++j) {
    Value ivJ = rewriter.createOrFold<arith::AddIOp>(
        loc, lb, rewriter.createOrFold<arith::MulIOp>(loc, step, constant(j)));
    for (const StagedTile &t : tiles)
      t.copyInto(rewriter, loc, iv, ivJ, constant(j));
    tile::AsyncCommitOp::create(rewriter, loc);
  }

  // Steady state: wait for this iteration's slot, refill the slot of the
  // previous iteration (every thread is past it after the wait's barrier),
  // then read this iteration's tiles from workgroup memory.
  rewriter.setInsertionPointToStart(loop.getBody());
  Value iteration = rewriter.createOrFold<arith::DivUIOp>(
      loc, rewriter.createOrFold<arith::SubIOp>(loc, iv, lb), step);
  Value slot = rewriter.createOrFold<arith::RemUIOp>(loc, iteration,
                                                     constant(stages));
  tile::AsyncWaitOp::create(rewriter, loc, stages - 2);
  Value ahead = rewriter.createOrFold<arith::AddIOp>(
      loc, iv,
      rewriter.createOrFold<arith::MulIOp>(loc, step, constant(stages - 1)));
  Value aheadSlot = rewriter.createOrFold<arith::RemUIOp>(
      loc, rewriter.createOrFold<arith::AddIOp>(loc, iteration,
                                                constant(stages - 1)),
      constant(stages));
  for (const StagedTile &t : tiles)
    t.copyInto(rewriter, loc, iv, ahead, aheadSlot);
  tile::AsyncCommitOp::create(rewriter, loc);

  for (const StagedTile &t : tiles) {
    rewriter.setInsertionPoint(t.load);
    Value view = t.slotView(rewriter, loc, slot);
    Value zero = constant(0);
    rewriter.replaceOpWithNewOp<tile::LoadOp>(t.load, t.load.getType(), view,
                                              ValueRange{zero, zero},
                                              /*padding=*/nullptr);
  }

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
          promoteDotOperands(rewriter, loop, stages, base, sharedBytes);
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
