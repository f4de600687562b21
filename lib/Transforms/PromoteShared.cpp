//===- PromoteShared.cpp - Pipeline dot operands through shared memory ----===//
//
// Tensor-core and outer-product dots read each operand element many times;
// staging the operand tiles in workgroup memory makes those reads cheap, and
// copying several iterations ahead hides the latency of global memory.
//
//===----------------------------------------------------------------------===//

#include "BulkSource.h"
#include "DotLayout.h"
#include "TileLayout.h"
#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
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

/// Whether `load` pads with zeros, what an asynchronous copy fills in.
static bool padsWithZeros(tile::LoadOp load) {
  std::optional<TypedAttr> padding = load.getPadding();
  return !padding || matchPattern(*padding, m_Zero()) ||
         matchPattern(*padding, m_AnyZeroFloat());
}

/// Whether `index` is `loop`'s induction variable, or it plus or minus a
/// loop invariant (or a constant).
static bool followsInductionVar(scf::ForOp loop, Value index) {
  Value iv = loop.getInductionVar();
  if (index == iv)
    return true;
  Operation *def = index.getDefiningOp();
  if (!def || def->getBlock() != loop.getBody() ||
      !isa<arith::AddIOp, arith::SubIOp>(def))
    return false;
  Value lhs = def->getOperand(0), rhs = def->getOperand(1);
  if (isa<arith::AddIOp>(def) && rhs == iv)
    std::swap(lhs, rhs);
  return lhs == iv &&
         (loop.isDefinedOutsideOfLoop(rhs) || matchPattern(rhs, m_Constant()));
}

/// A load can be issued iterations ahead if its position depends on nothing
/// computed in the loop but the induction variable (plus or minus an
/// invariant, as attention reads the previous key block's values), and it
/// pads with zeros.
static bool canPipeline(scf::ForOp loop, tile::LoadOp load) {
  if (load->getBlock() != loop.getBody() ||
      !isGlobal(load.getBuffer().getType()) ||
      !loop.isDefinedOutsideOfLoop(load.getBuffer()) || !padsWithZeros(load))
    return false;
  return llvm::all_of(load.getIndices(), [&](Value index) {
    return loop.isDefinedOutsideOfLoop(index) ||
           followsInductionVar(loop, index);
  });
}

/// A tile loaded before the loop and read only by a dot in it (the query
/// block of attention): copied into workgroup memory once, before the
/// loop, so that the dot reads it from there on every iteration instead of
/// holding it in registers.
static bool isLoopInvariantOperand(scf::ForOp loop, tile::LoadOp load) {
  if (!load || loop->isAncestor(load) ||
      !isGlobal(load.getBuffer().getType()) || !padsWithZeros(load))
    return false;
  Operation *user = *load->getUsers().begin();
  return user->getBlock() == loop.getBody();
}

/// Whether a warpgroup dot in `loop` may stay in flight into the next
/// iteration: its result only goes round the loop into its own
/// accumulator, which nothing else reads before the next dot. (A dot whose
/// result is read in the loop, as attention rescales its accumulator, must
/// complete in its iteration.)
static bool canStayInFlight(scf::ForOp loop, tile::DotOp dot) {
  // An `overlap` dot completes before its first reader in the iteration.
  if (dot.getOverlap() || !dot->hasOneUse())
    return false;
  OpOperand &use = *dot->getUses().begin();
  if (use.getOwner() != loop.getBody()->getTerminator())
    return false;
  BlockArgument carried = loop.getRegionIterArg(use.getOperandNumber());
  return carried.hasOneUse() && dot.getAcc() == carried;
}

static bool anyDotStaysInFlight(scf::ForOp loop) {
  return llvm::any_of(loop.getBody()->getOps<tile::DotOp>(),
                      [&](tile::DotOp dot) { return canStayInFlight(loop, dot); });
}

namespace {
/// A load to stage, whether into swizzled panels, and whether once before
/// the loop (a loop-invariant operand) rather than in every stage.
struct PromotableLoad {
  tile::LoadOp load;
  bool swizzled;
  bool invariant = false;
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
    // Loop-invariant operands go to workgroup memory only for warpgroup
    // MMAs, which read them there at no cost in registers or issue slots.
    bool lhsInvariant = !lhsOk && isLoopInvariantOperand(loop, lhs);
    bool rhsInvariant = !rhsOk && isLoopInvariantOperand(loop, rhs);
    bool swizzled = false;
    if (swizzle && lhs != rhs && (lhsOk || rhsOk)) {
      if ((lhsOk || lhsInvariant) && (rhsOk || rhsInvariant) &&
          fitsWarpgroupMma(dot, threads))
        swizzled = true;
      // An lhs left where it is (computed in the loop, or loaded outside
      // it) is read from registers, by wgmma's register-A form.
      else if (!lhsOk && rhsOk &&
               fitsWarpgroupMma(dot, threads, /*lhsInRegisters=*/true))
        swizzled = true, lhsInvariant = false;
    }
    lhsInvariant &= swizzled;
    rhsInvariant &= swizzled;
    for (auto [operand, ok, invariant] :
         {std::tuple{lhs, lhsOk, lhsInvariant},
          std::tuple{rhs, rhsOk, rhsInvariant}}) {
      tile::LoadOp load = operand; // a plain variable: lambdas capture it
      if ((ok || invariant) && llvm::none_of(loads, [&](const PromotableLoad &p) {
            return p.load == load;
          }))
        loads.push_back({load, swizzled, invariant});
    }
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
  /// Copied once before the loop into its single slot.
  bool invariant = false;

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

  /// Where a swizzled slot places the tile: Hopper's 128-byte swizzle.
  tilegpu::SharedLayoutAttr placement() const {
    if (!swizzled)
      return nullptr;
    return tilegpu::SharedLayoutAttr::get128ByteSwizzle(
        load.getContext(), load.getType().getElementType());
  }

  /// Starts copying the tile the load reads when the induction variable is
  /// `iv` into slot `slot`: by the threads, or, given `barriers`, as a bulk
  /// copy completing on barrier `slot`.
  void copyInto(OpBuilder &b, Location loc, Value inductionVar, Value iv,
                Value slot, Value barriers = nullptr,
                bool multicast = false) const {
    SmallVector<Value> indices;
    IRMapping atIteration;
    if (inductionVar)
      atIteration.map(inductionVar, iv);
    for (Value index : load.getIndices()) {
      // The induction variable plus or minus an invariant: recomputed from
      // `iv` (see canPipeline).
      Operation *def = index.getDefiningOp();
      if (inductionVar && def &&
          llvm::is_contained(def->getOperands(), inductionVar)) {
        // Its constant may sit in the loop body: copy it too.
        for (Value operand : def->getOperands())
          if (Operation *constant = operand.getDefiningOp();
              constant && constant->hasTrait<OpTrait::ConstantLike>())
            atIteration.map(operand, b.clone(*constant)->getResult(0));
        index = b.clone(*def, atIteration)->getResult(0);
      }
      indices.push_back(atIteration.lookupOrDefault(index));
    }
    if (barriers) {
      // canBulkCopy checked that there is a source.
      BulkSource source = *bulkSource(load.getBuffer());
      IntegerAttr rowsDim;
      if (!source.offsets.empty()) {
        indices = bulkSourceIndices(b, loc, source, indices[0], indices[1]);
        if (source.rowsDim + 2 != indices.size())
          rowsDim = b.getI64IntegerAttr(source.rowsDim);
      }
      auto copy = tilegpu::CopyBulkOp::create(b, loc, source.arg, indices,
                                              slotView(b, loc, slot), barriers,
                                              slot, placement(), rowsDim);
      if (multicast && load->hasAttr(kClusterSharedAttr))
        copy.setMulticast(true);
      else if (load->hasAttr(kFitRowsAttr))
        copy.setFitRows(true);
      return;
    }
    tilegpu::CopyAsyncOp::create(b, loc, load.getBuffer(), indices,
                                 slotView(b, loc, slot),
                                 /*vector_bytes=*/nullptr, placement());
  }

