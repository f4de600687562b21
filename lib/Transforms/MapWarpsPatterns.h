//===- MapWarpsPatterns.h - tile-map-warps rewrite patterns -----*- C++ -*-===//
//
// The patterns of tile-map-warps, one file per op family: element-wise ops
// and tile construction (MapWarps.cpp), memory (MapWarpsMemory.cpp), and the
// ops that exchange data between threads (MapWarpsExchange.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_MAPWARPSPATTERNS_H
#define TILEC_LIB_TRANSFORMS_MAPWARPSPATTERNS_H

#include "TileLayout.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Transforms/DialectConversion.h"

namespace tilec {

/// What every pattern needs about the kernel being rewritten; filled by the
/// analysis that runs before any rewrite.
struct MapWarpsState {
  /// Threads in the block (known block size).
  int64_t threads = 0;
  /// gpu.thread_id x, created at the kernel entry.
  mlir::Value threadId;
  /// The workgroup buffer of each exchanging op (tile.reduce,
  /// tile.broadcast).
  llvm::DenseMap<mlir::Operation *, mlir::Value> exchangeBuffers;
  MapWarpsStats stats;

  TileLayout layoutOf(mlir::Type tileType) const {
    return TileLayout(llvm::cast<mlir::RankedTensorType>(tileType).getShape(),
                      threads);
  }
};

/// A conversion pattern of tile-map-warps: it sees the kernel's state.
template <typename OpTy>
struct MapWarpsPattern : mlir::OpConversionPattern<OpTy> {
  MapWarpsPattern(const mlir::TypeConverter &converter, mlir::MLIRContext *ctx,
                  MapWarpsState &state)
      : mlir::OpConversionPattern<OpTy>(converter, ctx), state(state) {}

  MapWarpsState &state;
};

/// The workgroup memory an exchanging op needs (a 1-D buffer).
struct ExchangeBuffer {
  int64_t elements;
  mlir::Type elementType;
};
/// The buffer `op` needs, or nullopt if it exchanges nothing.
std::optional<ExchangeBuffer> exchangeBufferFor(mlir::Operation *op,
                                                int64_t threads);

void populateMapWarpsMemoryPatterns(const mlir::TypeConverter &converter,
                                    MapWarpsState &state,
                                    mlir::RewritePatternSet &patterns);
void populateMapWarpsExchangePatterns(const mlir::TypeConverter &converter,
                                      MapWarpsState &state,
                                      mlir::RewritePatternSet &patterns);

} // namespace tilec

#endif // TILEC_LIB_TRANSFORMS_MAPWARPSPATTERNS_H
