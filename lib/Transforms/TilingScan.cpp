//===- TilingScan.cpp - Scan descriptions -> block programs ---------------===//
//
// A 1-D scan is a single pass over many programs: each takes a ticket
// (tilegpu.ticket), reads its piece of elements a sub-piece at a time for
// their totals, and the decoupled look-back (tilegpu.lookback) combines the
// totals of the pieces before it into a carry that goes in front of the
// sub-pieces' block scans (tile.prefix) on the second read
// (tile-stage-windows keeps the piece in workgroup memory in between). A row
// scan is one program per row that walks the row piece by piece, carrying the
// combination of the pieces before; a column scan is one program per strip
// of columns that walks down them the same way. Reverse scans take their
// pieces from the end. A kind scans 16-bit floats in f32 and rounds once
// per output; a region combines them as they are.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tilec;

/// Elements of a row one program scans at a time, and its warps: 4 f32 a
/// thread, one 16-byte access each.
/// The schedule when the description gives no hints: a row piece of 4 f32
/// a thread (rows are often short); a register-held single-pass piece of 32
/// a thread on 4 warps (regions, and scans of more than kStagedMaxOperands
/// operands), the fastest of 14 schedules at 2^24 and 2^28 f32 on the H200
/// (bench/scan/results/2026-11-21-h200-lookback-sweep).
static constexpr int64_t kRowPiece = 1024;
static constexpr int64_t kRowWarps = 8;
static constexpr int64_t kLookbackPiece = 4096;
static constexpr int64_t kLookbackWarps = 4;
/// Blocks of the register-held single pass an SM (over one 32-bit operand):
/// ptxas's own choice (80 registers) fits 6; capping at 72 for 7 was 4.6%
/// faster at 2^28 f32 on the H200, 64 for 8 (with spills) 4% slower
/// (bench/scan/results/2026-11-22-h200-occupancy).
static constexpr int64_t kLookbackBlocksPerSm = 7;
/// The staged single pass (kind scans of at most two operands, without
/// hints) keeps its piece in workgroup memory between its two reads
/// (tile-stage-windows) and reads it a sub-piece at a time (of each
/// operand; two operands share the piece, half each). Against the register-held
/// piece of 4096 at 7 programs an SM, 3072/512 ran f32 sums 1.08-1.10x faster
/// at 2^28 on the H200 (bench/scan/results/2026-11-29-h200-staged). Of six
/// pieces swept five rounds in one call (bench/results/2026-11-30-h200-start),
/// 1-D scans run fastest at 6144/1024 (24 KB: 9 programs an SM): against
/// 3072/512, f32 sums 4-5% faster at 2^28, bf16 ones 1.23x, 2^20 ones
/// 1.1-1.3x, 2^24 ones level; split rows keep 3072/512, 2-4% faster at
/// 16x1000003.
struct StagedPiece {
  int64_t piece;
  int64_t subPiece;
};
static constexpr StagedPiece kStagedVectorPiece = {6144, 1024};
static constexpr StagedPiece kStagedRowPiece = {3072, 512};
static constexpr int64_t kStagedMaxOperands = 2;
/// Caps a staged pass over one 32-bit operand at 32 registers a thread:
/// 16 programs an SM were measured with 3072-element pieces; at 6144 the
/// workgroup memory allows 9, and letting ptxas take 55-62 registers (8 an
/// SM asked) ran 0-2% slower.
static constexpr int64_t kStagedBlocksPerSm = 16;
/// The single passes' scratch buffers (`tile.scratch` mode 3): zero-filled
/// when the runtime allocates them, then kept usable by the kernel (the last
/// ticket resets the count and advances the epoch that tags each status),
/// so a launch pays for no zero-fill.
static constexpr int64_t kScratchEpochs = 3;
/// Row scans with fewer rows than this percentage of the multiprocessors
/// split their rows over several programs.
static constexpr int64_t kSplitRowsPercentOfSms = 100;
/// Rows of at most 4096 elements go whole to a program, several when they
/// are short, in tiles of 4096 / n elements for n operands on 4 warps (as
/// the single pass), rows padded to the next of these widths: each at
/// least half used (rows of 1 or 2 a quarter or a half: a thread's chunk
/// holds 4 elements). Against the one-program-per-row loop on the H200:
/// 65536x1024 3931 GB/s (loop 3580), 4096x4096 3297 (3042), 65536x700
/// 3450 (2689) (bench/scan/results/2026-11-22-h200-rows-ladder).
static constexpr int64_t kShortRowsPiece = 4096;
static constexpr int64_t kShortRowsWarps = 4;
static constexpr int64_t kShortRowWidths[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

namespace {
struct ScanSchedule {
  int64_t piece, warps;
};
} // namespace

/// Without hints, a single pass over n operands scans 4096 / n elements
/// (rounded down to a power of two) a program, so that a thread holds about
/// as many registers' worth as for one operand.
static ScanSchedule scheduleFor(tile::ScanOp op, bool isRow) {
  int64_t piece = isRow ? kRowPiece
                        : kLookbackPiece / llvm::bit_ceil(op.getNumScanned());
  int64_t warps = isRow ? kRowWarps : kLookbackWarps;
  piece = std::max<int64_t>(piece, 4 * 32 * warps);
  return {static_cast<int64_t>(op.getBlock().value_or(piece)),
          static_cast<int64_t>(op.getWarps().value_or(warps))};
}

/// What the scan of one operand carries through the row loop.
namespace {
struct ScannedOperand {
  Value input, output;
  Type elementType, accType;
};
} // namespace

/// f32 for 16-bit floats (their adds accumulate in f32), else the type.
static Type scanAccumulatorType(Type elementType) {
  if (isa<FloatType>(elementType) && elementType.getIntOrFloatBitWidth() < 32)
    return Float32Type::get(elementType.getContext());
  return elementType;
}

/// The piece of `operand` at (row, col), in the accumulator type, padded
/// with a kind's identity so that padding changes no total. Padding only
/// ever follows the elements in scan order (the end of the last piece), so
/// a region's scan of them does not see it, and zero does.
static Value loadPiece(OpBuilder &b, Location loc, const ScannedOperand &s,
                       std::optional<tile::ReduceKind> kind,
                       ValueRange indices, RankedTensorType pieceType) {
  auto stored = RankedTensorType::get(pieceType.getShape(), s.elementType);
  TypedAttr padding = kind ? tile::getIdentity(*kind, s.elementType)
                           : b.getZeroAttr(s.elementType);
  Value piece =
      tile::LoadOp::create(b, loc, stored, s.input, indices, padding);
  if (s.accType != s.elementType)
    piece = arith::ExtFOp::create(b, loc, pieceType, piece);
  return piece;
}

static RankedTensorType pieceTypeFor(const ScannedOperand &s, bool isRow,
                                     int64_t elements) {
  return isRow ? RankedTensorType::get({1, elements}, s.accType)
               : RankedTensorType::get({elements}, s.accType);
}

/// Gives an op of the scan family the description's combiner region, if
/// it has one (a kind is an attribute, already copied).
static void copyCombiner(tile::ScanOp op, Region &into) {
  IRMapping mapping;
  op.getCombiner().cloneInto(&into, mapping);
}

/// The block-level scan of loaded pieces, one per operand: their scans,
/// then their totals.
static tile::PrefixOp blockScan(OpBuilder &b, Location loc, tile::ScanOp op,
                                ValueRange pieces) {
  auto kind = op.getKindAttr();
  auto prefix = tile::PrefixOp::create(
      b, loc, kind, pieces, op.getAlong(),
      op.getMode() == tile::ScanMode::exclusive, op.getReverse(),
      op.getIdentityAttr());
  copyCombiner(op, prefix.getCombiner());
  return prefix;
}

static tile::TupleCombiner combinerOf(tile::ScanOp op) {
  return tile::TupleCombiner(op.getKind(), op.getCombiner());
}

/// The combination of all of the piece's elements (a 1-element tile for a
/// row piece).
static Value pieceTotal(OpBuilder &b, Location loc, tile::ReduceKind kind,
                        Value elements) {
  auto type = cast<RankedTensorType>(elements.getType());
  bool isRow = type.getRank() == 2;
  Type totalType = isRow ? Type(RankedTensorType::get({1}, type.getElementType()))
                         : type.getElementType();
  return tile::ReduceOp::create(b, loc, totalType, kind, elements,
                                type.getRank() - 1);
}

/// `carry . values` for tiles of one shape, where `carries` are scalars or
/// tiles without the scan's `axis` (a row's 1-element total, a piece of
/// columns' totals), broadcast along it; or for scalars (totals of 1-D
/// pieces). A kind's first carry is its identity; a region has none, so
/// where `isFirst` holds the values stay.
static SmallVector<Value> carryInto(OpBuilder &b, Location loc,
                                    const tile::TupleCombiner &combiner,
                                    int64_t axis, ValueRange carries,
                                    ValueRange values, Value isFirst) {
  SmallVector<Value> carried;
  for (auto [carry, value] : llvm::zip(carries, values)) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || carry.getType() == value.getType())
      carried.push_back(carry);
    else if (isa<RankedTensorType>(carry.getType()))
      carried.push_back(tile::BroadcastOp::create(b, loc, type, carry,
                                                  ArrayRef<int64_t>{axis}));
    else
      carried.push_back(tile::SplatOp::create(b, loc, type, carry));
  }
  SmallVector<Value> combined = combiner.combine(b, loc, carried, values);
  if (combiner.getKind())
    return combined;
  for (auto [result, value] : llvm::zip(combined, values))
    result = arith::SelectOp::create(b, loc, isFirst, value, result);
  return combined;
}

