//===- TileGPUDialect.cpp - The tilegpu dialect and its layouts -----------===//

#include "tilec/Dialect/TileGPU/TileGPUDialect.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tilegpu;

#include "tilec/Dialect/TileGPU/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUAttrs.cpp.inc"

void TileGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/TileGPU/TileGPUOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/TileGPU/TileGPUAttrs.cpp.inc"
      >();
}

layout::LinearLayout tilegpu::layoutOf(RankedTensorType type,
                                       int64_t threads) {
  if (auto encoding =
          dyn_cast_or_null<tile::LayoutEncodingAttrInterface>(
              type.getEncoding()))
    return encoding.toLinearLayout(type.getShape(), threads);
  return layout::LinearLayout::blocked(type.getShape(), threads);
}

static bool isPowerOf2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }

//===----------------------------------------------------------------------===//
// #tilegpu.mma
//===----------------------------------------------------------------------===//

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    unsigned warpsM, unsigned warpsN) {
  if (!isPowerOf2(warpsM) || !isPowerOf2(warpsN))
    return emitError() << "the warp grid must be powers of two, got "
                       << warpsM << "x" << warpsN;
  return success();
}

LogicalResult
MmaLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> shape) const {
  if (shape.size() != 2 || shape[0] % (16 * getWarpsM()) != 0 ||
      shape[1] % (8 * getWarpsN()) != 0)
    return emitError() << "an mma layout over " << getWarpsM() << "x"
                       << getWarpsN()
                       << " warps needs a 2-D tile of whole 16x8 fragments "
                          "per warp";
  return success();
}

layout::LinearLayout MmaLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                   int64_t threads) const {
  return layout::LinearLayout::mmaAccumulator(shape[0], shape[1], getWarpsM(),
                                              getWarpsN());
}

//===----------------------------------------------------------------------===//
// #tilegpu.fma
//===----------------------------------------------------------------------===//

LogicalResult FmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    unsigned threadsM, unsigned threadsN,
                                    unsigned groupM, unsigned groupN) {
  if (!isPowerOf2(threadsM) || !isPowerOf2(threadsN))
    return emitError() << "the thread grid must be powers of two, got "
                       << threadsM << "x" << threadsN;
  if (!isPowerOf2(groupM) || !isPowerOf2(groupN))
    return emitError() << "groups must hold a power of two of elements, got "
                       << groupM << "x" << groupN;
  if (threadsM * threadsN < 32)
    return emitError() << "the thread grid must fill at least one warp";
  return success();
}

LogicalResult
FmaLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> shape) const {
  if (shape.size() != 2 ||
      shape[0] % (int64_t(getThreadsM()) * getGroupM()) != 0 ||
      shape[1] % (int64_t(getThreadsN()) * getGroupN()) != 0)
    return emitError() << "an fma layout needs a 2-D tile of whole groups "
                          "for every thread";
  return success();
}

layout::LinearLayout FmaLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                   int64_t threads) const {
  return layout::LinearLayout::fmaAccumulator(shape[0], shape[1],
                                              getThreadsM(), getThreadsN(),
                                              getGroupM(), getGroupN());
}

//===----------------------------------------------------------------------===//
// #tilegpu.slice
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, int64_t parentSize,
                        tile::LayoutEncodingAttrInterface parent) {
  if (!isPowerOf2(parentSize))
    return emitError() << "parent_size must be a power of two, got "
                       << parentSize;
  return success();
}

SmallVector<int64_t>
SliceLayoutAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() +
                         std::min<size_t>(getDim(), shape.size()),
                     getParentSize());
  return parentShape;
}

LogicalResult
SliceLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> shape) const {
  if (getDim() > shape.size())
    return emitError() << "slice dimension " << getDim()
                       << " is out of range for a rank-" << shape.size() + 1
                       << " parent";
  return getParent().verifyShape(emitError, getParentShape(shape));
}

layout::LinearLayout SliceLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                     int64_t threads) const {
  return getParent()
      .toLinearLayout(getParentShape(shape), threads)
      .slice(getDim());
}

//===----------------------------------------------------------------------===//
// #tilegpu.dot_operand
//===----------------------------------------------------------------------===//

LogicalResult
DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             unsigned operand, MmaLayoutAttr parent) {
  if (operand > 1)
    return emitError() << "operand must be 0 (lhs) or 1 (rhs), got "
                       << operand;
  return success();
}

LogicalResult
DotOperandLayoutAttr::verifyShape(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape) const {
  int64_t warpsM = getParent().getWarpsM(), warpsN = getParent().getWarpsN();
  bool fits = shape.size() == 2 &&
              (getOperand() == 0
                   ? shape[0] % (16 * warpsM) == 0 && shape[1] % 16 == 0
                   : shape[0] % 16 == 0 && shape[1] % (8 * warpsN) == 0);
  if (!fits)
    return emitError() << "an mma.sync operand " << getOperand()
                       << " layout over " << warpsM << "x" << warpsN
                       << " warps needs a 2-D tile of whole "
                       << (getOperand() == 0 ? "16x16" : "16x8")
                       << " fragments per warp";
  return success();
}

layout::LinearLayout
DotOperandLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                     int64_t threads) const {
  int64_t warpsM = getParent().getWarpsM(), warpsN = getParent().getWarpsN();
  return getOperand() == 0
             ? layout::LinearLayout::mmaOperandA(shape[0], shape[1], warpsM,
                                                 warpsN)
             : layout::LinearLayout::mmaOperandB(shape[0], shape[1], warpsM,
                                                 warpsN);
}
