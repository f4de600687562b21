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
#include "tilec/Dialect/TileGPU/TileGPUEnums.cpp.inc"

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

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      unsigned warpsM, unsigned warpsN, bool stridedRows) {
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
                                              getWarpsN(), getStridedRows());
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
  // A fragments follow the warp tiles of mma.sync, whose rows are together.
  if (parent.getStridedRows())
    return emitError() << "the parent of a dot operand layout must not have "
                          "strided rows";
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

//===----------------------------------------------------------------------===//
// #tilegpu.shared
//===----------------------------------------------------------------------===//

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t vec, int64_t perPhase, int64_t maxPhase,
                         int64_t panelCols, unsigned contiguousDim) {
  if (!isPowerOf2(vec) || !isPowerOf2(perPhase) || !isPowerOf2(maxPhase) ||
      !isPowerOf2(panelCols))
    return emitError() << "vec, per_phase, max_phase and panel_cols must be "
                          "powers of two";
  if (vec * maxPhase > panelCols)
    return emitError() << "vec * max_phase (" << vec * maxPhase
                       << ") must fit in panel_cols (" << panelCols << ")";
  if (contiguousDim > 1)
    return emitError() << "contiguous_dim must be 0 or 1, got "
                       << contiguousDim;
  return success();
}

layout::Swizzle SharedLayoutAttr::getSwizzle() const {
  return {getVec(), getPerPhase(), getMaxPhase(), getPanelCols()};
}

/// [rows, columns] of a tile of `shape` placed with dimension
/// `contiguousDim` contiguous.
static SmallVector<int64_t, 2> physicalShape(ArrayRef<int64_t> shape,
                                             unsigned contiguousDim) {
  if (contiguousDim == 1)
    return {shape[0], shape[1]};
  return {shape[1], shape[0]};
}

layout::SharedLayout
SharedLayoutAttr::toSharedLayout(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t, 2> physical = physicalShape(shape, getContiguousDim());
  layout::SharedLayout placed =
      layout::SharedLayout::swizzled(physical, getSwizzle());
  if (getContiguousDim() == 1)
    return placed;
  // The tile's index bits are the physical ones with the dimensions
  // swapped: its columns (low bits) are the physical rows.
  unsigned physicalColBits = llvm::Log2_64(physical[1]);
  ArrayRef<int64_t> offsets = placed.getBitOffsets();
  SmallVector<int64_t> swapped(offsets.drop_front(physicalColBits));
  llvm::append_range(swapped, offsets.take_front(physicalColBits));
  return *layout::SharedLayout::tryCreate(shape, std::move(swapped));
}

SmallVector<int64_t>
SharedLayoutAttr::getBufferShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t, 2> physical = physicalShape(shape, getContiguousDim());
  return {physical[1] / getPanelCols(), physical[0], getPanelCols()};
}

SmallVector<int64_t>
SharedLayoutAttr::getTileShape(ArrayRef<int64_t> bufferShape) const {
  if (bufferShape.size() != 3 || bufferShape[2] != getPanelCols())
    return {};
  SmallVector<int64_t, 2> physical = {bufferShape[1],
                                      bufferShape[0] * bufferShape[2]};
  return llvm::to_vector(physicalShape(physical, getContiguousDim()));
}

Attribute SharedLayoutAttr::getTransposed() const {
  return get(getContext(), getVec(), getPerPhase(), getMaxPhase(),
             getPanelCols(), 1 - getContiguousDim());
}

LogicalResult
SharedLayoutAttr::verifyTile(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> shape, Type elementType) const {
  if (shape.size() != 2)
    return emitError() << "a tile placed by " << *this
                       << " must be 2-D, got rank " << shape.size();
  if (!layout::SharedLayout::canSwizzle(
          physicalShape(shape, getContiguousDim()), getSwizzle()))
    return emitError() << "a " << shape[0] << "x" << shape[1]
                       << " tile cannot be placed by " << *this;
  return success();
}

SharedLayoutAttr SharedLayoutAttr::get128ByteSwizzle(MLIRContext *context,
                                                     Type elementType,
                                                     unsigned contiguousDim) {
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  return get(context, 16 / bytes, 1, 8, 128 / bytes, contiguousDim);
}

std::optional<int64_t>
SharedLayoutAttr::getHardwareSwizzleBytes(Type elementType) const {
  int64_t bits = elementType.getIntOrFloatBitWidth();
  if (bits % 8 || getVec() * bits != 128)
    return std::nullopt;
  // The hardware's phase is address bits 7-9 (128-byte rows), so narrower
  // panels take their phase from several rows.
  int64_t panelBytes = getPanelCols() * bits / 8;
  for (auto [bytes, perPhase, maxPhase] :
       {std::tuple<int64_t, int64_t, int64_t>{128, 1, 8}, {64, 2, 4},
        {32, 4, 2}})
    if (panelBytes == bytes && getPerPhase() == perPhase &&
        getMaxPhase() == maxPhase)
      return bytes;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Slices of every layout
//===----------------------------------------------------------------------===//

static Attribute sliceOf(tile::LayoutEncodingAttrInterface parent,
                         unsigned dim, int64_t size) {
  return SliceLayoutAttr::get(parent.getContext(), dim, size, parent);
}

Attribute MmaLayoutAttr::getSlice(unsigned dim, int64_t size) const {
  return sliceOf(*this, dim, size);
}
Attribute FmaLayoutAttr::getSlice(unsigned dim, int64_t size) const {
  return sliceOf(*this, dim, size);
}
Attribute SliceLayoutAttr::getSlice(unsigned dim, int64_t size) const {
  return sliceOf(*this, dim, size);
}
Attribute DotOperandLayoutAttr::getSlice(unsigned dim, int64_t size) const {
  return sliceOf(*this, dim, size);
}