/// Whether this is the first piece of its scan (`position` 0), for
/// carryInto: only a region needs to know.
static Value firstPieceFlag(OpBuilder &b, Location loc, tile::ScanOp op,
                            Value position) {
  if (op.getKind())
    return Value();
  return b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::eq, position,
      arith::ConstantIndexOp::create(b, loc, 0));
}

/// Stores a scanned piece (in the accumulator type) at `indices`.
static void storePiece(OpBuilder &b, Location loc, const ScannedOperand &s,
                       Value result, ValueRange indices) {
  auto type = cast<RankedTensorType>(result.getType());
  if (s.accType != s.elementType)
    result = arith::TruncFOp::create(
        b, loc, RankedTensorType::get(type.getShape(), s.elementType), result);
  tile::StoreOp::create(b, loc, result, s.output, indices);
}

/// Where the piece `offset` elements into the scan starts: a reverse scan
/// takes its pieces from the end, and its last piece starts before the
/// buffer (negative: loaded as padding, not stored).
static Value pieceStart(OpBuilder &b, Location loc, bool reverse,
                        Value length, Value offset, Value size) {
  if (!reverse)
    return offset;
  return b.createOrFold<arith::SubIOp>(
      loc, length, b.createOrFold<arith::AddIOp>(loc, offset, size));
}