  /// Reads slot `slot` as the tile `load` read.
  Value read(OpBuilder &b, Location loc, Value slot) const {
    Value view = slotView(b, loc, slot);
    if (swizzled) {
      RankedTensorType type = load.getType();
      return tile::LoadOp::create(
          b, loc,
          RankedTensorType::get(type.getShape(), type.getElementType(),
                                placement()),
          view, ValueRange{});
    }
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return tile::LoadOp::create(b, loc, load.getType(), view,
                                ValueRange{zero, zero});
  }
};

/// Replaces `load` by `read` of its slot. A read of a placed tile carries
/// the placement on its type, and so do the transposes of it.
void replaceByRead(RewriterBase &rewriter, tile::LoadOp load, Value read) {
  rewriter.replaceOp(load, read);
  auto placement = dyn_cast_or_null<tile::SharedEncodingAttrInterface>(
      cast<RankedTensorType>(read.getType()).getEncoding());
  if (!placement)
    return;
  for (Operation *user : read.getUsers())
    if (auto transpose = dyn_cast<tile::TransposeOp>(user)) {
      RankedTensorType type = transpose.getType();
      rewriter.modifyOpInPlace(transpose, [&] {
        transpose.getResult().setType(
            RankedTensorType::get(type.getShape(), type.getElementType(),
                                  placement.getTransposed()));
      });
    }
}

/// The slot shape of `type`'s tile: padded rows, or 128-byte panels.
SmallVector<int64_t> slotShape(RankedTensorType type, bool swizzled) {
  unsigned elementBytes = type.getElementTypeBitWidth() / 8;
  if (swizzled)
    return tilegpu::SharedLayoutAttr::get128ByteSwizzle(type.getContext(),
                                                        type.getElementType())
        .getBufferShape(type.getShape());
  return {type.getDimSize(0),
          type.getDimSize(1) +
              std::max<int64_t>(kRowPaddingBytes / elementBytes, 1)};
}

/// Carves the slots of `load` out of the dynamic shared memory at `base`;
/// swizzled slots start at `alignedShift` plus a multiple of the swizzle
/// atom, padded ones at `alignedShift` (when there is one) plus a multiple
/// of kSlotAlignment.
StagedTile allocateSlots(OpBuilder &b, Location loc, PromotableLoad toStage,
                         int64_t stages, Value base, Value alignedShift,
                         int64_t &sharedBytes) {
  RankedTensorType type = toStage.load.getType();
  unsigned elementBytes = type.getElementTypeBitWidth() / 8;
  SmallVector<int64_t> shape = {toStage.invariant ? 1 : stages};
  llvm::append_range(shape, slotShape(type, toStage.swizzled));
  auto slotsType = MemRefType::get(
      shape, type.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  int64_t offset = llvm::alignTo(
      sharedBytes, toStage.swizzled ? kSwizzleAtomBytes : kSlotAlignment);
  sharedBytes = offset + slotsType.getNumElements() * elementBytes;
  Value byteShift = arith::ConstantIndexOp::create(b, loc, offset);
  // Padded slots move with the shift too: they may follow swizzled ones,
  // which the shift moves over their start.
  if (alignedShift)
    byteShift = arith::AddIOp::create(b, loc, byteShift, alignedShift);
  Value slots =
      memref::ViewOp::create(b, loc, slotsType, base, byteShift, ValueRange{});
  return {toStage.load, slots, toStage.swizzled, toStage.invariant};
}

/// Bulk copies fill whole swizzled panels from buffers the runtime
/// describes: every load staged each iteration must be of that kind (the
/// loop-invariant ones are copied once by the threads).
bool canBulkCopy(ArrayRef<PromotableLoad> loads) {
  bool anyPipelined = false;
  for (const PromotableLoad &p : loads) {
    tile::LoadOp load = p.load;
    if (!p.swizzled || (!p.invariant && !bulkSource(load.getBuffer())))
      return false;
    anyPipelined |= !p.invariant;
  }
  return anyPipelined;
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

namespace {
/// The room that `allocateAll` keeps for the run-time alignment shift of
/// swizzled slots: the slots fill [start + shift, start + shift + bytes),
/// the room [start, start + bytes + kSwizzleAtomBytes).
struct ShiftRoom {
  Value shift;
  int64_t start = 0, bytes = 0;
};

/// The slots of every load in `loads` (`stages` each), carved from
/// `sharedBytes` on, and the room kept for the alignment shift when any is
/// swizzled.
struct Slots {
  SmallVector<StagedTile> tiles;
  std::optional<ShiftRoom> room;
};

Slots allocateAll(OpBuilder &b, Location loc, ArrayRef<PromotableLoad> loads,
                  int64_t stages, Value sharedBase, int64_t &sharedBytes) {
  Slots slots;
  bool anySwizzled =
      llvm::any_of(loads, [](const PromotableLoad &p) { return p.swizzled; });
  Value alignedShift;
  if (anySwizzled)
    alignedShift = atomAlignmentShift(b, loc, sharedBase);
  int64_t start = llvm::alignTo(sharedBytes, kSwizzleAtomBytes);
  for (const PromotableLoad &load : loads)
    slots.tiles.push_back(allocateSlots(b, loc, load, stages, sharedBase,
                                        alignedShift, sharedBytes));
  if (!alignedShift)
    return slots;
  // Padded slots may start before the first swizzle atom: only slots all
  // swizzled leave the room's ends known to be free.
  if (llvm::all_of(loads, [](const PromotableLoad &p) { return p.swizzled; }))
    slots.room = ShiftRoom{alignedShift, start, sharedBytes - start};
  sharedBytes += kSwizzleAtomBytes;
  return slots;
}

/// Carves `rows` rows of one 8-byte transaction barrier per stage out of
/// the dynamic shared memory at `base`. Next to slots that keep a room for
/// the alignment shift (`room`, when nothing was carved after it), the
/// barriers take the room's unused part instead of new bytes: after the
/// slots when the shift leaves enough there, else before them, where the
/// shift is then at least as large. This is what lets a block of Q and
/// three stages of K and V (d = 128, blocks of 64 keys) run two a
/// multiprocessor: 113 KiB, without 24 bytes more.
SmallVector<Value> allocateBarriers(OpBuilder &b, Location loc, int64_t rows,
                                    int64_t stages, Value base,
                                    const std::optional<ShiftRoom> &room,
                                    int64_t &sharedBytes) {
  auto type = MemRefType::get(
      {stages}, b.getI64Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  int64_t bytes = rows * stages * 8;
  Value first;
  if (room && 2 * bytes <= kSwizzleAtomBytes && room->bytes % 8 == 0 &&
      sharedBytes == room->start + room->bytes + kSwizzleAtomBytes) {
    Value after = arith::AddIOp::create(b, loc, c(room->start + room->bytes),
                                        room->shift);
    Value fitsAfter = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule,
        arith::AddIOp::create(b, loc, room->shift, c(bytes)),
        c(kSwizzleAtomBytes));
    first = arith::SelectOp::create(b, loc, fitsAfter, after, c(room->start));
  } else {
    int64_t offset = llvm::alignTo(sharedBytes, 8);
    sharedBytes = offset + bytes;
    first = c(offset);
  }
  SmallVector<Value> barriers;
  for (int64_t row = 0; row < rows; ++row)
    barriers.push_back(memref::ViewOp::create(
        b, loc, type, base,
        b.createOrFold<arith::AddIOp>(loc, first, c(row * stages * 8)),
        ValueRange{}));
  return barriers;
}

/// The loop being pipelined, its staged tiles and the index arithmetic both
/// pipelines share.
struct Pipeline {
  mutable scf::ForOp loop;
  SmallVector<StagedTile> tiles;
  int64_t stages;

  Value constant(OpBuilder &b, int64_t v) const {
    return arith::ConstantIndexOp::create(b, loop.getLoc(), v);
  }
  /// The induction variable of iteration `iteration + ahead`.
  Value ivAhead(OpBuilder &b, Value iv, int64_t ahead) const {
    Location loc = loop.getLoc();
    return b.createOrFold<arith::AddIOp>(
        loc, iv,
        b.createOrFold<arith::MulIOp>(loc, loop.getStep(), constant(b, ahead)));
  }
  /// The number of the current iteration, from 0.
  Value iteration(OpBuilder &b) const {
    Location loc = loop.getLoc();
    return b.createOrFold<arith::DivUIOp>(
        loc,
        b.createOrFold<arith::SubIOp>(loc, loop.getInductionVar(),
                                      loop.getLowerBound()),
        loop.getStep());
  }
  /// The slot of iteration `iteration + ahead`.
  Value slot(OpBuilder &b, Value iteration, int64_t ahead) const {
    Location loc = loop.getLoc();
    // One op a statement: the IR must not depend on the C++ compiler's
    // order of evaluating arguments.
    Value slots = constant(b, stages);
    Value sum = b.createOrFold<arith::AddIOp>(loc, iteration, constant(b, ahead));
    return b.createOrFold<arith::RemUIOp>(loc, sum, slots);
  }
  /// Copies every tile of iteration `iv` into `slot` (bulk copies on
  /// `barriers` if given; `multicast`: those of tiles a cluster shares are
  /// multicast).
  void copyAll(OpBuilder &b, Value iv, Value slot, Value barriers = nullptr,
               bool multicast = false) const {
    for (const StagedTile &t : tiles)
      if (!t.invariant)
        t.copyInto(b, loop.getLoc(), loop.getInductionVar(), iv, slot,
                   barriers, multicast);
  }
  /// Copies the loop-invariant tiles (into their slot 0).
  void copyInvariants(OpBuilder &b) const {
    for (const StagedTile &t : tiles)
      if (t.invariant)
        t.copyInto(b, loop.getLoc(), loop.getInductionVar(),
                   loop.getInductionVar(), constant(b, 0));
  }
  /// Replaces the staged loads by reads of this iteration's slot (a
  /// loop-invariant tile: of its slot, in the loop, where its user is).
  void readSlots(RewriterBase &rewriter, Value slot) const {
    for (const StagedTile &t : tiles) {
      if (t.invariant) {
        rewriter.setInsertionPoint(*t.load->getUsers().begin());
        replaceByRead(rewriter, t.load,
                      t.read(rewriter, loop.getLoc(), constant(rewriter, 0)));
        continue;
      }
      rewriter.setInsertionPoint(t.load);
      replaceByRead(rewriter, t.load, t.read(rewriter, loop.getLoc(), slot));
    }
  }
  /// Whether a warpgroup dot of the loop stays in flight into the next
  /// iteration, holding its slots one iteration longer.
  bool keepsDotsInFlight() const {
    return llvm::any_of(tiles,
                        [](const StagedTile &t) { return t.swizzled; }) &&
           anyDotStaysInFlight(loop);
  }
  void markDotsInFlight(RewriterBase &rewriter) const {
    for (tile::DotOp dot : loop.getBody()->getOps<tile::DotOp>())
      if (canStayInFlight(loop, dot))
        dot->setAttr(kDotInFlightAttr, rewriter.getI64IntegerAttr(1));
  }
};

/// Copies by the threads (cp.async groups): each iteration waits for its
/// own group, and the barrier in that wait frees the slot copies refill.
LogicalResult pipelineThreadCopies(RewriterBase &rewriter,
                                   const Pipeline &p) {
  Location loc = p.loop.getLoc();
  // A dot on swizzled panels (warpgroup MMA) stays in flight for one more
  // iteration, so its slot is not free until two iterations later: copies
  // run one stage less ahead, and are issued after the dot so that their
  // address arithmetic overlaps the tensor cores.
  bool dotInFlight = p.keepsDotsInFlight();
  int64_t distance = dotInFlight ? p.stages - 2 : p.stages - 1;
  if (distance < 1)
    return p.loop.emitOpError("needs at least ")
           << (dotInFlight ? 3 : 2)
           << " pipeline stages to keep a warpgroup dot in flight, got "
           << p.stages;

  // Prologue: the loop-invariant tiles, then iterations 0 .. distance-1
  // into slots 0 .. distance-1; the invariants are in the first group.
  p.copyInvariants(rewriter);
  for (int64_t j = 0; j < distance; ++j) {
    p.copyAll(rewriter, p.ivAhead(rewriter, p.loop.getLowerBound(), j),
              p.constant(rewriter, j));
    tilegpu::AsyncCommitOp::create(rewriter, loc);
  }

  // Steady state: wait for this iteration's slot, refill the slot freed
  // `stages - distance` iterations ago (every thread is past its reads
  // after the wait's barrier), and read this iteration's tiles from
  // workgroup memory.
  rewriter.setInsertionPointToStart(p.loop.getBody());
  Value iteration = p.iteration(rewriter);
  Value slot = p.slot(rewriter, iteration, 0);
  tilegpu::AsyncWaitOp::create(rewriter, loc, distance - 1);
  if (dotInFlight)
    rewriter.setInsertionPoint(p.loop.getBody()->getTerminator());
  p.copyAll(rewriter, p.ivAhead(rewriter, p.loop.getInductionVar(), distance),
            p.slot(rewriter, iteration, distance));
  tilegpu::AsyncCommitOp::create(rewriter, loc);
  p.readSlots(rewriter, slot);
  if (dotInFlight)
    p.markDotsInFlight(rewriter);

  // Copies still in flight past the last iteration must land before the
  // kernel ends or reuses the memory.
  rewriter.setInsertionPointAfter(p.loop);
  tilegpu::AsyncWaitOp::create(rewriter, loc, 0);
  return success();
}

/// Bulk copies (TMA): slot s has barrier s, which completes a phase when
/// all of the slot's tiles have landed; the n-th use of a slot waits for
/// phase parity n mod 2. Copies run `stages - 1` ahead, each refilling the
/// slot of the iteration before once every thread is past it: where a
/// warpgroup dot stays in flight, after this iteration's dot (which
/// completes the previous one's); otherwise first thing in the iteration,
/// so that the copy overlaps all of its work (with two stages, the only
/// overlap there is). Every thread being past a slot is a block barrier,
/// or, given `empty` barriers (one arrival a warp), each warp's release
/// of the slot, for which only the thread issuing the copies waits: the
/// other warps go on, so one warpgroup need not wait for another at every
/// iteration. Only copies of iterations that exist are issued, so none is
/// in flight when the loop ends; the barriers are retired after it.
void pipelineBulkCopies(RewriterBase &rewriter, const Pipeline &p,
                        Value full, Value empty, int64_t threads) {
  Location loc = p.loop.getLoc();
  // One arrival per tile copied each iteration.
  tilegpu::BarrierInitOp::create(
      rewriter, loc, full,
      llvm::count_if(p.tiles, [](const StagedTile &t) { return !t.invariant; }));
  if (empty)
    tilegpu::BarrierInitOp::create(rewriter, loc, empty, threads / 32);
  auto copyIfInRange = [&](Value iv, Value slot) {
    Value inRange = rewriter.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::slt, iv, p.loop.getUpperBound());
    auto guarded = scf::IfOp::create(rewriter, loc, inRange);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(guarded.thenBlock());
    p.copyAll(rewriter, iv, slot, full);
  };
  int64_t distance = p.stages - 1;
  for (int64_t j = 0; j < distance; ++j)
    copyIfInRange(p.ivAhead(rewriter, p.loop.getLowerBound(), j),
                  p.constant(rewriter, j));
  // Loop-invariant tiles (attention's Q) by the threads, while the first
  // bulk copies are in flight; the wait's barrier publishes them.
  if (llvm::any_of(p.tiles, [](const StagedTile &t) { return t.invariant; })) {
    p.copyInvariants(rewriter);
    tilegpu::AsyncCommitOp::create(rewriter, loc);
    tilegpu::AsyncWaitOp::create(rewriter, loc, 0);
  }

  rewriter.setInsertionPointToStart(p.loop.getBody());
  Value iteration = p.iteration(rewriter);
  Value slot = p.slot(rewriter, iteration, 0);
  Value phase = rewriter.createOrFold<arith::DivUIOp>(
      loc, iteration, p.constant(rewriter, p.stages));
  auto refill = [&] {
    if (!empty)
      gpu::BarrierOp::create(rewriter, loc);
    // The slot `distance` iterations ahead is the previous iteration's.
    Value refilled = p.slot(rewriter, iteration, distance);
    if (empty) {
      // Iteration 0's slot ahead was never used: nothing to release.
      Value used = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ne, iteration,
                                         p.constant(rewriter, 0));
      auto release = scf::IfOp::create(rewriter, loc, used);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(release.thenBlock());
      tilegpu::BarrierArriveOp::create(rewriter, loc, empty, refilled,
                                       /*warp=*/true, /*cluster=*/false);
      Value previous = rewriter.createOrFold<arith::SubIOp>(
          loc, iteration, p.constant(rewriter, 1));
      Value previousUse = rewriter.createOrFold<arith::DivUIOp>(
          loc, previous, p.constant(rewriter, p.stages));
      tilegpu::BarrierWaitOp::create(rewriter, loc, empty, refilled,
                                     previousUse, /*issuer=*/true);
    }
    copyIfInRange(p.ivAhead(rewriter, p.loop.getInductionVar(), distance),
                  refilled);
  };
  bool dotInFlight = anyDotStaysInFlight(p.loop);
  if (!dotInFlight)
    refill();
  tilegpu::BarrierWaitOp::create(rewriter, loc, full, slot, phase);
  if (dotInFlight) {
    rewriter.setInsertionPoint(p.loop.getBody()->getTerminator());
    refill();
  }
  p.readSlots(rewriter, slot);
  p.markDotsInFlight(rewriter);

  // The memory may then hold a later loop's slots and barriers, or
  // workgroup buffers (tile-reuse-staged-memory).
  rewriter.setInsertionPointAfter(p.loop);
  tilegpu::BarrierInvalOp::create(rewriter, loc, full);
  if (empty)
    tilegpu::BarrierInvalOp::create(rewriter, loc, empty);
}

/// The persistent loop over tiles directly holding `loop` in the kernel's
/// body, if any.
scf::ForOp persistentTiles(scf::ForOp loop) {
  auto tiles = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (tiles && tiles->hasAttr(kPersistentTilesAttr) &&
      isa<gpu::GPUFuncOp>(tiles->getParentOp()))
    return tiles;
  return nullptr;
}

/// The test directly in the kernel's body whose then-block holds `loop`
/// (a program that may have no work: an attention key chunk past the
/// keys, a packed sequence shorter than the block), if any: an scf.if
/// without results or else-block.
scf::IfOp programGuard(scf::ForOp loop) {
  auto guard = dyn_cast<scf::IfOp>(loop->getParentOp());
  if (guard && guard.getNumResults() == 0 && guard.getElseRegion().empty() &&
      isa<gpu::GPUFuncOp>(guard->getParentOp()))
    return guard;
  return nullptr;
}

/// The op directly in the kernel's body that holds `loop` and that a
/// producer warp repeats around its copies: the persistent loop over
/// tiles, or the program's guard; null when the loop is itself directly in
/// the kernel's body.
Operation *producerContainer(scf::ForOp loop) {
  if (scf::ForOp tiles = persistentTiles(loop))
    return tiles;
  return programGuard(loop);
}

/// Whether the producer clones `op` of a tile's body (buildProducer,
/// promoteProducerGroup): index arithmetic and views, no tiles, no memory
/// effects, no regions.
bool producerClones(Operation *op) {
  bool tileFree = llvm::none_of(op->getResultTypes(), [](Type type) {
    return isa<RankedTensorType>(type);
  });
  return tileFree && isMemoryEffectFree(op) && op->getNumRegions() == 0;
}

/// Whether the producer can compute `value` outside the tile threads'
/// region: defined outside `container` (the loop over tiles or the guard
/// holding the loops, if any), the induction variable of a loop over
/// tiles, or by ops of the container's body it clones, from such values.
bool producerCanCompute(Value value, Operation *container) {
  if (!container)
    return true;
  Block *body = &container->getRegion(0).front();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto tiles = dyn_cast<scf::ForOp>(container);
    return arg.getOwner() != body || (tiles && arg == tiles.getInductionVar());
  }
  Operation *def = value.getDefiningOp();
  if (def->getBlock() != body)
    return !container->isAncestor(def);
  return producerClones(def) &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return producerCanCompute(operand, container);
         });
}

