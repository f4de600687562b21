//===- TileGPUOps.cpp - Operations of the tilegpu dialect -----------------===//

#include "tilec/Dialect/TileGPU/TileGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tilegpu;

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUOps.cpp.inc"

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