/// The operands of `op` in the kernel `body` that replaces it.
static SmallVector<ScannedOperand> scannedOperands(tile::ScanOp op,
                                                   Block *body) {
  unsigned n = op.getNumScanned();
  SmallVector<ScannedOperand> scanned;
  for (unsigned i = 0; i < n; ++i) {
    ScannedOperand s{body->getArgument(i), body->getArgument(n + i),
                     op.getInputType(i).getElementType(), {}};
    // A region combines the elements' own types.
    s.accType =
        op.getKind() ? scanAccumulatorType(s.elementType) : s.elementType;
    scanned.push_back(s);
  }
  return scanned;
}

/// Where a single-pass program's piece lies: for a 1-D scan the ticket is
/// the piece; for a row scan split over several programs a row, then a
/// piece within it, and the look-back stays within the row's tickets.
namespace {
struct PiecePlacement {
  Value row;      // null for a 1-D scan
  Value position; // the piece's place in its segment of tickets
};
} // namespace

static PiecePlacement placePiece(OpBuilder &b, Location loc, Value ticket,
                                 bool isRow) {
  if (!isRow)
    return {Value(), ticket};
  Value piecesPerRow = tile::NumProgramsOp::create(
      b, loc, b.getIndexType(),
      tile::ProgramDimAttr::get(b.getContext(), tile::ProgramDim::x));
  return {b.createOrFold<arith::DivUIOp>(loc, ticket, piecesPerRow),
          b.createOrFold<arith::RemUIOp>(loc, ticket, piecesPerRow)};
}

/// A single pass over many programs (1-D, or rows split into pieces). Each
/// takes a ticket, scans its piece, and the decoupled look-back gives it the
/// combination of the pieces before it.
static void buildLookbackScanBody(OpBuilder &b, Location loc, tile::ScanOp op,
                                  int64_t pieceSize, Block *body) {
  SmallVector<ScannedOperand> scanned = scannedOperands(op, body);
  tile::TupleCombiner combiner = combinerOf(op);
  bool isRow = op.getInputType(0).getRank() == 2;
  Value scratch = body->getArguments().back();
  auto ticketOp = tilegpu::TicketOp::create(b, loc, scratch);
  Value ticket = ticketOp.getTicket();
  PiecePlacement place = placePiece(b, loc, ticket, isRow);
  Value length = memref::DimOp::create(b, loc, scanned[0].input, op.getAlong());
  Value size = arith::ConstantIndexOp::create(b, loc, pieceSize);
  Value offset = b.createOrFold<arith::MulIOp>(loc, place.position, size);
  Value start = pieceStart(b, loc, op.getReverse(), length, offset, size);
  SmallVector<Value> indices =
      isRow ? SmallVector<Value>{place.row, start} : SmallVector<Value>{start};
  SmallVector<Value> elements;
  for (const ScannedOperand &s : scanned)
    elements.push_back(loadPiece(b, loc, s, op.getKind(), indices,
                                 pieceTypeFor(s, isRow, pieceSize)));
  SmallVector<Value> scans, totals;
  if (std::optional<tile::ReduceKind> kind = op.getKind()) {
    // The totals come first and the look-back publishes them at once: the
    // sooner they are out, the less the next programs wait (8% at 2^28 f32
    // on the H200). The block scans follow.
    for (Value piece : elements)
      totals.push_back(pieceTotal(b, loc, *kind, piece));
  } else {
    // A region's totals must combine the elements in order: they come from
    // the block scan.
    tile::PrefixOp prefix = blockScan(b, loc, op, elements);
    llvm::append_range(scans, prefix.getScans());
    llvm::append_range(totals, prefix.getTotals());
  }
  auto lookback =
      tilegpu::LookbackOp::create(b, loc, op.getKindAttr(), totals, ticket,
                                  ticketOp.getEpoch(), place.position, scratch);
  copyCombiner(op, lookback.getCombiner());
  if (op.getKind())
    llvm::append_range(scans, blockScan(b, loc, op, elements).getScans());
  Value isFirst = firstPieceFlag(b, loc, op, place.position);
  SmallVector<Value> results =
      carryInto(b, loc, combiner, op.getAlong(), lookback.getCarries(), scans,
                isFirst);
  for (auto [s, result] : llvm::zip(scanned, results))
    storePiece(b, loc, s, result, indices);
}