/// Clones into the producer, at the rewriter's insertion point, the ops of
/// `container`'s body before `loop` that it can compute: the index
/// arithmetic and views the copies of a tile (or of a guarded program)
/// take. An op reading a tile or memory stays with the tile threads, and
/// so does any op computed from it.
void cloneContainerArithmetic(RewriterBase &rewriter, Operation *container,
                              scf::ForOp loop, IRMapping &cloned) {
  Block &body = container->getRegion(0).front();
  for (Operation &op : llvm::make_range(body.begin(), loop->getIterator()))
    if (producerClones(&op) &&
        llvm::all_of(op.getOperands(), [&](Value operand) {
          return producerCanCompute(operand, container);
        }))
      rewriter.clone(op, cloned);
}

/// The op a producer warp would take a lone loop's copies from
/// (pipelineWithProducer): the loop itself when it is directly in the
/// kernel's body, or the persistent loop over tiles holding it there; null
/// when the loop does not ask for a producer or sits elsewhere (the tile
/// threads must take the root and everything after it). A program's guard
/// is a container for producer groups only (producerContainer): no lone
/// loop sits in one yet.
scf::ForOp producerRoot(scf::ForOp loop) {
  if (!loop->hasAttr(kProducerWarpAttr))
    return nullptr;
  if (isa<gpu::GPUFuncOp>(loop->getParentOp()))
    return loop;
  return persistentTiles(loop);
}

