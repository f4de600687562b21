//===- TilingScan.cpp - Scan descriptions -> block programs ---------------===//
//
// A row scan becomes one program per row that walks the row in pieces of
// kScanPiece elements (from the end for a reverse scan): tile.prefix scans a piece, the combination of the
// pieces before it (the carry) is combined in front, and the piece's total
// (tile.reduce) extends the carry. 16-bit floats are scanned in f32 and
// rounded once per output. The decoupled look-back that splits one long
// row over many programs is not built yet.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

/// Elements of a row one program scans at a time, and its warps: 4 f32 a
/// thread, one 16-byte access each.
static constexpr int64_t kScanPiece = 1024;
static constexpr int64_t kScanWarps = 8;

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

static LogicalResult checkScanSupported(tile::ScanOp op) {
  if (!op.getKind())
    return op.emitOpError("with a combiner region cannot be tiled yet; use "
                          "add, mul, max or min");
  int64_t rank = op.getInputType(0).getRank();
  if (op.getAlong() != rank - 1)
    return op.emitOpError("scans along dimension 0 of a 2-D buffer (columns) "
                          "cannot be tiled yet");
  return success();
}

/// The piece of `operand` at (row, col), in the accumulator type, padded
/// with the combiner's identity so that padding changes no total.
static Value loadPiece(OpBuilder &b, Location loc, const ScannedOperand &s,
                       tile::ReduceKind kind, ValueRange indices,
                       RankedTensorType pieceType) {
  auto stored = RankedTensorType::get(pieceType.getShape(), s.elementType);
  Value piece = tile::LoadOp::create(
      b, loc, stored, s.input, indices,
      /*padding=*/tile::getIdentity(kind, s.elementType), /*swizzle=*/nullptr);
  if (s.accType != s.elementType)
    piece = arith::ExtFOp::create(b, loc, pieceType, piece);
  return piece;
}

/// The body of one scanned operand in the row loop: stores the piece's
/// scan and returns the carry for the next piece.
static Value scanPiece(OpBuilder &b, Location loc, tile::ScanOp op,
                       const ScannedOperand &s, ValueRange indices,
                       Value carry) {
  tile::ReduceKind kind = *op.getKind();
  bool isRow = indices.size() == 2;
  auto pieceType = isRow
                       ? RankedTensorType::get({1, kScanPiece}, s.accType)
                       : RankedTensorType::get({kScanPiece}, s.accType);
  int64_t axis = pieceType.getRank() - 1;
  Value piece = loadPiece(b, loc, s, kind, indices, pieceType);
  auto prefix = tile::PrefixOp::create(
      b, loc, pieceType, kind, piece, axis,
      op.getMode() == tile::ScanMode::exclusive, op.getReverse());
  Value carried =
      isRow ? Value(tile::BroadcastOp::create(b, loc, pieceType, carry,
                                              ArrayRef<int64_t>{1}))
            : Value(tile::SplatOp::create(b, loc, pieceType, carry));
  Value result = tile::buildCombine(b, loc, kind, carried, prefix);
  if (s.accType != s.elementType)
    result = arith::TruncFOp::create(
        b, loc, RankedTensorType::get(pieceType.getShape(), s.elementType),
        result);
  tile::StoreOp::create(b, loc, result, s.output, indices);
  Type totalType = isRow ? Type(RankedTensorType::get({1}, s.accType))
                         : s.accType;
  Value total = tile::ReduceOp::create(b, loc, totalType, kind, piece, axis);
  return tile::buildCombine(b, loc, kind, carry, total);
}

FailureOr<tile::KernelOp> tilec::tileScan(RewriterBase &rewriter,
                                          tile::ScanOp op) {
  if (failed(checkScanSupported(op)))
    return failure();
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned n = op.getNumScanned();
  int64_t rank = op.getInputType(0).getRank();
  // 2-D: one program per row; 1-D: a single program (one per 2^62
  // elements, which leaves the grid rule's ceildiv without overflow), none
  // for an empty buffer.
  Attribute grid = rank == 2
                       ? tile::GridAttr::get(ctx, 0, 0u, 1)
                       : tile::GridAttr::get(ctx, 0, 0u, int64_t(1) << 62);

  rewriter.setInsertionPoint(op);
  auto kernel = tile::KernelOp::create(
      rewriter, loc, op.getSymName(), op.getFunctionType(),
      /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
      rewriter.getArrayAttr({grid}), kScanWarps);
  Block *body = rewriter.createBlock(
      &kernel.getBody(), {}, op.getFunctionType().getInputs(),
      SmallVector<Location>(2 * n, loc));
  rewriter.setInsertionPointToStart(body);

  SmallVector<ScannedOperand> scanned;
  SmallVector<Value> carries;
  tile::ReduceKind kind = *op.getKind();
  for (unsigned i = 0; i < n; ++i) {
    ScannedOperand s{body->getArgument(i), body->getArgument(n + i),
                     op.getInputType(i).getElementType(), {}};
    s.accType = scanAccumulatorType(s.elementType);
    TypedAttr identity = tile::getIdentity(kind, s.accType);
    carries.push_back(
        rank == 2
            ? Value(arith::ConstantOp::create(
                  rewriter, loc,
                  DenseElementsAttr::get(
                      RankedTensorType::get({1}, s.accType), identity)))
            : Value(arith::ConstantOp::create(rewriter, loc, identity)));
    scanned.push_back(s);
  }
  Value row;
  if (rank == 2)
    row = tile::ProgramIdOp::create(
        rewriter, loc, rewriter.getIndexType(),
        tile::ProgramDimAttr::get(ctx, tile::ProgramDim::x));
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value length = memref::DimOp::create(rewriter, loc, scanned[0].input,
                                       rank - 1);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, kScanPiece);
  scf::ForOp::create(
      rewriter, loc, zero, length, step, carries,
      [&](OpBuilder &b, Location l, Value offset, ValueRange carried) {
        // A reverse scan takes the pieces from the end: the first one
        // starts before the buffer (negative: loaded as padding, not
        // stored).
        Value col =
            op.getReverse()
                ? b.createOrFold<arith::SubIOp>(
                      l, length, b.createOrFold<arith::AddIOp>(l, offset, step))
                : offset;
        SmallVector<Value> indices;
        if (row)
          indices.push_back(row);
        indices.push_back(col);
        SmallVector<Value> next;
        for (auto [s, carry] : llvm::zip(scanned, carried))
          next.push_back(scanPiece(b, l, op, s, indices, carry));
        scf::YieldOp::create(b, l, next);
      });
  tile::ReturnOp::create(rewriter, loc);
  rewriter.eraseOp(op);
  return kernel;
}