/// The carries of a loop before its first piece, tiles of `size` elements:
/// a kind starts from its identity; a region's first piece takes no carry
/// (carryInto), so any value will do.
static SmallVector<Value> initialCarries(OpBuilder &b, Location loc,
                                         tile::ScanOp op,
                                         ArrayRef<ScannedOperand> scanned,
                                         ArrayRef<int64_t> shape) {
  SmallVector<Value> carries;
  for (const ScannedOperand &s : scanned) {
    TypedAttr initial = op.getKind() ? tile::getIdentity(*op.getKind(), s.accType)
                                     : b.getZeroAttr(s.accType);
    carries.push_back(arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get(shape, s.accType),
                               initial)));
  }
  return carries;
}

/// Loads the pieces of `shape` at `indices` (one per operand) and scans
/// them.
static tile::PrefixOp scanPieceAt(OpBuilder &b, Location loc, tile::ScanOp op,
                                  ArrayRef<ScannedOperand> scanned,
                                  ValueRange indices, ArrayRef<int64_t> shape,
                                  bool zeroPadding = false) {
  SmallVector<Value> pieces;
  for (const ScannedOperand &s : scanned)
    pieces.push_back(
        loadPiece(b, loc, s, zeroPadding ? std::nullopt : op.getKind(), indices,
                  RankedTensorType::get(shape, s.accType)));
  return blockScan(b, loc, op, pieces);
}

/// The indices of a loop's piece at `offset` along the scan.
using PiecePlaceFn =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, Value)>;

/// The loop of a program that walks pieces of `shape` at offsets `lower`,
/// `lower + step`, ... below `upper` along the scan: each piece (at the
/// indices `placeOf(offset)`) is scanned, combined behind the carry (from
/// `carries`) and stored, and the carry takes its totals. A region's piece
/// at offset 0 takes no carry. `zeroPadding`: pieces pad with zeros, even
/// for a kind (see buildStagedLookbackScanBody).
static void buildCarriedPieceLoop(OpBuilder &b, Location loc, tile::ScanOp op,
                                  ArrayRef<ScannedOperand> scanned, Value lower,
                                  Value upper, Value step, ValueRange carries,
                                  ArrayRef<int64_t> shape, PiecePlaceFn placeOf,
                                  bool zeroPadding = false) {
  tile::TupleCombiner combiner = combinerOf(op);
  int64_t axis = op.getAlong();
  scf::ForOp::create(
      b, loc, lower, upper, step, carries,
      [&](OpBuilder &b, Location l, Value offset, ValueRange carried) {
        SmallVector<Value> indices = placeOf(b, l, offset);
        tile::PrefixOp prefix =
            scanPieceAt(b, l, op, scanned, indices, shape, zeroPadding);
        Value isFirst = firstPieceFlag(b, l, op, offset);
        SmallVector<Value> results = carryInto(
            b, l, combiner, axis, carried, prefix.getScans(), isFirst);
        for (auto [s, result] : llvm::zip(scanned, results))
          storePiece(b, l, s, result, indices);
        scf::YieldOp::create(b, l,
                             carryInto(b, l, combiner, axis, carried,
                                       prefix.getTotals(), isFirst));
      });
}

/// A kind's totals of a staged piece: its sub-pieces combined element by
/// element, in any order, then reduced.
static SmallVector<Value>
stagedKindTotals(OpBuilder &b, Location loc, tile::ScanOp op,
                 ArrayRef<ScannedOperand> scanned, Value lower, Value upper,
                 Value step, ArrayRef<int64_t> subShape, PiecePlaceFn placeOf) {
  tile::TupleCombiner combiner = combinerOf(op);
  auto combined = scf::ForOp::create(
      b, loc, lower, upper, step, initialCarries(b, loc, op, scanned, subShape),
      [&](OpBuilder &b, Location l, Value offset, ValueRange carried) {
        SmallVector<Value> pieces;
        for (const ScannedOperand &s : scanned)
          pieces.push_back(
              loadPiece(b, l, s, std::nullopt, placeOf(b, l, offset),
                        RankedTensorType::get(subShape, s.accType)));
        scf::YieldOp::create(b, l, combiner.combine(b, l, carried, pieces));
      });
  SmallVector<Value> totals;
  for (Value elements : combined.getResults())
    totals.push_back(pieceTotal(b, loc, *op.getKind(), elements));
  return totals;
}

