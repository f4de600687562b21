//===- TileGPUOps.cpp - Operations of the tilegpu dialect -----------------===//

#include "tilec/Dialect/TileGPU/TileGPUOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tilegpu;

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  auto emitError = [this]() { return emitOpError(); };
  if (failed(tile::verifyTileShape(emitError, getInput().getType(), "input")) ||
      failed(tile::verifyTileShape(emitError, getType(), "result")))
    return failure();
  RankedTensorType input = getInput().getType();
  if (input.getShape() != getType().getShape() ||
      input.getElementType() != getType().getElementType())
    return emitOpError("changes only the layout: input ")
           << input << " and result " << getType()
           << " must have one shape and element type";
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // A conversion of a conversion starts from the first one's input.
  if (auto inner = getInput().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getInput().getType() == getType())
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Programs that cooperate across the grid
//===----------------------------------------------------------------------===//

LogicalResult LookbackOp::verify() {
  if (getTotals().empty())
    return emitOpError("needs at least one total");
  // Totals of several elements are looked back for element by element: all
  // must then be tiles of one shape.
  auto isWide = [](Type t) {
    auto tile = dyn_cast<RankedTensorType>(t);
    return tile && tile.getNumElements() > 1;
  };
  Type first = getTotals().front().getType();
  for (auto [i, total] : llvm::enumerate(getTotals())) {
    Type type = total.getType();
    auto tile = dyn_cast<RankedTensorType>(type);
    Type element = getElementTypeOrSelf(type);
    if ((tile && tile.getNumElements() != 1 && tile.getRank() != 1) ||
        !(element.isF32() || element.isInteger(32) || element.isF16() ||
          element.isBF16()))
      return emitOpError("total #")
             << i
             << " must be an i32, f32, f16 or bf16 scalar, 1-element tile or "
                "1-D tile, got "
             << type;
    auto firstTile = dyn_cast<RankedTensorType>(first);
    bool sameShape =
        firstTile && tile && firstTile.getShape() == tile.getShape();
    if ((isWide(first) || isWide(type)) && !sameShape)
      return emitOpError("total #")
             << i << " must have the shape of total #0, " << first
             << ", got " << type;
  }
  return tile::verifyCombinerChoice(
      *this, getKind(), getCombiner(), /*identity=*/std::nullopt,
      /*exclusive=*/false, tile::elementTypesOf(getTotals().getTypes()));
}

LogicalResult LookbackOp::verifyRegions() {
  return tile::verifyCombinerRegion(
      *this, getCombiner(), tile::elementTypesOf(getTotals().getTypes()));
}

