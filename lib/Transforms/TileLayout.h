//===- TileLayout.h - How a tile is spread over threads ---------*- C++ -*-===//

#ifndef TILEC_LIB_TRANSFORMS_TILELAYOUT_H
#define TILEC_LIB_TRANSFORMS_TILELAYOUT_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tilec {

/// The blocked layout of tile-map-warps. A tile of n = 2^nb elements, taken
/// in row-major order, is cut into chunks of V consecutive elements (V up to
/// 4); chunk c belongs to thread c mod T. In bits of the linear element index
/// l: bits [0, v) pick the element in a chunk, the next `threadBits` bits the
/// thread, the rest the chunk of that thread. Tiles with fewer elements than
/// threads are replicated: thread t holds element t mod n.
///
/// Slot s (0 <= s < perThread) of a thread holds element
///   l = (s / V * T + tid) * V + s % V          (not replicated)
///   l = tid mod n                               (replicated)
class TileLayout {
public:
  TileLayout(llvm::ArrayRef<int64_t> shape, int64_t threads);

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const { return numElements; }
  int64_t getPerThread() const { return perThread; }
  bool isReplicated() const { return replicated; }
  /// log2 of the chunk length V.
  unsigned getVectorBits() const { return vectorBits; }
  /// Number of bits of l taken from the thread id.
  unsigned getThreadBits() const { return threadBits; }
  /// The l-bit that bit `i` of a slot number stands for.
  unsigned slotBitPosition(unsigned i) const;
  unsigned getNumSlotBits() const;

  /// Bit offset of dimension d in l (row-major), and its width.
  unsigned dimShift(unsigned d) const;
  unsigned dimBits(unsigned d) const;

  /// Emits l for slot `slot` of the thread `tid`.
  mlir::Value linearIndex(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value tid, int64_t slot) const;
  /// Emits `tid < n` for replicated layouts, so that one copy of each element
  /// is written; returns a null value when every thread owns its elements.
  mlir::Value ownsElements(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value tid) const;

  mlir::VectorType getVectorType(mlir::Type elementType) const;

  /// Builds the vector of the elements thread `tid` owns, calling
  /// `element(l)` for each slot's linear index l.
  mlir::Value
  buildVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tid,
              mlir::Type elementType,
              llvm::function_ref<mlir::Value(mlir::Value linear)> element) const;

private:
  llvm::SmallVector<int64_t> shape;
  int64_t numElements;
  int64_t threads;
  int64_t perThread;
  unsigned vectorBits;
  unsigned threadBits;
  bool replicated;
};

/// The threads of `func`'s block when tiles can be spread over them: a
/// known 1-D block size, a power of two from 32 to 1024. Nullopt otherwise
/// (the attribute comes from input and is not trusted).
std::optional<int64_t> layoutThreads(mlir::gpu::GPUFuncOp func);
/// The located error for a block size layoutThreads refuses.
mlir::InFlightDiagnostic emitBadBlockSize(mlir::gpu::GPUFuncOp func);

/// Index arithmetic helpers that fold constants.
mlir::Value indexConstant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
/// (value >> shift) & (2^bits - 1).
mlir::Value extractBits(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value, unsigned shift, unsigned bits);

} // namespace tilec

#endif // TILEC_LIB_TRANSFORMS_TILELAYOUT_H