/// Whether a producer warp can feed the bulk pipeline of `loads`: every
/// tile is copied each iteration (loop-invariant tiles are copied by the
/// threads, which then must all meet).
bool producerCanFeed(ArrayRef<PromotableLoad> loads) {
  return llvm::none_of(loads,
                       [](const PromotableLoad &p) { return p.invariant; });
}

/// Moves `loop` and everything after it in its block (bar the terminator)
/// into `consumers`, then the tiles defined before `roles` that only the
/// moved ops use: the producer warp computes no tiles.
void moveIntoConsumers(Operation *loop, tilegpu::WarpRolesOp roles,
                       Block *consumers) {
  Block *body = loop->getBlock();
  for (Operation &op : llvm::make_early_inc_range(
           llvm::make_range(loop->getIterator(),
                            body->getTerminator()->getIterator())))
    op.moveBefore(consumers, consumers->end());
  Region &region = roles.getConsumers();
  // Latest first, so that a tile's users have moved before it is looked at.
  SmallVector<Operation *> before;
  for (Operation &op : llvm::make_range(body->begin(), roles->getIterator()))
    before.push_back(&op);
  for (Operation *op : llvm::reverse(before)) {
    bool tile = llvm::any_of(op->getResultTypes(), [](Type type) {
      return isa<RankedTensorType>(type);
    });
    bool onlyConsumersUse = llvm::all_of(op->getUsers(), [&](Operation *user) {
      return region.isAncestor(user->getParentRegion());
    });
    if (tile && onlyConsumersUse)
      op->moveBefore(consumers, consumers->begin());
  }
}

/// The number of `loop`'s current iteration counted over all the tiles of
/// a persistent kernel (`tiles`, may be null): the tiles before this one
/// (their induction variable `tile`) each took as many iterations.
Value globalIteration(OpBuilder &b, Location loc, scf::ForOp tiles,
                      Value tile, Value lb, Value ub, Value step, Value iv) {
  Value iteration = b.createOrFold<arith::DivUIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, iv, lb), step);
  if (!tiles)
    return iteration;
  Value done = b.createOrFold<arith::DivUIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, tile, tiles.getLowerBound()),
      tiles.getStep());
  Value perTile = b.createOrFold<arith::CeilDivUIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, ub, lb), step);
  return b.createOrFold<arith::AddIOp>(
      loc, b.createOrFold<arith::MulIOp>(loc, done, perTile), iteration);
}

/// The producer's side of iteration `iteration` (counted over everything
/// the ring served before), at induction variable `iv`: from the second use
/// of its slot on, waits for the tile threads' release of the use before
/// (the slot's (iteration / stages - 1)-th phase: parity of
/// iteration / stages + 1), then copies the iteration's tiles into it.
void produceIteration(RewriterBase &rewriter, const Pipeline &p, Value iv,
                      Value iteration, Value full, Value empty,
                      bool multicast) {
  Location loc = p.loop.getLoc();
  Value use = rewriter.createOrFold<arith::DivUIOp>(
      loc, iteration, p.constant(rewriter, p.stages));
  Value slot = p.slot(rewriter, iteration, 0);
  Value reused = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                       iteration,
                                       p.constant(rewriter, p.stages));
  auto wait = scf::IfOp::create(rewriter, loc, reused);
  rewriter.setInsertionPointToStart(wait.thenBlock());
  tilegpu::BarrierWaitOp::create(
      rewriter, loc, empty, slot,
      arith::AddIOp::create(rewriter, loc, use, p.constant(rewriter, 1)));
  rewriter.setInsertionPointAfter(wait);
  p.copyAll(rewriter, iv, slot, full, multicast);
}

/// The tile threads' side of `p.loop`'s current iteration (`iteration`,
/// counted over everything the ring served before), built at the start of
/// its body: waits on the slot's "full" barrier, reads the tiles there and
/// releases a slot on the "empty" barrier once the dots have read it: the
/// previous iteration's after this one's dot where a dot stays in flight
/// (the one before it completed, at the first of a tile or loop, by the
/// wait after its loop), else its own at the end.
void consumeIteration(RewriterBase &rewriter, const Pipeline &p,
                      Value iteration, Value full, Value empty,
                      bool dotInFlight, bool cluster) {
  Location loc = p.loop.getLoc();
  Value slot = p.slot(rewriter, iteration, 0);
  tilegpu::BarrierWaitOp::create(
      rewriter, loc, full, slot,
      rewriter.createOrFold<arith::DivUIOp>(loc, iteration,
                                            p.constant(rewriter, p.stages)));
  p.readSlots(rewriter, slot);
  p.markDotsInFlight(rewriter);
  rewriter.setInsertionPoint(p.loop.getBody()->getTerminator());
  if (!dotInFlight) {
    tilegpu::BarrierArriveOp::create(rewriter, loc, empty, slot,
                                     /*warp=*/true, cluster);
    return;
  }
  Value notFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                         iteration, p.constant(rewriter, 0));
  auto release = scf::IfOp::create(rewriter, loc, notFirst);
  rewriter.setInsertionPointToStart(release.thenBlock());
  tilegpu::BarrierArriveOp::create(rewriter, loc, empty,
                                   p.slot(rewriter, iteration, p.stages - 1),
                                   /*warp=*/true, cluster);
}

