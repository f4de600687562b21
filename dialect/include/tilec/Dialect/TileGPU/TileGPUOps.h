//===- TileGPUOps.h - Layout encodings and ops of tilegpu -------*- C++ -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUOPS_H
#define TILEC_DIALECT_TILEGPU_TILEGPUOPS_H

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilec/Dialect/TileGPU/TileGPUEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUAttrs.h.inc"

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUOps.h.inc"

namespace tilec::tilegpu {

/// The layout of a tile of `type` in a block of `threads` threads: its
/// encoding's, or the blocked layout when it has none.
layout::LinearLayout layoutOf(mlir::RankedTensorType type, int64_t threads);

} // namespace tilec::tilegpu

#endif // TILEC_DIALECT_TILEGPU_TILEGPUOPS_H
