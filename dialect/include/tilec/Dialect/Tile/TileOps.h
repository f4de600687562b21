//===- TileOps.h - Operations of the tile dialect ---------------*- C++ -*-===//

#ifndef TILEC_DIALECT_TILE_TILEOPS_H
#define TILEC_DIALECT_TILE_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tilec/Dialect/Tile/TileDialect.h"
#include "tilec/Layout/LinearLayout.h"
#include "tilec/Layout/SharedLayout.h"

#include "tilec/Dialect/Tile/TileEnums.h.inc"

#include "tilec/Dialect/Tile/TileAttrInterfaces.h.inc"

namespace tilec::tile {

/// Marks the ops whose combiner region `tile.yield` ends: tile.scan,
/// tile.prefix and the lowering's tilegpu.lookback.
template <typename ConcreteType>
class HasCombiner
    : public mlir::OpTrait::TraitBase<ConcreteType, HasCombiner> {};

} // namespace tilec::tile

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/TileAttrs.h.inc"

namespace tilec::tile {

/// The factors of one dimension of a kernel's grid: the dimension's
/// #tile.grid, or those of its array (their product); none for anything
/// else, which the kernel's verifier rejects.
llvm::SmallVector<GridAttr> gridFactors(mlir::Attribute dimension);

} // namespace tilec::tile

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/TileOps.h.inc"