/// The producer's loops in `producer`: the tiles of `tiles` (if any), with
/// each tile's index arithmetic (the tile-free, side-effect-free ops before
/// the loop in the tile's body) cloned, and in each the loop's iterations,
/// where iteration i waits for the release of iteration i - stages (the
/// slot's (i / stages - 1)-th phase: parity of i / stages + 1) and issues
/// the copies into its slot.
void buildProducer(RewriterBase &rewriter, const Pipeline &p,
                   scf::ForOp tiles, Block *producer, Value full, Value empty,
                   bool multicast) {
  Location loc = p.loop.getLoc();
  rewriter.setInsertionPointToStart(producer);
  IRMapping cloned;
  Value tile;
  if (tiles) {
    auto walk = scf::ForOp::create(rewriter, loc, tiles.getLowerBound(),
                                   tiles.getUpperBound(), tiles.getStep());
    rewriter.setInsertionPoint(walk.getBody()->getTerminator());
    tile = walk.getInductionVar();
    cloned.map(tiles.getInductionVar(), tile);
    cloneContainerArithmetic(rewriter, tiles, p.loop, cloned);
  }
  Value lb = cloned.lookupOrDefault(p.loop.getLowerBound());
  Value ub = cloned.lookupOrDefault(p.loop.getUpperBound());
  Value step = cloned.lookupOrDefault(p.loop.getStep());
  auto fill = scf::ForOp::create(rewriter, loc, lb, ub, step);
  rewriter.setInsertionPoint(fill.getBody()->getTerminator());
  Value iv = fill.getInductionVar();
  produceIteration(rewriter, p, iv,
                   globalIteration(rewriter, loc, tiles, tile, lb, ub, step, iv),
                   full, empty, multicast);
  // The copies' indices were the tile's: use the producer's clones.
  fill.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands())
      if (Value mapped = cloned.lookupOrNull(operand.get()))
        operand.set(mapped);
  });
}

/// The tile threads' side of the loop (now in the consumers region), its
/// iterations counted over all of a persistent kernel's tiles.
void buildConsumerLoop(RewriterBase &rewriter, const Pipeline &p,
                       scf::ForOp tiles, Value full, Value empty,
                       bool dotInFlight, bool cluster) {
  rewriter.setInsertionPointToStart(p.loop.getBody());
  Value iteration = globalIteration(
      rewriter, p.loop.getLoc(), tiles,
      tiles ? tiles.getInductionVar() : Value(), p.loop.getLowerBound(),
      p.loop.getUpperBound(), p.loop.getStep(), p.loop.getInductionVar());
  consumeIteration(rewriter, p, iteration, full, empty, dotInFlight, cluster);
}

/// Has `groups` groups of tile threads take alternate tiles of the walk
/// `tiles` (in the consumers): group g the tiles g, g + groups, ... of the
/// block's, each taking its turn at `loop` (the MMAs) so that one group's
/// epilogue runs while the next's MMAs do. The producer walks every tile in
/// order, and each iteration's slot and phase are counted over all tiles
/// (globalIteration, computed before this from the whole walk), so a group
/// reads the slots filled for its tiles. A group passes the turn after
/// its loop, whose last dots have completed then (the wait after the
/// loop): the slot that the next group's first iteration releases is free,
/// and every earlier iteration's slot has filled, so no slot's barrier is
/// two phases ahead of a waiting group. (Passing once the last dots were
/// issued, each group releasing its own last slot after the wait, ran
/// 0.74x the time of this on the H200: bench/matmul/results/
/// 2026-11-30-h200-pingpong.)
void takeAlternateTiles(RewriterBase &rewriter, scf::ForOp loop,
                        scf::ForOp tiles, int64_t groups) {
  Location loc = tiles.getLoc();
  rewriter.setInsertionPoint(tiles);
  Value lb = tiles.getLowerBound(), ub = tiles.getUpperBound(),
        step = tiles.getStep();
  Value group = tilegpu::GroupIdOp::create(rewriter, loc);
  Value offset = arith::MulIOp::create(rewriter, loc, group, step);
  Value first = arith::AddIOp::create(rewriter, loc, lb, offset);
  Value groupsValue = arith::ConstantIndexOp::create(rewriter, loc, groups);
  Value stride = arith::MulIOp::create(rewriter, loc, step, groupsValue);
  // The walk's tiles, each a turn: the group after the last takes back the
  // turn it passed.
  Value span = arith::SubIOp::create(rewriter, loc, ub, lb);
  Value walkTiles = arith::CeilDivSIOp::create(rewriter, loc, span, step);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value turns = arith::MaxSIOp::create(rewriter, loc, walkTiles, zero);
  tilegpu::TurnOp::create(rewriter, loc, tilegpu::TurnStep::open, Value());
  rewriter.modifyOpInPlace(tiles, [&] {
    tiles.getLowerBoundMutable().assign(first);
    tiles.getStepMutable().assign(stride);
  });
  rewriter.setInsertionPointAfter(tiles);
  tilegpu::TurnOp::create(rewriter, loc, tilegpu::TurnStep::close, turns);
  rewriter.setInsertionPoint(loop);
  tilegpu::TurnOp::create(rewriter, loc, tilegpu::TurnStep::take, Value());
  rewriter.setInsertionPointAfter(loop);
  tilegpu::TurnOp::create(rewriter, loc, tilegpu::TurnStep::pass, Value());
}

/// Bulk copies issued by a producer warp (tilegpu.warp_roles): the tile
/// threads run `root` (the loop, or the persistent loop over tiles holding
/// it) and everything after it, the producer the same iterations (of every
/// tile), so no block barrier remains in the loop, the copies run as far
/// ahead as the slots allow, and the next tile's first copies overlap this
/// tile's store. Iterations are counted over all tiles, so slots and phases
/// go on from one tile to the next. One arrival per warp of tile threads
/// (of every block of a cluster) releases a slot: one a thread made 512
/// arrivals a slot in clusters of two, half of them remote. Where the loop
/// asks for groups (kConsumerGroupsAttr) in a persistent kernel, that many
/// groups of tile threads take alternate tiles (takeAlternateTiles).
void pipelineWithProducer(RewriterBase &rewriter, const Pipeline &p,
                          scf::ForOp root, Value full, Value empty,
                          int64_t threads) {
  Location loc = p.loop.getLoc();
  scf::ForOp tiles = root == p.loop ? scf::ForOp() : root;
  // In a thread-block cluster, a slot is filled by every block's producer
  // (multicast), so every block's tile threads release it.
  int64_t clusterBlocks = 1;
  if (auto cluster = root->getParentOfType<gpu::GPUFuncOp>()
                         ->getAttrOfType<IntegerAttr>(tile::kClusterAttrName))
    clusterBlocks = cluster.getInt();
  bool cluster = clusterBlocks > 1;
  tilegpu::BarrierInitOp::create(rewriter, loc, full, p.tiles.size());
  tilegpu::BarrierInitOp::create(rewriter, loc, empty,
                                 threads / 32 * clusterBlocks);
  // No block copies into, or arrives on, another's barriers before they
  // are ready.
  if (cluster)
    tilegpu::ClusterSyncOp::create(rewriter, loc);
  int64_t groups = 1;
  if (auto attr = p.loop->getAttrOfType<IntegerAttr>(kConsumerGroupsAttr);
      attr && tiles)
    groups = attr.getInt();
  auto roles = tilegpu::WarpRolesOp::create(
      rewriter, loc,
      p.loop->getAttrOfType<DenseI32ArrayAttr>(kProducerRegistersAttr),
      groups > 1 ? rewriter.getI64IntegerAttr(groups) : IntegerAttr());
  Block *producer = rewriter.createBlock(&roles.getProducer());
  Block *consumers = rewriter.createBlock(&roles.getConsumers());
  buildProducer(rewriter, p, tiles, producer, full, empty, cluster);
  moveIntoConsumers(root, roles, consumers);
  buildConsumerLoop(rewriter, p, tiles, full, empty,
                    anyDotStaysInFlight(p.loop), cluster);
  if (groups > 1)
    takeAlternateTiles(rewriter, p.loop, tiles, groups);
  // Nor leaves while another may still copy into, or arrive on, its own.
  if (cluster) {
    rewriter.setInsertionPointAfter(roles);
    tilegpu::ClusterSyncOp::create(rewriter, loc);
  }
}

/// Whether `value` is there before `first`, in the function's body: the
/// producer warp reads it outside the consumers' region.
bool availableBefore(Value value, Operation *first) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner() == first->getBlock() ||
           arg.getOwner()->getParentOp()->isProperAncestor(first);
  Operation *def = value.getDefiningOp();
  if (def->getBlock() == first->getBlock())
    return def->isBeforeInBlock(first);
  return def->getParentRegion()->isProperAncestor(first->getParentRegion());
}

