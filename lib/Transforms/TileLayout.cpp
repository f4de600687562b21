//===- TileLayout.cpp - How a tile is spread over threads -----------------===//

#include "TileLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;

/// Widest chunk: 4 elements, 16 bytes of f32.
static constexpr int64_t kMaxChunk = 4;

TileLayout::TileLayout(ArrayRef<int64_t> shape, int64_t threads)
    : shape(shape), threads(threads) {
  numElements = 1;
  for (int64_t size : shape)
    numElements *= size;
  unsigned elementBits = llvm::Log2_64(numElements);
  unsigned threadIdBits = llvm::Log2_64(threads);
  replicated = numElements < threads;
  int64_t chunk =
      replicated ? 1 : std::min<int64_t>(kMaxChunk, numElements / threads);
  vectorBits = llvm::Log2_64(chunk);
  threadBits = std::min(threadIdBits, elementBits - vectorBits);
  perThread = replicated ? 1 : numElements / threads;
}

unsigned TileLayout::getNumSlotBits() const {
  return llvm::Log2_64(perThread);
}

unsigned TileLayout::slotBitPosition(unsigned i) const {
  return i < vectorBits ? i : i + threadBits;
}

unsigned TileLayout::dimShift(unsigned d) const {
  unsigned shift = 0;
  for (unsigned i = d + 1; i < shape.size(); ++i)
    shift += llvm::Log2_64(shape[i]);
  return shift;
}

unsigned TileLayout::dimBits(unsigned d) const {
  return llvm::Log2_64(shape[d]);
}

Value TileLayout::linearIndex(OpBuilder &b, Location loc, Value tid,
                              int64_t slot) const {
  if (replicated)
    return b.createOrFold<arith::AndIOp>(
        loc, tid, indexConstant(b, loc, numElements - 1));
  int64_t chunk = int64_t(1) << vectorBits;
  int64_t offset = (slot / chunk) * threads * chunk + slot % chunk;
  Value scaled =
      b.createOrFold<arith::MulIOp>(loc, tid, indexConstant(b, loc, chunk));
  return b.createOrFold<arith::AddIOp>(loc, scaled,
                                       indexConstant(b, loc, offset));
}

Value TileLayout::ownsElements(OpBuilder &b, Location loc, Value tid) const {
  if (!replicated)
    return Value();
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, tid,
                                       indexConstant(b, loc, numElements));
}

VectorType TileLayout::getVectorType(Type elementType) const {
  return VectorType::get({perThread}, elementType);
}

Value TileLayout::buildVector(OpBuilder &b, Location loc, Value tid,
                              Type elementType,
                              function_ref<Value(Value)> element) const {
  SmallVector<Value> elements;
  for (int64_t slot = 0; slot < perThread; ++slot)
    elements.push_back(element(linearIndex(b, loc, tid, slot)));
  return vector::FromElementsOp::create(b, loc, getVectorType(elementType),
                                        elements);
}

Value tilec::indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value tilec::i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

Value tilec::extractBits(OpBuilder &b, Location loc, Value value,
                         unsigned shift, unsigned bits) {
  if (bits == 0)
    return indexConstant(b, loc, 0);
  Value shifted = shift == 0 ? value
                             : b.createOrFold<arith::ShRUIOp>(
                                   loc, value, indexConstant(b, loc, shift));
  return b.createOrFold<arith::AndIOp>(
      loc, shifted, indexConstant(b, loc, (int64_t(1) << bits) - 1));
}

std::optional<int64_t> tilec::layoutThreads(gpu::GPUFuncOp func) {
  std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
  if (!block || block->size() != 3 || (*block)[1] != 1 || (*block)[2] != 1)
    return std::nullopt;
  int64_t threads = (*block)[0];
  if (threads < 32 || threads > 1024 || !llvm::isPowerOf2_64(threads))
    return std::nullopt;
  return threads;
}

InFlightDiagnostic tilec::emitBadBlockSize(gpu::GPUFuncOp func) {
  return func.emitOpError("needs a known 1-D block size of 32 to 1024 "
                          "threads, a power of two");
}