namespace tilec::tile {

/// Kernel attributes that tie the passes to the launch metadata.
/// `tile.tensor_maps`: the kernel's trailing parameters are tensor-map
/// descriptors, one per entry [buffer argument, box columns, box rows,
/// swizzle bytes] (set by tile-map-warps for tilegpu.copy_bulk).
inline constexpr llvm::StringLiteral kTensorMapsAttrName = "tile.tensor_maps";
/// `tile.fallback`: the kernel to launch instead when a buffer cannot be
/// described to the copy engine (set by tile-bulk-copy-fallback) or an
/// argument of tile.aligned_args is not aligned (tile-element-copy-fallback).
inline constexpr llvm::StringLiteral kFallbackAttrName = "tile.fallback";
/// `tile.aligned_args`: array<i64: ...>: the buffer arguments that the
/// kernel's per-thread copies read with cp.async of 4 bytes or more; the
/// runtime launches the kernel only when their starts and row pitches are
/// multiples of 4 bytes, its tile.fallback otherwise (set by
/// tile-element-copy-fallback).
inline constexpr llvm::StringLiteral kAlignedArgsAttrName = "tile.aligned_args";
/// `tile.repitch_args`: [array<i64: ARG, AXIS, MIN>, ...]: buffer arguments
/// that the runtime copies into a buffer of 16-byte pitched rows where TMA
/// rejects one only for its start or row pitches, rather than launching the
/// tile.fallback (launch metadata `repitch`). AXIS 0..2 (x, y, z): the
/// kernel only reads the buffer, each part of it by every program along
/// that grid axis (a matmul's A along a row of C's tiles), and it is copied
/// where the grid has at least MIN programs along AXIS. AXIS
/// kRepitchWrittenAxis: the kernel writes it (a matmul's C), and it is
/// copied back after the launch; MIN 1 if the kernel reads it first (an
/// accumulating C, copied in too), 0 if not. Set by tile-tiling;
/// tile-map-warps keeps the entries whose buffers got tensor maps (and
/// drops the attribute if none did).
inline constexpr llvm::StringLiteral kRepitchArgsAttrName = "tile.repitch_args";
inline constexpr int64_t kRepitchWrittenAxis = -1;
/// `tile.small_grid`: {kernel = @name, percent_of_sms = P}: the kernel (same
/// parameters, smaller tiles) to launch instead when this kernel's grid has
/// fewer blocks than P% of the multiprocessors (set by tile-tiling). The
/// variant may name one of its own, taken on its own grid: a ladder.
inline constexpr llvm::StringLiteral kSmallGridAttrName = "tile.small_grid";
/// `tile.narrow`: {kernel = @name, operand = A, dim = D, at_most = N}: the
/// kernel (same parameters) to launch instead when dimension D of buffer
/// argument A has at most N elements (set by tile-tiling for short rows).
/// Without `dim`, A is an integer scalar argument (i32 or i64) and the
/// kernel is launched instead when its value is at most N (a negative value
/// never is), e.g. packed-sequence attention's `max_seqlen_q`. Several
/// lines, each on its own operand and dimension, are an array of such
/// dictionaries, the first that holds taken (a matmul's on C's columns and
/// on its rows).
inline constexpr llvm::StringLiteral kNarrowAttrName = "tile.narrow";
/// `tile.scratch`: [FIXED, PER_PROGRAM(, Z)] bytes (a third entry 0: no
/// zero-fill, the kernel writes what it reads; 2: the FIXED bytes are
/// counters, zero-filled once and left zero by every launch, the metadata's
/// `counters`; 3: the whole buffer is zero-filled when allocated and then
/// every 2^30 launches, between which the kernel keeps it usable with an
/// epoch a launch, the metadata's `epochs`): the kernel's last user
/// argument is a memref<?xi32> (or <?xf32>) scratch buffer that the runtime
/// provides, zero-filled, with at least FIXED + PER_PROGRAM * (programs) bytes
/// (set by tile-tiling for tilegpu.ticket and tilegpu.lookback).
inline constexpr llvm::StringLiteral kScratchAttrName = "tile.scratch";
/// `tile.then`: @name: the kernel (same parameters, a scratch buffer of its
/// own declaration) the runtime launches right after this one on the same
/// stream (even when this one's grid is empty; not after a `tile.split`
/// kernel launched with one split, which writes its results itself),
/// handing it this kernel's scratch buffer as this kernel left it
/// (set by tile-tiling where a result is combined from partial ones, as
/// split-key attention's).
inline constexpr llvm::StringLiteral kThenAttrName = "tile.then";
/// `tile.waits_for_previous` (unit, on a gpu.func): the kernel begins by
/// waiting for the grid launched before it on its stream to end
/// (griddepcontrol.wait), so the runtime may launch it while that grid is
/// still running (set by tile-dependent-launch on then kernels; launch
/// metadata `waits`).
inline constexpr llvm::StringLiteral kWaitsForPreviousAttrName =
    "tile.waits_for_previous";
/// `tile.persistent`: N: the kernel walks its tiles (the product of its
/// grid) itself, with min(tiles, N * multiprocessors) blocks launched in x
/// (set by tile-tiling for persistent matmuls; launch metadata
/// `persistent N`).
inline constexpr llvm::StringLiteral kPersistentAttrName = "tile.persistent";
/// `tile.cluster`: X: the kernel runs in thread-block clusters of X blocks
/// along x (launch metadata `cluster X`), whose blocks share multicast
/// copies (set by tile-tiling with tile.persistent).
inline constexpr llvm::StringLiteral kClusterAttrName = "tile.cluster";
/// `tile.split`: N: the grid's z dimension splits each (x, y) program's work
/// (any z computes the same result), and the runtime caps it so that at
/// most N blocks a multiprocessor run in all (set by tile-tiling for
/// split-K matmuls; launch metadata `split N`).
inline constexpr llvm::StringLiteral kSplitAttrName = "tile.split";
/// `tile.split_min_parts`: P: with `tile.split`, a grid asking for fewer
/// than P splits runs unsplit (z of 1), where adding partial results would
/// cost more than the splits save (launch metadata `split N P`).
inline constexpr llvm::StringLiteral kSplitMinPartsAttrName =
    "tile.split_min_parts";
/// `tile.dynamic_shared_bytes`: N: the bytes of dynamic shared memory a
/// block needs (its staged slots and barriers, set by tile-promote-shared,
/// and the workgroup buffers tile-reuse-staged-memory moves there; launch
/// metadata `shared N`).
inline constexpr llvm::StringLiteral kDynamicSharedBytesAttrName =
    "tile.dynamic_shared_bytes";
/// `tile.min_blocks_per_sm`: N: ptxas should fit N blocks of the kernel on
/// a multiprocessor (set by tile-tiling where that measured faster; becomes
/// nvvm.minctasm in tile-occupancy-hints).
inline constexpr llvm::StringLiteral kMinBlocksPerSmAttrName =
    "tile.min_blocks_per_sm";

/// Names `variant` as `kernel`'s narrow variant (kNarrowAttrName): taken
/// when dimension `dim` of buffer argument `operand` has at most `atMost`
/// elements or, with no `dim`, when the value of integer scalar argument
/// `operand` is in [0, atMost] (the line then has no `dim` entry). A
/// kernel with a narrow line gets a second one after it, taken where the
/// first does not hold.
void setNarrowVariant(KernelOp kernel, KernelOp variant, unsigned operand,
                      std::optional<unsigned> dim, int64_t atMost);
/// The lines of a kNarrowAttrName value: the value itself, or the elements
/// of an array of them.
llvm::SmallVector<mlir::Attribute, 1> narrowLines(mlir::Attribute value);
/// Names `variant` as `kernel`'s small-grid variant (kSmallGridAttrName):
/// taken when `kernel`'s grid has fewer blocks than `percentOfSms`% of the
/// multiprocessors.
void setSmallGridVariant(KernelOp kernel, KernelOp variant,
                         int64_t percentOfSms);
/// `type` with the runtime's scratch buffer, a memref<?x`word`> (i32 or
/// f32), after its inputs (see kScratchAttrName).
mlir::FunctionType withScratchArgument(mlir::FunctionType type,
                                       mlir::Type word);

/// Checks that `type` can be a tile: statically shaped, rank >= 1, every
/// dimension a power of two, no encoding but a layout that fits the shape. On failure, emits an error through `emitError`
/// naming `what` (e.g. "result").
mlir::LogicalResult
verifyTileShape(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                mlir::Type type, llvm::StringRef what);

/// `x . y` under `kind` (signed for integers, NaN-propagating max/min for
/// floats): one arith op, element-wise on tiles.
mlir::Value buildCombine(mlir::OpBuilder &b, mlir::Location loc,
                         ReduceKind kind, mlir::Value x, mlir::Value y);
/// The value `kind` leaves unchanged, of scalar type `type`: 0, 1, the
/// lowest or the highest value (-inf / +inf for floats).
mlir::TypedAttr getIdentity(ReduceKind kind, mlir::Type type);

/// How an op of the scan family (tile.scan, tile.prefix, tilegpu.lookback)
/// combines tuples: its kind on each operand on its own, or its combiner
/// region over the whole tuple.
class TupleCombiner {
public:
  TupleCombiner(std::optional<ReduceKind> kind, mlir::Region &region)
      : kind(kind), region(kind ? nullptr : &region) {}

