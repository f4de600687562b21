//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//

#ifndef TILEC_DIALECT_TILE_TILEDIALECT_H
#define TILEC_DIALECT_TILE_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "tilec/Dialect/Tile/TileDialect.h.inc"

#endif // TILEC_DIALECT_TILE_TILEDIALECT_H
