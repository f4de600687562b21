//===- MapWarpsPatterns.h - tile-map-warps rewrite patterns -----*- C++ -*-===//
//
// The patterns of tile-map-warps, one file per op family: element-wise ops
// and tile construction (MapWarps.cpp), memory (MapWarpsMemory.cpp), the
// ops that exchange data between threads (MapWarpsExchange.cpp), the block
// scan (MapWarpsPrefix.cpp) and the ops that coordinate the programs of a
// grid (MapWarpsLookback.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_MAPWARPSPATTERNS_H
#define TILEC_LIB_TRANSFORMS_MAPWARPSPATTERNS_H

#include "DotLayout.h"
#include "TileLayout.h"
#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Transforms/DialectConversion.h"

namespace tilec {

/// What every pattern needs about the kernel being rewritten; filled by the
/// analysis that runs before any rewrite.
struct MapWarpsState {
  /// Threads in the block (known block size).
  int64_t threads = 0;
  /// Blocks of the kernel's thread-block cluster (tile.cluster; 1: none),
  /// which share multicast copies.
  int64_t clusterBlocks = 1;
  /// Groups of tile threads that run the program side by side
  /// (tilegpu.warp_roles groups; 1: one).
  int64_t groups = 1;
  /// The thread's id in the program (its group's): gpu.thread_id x, or it
  /// modulo `threads` where there are groups; created at the kernel entry.
  mlir::Value threadId;
  /// gpu.thread_id x: the thread's id in the block, for what the block does
  /// once (barrier set-up) and the producer after every group.
  mlir::Value blockThreadId;
  /// The thread's group (warp-uniform), where there are groups.
  mlir::Value groupId;
  /// Some tile.dot reads swizzled panels through the async proxy (wgmma).
  bool asyncProxyReads = false;
  /// Warp roles' registers become setmaxnreg (sm_90a); else they are
  /// ignored.
  bool registerHandover = true;
  /// The target has TMA and the async proxy (sm_90 and later).
  bool bulkCopies = true;
  /// The runtime launches this kernel only with the arguments its copies
  /// read 4-byte aligned (tile.aligned_args); a view of one with offsets or
  /// strides that break that still copies correctly, element by element.
  bool alignedCopies = false;
  /// The workgroup buffer of each exchanging op (tile.reduce,
  /// tile.broadcast).
  llvm::DenseMap<mlir::Operation *, mlir::Value> exchangeBuffers;
  /// The tensor-map parameter each tilegpu.copy_bulk copies through, and
  /// each tile.store staged for bulk stores (stagedStoreBuffer) stores
  /// through.
  llvm::DenseMap<mlir::Operation *, mlir::Value> tensorMaps;
  MapWarpsStats stats;

  /// Elements of a tile of `tileType` that each thread holds.
  int64_t perThread(mlir::Type tileType) const {
    auto type = llvm::cast<mlir::RankedTensorType>(tileType);
    if (type.getEncoding())
      return linearLayoutOf(type).getPerThread();
    return layoutOf(type).getPerThread();
  }

  /// The layout of any tile, from its encoding (blocked without one).
  layout::LinearLayout linearLayoutOf(mlir::Type tileType) const {
    return tilegpu::layoutOf(llvm::cast<mlir::RankedTensorType>(tileType),
                             threads);
  }

  /// The blocked layout of a tile without an encoding.
  TileLayout layoutOf(mlir::Type tileType) const {
    return TileLayout(llvm::cast<mlir::RankedTensorType>(tileType).getShape(),
                      threads);
  }
};

/// A conversion pattern of tile-map-warps: it sees the kernel's state.
template <typename OpTy>
struct MapWarpsPattern : mlir::OpConversionPattern<OpTy> {
  MapWarpsPattern(const mlir::TypeConverter &converter, mlir::MLIRContext *ctx,
                  MapWarpsState &state, mlir::PatternBenefit benefit = 1)
      : mlir::OpConversionPattern<OpTy>(converter, ctx, benefit),
        state(state) {}

  MapWarpsState &state;
};

/// Bytes of static workgroup memory a kernel may declare (the exchanging
/// ops' buffers are static).
inline constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// The workgroup memory an exchanging op needs (a 1-D buffer).
struct ExchangeBuffer {
  int64_t elements;
  mlir::Type elementType;
  /// Bytes its start is aligned to: 16 at least (the NVPTX back end merges
  /// neighbouring reads into 16-byte loads), 1024 for a bulk store's
  /// swizzled rows.
  int64_t alignment = 16;