/// The single pass with its piece read a sub-piece at a time, twice: once
/// for the totals, which the look-back publishes at once, then, behind the
/// look-back's carry, to scan it. tile-stage-windows keeps the piece in
/// workgroup memory between the two reads, so that registers hold one
/// sub-piece rather than the piece and more programs fit an SM. Only
/// kinds: their totals combine sub-pieces in any order (a region's would
/// take a block scan of each sub-piece twice: its recurrence ran 2-4%
/// slower so). A reverse scan
/// walks its piece from the end. Loads pad with zeros, what an asynchronous
/// copy fills in: padding only ever follows the elements in scan order, in
/// the last piece of a scan (or row), whose total no program reads.
static void buildStagedLookbackScanBody(OpBuilder &b, Location loc,
                                        tile::ScanOp op, int64_t pieceSize,
                                        int64_t subSize, Block *body) {
  SmallVector<ScannedOperand> scanned = scannedOperands(op, body);
  bool isRow = op.getInputType(0).getRank() == 2;
  Value scratch = body->getArguments().back();
  auto ticketOp = tilegpu::TicketOp::create(b, loc, scratch);
  Value ticket = ticketOp.getTicket();
  PiecePlacement place = placePiece(b, loc, ticket, isRow);
  Value size = arith::ConstantIndexOp::create(b, loc, pieceSize);
  Value offset = b.createOrFold<arith::MulIOp>(loc, place.position, size);
  Value length;
  if (op.getReverse())
    length = memref::DimOp::create(b, loc, scanned[0].input, op.getAlong());
  Value start = pieceStart(b, loc, op.getReverse(), length, offset, size);
  // Sub-pieces in scan order: from the piece's start, or its end.
  Value base = start;
  if (op.getReverse())
    base = arith::AddIOp::create(
        b, loc, start,
        arith::ConstantIndexOp::create(b, loc, pieceSize - subSize));
  auto placeOf = [&](OpBuilder &b, Location l,
                     Value offset) -> SmallVector<Value> {
    Value at = op.getReverse()
                   ? Value(arith::SubIOp::create(b, l, base, offset))
                   : Value(arith::AddIOp::create(b, l, base, offset));
    return isRow ? SmallVector<Value>{place.row, at} : SmallVector<Value>{at};
  };
  SmallVector<int64_t> subShape =
      isRow ? SmallVector<int64_t>{1, subSize} : SmallVector<int64_t>{subSize};
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value end = arith::ConstantIndexOp::create(b, loc, pieceSize);
  Value step = arith::ConstantIndexOp::create(b, loc, subSize);

  // 1. The totals, published by the look-back.
  SmallVector<Value> totals =
      stagedKindTotals(b, loc, op, scanned, zero, end, step, subShape, placeOf);
  auto lookback =
      tilegpu::LookbackOp::create(b, loc, op.getKindAttr(), totals, ticket,
                                  ticketOp.getEpoch(), place.position, scratch);

  // 2. The sub-pieces again, scanned behind the carry.
  buildCarriedPieceLoop(b, loc, op, scanned, zero, end, step,
                        lookback.getCarries(), subShape, placeOf,
                        /*zeroPadding=*/true);
}

/// Whether a single pass stages its piece (buildStagedLookbackScanBody):
/// a kind scan of at most kStagedMaxOperands operands, without schedule
/// hints.
static bool usesStagedPiece(tile::ScanOp op) {
  return op.getKind() && op.getNumScanned() <= kStagedMaxOperands &&
         !op.getBlock() && !op.getWarps();
}

/// 2-D: one program per row walks its row piece by piece, carrying the
/// combination of the pieces before (from the block scan's totals).
static void buildRowLoopScanBody(OpBuilder &b, Location loc, tile::ScanOp op,
                                 int64_t pieceSize, Block *body) {
  SmallVector<ScannedOperand> scanned = scannedOperands(op, body);
  SmallVector<Value> carries = initialCarries(b, loc, op, scanned, {1});
  Value row = tile::ProgramIdOp::create(
      b, loc, b.getIndexType(),
      tile::ProgramDimAttr::get(b.getContext(), tile::ProgramDim::x));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value length = memref::DimOp::create(b, loc, scanned[0].input, 1);
  Value step = arith::ConstantIndexOp::create(b, loc, pieceSize);
  buildCarriedPieceLoop(
      b, loc, op, scanned, zero, length, step, carries, {1, pieceSize},
      [&](OpBuilder &b, Location l, Value offset) -> SmallVector<Value> {
        return {row, pieceStart(b, l, op.getReverse(), length, offset, step)};
      });
}

/// Columns: one program per strip of `width` columns walks down them
/// `rows` rows at a time, carrying the strip's totals so far. Each thread
/// holds whole columns of a piece (width = 4 elements a thread), so the
/// block scan is a running combination in each thread.
static void buildColumnLoopScanBody(OpBuilder &b, Location loc,
                                    tile::ScanOp op, int64_t rows,
                                    int64_t width, Block *body) {
  SmallVector<ScannedOperand> scanned = scannedOperands(op, body);
  SmallVector<Value> carries = initialCarries(b, loc, op, scanned, {width});
  Value program = tile::ProgramIdOp::create(
      b, loc, b.getIndexType(),
      tile::ProgramDimAttr::get(b.getContext(), tile::ProgramDim::x));
  Value col = b.createOrFold<arith::MulIOp>(
      loc, program, arith::ConstantIndexOp::create(b, loc, width));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value length = memref::DimOp::create(b, loc, scanned[0].input, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, rows);
  buildCarriedPieceLoop(
      b, loc, op, scanned, zero, length, step, carries, {rows, width},
      [&](OpBuilder &b, Location l, Value offset) -> SmallVector<Value> {
        return {pieceStart(b, l, op.getReverse(), length, offset, step), col};
      });
}