LogicalResult LookbackOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> location,
                                           ValueRange operands, DictionaryAttr,
                                           OpaqueProperties properties,
                                           RegionRange,
                                           SmallVectorImpl<Type> &inferred) {
  // The carries have the totals' types; the totals are all operands but
  // the last four (ticket, epoch, position, scratch).
  if (operands.size() < 4)
    return emitOptionalError(location,
                             "'tilegpu.lookback' op needs totals, a ticket, an "
                             "epoch, a position and a scratch buffer");
  for (Value total : operands.drop_back(4))
    inferred.push_back(total.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Asynchronous copies
//===----------------------------------------------------------------------===//

/// A copy writes the tile as it lies in global memory, rows contiguous,
/// into a buffer `layout` places it in.
static LogicalResult verifyCopiedPlacement(Operation *op,
                                           SharedLayoutAttr layout,
                                           MemRefType dst) {
  if (layout.getContiguousDim() != 1)
    return op->emitOpError("copies place tiles with their rows contiguous, "
                           "got ")
           << layout;
  SmallVector<int64_t> tileShape = layout.getTileShape(dst.getShape());
  if (tileShape.empty())
    return op->emitOpError("no tile placed by ")
           << layout << " fills " << dst;
  return tile::verifySharedBuffer(op, layout, dst, tileShape);
}

LogicalResult CopyAsyncOp::verify() {
  MemRefType src = getSrc().getType(), dst = getDst().getType();
  if (getIndices().size() != static_cast<size_t>(src.getRank()))
    return emitOpError("expects ")
           << src.getRank() << " indices for a rank-" << src.getRank()
           << " source, got " << getIndices().size();
  if (dst.getElementType() != src.getElementType())
    return emitOpError("element types differ: ")
           << src.getElementType() << " vs " << dst.getElementType();
  if (std::optional<SharedLayoutAttr> layout = getLayout()) {
    if (src.getRank() != 2)
      return emitOpError("a placed copy needs a 2-D source, got ") << src;
    if (failed(verifyCopiedPlacement(*this, *layout, dst)))
      return failure();
  } else if (dst.getRank() != src.getRank() || !dst.hasStaticShape()) {
    return emitOpError("destination must be a static buffer of the source's "
                       "rank, got ")
           << dst;
  }
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(dst.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return emitOpError("destination must be in workgroup memory");
  if (std::optional<int64_t> bytes = getVectorBytes())
    if (*bytes != 4 && *bytes != 8 && *bytes != 16)
      return emitOpError("vector_bytes must be 4, 8 or 16, got ") << *bytes;
  return success();
}

SmallVector<int64_t> CopyAsyncOp::getTileShape() {
  MemRefType dst = getDst().getType();
  if (!getLayout())
    return llvm::to_vector(dst.getShape());
  return getLayout()->getTileShape(dst.getShape());
}

//===----------------------------------------------------------------------===//
// Bulk tensor copies completing on transaction barriers
//===----------------------------------------------------------------------===//

static LogicalResult verifyBarriers(Operation *op, MemRefType barriers) {
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(barriers.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return op->emitOpError("barriers must be in workgroup memory");
  if (!barriers.hasStaticShape() || !barriers.getLayout().isIdentity())
    return op->emitOpError("barriers must be a static contiguous buffer, got ")
           << barriers;
  return success();
}

LogicalResult BarrierInitOp::verify() {
  if (getArrivals() < 1)
    return emitOpError("needs at least one arrival, got ") << getArrivals();
  return verifyBarriers(*this, getBarriers().getType());
}

LogicalResult BarrierInvalOp::verify() {
  return verifyBarriers(*this, getBarriers().getType());
}

LogicalResult BarrierWaitOp::verify() {
  return verifyBarriers(*this, getBarriers().getType());
}

LogicalResult BarrierArriveOp::verify() {
  return verifyBarriers(*this, getBarriers().getType());
}

LogicalResult WarpRolesOp::verify() {
  auto func = (*this)->getParentOfType<gpu::GPUFuncOp>();
  if (!func || !func.isKernel())
    return emitOpError("must be inside a gpu.func kernel");
  if ((*this)->getParentOfType<WarpRolesOp>())
    return emitOpError("cannot be nested in another tilegpu.warp_roles");
  // The producer is one thread: it has no tiles to lay out.
  WalkResult tiles = getProducer().walk([](Operation *op) {
    for (Type type : op->getResultTypes())
      if (isa<RankedTensorType>(type))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (tiles.wasInterrupted())
    return emitOpError("producer region must not compute tiles");
  if (std::optional<ArrayRef<int32_t>> registers = getRegisters()) {
    if (registers->size() != 2 ||
        llvm::any_of(*registers, [](int32_t count) {
          return count < 24 || count > 256 || count % 8 != 0;
        }))
      return emitOpError("registers must be [producer, consumers] counts, "
                         "multiples of 8 from 24 to 256");
  }
  return success();
}

LogicalResult TurnOp::verify() {
  if (getTurns() && getStep() != TurnStep::close)
    return emitOpError("takes a count of turns only to close");
  return success();
}

LogicalResult GroupIdOp::verify() {
  auto roles = (*this)->getParentOfType<WarpRolesOp>();
  if (!roles || !roles.getConsumers().isAncestor((*this)->getParentRegion()))
    return emitOpError("must be inside the consumers of a tilegpu.warp_roles");
  return success();
}

LogicalResult CopyBulkOp::verify() {
  MemRefType src = getSrc().getType(), dst = getDst().getType();
  // TMA describes at most 5 dimensions.
  if (src.getRank() < 2 || src.getRank() > 5 ||
      static_cast<int64_t>(getIndices().size()) != src.getRank())
    return emitOpError("needs a source of rank 2 to 5 and one index per "
                       "dimension, got ")
           << getIndices().size() << " indices into " << src;
  // The attribute is read back unsigned: a negative one wraps.
  if (std::optional<uint64_t> rowsDim = getRowsDim()) {
    int64_t dim = static_cast<int64_t>(*rowsDim);
    if (dim < 0 || dim >= src.getRank() - 1)
      return emitOpError("rows_dim must name a dimension before the last, got ")
             << dim;
  }
  if (src.getMemorySpace())
    return emitOpError("source must be in global memory");
  if (!isa<BlockArgument>(getSrc()))
    return emitOpError("source must be a kernel argument, which the runtime "
                       "describes to the copy engine");
  if (dst.getElementType() != src.getElementType())
    return emitOpError("element types differ: ")
           << src.getElementType() << " vs " << dst.getElementType();
  if (failed(verifyCopiedPlacement(*this, getLayout(), dst)))
    return failure();
  if (!getLayout().getHardwareSwizzleBytes(dst.getElementType()))
    return emitOpError("the copy engine has no swizzle like ")
           << getLayout() << " for " << dst.getElementType();
  // The copy engine's boxes hold at most 256 rows.
  if (dst.getDimSize(1) > 256)
    return emitOpError("panels of at most 256 rows can be copied, got ")
           << dst.getDimSize(1);
  // A multicast block copies its share of the rows into every block of
  // the cluster, which each expect the whole tile: a box fitted to the
  // source would leave them waiting on bytes no block sends.
  if (getFitRows() && getMulticast())
    return emitOpError("fit_rows and multicast exclude each other");
  return verifyBarriers(*this, getBarriers().getType());
}

SmallVector<int64_t> CopyBulkOp::getTileShape() {
  return getLayout().getTileShape(getDst().getType().getShape());
}
