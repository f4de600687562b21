//===- TileGPUDialect.h - The tilegpu dialect -------------------*- C++ -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUDIALECT_H
#define TILEC_DIALECT_TILEGPU_TILEGPUDIALECT_H

#include "tilec/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Dialect.h"

#include "tilec/Dialect/TileGPU/TileGPUDialect.h.inc"

#endif // TILEC_DIALECT_TILEGPU_TILEGPUDIALECT_H