/// The column single pass: programs of 2 warps scan strips of 256 columns
/// in pieces of [8, 256] (2048 / n elements for n operands), 16 pieces one
/// after the other, reading each twice: first for the column totals the
/// look-back publishes, then to scan them. Of 6 schedules on the H200
/// (bench/scan/results/2026-11-22-h200-columns/column-split-sweep.md) the
/// fastest or within 5% of it on 5 of 6 shapes: taller programs make
/// shorter look-back chains down a strip but keep more rows between the
/// two reads than the L2 holds.
static constexpr int64_t kColumnPiecesPerProgram = 16;
static constexpr int64_t kColumnSplitWarps = 2;
static constexpr int64_t kColumnSplitPiece = 2048;

/// Columns split over programs (few strips): a single pass whose tickets
/// walk down each strip (the look-back stays within a strip). A program
/// takes `pieces` pieces of `rows` x `width`: it combines their column
/// totals in scan order, looks back over the strip's programs before it,
/// column by column, and scans the pieces again with the carry.
static void buildColumnLookbackScanBody(OpBuilder &b, Location loc,
                                        tile::ScanOp op, int64_t rows,
                                        int64_t pieces, int64_t width,
                                        Block *body) {
  SmallVector<ScannedOperand> scanned = scannedOperands(op, body);
  tile::TupleCombiner combiner = combinerOf(op);
  Value scratch = body->getArguments().back();
  auto ticketOp = tilegpu::TicketOp::create(b, loc, scratch);
  Value ticket = ticketOp.getTicket();
  // The strip, then the program's place down it.
  PiecePlacement place = placePiece(b, loc, ticket, /*isRow=*/true);
  Value col = b.createOrFold<arith::MulIOp>(
      loc, place.row, arith::ConstantIndexOp::create(b, loc, width));
  Value length = memref::DimOp::create(b, loc, scanned[0].input, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, rows);
  Value first = b.createOrFold<arith::MulIOp>(
      loc, place.position,
      arith::ConstantIndexOp::create(b, loc, rows * pieces));
  Value last = b.createOrFold<arith::AddIOp>(
      loc, first, arith::ConstantIndexOp::create(b, loc, rows * pieces));
  auto placeOf = [&](OpBuilder &b, Location l,
                     Value offset) -> SmallVector<Value> {
    return {pieceStart(b, l, op.getReverse(), length, offset, step), col};
  };

  // 1. The program's column totals, pieces combined in scan order.
  auto totals = scf::ForOp::create(
      b, loc, first, last, step, initialCarries(b, loc, op, scanned, {width}),
      [&](OpBuilder &b, Location l, Value offset, ValueRange carried) {
        tile::PrefixOp prefix = scanPieceAt(b, l, op, scanned,
                                            placeOf(b, l, offset),
                                            {rows, width});
        Value isFirst;
        if (!op.getKind())
          isFirst = b.createOrFold<arith::CmpIOp>(
              l, arith::CmpIPredicate::eq, offset, first);
        scf::YieldOp::create(b, l,
                             carryInto(b, l, combiner, op.getAlong(), carried,
                                       prefix.getTotals(), isFirst));
      });
  auto lookback = tilegpu::LookbackOp::create(
      b, loc, op.getKindAttr(), totals.getResults(), ticket,
      ticketOp.getEpoch(), place.position, scratch);
  copyCombiner(op, lookback.getCombiner());

  // 2. The pieces again, each with the combination of everything before
  //    (a region's first piece of a strip takes none).
  buildCarriedPieceLoop(b, loc, op, scanned, first, last, step,
                        lookback.getCarries(), {rows, width}, placeOf);
}

/// The blocks an SM that the 1-D single pass over one 32-bit operand asks
/// for, where it was measured: the staged pass (kStagedBlocksPerSm) and a
/// region's register-held one, forward (kLookbackBlocksPerSm; reverse ones
/// need about 145 registers and spilled 400 bytes under the cap). 16-bit
/// ones were not measured.
static std::optional<int64_t> occupancyHint(tile::ScanOp op, bool isRow,
                                            bool staged) {
  if (isRow || op.getNumScanned() != 1 ||
      op.getInputType(0).getElementTypeBitWidth() != 32 || op.getBlock() ||
      op.getWarps())
    return std::nullopt;
  if (staged)
    return kStagedBlocksPerSm;
  if (op.getReverse())
    return std::nullopt;
  return kLookbackBlocksPerSm;
}