/// Whether the producer warp can compute where `load` reads at any
/// iteration of `loop` from values there before `first`: each index is
/// one, a constant, or an op of the induction variable and such values
/// (which StagedTile::copyInto clones), and the bulk copy's source offsets
/// are too. In a `container` (a persistent loop over tiles, a guard), the
/// values of its body must be ones the producer clones.
bool producerCanAddress(scf::ForOp loop, tile::LoadOp load, Operation *first,
                        Operation *container) {
  auto ready = [&](Value v) {
    if (v == loop.getInductionVar())
      return true;
    if (availableBefore(v, first))
      return producerCanCompute(v, container);
    Operation *def = v.getDefiningOp();
    return def && def->hasTrait<OpTrait::ConstantLike>();
  };
  for (Value index : load.getIndices()) {
    if (ready(index))
      continue;
    Operation *def = index.getDefiningOp();
    if (!def || !llvm::is_contained(def->getOperands(), loop.getInductionVar()) ||
        !llvm::all_of(def->getOperands(), ready))
      return false;
  }
  std::optional<BulkSource> source = bulkSource(load.getBuffer());
  return source && llvm::all_of(source->offsets, [&](OpFoldResult offset) {
           auto value = dyn_cast<Value>(offset);
           return !value || ready(value);
         });
}

/// Whether `bound` is a constant in `first`'s block (promoteProducerGroup
/// moves it before `first`).
bool isConstantBound(Value bound, Operation *first) {
  Operation *def = bound.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>() &&
         def->getBlock() == first->getBlock();
}

/// The loads a loop of a producer group stages.
struct GroupLoop {
  scf::ForOp loop;
  SmallVector<PromotableLoad> loads;
};

/// Whether `a` and `b` read the same tile: same buffer, indices and type.
bool sameTile(tile::LoadOp a, tile::LoadOp b) {
  // (By value: the accessors are not const.)
  return a.getBuffer() == b.getBuffer() && a.getIndices() == b.getIndices() &&
         a.getType() == b.getType();
}

/// The loops that ask for a producer warp (an attention's key loops:
/// unmasked, then masked), in the kernel's body or in one container there
/// (a persistent loop over tiles, the program's guard), when one ring of
/// slots can serve them all: every loop's bulk-copied tiles are the same
/// shapes in the same order, and the bounds and addresses of every copy are
/// known before the first loop. Empty otherwise.
SmallVector<GroupLoop> producerGroup(ArrayRef<scf::ForOp> loops, bool swizzle,
                                     int64_t threads, int64_t stages) {
  SmallVector<GroupLoop> group;
  if (loops.empty())
    return {};
  Operation *first = loops.front();
  Operation *container = producerContainer(loops.front());
  for (scf::ForOp loop : loops) {
    if (!loop->hasAttr(kProducerWarpAttr) ||
        loop->getBlock() != first->getBlock() ||
        !(isa<gpu::GPUFuncOp>(loop->getParentOp()) ||
          (container && loop->getParentOp() == container)))
      return {};
    auto attr = loop->getAttrOfType<IntegerAttr>("tile.stages");
    if (!attr || attr.getInt() != stages)
      return {};
    SmallVector<PromotableLoad> loads = promotableLoads(loop, swizzle, threads);
    if (!canBulkCopy(loads))
      return {};
    for (Value bound :
         {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if ((!availableBefore(bound, first) && !isConstantBound(bound, first)) ||
          !producerCanCompute(bound, container))
        return {};
    for (const PromotableLoad &p : loads)
      if (!p.invariant && !producerCanAddress(loop, p.load, first, container))
        return {};
    group.push_back({loop, std::move(loads)});
  }
  auto pipelined = [](const GroupLoop &g) {
    SmallVector<RankedTensorType> types;
    for (PromotableLoad p : g.loads)
      if (!p.invariant)
        types.push_back(p.load.getType());
    return types;
  };
  for (const GroupLoop &g : group)
    if (pipelined(g) != pipelined(group.front()))
      return {};
  // One loop with nothing but pipelined tiles: pipelineWithProducer's.
  if (group.size() == 1 && producerCanFeed(group.front().loads))
    return {};
  return group;
}

/// Where each of `pipelines`' loops starts in the ring of slots: `base`,
/// then after the iterations of the loops before it (one more entry with
/// `withEnd`: where the next tile starts), their bounds through `map` (the
/// producer's clones of a tile's values).
SmallVector<Value> ringStarts(OpBuilder &b, Location loc,
                              ArrayRef<Pipeline> pipelines, Value base,
                              const IRMapping &map, bool withEnd) {
  SmallVector<Value> starts = {base};
  ArrayRef<Pipeline> before = withEnd ? pipelines : pipelines.drop_back();
  for (const Pipeline &p : before) {
    Value lb = map.lookupOrDefault(p.loop.getLowerBound());
    Value ub = map.lookupOrDefault(p.loop.getUpperBound());
    Value step = map.lookupOrDefault(p.loop.getStep());
    Value runs =
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, lb, ub);
    Value trips = b.createOrFold<arith::CeilDivUIOp>(
        loc, b.createOrFold<arith::SubIOp>(loc, ub, lb), step);
    Value none = arith::ConstantIndexOp::create(b, loc, 0);
    Value count = b.createOrFold<arith::SelectOp>(loc, runs, trips, none);
    starts.push_back(b.createOrFold<arith::AddIOp>(loc, starts.back(), count));
  }
  return starts;
}

/// The ring position of iteration `iv` of a loop from `lb` by `step` that
/// starts at `start`.
Value ringPosition(OpBuilder &b, Location loc, Value start, Value lb,
                   Value step, Value iv) {
  Value local = b.createOrFold<arith::DivUIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, iv, lb), step);
  return b.createOrFold<arith::AddIOp>(loc, start, local);
}