  /// Bytes of the buffer (an i1 element takes a byte).
  int64_t bytes() const {
    return elements * llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
  }
  /// Bytes from one group's buffer to the next's, each aligned.
  int64_t groupStride() const { return llvm::alignTo(bytes(), alignment); }
  /// One buffer for `groups` groups of tile threads, as i8 bytes.
  ExchangeBuffer forGroups(int64_t groups) const {
    if (groups == 1)
      return *this;
    return ExchangeBuffer{groups * groupStride(),
                          mlir::IntegerType::get(elementType.getContext(), 8),
                          alignment};
  }
};
/// Fails with a located error for the tile.prefix forms the lowering does
/// not cover yet (see MapWarpsPrefix.cpp).
mlir::LogicalResult checkPrefixSupported(tile::PrefixOp op, int64_t threads);
/// Whether `op` can scan its tiles in layout `encoding` as they are: its
/// totals unused, 32-bit combining types at most, and every bit of the
/// scanned coordinate carried by one register or lane bit.
bool prefixRunsOnLayout(tile::PrefixOp op, mlir::Attribute encoding,
                        int64_t threads);
/// The buffer where a tile.prefix's warps meet, if its rows span warps.
std::optional<ExchangeBuffer> prefixExchangeBuffer(tile::PrefixOp op, int64_t threads);
/// The buffer of an op on tiles with layout encodings (a conversion through
/// workgroup memory, a reduction whose warps meet), if it needs one.
std::optional<ExchangeBuffer> layoutExchangeBuffer(mlir::Operation *op,
                                                   int64_t threads);
/// Fails with a located error where `buffer` exceeds static workgroup memory.
mlir::LogicalResult checkExchangeBufferFits(mlir::Operation *op,
                                            const ExchangeBuffer &buffer);
/// The buffer where a tile.store's warps stage their rows, if it is worth
/// staging (MapWarpsMemory.cpp).
std::optional<ExchangeBuffer> stagedStoreBuffer(tile::StoreOp op,
                                                int64_t threads);
/// The kernel argument that the bulk tensor stores of a staged tile.store
/// write, if it goes out as such, and their box (innermost first).
struct BulkStoreBox {
  unsigned arg;
  llvm::SmallVector<int64_t> box;
};
std::optional<BulkStoreBox> bulkStoreBox(tile::StoreOp op, int64_t threads);
/// After the conversion: before each return of a kernel with bulk stores,
/// waits until the copy engine has read their workgroup memory.
void finishBulkStores(mlir::gpu::GPUFuncOp func);
/// The buffer `op` needs, or nullopt if it exchanges nothing.
std::optional<ExchangeBuffer> exchangeBufferFor(mlir::Operation *op,
                                                int64_t threads);

/// Whether an operand or result of `op` is a tile with a layout encoding
/// (the blocked-layout patterns leave those to MapWarpsLayouts.cpp).
bool hasEncodedTile(mlir::Operation *op);
/// Fails with a located error for the ops on tiles with layout encodings
/// that the lowering does not cover yet (see MapWarpsLayouts.cpp).
/// Slot of `to` holding, in every thread, the element that slot `slot` of
/// `from` holds once dimension `dim` of `from` is dropped (`to` is
/// `from`'s slice along `dim`; the lane and warp parts agree by
/// construction, so the register parts decide). -1 if none.
int64_t sliceSlotOf(const layout::LinearLayout &from, unsigned dim,
                    const layout::LinearLayout &to, int64_t slot);

mlir::LogicalResult checkLayoutOpSupported(mlir::Operation *op,
                                           int64_t threads);
/// True for the tile.load (and tile.transpose) giving a tile.dot an operand
/// staged in workgroup memory: the dot reads the memory itself.
bool isStagedDotOperand(mlir::Operation *op);

/// After the conversion: makes the wgmma wait after each loop whose dots
/// stay in flight define the accumulators the loop returns.
void tieLoopResultsToWaits(mlir::gpu::GPUFuncOp func);

/// After the conversion: turns each tilegpu.warp_roles into a branch for the
/// producer (the first thread of one warp appended after the `threads` tile
/// threads) and one for the tile threads, whose block barriers become a
/// named barrier over them alone, and adds the producer warp to the
/// kernel's known block size.
void lowerWarpRoles(mlir::gpu::GPUFuncOp func, const MapWarpsState &state);
/// The index (i32) of the warp of the block's thread `blockThreadId`, read
/// from its first lane, so that ptxas knows it warp-uniform.
mlir::Value uniformWarpIndex(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value blockThreadId);
/// The groups of tile threads of `func`'s warp roles (1 without groups).
int64_t consumerGroups(mlir::gpu::GPUFuncOp func);
/// The groups of `func`'s warp roles; fails with a located error where the
/// roles disagree on them, or where the groups of `threads` threads, their
/// producer and their named barriers do not fit a block.
mlir::FailureOr<int64_t> checkConsumerGroups(mlir::gpu::GPUFuncOp func,
                                             int64_t threads);
/// Whether `op` runs in the producer region of a tilegpu.warp_roles (on one
/// thread).
bool inProducerRole(mlir::Operation *op);

/// Before any rewrite: appends one tensor-map parameter (!llvm.ptr) to
/// `func` per source buffer and box of its tilegpu.copy_bulk ops, records them
/// in `state` and lists them in the kernel's tile.tensor_maps; narrows its
/// tile.repitch_args to the buffers that got one.
mlir::LogicalResult addTensorMapParams(mlir::gpu::GPUFuncOp func,
                                       MapWarpsState &state);

/// Builds `body` in an scf.if that runs it on the threads where `condition`
/// holds.
void buildIf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value condition,
             llvm::function_ref<void(mlir::OpBuilder &)> body);