/// Short rows: each program scans `rows` whole rows of at most `width`
/// elements at once, in one [rows, width] tile. A reverse scan aligns the
/// rows' ends with the tile's, so that the padding follows the elements in
/// scan order (a region has no identity to pad with).
static void buildShortRowsScanBody(OpBuilder &b, Location loc, tile::ScanOp op,
                                   int64_t rows, int64_t width, Block *body) {
  SmallVector<ScannedOperand> scanned = scannedOperands(op, body);
  Value program = tile::ProgramIdOp::create(
      b, loc, b.getIndexType(),
      tile::ProgramDimAttr::get(b.getContext(), tile::ProgramDim::x));
  Value row = b.createOrFold<arith::MulIOp>(
      loc, program, arith::ConstantIndexOp::create(b, loc, rows));
  Value length = memref::DimOp::create(b, loc, scanned[0].input, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value col = pieceStart(b, loc, op.getReverse(), length, zero,
                         arith::ConstantIndexOp::create(b, loc, width));
  SmallVector<Value> pieces;
  for (const ScannedOperand &s : scanned)
    pieces.push_back(loadPiece(b, loc, s, op.getKind(), {row, col},
                               RankedTensorType::get({rows, width}, s.accType)));
  tile::PrefixOp prefix = blockScan(b, loc, op, pieces);
  for (auto [s, result] : llvm::zip(scanned, prefix.getScans()))
    storePiece(b, loc, s, result, {row, col});
}

/// How a kernel of a scan runs: one program per row walking it, a single
/// pass whose programs each take one piece (of a 1-D scan, or of a row), or
/// several short rows a program.
namespace {
enum class ScanStrategy {
  rowLoop,
  singlePass,
  shortRows,
  columnLoop,
  columnSinglePass
};
} // namespace

/// Columns a column program scans: 4 elements a thread (16 bytes of f32),
/// so that every thread holds whole columns; and the rows of its pieces.
static int64_t columnStripWidth(const ScanSchedule &schedule) {
  return 4 * 32 * schedule.warps;
}
static int64_t columnPieceRows(const ScanSchedule &schedule) {
  return std::max<int64_t>(schedule.piece / columnStripWidth(schedule), 1);
}

/// Rows a short-row program scans at once for rows of `width`.
static int64_t shortRowsPerProgram(tile::ScanOp op, int64_t width) {
  int64_t piece = kShortRowsPiece / llvm::bit_ceil(op.getNumScanned());
  return std::max<int64_t>(piece / width, 1);
}

/// Builds the kernel `name` computing `op` with `strategy`, before `op`;
/// `width` is the row width of the short-rows strategy.
static tile::KernelOp buildScanKernel(RewriterBase &rewriter, tile::ScanOp op,
                                      StringRef name, ScanStrategy strategy,
                                      int64_t width = 0) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  bool isRow = op.getInputType(0).getRank() == 2;
  FunctionType type = op.getFunctionType();
  ScanSchedule schedule =
      scheduleFor(op, /*isRow=*/strategy == ScanStrategy::rowLoop);
  bool staged = strategy == ScanStrategy::singlePass && usesStagedPiece(op);
  StagedPiece stagedPiece = isRow ? kStagedRowPiece : kStagedVectorPiece;
  if (staged)
    schedule.piece = stagedPiece.piece / llvm::bit_ceil(op.getNumScanned());
  SmallVector<Attribute> grid;
  if (strategy == ScanStrategy::rowLoop) {
    grid.push_back(tile::GridAttr::get(ctx, 0, 0u, 1));
  } else if (strategy == ScanStrategy::columnLoop) {
    grid.push_back(
        tile::GridAttr::get(ctx, 0, 1u, columnStripWidth(schedule)));
  } else if (strategy == ScanStrategy::shortRows) {
    grid.push_back(
        tile::GridAttr::get(ctx, 0, 0u, shortRowsPerProgram(op, width)));
    schedule.warps = kShortRowsWarps;
  } else if (strategy == ScanStrategy::columnSinglePass) {
    if (!op.getWarps())
      schedule.warps = kColumnSplitWarps;
    if (!op.getBlock())
      schedule.piece = kColumnSplitPiece / llvm::bit_ceil(op.getNumScanned());
    type = tile::withScratchArgument(type, rewriter.getI32Type());
    // x: the programs down a strip, y: the strips.
    grid.push_back(tile::GridAttr::get(
        ctx, 0, 0u, columnPieceRows(schedule) * kColumnPiecesPerProgram));
    grid.push_back(
        tile::GridAttr::get(ctx, 0, 1u, columnStripWidth(schedule)));
  } else {
    type = tile::withScratchArgument(type, rewriter.getI32Type());
    // x: the pieces of a row (or of the vector), y: the rows.
    grid.push_back(tile::GridAttr::get(ctx, 0, isRow ? 1u : 0u,
                                       schedule.piece));
    if (isRow)
      grid.push_back(tile::GridAttr::get(ctx, 0, 0u, 1));
  }

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto kernel = tile::KernelOp::create(
      rewriter, loc, name, type, /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
      rewriter.getArrayAttr(grid), schedule.warps);
  Block *body = rewriter.createBlock(&kernel.getBody(), {}, type.getInputs(),
                                     SmallVector<Location>(type.getNumInputs(), loc));
  rewriter.setInsertionPointToStart(body);
  if (strategy == ScanStrategy::rowLoop) {
    buildRowLoopScanBody(rewriter, loc, op, schedule.piece, body);
  } else if (strategy == ScanStrategy::columnLoop) {
    buildColumnLoopScanBody(rewriter, loc, op, columnPieceRows(schedule),
                            columnStripWidth(schedule), body);
  } else if (strategy == ScanStrategy::columnSinglePass) {
    int64_t width = columnStripWidth(schedule);
    kernel->setAttr(
        tile::kScratchAttrName,
        rewriter.getDenseI64ArrayAttr(
            {tilegpu::LookbackOp::kHeaderBytes,
             tilegpu::LookbackOp::statusBytes(op.getNumScanned(), width),
             kScratchEpochs}));
    buildColumnLookbackScanBody(rewriter, loc, op, columnPieceRows(schedule),
                                kColumnPiecesPerProgram, width, body);
  } else if (strategy == ScanStrategy::shortRows) {
    buildShortRowsScanBody(rewriter, loc, op, shortRowsPerProgram(op, width),
                           width, body);
  } else {
    kernel->setAttr(tile::kScratchAttrName,
                    rewriter.getDenseI64ArrayAttr(
                        {tilegpu::LookbackOp::kHeaderBytes,
                         tilegpu::LookbackOp::statusBytes(op.getNumScanned()),
                         kScratchEpochs}));
    if (std::optional<int64_t> blocks = occupancyHint(op, isRow, staged))
      kernel->setAttr(tile::kMinBlocksPerSmAttrName,
                      rewriter.getI64IntegerAttr(*blocks));
    if (staged)
      buildStagedLookbackScanBody(rewriter, loc, op, schedule.piece,
                                  stagedPiece.subPiece, body);
    else
      buildLookbackScanBody(rewriter, loc, op, schedule.piece, body);
  }
  tile::ReturnOp::create(rewriter, loc);
  return kernel;
}