/// Stages the tiles of `group`'s loops in one ring of `stages` slots that a
/// producer warp fills (tilegpu.warp_roles), as pipelineWithProducer does
/// for one loop: iterations are counted over the loops one after the other,
/// so slots and phases go on from one loop to the next and no block barrier
/// separates them. Loop-invariant tiles (attention's Q) are copied by the
/// tile threads before their loop (once, where an earlier loop staged the
/// same tile). In a persistent loop over tiles, the producer walks the
/// tiles too, and both sides carry the ring position from one tile to the
/// next (the tiles' loops may take different numbers of iterations), so
/// the producer copies the next tile's first keys while the tile threads
/// finish this one. Returns the number of tiles staged.
unsigned promoteProducerGroup(RewriterBase &rewriter,
                              ArrayRef<GroupLoop> group, int64_t stages,
                              Value sharedBase, int64_t &sharedBytes,
                              int64_t threads) {
  scf::ForOp firstLoop = group.front().loop;
  Operation *container = producerContainer(firstLoop);
  auto tiles = dyn_cast_or_null<scf::ForOp>(container);
  auto guard = dyn_cast_or_null<scf::IfOp>(container);
  Operation *root = container ? container : firstLoop.getOperation();
  Location loc = firstLoop.getLoc();
  // The producer walks every loop's iterations: their constant bounds must
  // be there before it.
  for (GroupLoop g : group)
    for (Value bound : {g.loop.getLowerBound(), g.loop.getUpperBound(),
                        g.loop.getStep()})
      if (!availableBefore(bound, firstLoop))
        rewriter.moveOpBefore(bound.getDefiningOp(), firstLoop);
  rewriter.setInsertionPoint(root);
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };

  // Slots: the first loop's tiles; later loops share its pipelined slots,
  // and its (or an earlier loop's) invariant slots where they read the same
  // tile.
  Slots slots = allocateAll(rewriter, loc, group.front().loads, stages,
                            sharedBase, sharedBytes);
  Value alignedShift = slots.room ? slots.room->shift
                                  : atomAlignmentShift(rewriter, loc, sharedBase);
  SmallVector<Pipeline> pipelines;
  SmallVector<StagedTile> copiedInvariants;
  DenseSet<Operation *> reusedInvariants;
  unsigned staged = slots.tiles.size();
  pipelines.push_back({firstLoop, slots.tiles, stages});
  for (const GroupLoop &g : group.drop_front()) {
    SmallVector<StagedTile> tiles;
    auto pipelinedSlots = llvm::make_filter_range(
        slots.tiles, [](const StagedTile &t) { return !t.invariant; });
    auto next = pipelinedSlots.begin();
    for (const PromotableLoad &p : g.loads) {
      if (!p.invariant) {
        tiles.push_back({p.load, (next++)->slots, p.swizzled, false});
        continue;
      }
      const StagedTile *earlier = nullptr;
      for (const StagedTile &t : slots.tiles)
        if (t.invariant && sameTile(t.load, p.load))
          earlier = &t;
      for (const StagedTile &t : copiedInvariants)
        if (sameTile(t.load, p.load))
          earlier = &t;
      if (earlier) {
        tiles.push_back({p.load, earlier->slots, p.swizzled, true});
        reusedInvariants.insert(p.load);
        continue;
      }
      StagedTile fresh = allocateSlots(rewriter, loc, p, stages, sharedBase,
                                       alignedShift, sharedBytes);
      copiedInvariants.push_back(fresh);
      tiles.push_back(fresh);
      ++staged;
    }
    pipelines.push_back({g.loop, std::move(tiles), stages});
  }
  SmallVector<Value> barriers = allocateBarriers(
      rewriter, loc, 2, stages, sharedBase, std::nullopt, sharedBytes);
  Value full = barriers[0], empty = barriers[1];

  // Each loop's first iteration counted over the loops before it (and, per
  // tile, over the tiles before it; in a container, computed on each side
  // from the container's values).
  IRMapping identity;
  SmallVector<Value> starts;
  if (!container)
    starts = ringStarts(rewriter, loc, pipelines, c(0), identity,
                        /*withEnd=*/false);

  int64_t pipelinedTiles = llvm::count_if(
      pipelines.front().tiles, [](const StagedTile &t) { return !t.invariant; });
  tilegpu::BarrierInitOp::create(rewriter, loc, full, pipelinedTiles);
  tilegpu::BarrierInitOp::create(rewriter, loc, empty, threads / 32);
  auto roles = tilegpu::WarpRolesOp::create(
      rewriter, loc,
      firstLoop->getAttrOfType<DenseI32ArrayAttr>(kProducerRegistersAttr),
      /*groups=*/nullptr);
  Block *producer = rewriter.createBlock(&roles.getProducer());
  Block *consumers = rewriter.createBlock(&roles.getConsumers());

  // The producer: every loop's iterations, each waiting for its slot's
  // release by the tile threads stages iterations before, then copying;
  // in a persistent kernel, for every tile, with the tile's index
  // arithmetic cloned.
  rewriter.setInsertionPointToStart(producer);
  IRMapping cloned;
  SmallVector<Value> producerStarts = starts;
  scf::ForOp walk;
  if (tiles) {
    walk = scf::ForOp::create(
        rewriter, loc, tiles.getLowerBound(), tiles.getUpperBound(),
        tiles.getStep(), ValueRange{c(0)},
        [](OpBuilder &b, Location l, Value, ValueRange ringBase) {
          scf::YieldOp::create(b, l, ringBase);
        });
    // The tiles loop's annotations (kept from hoisting) hold for the walk.
    walk->setDiscardableAttrs(tiles->getDiscardableAttrDictionary());
    rewriter.setInsertionPoint(walk.getBody()->getTerminator());
    cloned.map(tiles.getInductionVar(), walk.getInductionVar());
    cloneContainerArithmetic(rewriter, tiles, firstLoop, cloned);
    producerStarts = ringStarts(rewriter, loc, pipelines,
                                walk.getRegionIterArgs().front(), cloned,
                                /*withEnd=*/true);
  } else if (guard) {
    // The producer copies only for a program that has work, with the
    // guard's index arithmetic cloned.
    auto guarded = scf::IfOp::create(rewriter, loc, guard.getCondition(),
                                     /*withElseRegion=*/false);
    rewriter.setInsertionPoint(guarded.thenBlock()->getTerminator());
    cloneContainerArithmetic(rewriter, guard, firstLoop, cloned);
    producerStarts = ringStarts(rewriter, loc, pipelines, c(0), cloned,
                                /*withEnd=*/false);
  }
  for (auto [i, p] : llvm::enumerate(pipelines)) {
    Value lb = cloned.lookupOrDefault(p.loop.getLowerBound());
    Value step = cloned.lookupOrDefault(p.loop.getStep());
    auto fill = scf::ForOp::create(
        rewriter, loc, lb, cloned.lookupOrDefault(p.loop.getUpperBound()),
        step);
    rewriter.setInsertionPoint(fill.getBody()->getTerminator());
    Value iv = fill.getInductionVar();
    produceIteration(
        rewriter, p, iv,
        ringPosition(rewriter, loc, producerStarts[i], lb, step, iv), full,
        empty, /*multicast=*/false);
    rewriter.setInsertionPointAfter(fill);
    // The copies' indices were the tile's: use the producer's clones.
    fill.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands())
        if (Value mapped = cloned.lookupOrNull(operand.get()))
          operand.set(mapped);
    });
  }
  if (walk)
    walk.getBody()->getTerminator()->setOperand(0, producerStarts.back());

  // The tile threads: the loops (or the loop over tiles) and all after
  // them.
  moveIntoConsumers(root, roles, consumers);
  // Constants the copies' indices took from the loops' bodies.
  producer->walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      if (def && def->hasTrait<OpTrait::ConstantLike>() &&
          !roles.getProducer().isAncestor(def->getParentRegion()) &&
          !availableBefore(operand.get(), roles)) {
        OpBuilder at(op);
        operand.set(at.clone(*def)->getResult(0));
      }
    }
  });
  if (tiles) {
    // The tile threads carry the ring position from tile to tile too.
    rewriter.setInsertionPoint(tiles);
    Value zero = c(0);
    DictionaryAttr annotations = tiles->getDiscardableAttrDictionary();
    auto carried = cast<scf::ForOp>(*tiles.replaceWithAdditionalYields(
        rewriter, ValueRange{zero}, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> ringBase) {
          return SmallVector<Value>{ringBase.front()};
        }));
    carried->setDiscardableAttrs(annotations);
    rewriter.setInsertionPoint(firstLoop);
    starts = ringStarts(rewriter, loc, pipelines,
                        carried.getRegionIterArgs().back(), identity,
                        /*withEnd=*/true);
    Operation *yield = carried.getBody()->getTerminator();
    yield->setOperand(yield->getNumOperands() - 1, starts.back());
  } else if (guard) {
    rewriter.setInsertionPoint(firstLoop);
    starts = ringStarts(rewriter, loc, pipelines, c(0), identity,
                        /*withEnd=*/false);
  }
  for (auto [i, p] : llvm::enumerate(pipelines)) {
    scf::ForOp loop = p.loop;
    // Invariant tiles by the threads, published to all of them by the
    // wait's barrier (over the tile threads alone, tile-map-warps). The
    // next tile's copies wait first for every tile thread to be done with
    // this tile's.
    bool copies = false;
    rewriter.setInsertionPoint(loop);
    for (const StagedTile &t : p.tiles)
      if (t.invariant && !reusedInvariants.contains(t.load)) {
        if (tiles && !copies)
          tilegpu::AsyncWaitOp::create(rewriter, loc, 0);
        t.copyInto(rewriter, loc, loop.getInductionVar(),
                   loop.getInductionVar(), c(0));
        copies = true;
      }
    if (copies) {
      tilegpu::AsyncCommitOp::create(rewriter, loc);
      tilegpu::AsyncWaitOp::create(rewriter, loc, 0);
    }
    rewriter.setInsertionPointToStart(loop.getBody());
    consumeIteration(rewriter, p,
                     ringPosition(rewriter, loc, starts[i],
                                  loop.getLowerBound(), loop.getStep(),
                                  loop.getInductionVar()),
                     full, empty, anyDotStaysInFlight(loop), /*cluster=*/false);
  }
  return staged;
}
} // namespace

FailureOr<unsigned>
tilec::promoteDotOperands(RewriterBase &rewriter, scf::ForOp loop,
                          int64_t stages, Value sharedBase,
                          int64_t &sharedBytes, bool swizzle,
                          int64_t threads, bool bulkCopies) {
  SmallVector<PromotableLoad> loads =
      promotableLoads(loop, swizzle && stages >= 2, threads);
  if (loads.empty())
    return 0u;
  if (stages < 2)
    return loop.emitOpError("needs at least 2 pipeline stages, got ")
           << stages;
  bulkCopies = bulkCopies && canBulkCopy(loads);
  // A warpgroup dot in flight needs a third slot when threads copy; with
  // two, stay padded.
  if (!bulkCopies && stages < 3 && anyDotStaysInFlight(loop))
    loads = promotableLoads(loop, /*swizzle=*/false, threads);
  Location loc = loop.getLoc();
  // A producer takes the copies of the loop, or of the loop over tiles
  // holding it, from the kernel's body: set up before that.
  scf::ForOp root = bulkCopies && producerCanFeed(loads)
                        ? producerRoot(loop)
                        : scf::ForOp();
  rewriter.setInsertionPoint(root ? root : loop);
  Slots slots =
      allocateAll(rewriter, loc, loads, stages, sharedBase, sharedBytes);
  Pipeline pipeline{loop, std::move(slots.tiles), stages};

  if (bulkCopies) {
    // A second row of barriers, the slots' "empty" ones, for a producer,
    // or for tile threads of several warpgroups, which release slots
    // instead of meeting at a block barrier each iteration (one warpgroup
    // keeps the barrier: the releases cost attention d64 5-11% on the
    // H200, and gained d128's two warpgroups 0-5%).
    bool releaseSlots = root || threads > kWarpgroupThreads;
    SmallVector<Value> barriers =
        allocateBarriers(rewriter, loc, releaseSlots ? 2 : 1, stages,
                         sharedBase, slots.room, sharedBytes);
    if (root)
      pipelineWithProducer(rewriter, pipeline, root, barriers[0], barriers[1],
                           threads);
    else
      pipelineBulkCopies(rewriter, pipeline, barriers[0],
                         releaseSlots ? barriers[1] : Value(), threads);
  } else if (failed(pipelineThreadCopies(rewriter, pipeline))) {
    return failure();
  }
  return static_cast<unsigned>(pipeline.tiles.size());
}