  std::optional<ReduceKind> getKind() const { return kind; }
  mlir::Region *getRegion() const { return region; }

  /// earlier . later, operand by operand for a kind. Scalars, or tiles of
  /// one shape: the region's element-wise ops then apply to whole tiles.
  llvm::SmallVector<mlir::Value> combine(mlir::OpBuilder &b,
                                         mlir::Location loc,
                                         mlir::ValueRange earlier,
                                         mlir::ValueRange later) const;

private:
  std::optional<ReduceKind> kind;
  mlir::Region *region;
};

/// Where batch, heads and sequence sit in tile.attention's buffers (the
/// head dim is last in every order). `thd` buffers are 3-D [tokens, heads,
/// d] of packed sequences: no batch dimension.
struct AttentionDimPositions {
  std::optional<unsigned> batch;
  unsigned heads, seq;
  /// The buffers' rank.
  unsigned rank() const { return batch ? 4 : 3; }
};
AttentionDimPositions attentionDimPositions(AttentionLayout layout);

/// Rebuilds the element-wise arith and math ops of `body` (ending in
/// tile.yield) on `args`, which replace its arguments: on scalars as they
/// are; on tiles of one shape, each op on the tiles of its element type,
/// index values as i32 tiles. Returns the yielded values.
llvm::SmallVector<mlir::Value> applyElementwiseBody(mlir::OpBuilder &b,
                                                    mlir::Location loc,
                                                    mlir::Block &body,
                                                    mlir::ValueRange args);

/// The element types of tiles (or the scalars themselves) that a combiner
/// combines.
llvm::SmallVector<mlir::Type> elementTypesOf(mlir::TypeRange types);

/// The combiner choice of the scan family (tile.scan, tile.prefix,
/// tilegpu.lookback): a kind or a region, not both; an identity tuple only
/// with a region, and then one value per operand, which an exclusive scan
/// needs.
mlir::LogicalResult
verifyCombinerChoice(mlir::Operation *op, std::optional<ReduceKind> kind,
                     mlir::Region &combiner,
                     std::optional<mlir::ArrayAttr> identity, bool exclusive,
                     mlir::TypeRange elementTypes);

/// A combiner region over n-tuples of `elementTypes`: 2n arguments (the
/// earlier tuple, then the later one), element-wise arith and math ops
/// (so that the lowerings can apply it to scalars and tiles alike), and a
/// tile.yield of n values of those types.
mlir::LogicalResult verifyCombinerRegion(mlir::Operation *op,
                                         mlir::Region &combiner,
                                         mlir::TypeRange elementTypes);

/// Checks that `buffer` is the contiguous workgroup buffer in which
/// `encoding` places a tile of `tileShape` (tile.load of a tile so encoded,
/// and the lowering's copies with a `layout`).
mlir::LogicalResult verifySharedBuffer(mlir::Operation *op,
                                       SharedEncodingAttrInterface encoding,
                                       mlir::MemRefType buffer,
                                       llvm::ArrayRef<int64_t> tileShape);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TILEOPS_H
