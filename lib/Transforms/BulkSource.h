//===- BulkSource.h - The kernel argument behind a 2-D view ----*- C++ -*-===//
//
// The copy engine (TMA) moves tiles of buffers the runtime describes by
// tensor maps: the kernel's arguments. A 2-D view a tile.load or
// tile.store reads or writes is one of them, or a slice of one.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_BULKSOURCE_H
#define TILEC_LIB_TRANSFORMS_BULKSOURCE_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <optional>

namespace tilec {

/// Where the copy engine finds the tile at (row, column) of a 2-D view: a
/// kernel argument indexed as the view is, or a rank-reducing unit-stride
/// subview of one that keeps the argument's last dimension and one other,
/// each whole from 0, indexed by the subview's offsets in the others.
/// (Whole, so that the engine's zeros past the argument's end, and its
/// stores left out there, are the view's; one (batch, head) of a 4-D
/// attention buffer is such a view.)
struct BulkSource {
  mlir::BlockArgument arg;
  /// The subview's offsets, one per dimension of `arg`; empty when the
  /// view is `arg` itself.
  llvm::SmallVector<mlir::OpFoldResult> offsets;
  /// The dimension of `arg` the tile's rows run along.
  unsigned rowsDim = 0;
};

/// The source of the 2-D view `buffer` (looking through memref.cast), if
/// the copy engine can reach it.
std::optional<BulkSource> bulkSource(mlir::Value buffer);

/// The indices of `source.arg` of the tile element at (`row`, `column`) of
/// its view: the subview's offsets with the two kept dimensions replaced.
llvm::SmallVector<mlir::Value> bulkSourceIndices(mlir::OpBuilder &b,
                                                 mlir::Location loc,
                                                 const BulkSource &source,
                                                 mlir::Value row,
                                                 mlir::Value column);

} // namespace tilec

#endif // TILEC_LIB_TRANSFORMS_BULKSOURCE_H