/// A dot outside any loop whose lhs is computed in registers and whose rhs
/// is a load of global memory (the last P V of pipelined attention): the
/// rhs to stage, swizzled when the dot fits warpgroup MMA as in a loop.
/// (Other dots outside loops keep their operands where they are.)
static std::optional<PromotableLoad>
straightLineLoad(tile::DotOp dot, bool swizzle, int64_t threads) {
  auto loop = dot->getParentOfType<scf::ForOp>();
  if ((loop && !(loop->hasAttr(kPersistentTilesAttr) &&
                 loop->getParentOfType<scf::ForOp>() == nullptr)) ||
      operandLoad(dot.getLhs()))
    return std::nullopt;
  tile::LoadOp rhs = operandLoad(dot.getRhs());
  if (!rhs || !isGlobal(rhs.getBuffer().getType()) || !padsWithZeros(rhs))
    return std::nullopt;
  bool swizzled =
      swizzle && fitsWarpgroupMma(dot, threads, /*lhsInRegisters=*/true);
  return PromotableLoad{rhs, swizzled, /*invariant=*/true};
}

FailureOr<unsigned> tilec::promoteStraightLineDot(RewriterBase &rewriter,
                                                  tile::DotOp dot,
                                                  Value sharedBase,
                                                  int64_t &sharedBytes,
                                                  bool swizzle,
                                                  int64_t threads) {
  std::optional<PromotableLoad> load = straightLineLoad(dot, swizzle, threads);
  if (!load)
    return 0u;
  Location loc = dot.getLoc();
  rewriter.setInsertionPoint(dot);
  StagedTile staged =
      allocateAll(rewriter, loc, *load, /*stages=*/1, sharedBase, sharedBytes)
          .tiles.front();
  Value slot = arith::ConstantIndexOp::create(rewriter, loc, 0);
  staged.copyInto(rewriter, loc, Value(), Value(), slot);
  tilegpu::AsyncCommitOp::create(rewriter, loc);
  tilegpu::AsyncWaitOp::create(rewriter, loc, 0);
  replaceByRead(rewriter, staged.load, staged.read(rewriter, loc, slot));
  return 1u;
}

/// The pipeline depth of `loop`.
static int64_t loopStages(scf::ForOp loop, int64_t defaultStages) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>("tile.stages"))
    return attr.getInt();
  return defaultStages;
}

/// 0 where the block size is unknown or unusable (tile-map-warps reports
/// it).
static int64_t knownThreads(gpu::GPUFuncOp func) {
  return layoutThreads(func).value_or(0);
}

bool tilec::stagesWithBulkCopies(gpu::GPUFuncOp kernel,
                                 int64_t defaultStages) {
  int64_t threads = knownThreads(kernel);
  WalkResult found = kernel.walk([&](scf::ForOp loop) {
    if (loopStages(loop, defaultStages) < 2)
      return WalkResult::advance();
    SmallVector<PromotableLoad> loads =
        promotableLoads(loop, /*swizzle=*/true, threads);
    return !loads.empty() && canBulkCopy(loads) ? WalkResult::interrupt()
                                                : WalkResult::advance();
  });
  return found.wasInterrupted();
}

namespace {
/// Stages `stagings` (loops and dots outside loops, in program order) with
/// one producer warp when they are a producer group's loops followed only
/// by dots outside loops (pipelined attention's last P V), which the tile
/// threads then stage in bytes of their own; the tiles staged, or nothing
/// (and no change) otherwise.
std::optional<unsigned> promoteWithProducerGroup(RewriterBase &rewriter,
                                                 ArrayRef<Operation *> stagings,
                                                 Value base,
                                                 int64_t &sharedBytes,
                                                 int64_t threads) {
  SmallVector<scf::ForOp> loops;
  for (Operation *op : stagings) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      break;
    loops.push_back(loop);
  }
  ArrayRef<Operation *> trailing = stagings.drop_front(loops.size());
  if (loops.empty() ||
      !llvm::all_of(trailing, [](Operation *op) { return isa<tile::DotOp>(op); }))
    return std::nullopt;
  int64_t stages = loopStages(loops.front(), /*defaultStages=*/0);
  if (stages < 2)
    return std::nullopt;
  SmallVector<GroupLoop> group =
      producerGroup(loops, /*swizzle=*/true, threads, stages);
  if (group.empty())
    return std::nullopt;
  unsigned staged =
      promoteProducerGroup(rewriter, group, stages, base, sharedBytes, threads);
  for (Operation *op : trailing) {
    FailureOr<unsigned> promoted = promoteStraightLineDot(
        rewriter, cast<tile::DotOp>(op), base, sharedBytes, /*swizzle=*/true,
        threads);
    staged += succeeded(promoted) ? *promoted : 0;
  }
  return staged;
}
} // namespace

namespace {
struct TilePromoteSharedPass
    : tilec::impl::TilePromoteSharedBase<TilePromoteSharedPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    int64_t threads = knownThreads(func);
    // Loops with dots, and dots outside loops, in program order.
    SmallVector<Operation *> stagings;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto loop = dyn_cast<scf::ForOp>(op);
          loop && !promotableLoads(loop).empty())
        stagings.push_back(loop);
      if (auto dot = dyn_cast<tile::DotOp>(op);
          dot && straightLineLoad(dot, swizzle, threads))
        stagings.push_back(dot);
    });
    if (stagings.empty())
      return;

    IRRewriter rewriter(&getContext());
    rewriter.setInsertionPointToStart(&func.getBody().front());
    auto workgroup = gpu::AddressSpaceAttr::get(&getContext(),
                                                gpu::AddressSpace::Workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(
        rewriter, func.getLoc(),
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup));
    int64_t firstFree = 0;
    if (auto existing =
            func->getAttrOfType<IntegerAttr>(tile::kDynamicSharedBytesAttrName))
      firstFree = existing.getInt();
    // Loops (and dots outside loops) that run one after the other (neither
    // inside the other) reuse the same memory; a block barrier before the
    // later one's first copies waits for every thread's last reads of the
    // earlier one.
    struct Region {
      Operation *op;
      int64_t begin, end;
    };
    // Key loops that one producer warp can feed from one ring of slots.
    if (swizzle && bulkCopies && !func->hasAttr(kNoBulkCopiesAttr)) {
      int64_t sharedBytes = firstFree;
      if (std::optional<unsigned> staged = promoteWithProducerGroup(
              rewriter, stagings, base, sharedBytes, threads)) {
        numPromotedTiles += *staged;
        numSharedBytes = sharedBytes;
        func->setAttr(tile::kDynamicSharedBytesAttrName,
                      rewriter.getI64IntegerAttr(sharedBytes));
        return;
      }
    }
    SmallVector<Region> regions;
    int64_t totalBytes = firstFree;
    for (Operation *op : stagings) {
      auto nested = [&](const Region &r) {
        return r.op->isAncestor(op) || op->isAncestor(r.op);
      };
      int64_t begin = firstFree;
      for (const Region &r : regions)
        if (nested(r))
          begin = std::max(begin, r.end);
      if (llvm::any_of(regions, [&](const Region &r) {
            return !nested(r) && r.end > begin;
          })) {
        rewriter.setInsertionPoint(op);
        gpu::BarrierOp::create(rewriter, op->getLoc());
      }
      int64_t sharedBytes = begin;
      FailureOr<unsigned> promoted;
      if (auto loop = dyn_cast<scf::ForOp>(op))
        promoted = promoteDotOperands(
            rewriter, loop, loopStages(loop, defaultStages), base,
            sharedBytes, swizzle, threads,
            bulkCopies && !func->hasAttr(kNoBulkCopiesAttr));
      else
        promoted = promoteStraightLineDot(rewriter, cast<tile::DotOp>(op),
                                          base, sharedBytes, swizzle, threads);
      if (failed(promoted))
        return signalPassFailure();
      numPromotedTiles += *promoted;
      regions.push_back({op, begin, sharedBytes});
      totalBytes = std::max(totalBytes, sharedBytes);
    }
    numSharedBytes = totalBytes;
    func->setAttr(tile::kDynamicSharedBytesAttrName,
                  rewriter.getI64IntegerAttr(totalBytes));
  }
};
} // namespace