FailureOr<tile::KernelOp> tilec::tileScan(RewriterBase &rewriter,
                                          tile::ScanOp op) {
  if (op.getInputType(0).getRank() == 1) {
    tile::KernelOp kernel = buildScanKernel(rewriter, op, op.getSymName(),
                                            ScanStrategy::singlePass);
    rewriter.eraseOp(op);
    return kernel;
  }
  std::string splitName = (op.getSymName() + "__small_grid").str();
  // Columns: one program per strip of columns while there are strips
  // enough to fill the device; with fewer, the runtime launches the single
  // pass down the strips instead.
  if (op.getAlong() == 0) {
    if (SymbolTable::lookupNearestSymbolFrom(
            op, StringAttr::get(op.getContext(), splitName)))
      return op.emitOpError("cannot name its kernel '")
             << splitName << "': the symbol exists";
    tile::KernelOp kernel = buildScanKernel(rewriter, op, op.getSymName(),
                                            ScanStrategy::columnLoop);
    tile::KernelOp split = buildScanKernel(rewriter, op, splitName,
                                           ScanStrategy::columnSinglePass);
    tile::setSmallGridVariant(kernel, split, kSplitRowsPercentOfSms);
    rewriter.eraseOp(op);
    return kernel;
  }
  // Rows: one program per row while there are rows enough to fill the
  // device; with fewer rows than multiprocessors the runtime launches the
  // single pass over pieces of rows instead (tile.small_grid), so that
  // 3 long rows still spread over the whole GPU. Rows of at most 4096
  // elements go whole to a program, short ones several: the runtime follows
  // a ladder of kernels for narrower and narrower rows (tile.narrow) to the
  // narrowest that holds them, before the small-grid choice.
  auto rungName = [&](int64_t width) {
    return (op.getSymName() + "__rows_" + Twine(width)).str();
  };
  SmallVector<std::string> names = {splitName};
  for (int64_t width : kShortRowWidths)
    names.push_back(rungName(width));
  for (StringRef name : names)
    if (SymbolTable::lookupNearestSymbolFrom(
            op, StringAttr::get(op.getContext(), name)))
      return op.emitOpError("cannot name its kernel '")
             << name << "': the symbol exists";
  tile::KernelOp kernel = buildScanKernel(rewriter, op, op.getSymName(),
                                          ScanStrategy::rowLoop);
  tile::KernelOp split =
      buildScanKernel(rewriter, op, splitName, ScanStrategy::singlePass);
  tile::setSmallGridVariant(kernel, split, kSplitRowsPercentOfSms);
  tile::KernelOp wider = kernel;
  for (int64_t width : llvm::reverse(kShortRowWidths)) {
    tile::KernelOp narrow = buildScanKernel(
        rewriter, op, rungName(width), ScanStrategy::shortRows, width);
    tile::setNarrowVariant(wider, narrow, /*operand=*/0, /*dim=*/1, width);
    wider = narrow;
  }
  rewriter.eraseOp(op);
  return kernel;
}
