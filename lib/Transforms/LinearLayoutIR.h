//===- LinearLayoutIR.h - Index arithmetic of a linear layout ---*- C++ -*-===//
//
// The IR that tells a thread where the elements of a tile laid out by a
// linear layout are: each coordinate is the register slot's part (a
// constant) xor the part of the thread id's lane and warp bits.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_LINEARLAYOUTIR_H
#define TILEC_LIB_TRANSFORMS_LINEARLAYOUTIR_H

#include "tilec/Layout/LinearLayout.h"
#include "tilec/Layout/SharedLayout.h"

#include "mlir/IR/Builders.h"

namespace tilec {

/// The coordinates (index values) of slot `slot` of thread `tid`.
llvm::SmallVector<mlir::Value>
emitCoordinates(mlir::OpBuilder &b, mlir::Location loc,
                const layout::LinearLayout &layout, mlir::Value tid,
                int64_t slot);

/// The row-major linear index of slot `slot` of thread `tid`.
mlir::Value emitLinearIndex(mlir::OpBuilder &b, mlir::Location loc,
                            const layout::LinearLayout &layout,
                            mlir::Value tid, int64_t slot);

/// The offset in `placement`'s buffer of the element at `coords` (index
/// values): each run of coordinate bits the placement moves together is
/// one shift and mask, and the runs are added where their bits are
/// disjoint, XOR-ed otherwise.
mlir::Value emitSharedOffset(mlir::OpBuilder &b, mlir::Location loc,
                             const layout::SharedLayout &placement,
                             mlir::ValueRange coords);

/// The thread-id bits whose basis is zero: threads that differ only in
/// them hold the same elements.
int64_t copyingThreadBits(const layout::LinearLayout &layout);

/// Thread ids whose lane or warp bits are broadcast hold copies of
/// another thread's elements: `tid`'s such bits are all zero, so that one
/// copy of each element is written. Null when no thread holds copies.
mlir::Value emitOwnsElements(mlir::OpBuilder &b, mlir::Location loc,
                             const layout::LinearLayout &layout,
                             mlir::Value tid);

/// How many consecutive slots, from any multiple of the count, hold
/// consecutive elements along the innermost dimension: the length of one
/// vector access.
int64_t innermostRun(const layout::LinearLayout &layout);

} // namespace tilec

#endif // TILEC_LIB_TRANSFORMS_LINEARLAYOUTIR_H
