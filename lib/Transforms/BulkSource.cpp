//===- BulkSource.cpp - The kernel argument behind a 2-D view -------------===//

#include "BulkSource.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace tilec;

static BlockArgument kernelArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<gpu::GPUFuncOp>(arg.getOwner()->getParentOp())
             ? arg
             : BlockArgument();
}

/// Whether `size` is the whole of dimension `dim` of `source`.
static bool isWholeDimension(OpFoldResult size, Value source, unsigned dim) {
  auto type = cast<MemRefType>(source.getType());
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return !type.isDynamicDim(dim) && *constant == type.getDimSize(dim);
  auto dimOp = cast<Value>(size).getDefiningOp<memref::DimOp>();
  return dimOp && dimOp.getSource() == source &&
         dimOp.getConstantIndex() == static_cast<int64_t>(dim);
}

std::optional<BulkSource> tilec::bulkSource(Value buffer) {
  if (cast<MemRefType>(buffer.getType()).getRank() != 2)
    return std::nullopt;
  while (auto cast = buffer.getDefiningOp<memref::CastOp>())
    buffer = cast.getSource();
  if (BlockArgument arg = kernelArgument(buffer))
    return BulkSource{arg, {}, 0};
  auto subview = buffer.getDefiningOp<memref::SubViewOp>();
  BlockArgument arg = subview ? kernelArgument(subview.getSource()) : nullptr;
  // The copy engine describes 2 to 5 dimensions.
  if (!arg || subview.getSourceType().getRank() > 5 ||
      !llvm::all_of(subview.getMixedStrides(), isOneInteger))
    return std::nullopt;
  unsigned rank = subview.getSourceType().getRank();
  llvm::SmallBitVector dropped = subview.getDroppedDims();
  SmallVector<unsigned> kept;
  for (unsigned d = 0; d < rank; ++d)
    if (!dropped[d])
      kept.push_back(d);
  if (kept.size() != 2 || kept[1] != rank - 1)
    return std::nullopt;
  for (unsigned d : kept)
    if (!isZeroInteger(subview.getMixedOffsets()[d]) ||
        !isWholeDimension(subview.getMixedSizes()[d], subview.getSource(), d))
      return std::nullopt;
  return BulkSource{arg, subview.getMixedOffsets(), kept[0]};
}

SmallVector<Value> tilec::bulkSourceIndices(OpBuilder &b, Location loc,
                                            const BulkSource &source,
                                            Value row, Value column) {
  if (source.offsets.empty())
    return {row, column};
  SmallVector<Value> indices =
      getValueOrCreateConstantIndexOp(b, loc, source.offsets);
  indices[source.rowsDim] = row;
  indices.back() = column;
  return indices;
}
