//===- Passes.h - tilec transformation passes -------------------*- C++ -*-===//

#ifndef TILEC_TRANSFORMS_PASSES_H
#define TILEC_TRANSFORMS_PASSES_H

#include "tilec/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#include "tilec/Transforms/Passes.h.inc"

struct MapWarpsStats {
  unsigned reductions = 0;
  unsigned prefixes = 0;
  unsigned shuffles = 0;
  unsigned workgroupBytes = 0;
};

namespace tile {
class AttentionOp;
class MatmulOp;
class ScanOp;
class KernelOp;
class DotOp;
class LoadOp;
} // namespace tile

/// Set by tile-promote-shared on a tile.dot whose operand slots stay
/// untouched for this many further iterations: its lowering may leave that
/// many warpgroup MMA groups in flight instead of waiting for the dot.
inline constexpr llvm::StringLiteral kDotInFlightAttr = "tile.in_flight";

/// Set by tile-tiling on a pipelined loop whose bulk copies a producer warp
/// should issue (tilegpu.warp_roles, made by tile-promote-shared).
inline constexpr llvm::StringLiteral kProducerWarpAttr = "tile.producer_warp";
/// Set by tile-tiling next to kProducerWarpAttr, array<i32: P, C>: the
/// producer (a whole warpgroup then) keeps P registers a thread and the
/// tile threads take C (tilegpu.warp_roles registers, setmaxnreg).
inline constexpr llvm::StringLiteral kProducerRegistersAttr =
    "tile.producer_registers";
/// 32-bit registers of a multiprocessor (sm_80 and sm_90), which the
/// warps of a block with handed-over registers share.
inline constexpr int64_t kRegistersPerMultiprocessor = 65536;
/// The threads of one warpgroup (four warps): what a warpgroup MMA takes,
/// and a producer that hands its registers over.
inline constexpr int64_t kWarpgroupThreads = 128;
/// The most registers each of `tileThreads` tile threads can take, at most
/// `cap` and a multiple of 8 (setmaxnreg's unit), where the producer
/// warpgroup keeps `producerRegisters` a thread and the block has the
/// multiprocessor's registers to itself.
constexpr int32_t tileRegistersAfterHandover(int64_t tileThreads,
                                             int32_t producerRegisters,
                                             int32_t cap) {
  int64_t left =
      (kRegistersPerMultiprocessor - kWarpgroupThreads * producerRegisters) /
      tileThreads / 8 * 8;
  return static_cast<int32_t>(left < cap ? left : cap);
}
/// Set by tile-tiling next to kProducerWarpAttr on a persistent kernel's
/// K loop: this many groups of the tile threads, each running the program,
/// take alternate tiles of the walk and turns at the loop's MMAs
/// (tilegpu.warp_roles groups, made by tile-promote-shared).
inline constexpr llvm::StringLiteral kConsumerGroupsAttr =
    "tile.consumer_groups";
/// Set by tile-tiling on a persistent kernel's loop over its tiles (each
/// iteration one tile, the same loops inside).
inline constexpr llvm::StringLiteral kPersistentTilesAttr = "tile.persistent_tiles";
/// Set by tile-tiling on a tile.load whose tile every block of a
/// thread-block cluster reads (a matmul's B, shared by blocks on adjacent
/// rows): its bulk copy is multicast (tilegpu.copy_bulk multicast).
inline constexpr llvm::StringLiteral kClusterSharedAttr = "tile.cluster_shared";
/// Set by tile-tiling on a tile.load whose rows past the source's end are
/// never read into a stored result (the few-rows kernels' A tile along M):
/// its bulk copy copies only the rows inside the source
/// (tilegpu.copy_bulk fit_rows).
inline constexpr llvm::StringLiteral kFitRowsAttr = "tile.fit_rows";

/// Replaces a matmul description by its block program (see tile-tiling);
/// `groupRows` tile rows form one group of the program order;
/// `warpgroupMma` picks the defaults of a Hopper warpgroup-MMA target;
/// `smallGridVariant` also builds, for a description without schedule
/// hints, a smaller-tile kernel for grids that would not fill the GPU;
/// `producerWarp` marks the K loops of warpgroup-MMA kernels for a producer
/// warp (kProducerWarpAttr).
mlir::FailureOr<tile::KernelOp> tileMatmul(mlir::RewriterBase &rewriter,
                                           tile::MatmulOp matmul,
                                           int64_t groupRows,
                                           bool warpgroupMma = false,
                                           bool smallGridVariant = false,
                                           bool producerWarp = false);

/// Copies the window that `reads` read (loads of one window by loops of one
/// block; see tile-stage-windows) into a workgroup buffer of `func`, before
/// the first of the loops, and makes the loads read it there.
void stageWindow(mlir::RewriterBase &rewriter, mlir::gpu::GPUFuncOp func,
                 llvm::ArrayRef<tile::LoadOp> reads);

/// Replaces a scan description by its block program (see tile-tiling):
/// one program per row, scanning the row piece by piece with a carry.
/// Fails with an error for the forms not tiled yet (combiner regions and
/// column scans).
mlir::FailureOr<tile::KernelOp> tileScan(mlir::RewriterBase &rewriter,
                                         tile::ScanOp scan);

/// Moves the workgroup buffers of `func` used only after its last use of
/// dynamic shared memory into that memory (see tile-reuse-staged-memory);
/// returns the bytes moved.
mlir::FailureOr<int64_t> reuseStagedMemory(mlir::RewriterBase &rewriter,
                                           mlir::gpu::GPUFuncOp func);