/// Builds `body` so that only thread `thread` of the block runs it.
void inThread(mlir::OpBuilder &b, mlir::Location loc, mlir::Value threadId,
              int64_t thread, llvm::function_ref<void(mlir::OpBuilder &)> body);
/// Builds `body` so that only thread 0 of the block runs it.
void inFirstThread(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::Value threadId,
                   llvm::function_ref<void(mlir::OpBuilder &)> body);

/// Reductions and kind scans combine in at least 32 bits: that is what a
/// shuffle moves, and 16-bit float sums lose less in f32. Integer results
/// are the same either way (two's complement wraps alike; signed order is
/// kept).
mlir::Type accumulatorType(mlir::Type elementType);
/// `v` extended or truncated to the int or float type `to`.
mlir::Value convertElement(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value v, mlir::Type to);
/// `v`'s bits as `to`, of the same width (v itself if it has that type).
mlir::Value bitcastIfNeeded(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value v, mlir::Type to);

/// Shuffles, status words and words of mixed types in workgroup memory are
/// 32-bit: `v` (16 or 32 bits) as the low bits of an i32, and back.
mlir::Value toWordBits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);
mlir::Value fromWordBits(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value bits, mlir::Type to);
/// A gpu.shuffle of a 16- or 32-bit value (16-bit ones move widened), and
/// whether the lane it comes from exists.
struct ShuffledValue {
  mlir::Value value, valid;
};
ShuffledValue shuffleValue(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value v, int64_t offset, mlir::Value width,
                           mlir::gpu::ShuffleMode mode);

/// A combination of tuples that may be empty (`valid`, i1), so that no
/// identity is needed: combiner regions need not have one.
struct MaybeTuple {
  llvm::SmallVector<mlir::Value> values;
  mlir::Value valid;
};
/// earlier . later, where either may be empty.
MaybeTuple combineMaybe(mlir::OpBuilder &b, mlir::Location loc,
                        const tile::TupleCombiner &combiner,
                        const MaybeTuple &earlier, const MaybeTuple &later);

/// The shared-memory address of `buffer`'s first element, as i64.
mlir::Value sharedAddress(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value buffer);

void populateMapWarpsBulkCopyPatterns(const mlir::TypeConverter &converter,
                                      MapWarpsState &state,
                                      mlir::RewritePatternSet &patterns);
void populateMapWarpsDotPatterns(const mlir::TypeConverter &converter,
                                 MapWarpsState &state,
                                 mlir::RewritePatternSet &patterns);
void populateMapWarpsAsyncCopyPatterns(const mlir::TypeConverter &converter,
                                       MapWarpsState &state,
                                       mlir::RewritePatternSet &patterns);
void populateMapWarpsMemoryPatterns(const mlir::TypeConverter &converter,
                                    MapWarpsState &state,
                                    mlir::RewritePatternSet &patterns);
void populateMapWarpsExchangePatterns(const mlir::TypeConverter &converter,
                                      MapWarpsState &state,
                                      mlir::RewritePatternSet &patterns);
void populateMapWarpsPrefixPatterns(const mlir::TypeConverter &converter,
                                    MapWarpsState &state,
                                    mlir::RewritePatternSet &patterns);
void populateMapWarpsLayoutPatterns(const mlir::TypeConverter &converter,
                                    MapWarpsState &state,
                                    mlir::RewritePatternSet &patterns);
void populateMapWarpsLookbackPatterns(const mlir::TypeConverter &converter,
                                      MapWarpsState &state,
                                      mlir::RewritePatternSet &patterns);
/// Fails with a located error where the block's threads are not whole
/// warpgroups, which take the turns.
mlir::LogicalResult checkTurnSupported(tilegpu::TurnOp op, int64_t threads);
void populateMapWarpsRolesPatterns(const mlir::TypeConverter &converter,
                                   MapWarpsState &state,
                                   mlir::RewritePatternSet &patterns);

} // namespace tilec

#endif // TILEC_LIB_TRANSFORMS_MAPWARPSPATTERNS_H