/// Replaces an attention description by its flash-attention block program
/// (see tile-tiling); `producerWarp` lets the schedule give its key loops a
/// producer warp (kProducerWarpAttr) by default where it pays;
/// `warpgroupMma` picks the decode kernels' defaults of a Hopper target.
mlir::FailureOr<tile::KernelOp> tileAttention(mlir::RewriterBase &rewriter,
                                              tile::AttentionOp attention,
                                              bool producerWarp = false,
                                              bool warpgroupMma = false);

/// Set by tile-bulk-copy-fallback on the fallback kernel it makes:
/// tile-promote-shared stages its operands with per-thread copies.
inline constexpr llvm::StringLiteral kNoBulkCopiesAttr = "tile.no_bulk_copies";

/// Set by tile-element-copy-fallback on the twin it makes: the kernel the
/// runtime launches when some copy source is not 4-byte aligned.
inline constexpr llvm::StringLiteral kElementCopiesAttr = "tile.element_copies";

/// Stages the tile.dot operand loads of `loop` through `stages` slots of
/// workgroup memory (see tile-promote-shared). With `swizzle`, the operands
/// of dots that fit warpgroup MMA on `threads` threads go into 128-byte
/// swizzled panels; with `bulkCopies` as well, panels of kernel arguments
/// are filled by bulk copies on transaction barriers. Returns the number of
/// promoted loads; allocates from `sharedBytes` on, and advances it.
mlir::FailureOr<unsigned>
promoteDotOperands(mlir::RewriterBase &rewriter, mlir::scf::ForOp loop,
                   int64_t stages, mlir::Value sharedBase,
                   int64_t &sharedBytes, bool swizzle = false,
                   int64_t threads = 0, bool bulkCopies = false);

/// Stages the rhs of `dot`, a dot outside any loop whose lhs is in
/// registers and whose rhs reads global memory, in one slot: copied,
/// awaited and read where the dot is (swizzled as for loops). Returns the
/// number of promoted loads.
mlir::FailureOr<unsigned>
promoteStraightLineDot(mlir::RewriterBase &rewriter, tile::DotOp dot,
                       mlir::Value sharedBase, int64_t &sharedBytes,
                       bool swizzle, int64_t threads);

/// Whether tile-promote-shared{swizzle bulk-copies} would stage some
/// operands of `kernel` with bulk copies, loops without a tile.stages
/// attribute having `defaultStages`.
bool stagesWithBulkCopies(mlir::gpu::GPUFuncOp kernel, int64_t defaultStages);

/// The buffer arguments that `kernel`'s vectorised per-thread copies of
/// elements narrower than 4 bytes (tilegpu.copy_async with vector_bytes)
/// read, in order; none if it has no such copy or one reads a buffer that is
/// not a view of an argument.
std::optional<llvm::SmallVector<int64_t>>
alignedCopySources(mlir::gpu::GPUFuncOp kernel);

/// Records in `kernel`'s tile.aligned_args that the runtime launches it only
/// with 4-byte-aligned `alignedArgs`, and, unless it has a fallback already,
/// makes its element-copy twin (see tile-element-copy-fallback), records it
/// in tile.fallback and returns it.
mlir::gpu::GPUFuncOp addElementCopyFallback(mlir::gpu::GPUFuncOp kernel,
                                            llvm::ArrayRef<int64_t> alignedArgs);

/// Clones `kernel` as `<kernel><suffix>` marked with unit attribute `marker`
/// and without small-grid or narrow variants (the runtime picks those
/// before a fallback, never after), inserts it after `kernel`, records it in
/// the kernel's tile.fallback and returns it.
mlir::gpu::GPUFuncOp addFallbackTwin(mlir::gpu::GPUFuncOp kernel,
                                     llvm::StringRef suffix,
                                     llvm::StringRef marker);

/// Makes `kernel`'s per-thread-copy twin (see tile-bulk-copy-fallback),
/// records it in the kernel's tile.fallback and returns it.
mlir::gpu::GPUFuncOp addBulkCopyFallback(mlir::gpu::GPUFuncOp kernel);

/// Gives the tiles of `kernel` (a block of `threads` threads) their layouts
/// (see tile-assign-layouts): anchored on dots, carried forward through
/// element-wise ops, loops, reductions and broadcasts, with
/// tilegpu.convert_layout where an operand arrives in another layout,
/// folded into producers that can make any layout. Fails with a located
/// error where a dot's layout cannot be chosen.
mlir::LogicalResult assignLayouts(mlir::gpu::GPUFuncOp kernel,
                                  int64_t threads);
/// Distributes the tiles of `kernel` over its threads (see tile-map-warps).
/// The kernel must have a known block size. `registerHandover`: lower warp
/// roles' registers to setmaxnreg (sm_90a), else ignore them.
/// `bulkCopies`: the target has TMA and the async proxy (sm_90 and later).
mlir::LogicalResult mapTilesToThreads(mlir::gpu::GPUFuncOp kernel,
                                      MapWarpsStats *stats = nullptr,
                                      bool registerHandover = true,
                                      bool bulkCopies = true);

#define GEN_PASS_REGISTRATION
#include "tilec/Transforms/Passes.h.inc"

} // namespace tilec

#endif // TILEC_TRANSFORMS_PASSES_H
