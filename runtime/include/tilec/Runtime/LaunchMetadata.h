//===- LaunchMetadata.h - How to launch a tilec kernel ----------*- C++ -*-===//
//
// The contract between the compiler, which writes launch metadata into every
// cubin it produces, and the runtime, which reads it to check arguments and
// compute the grid so that users never do. Plain C++17: no LLVM, no CUDA.
//
// Storage: for each kernel K, the cubin holds a NUL-terminated byte array in
// global memory named `__tilec_launch_K` whose text is `serialize(meta)`:
//
//   tilec-launch 1
//   kernel softmax
//   params buffer:f32:2:?,1 buffer:f32:2:?,1 scalar:i32
//   block 128 1 1
//   grid 0.0/1 - -
//   shared 0
//
// A buffer parameter is `buffer:TYPE:RANK`, optionally followed by
// `:S0,S1,...`, RANK strides in elements as the kernel's code assumes them
// (its memref layout), `?` where it reads the view's: the runtime rejects a
// view whose stride differs in a dimension of more than one element, which
// the kernel would otherwise read as if it had the assumed stride.
//
// Optional lines follow `params` (each written only when needed; text
// without them still parses, so the version stays 1):
//
//   tensormaps 0:64x128:128 1:64x64:128
//   aligned 0 1
//   repitch 0:x:2 1:y:2 2:out
//   fallback matmul_bf16__unaligned
//   smallgrid matmul_bf16__small_grid 50
//   narrow rowscan__rows_8 0.1 8
//   scratch 16 8
//   then attn__combine
//   waits
//   persistent 1
//   cluster 2
//   split 1
//
// (a scratch line may end in `unzeroed`: `scratch 0 8448 unzeroed`)
//
// Each tensormap entry is `ARG:BOX0xBOX1[xBOX2...]:SWIZZLE`: a TMA descriptor
// over buffer argument ARG whose box is BOX0 x BOX1 ... elements, innermost
// (contiguous) dimension first, with a 0 (none), 32, 64 or 128-byte swizzle.
// `aligned ARG...` lists buffer arguments whose start and row pitches (every
// stride but the innermost, in bytes) must be multiples of 4 bytes for this
// kernel (its per-thread copies use cp.async of 4 to 16 bytes); each ARG a
// buffer argument, listed once, and only with a fallback line.
// `repitch ENTRY ...` lists buffer arguments, each with a tensor map, that
// the runtime may copy into a staging buffer of its own whose rows start on
// 16-byte boundaries when TMA cannot describe them only because a start or
// row pitch is not a multiple of 16 bytes (odd K in bf16, say), launching
// this kernel on the copies instead of the fallback. An entry is
// `ARG:AXIS:MIN` for a buffer the kernel only reads, each part of it by
// every program along grid axis AXIS (x, y or z; a matmul's A by a row of
// C's tiles): copied in (by the runtime's copy kernels or cuMemcpy2DAsync,
// on the launch stream) only where the grid has at least MIN programs along
// AXIS (reads enough to pay for a copy). `ARG:out` is a buffer the kernel
// writes (a matmul's C): copied out after the kernel and its then kernel,
// where `ARG:inout` (written after being read: an accumulating C) is copied
// in first too. Each ARG listed once, MIN at least 1. Where a copy does not
// pay or cannot help (written rows that overlap, a view too large to
// stage), the fallback runs, or without one the launch is refused.
// `fallback` names a kernel of the same module, with the same user
// parameters and no tensor maps, that the runtime launches instead when some
// buffer cannot be described by a tensor map (TMA's alignment rules) or an
// `aligned` argument is not aligned. NAME may have a fallback of its own (a
// chain: the runtime follows it to the first kernel whose conditions hold).
// `smallgrid NAME P` names a kernel of the same module, with the same user
// parameters, computing the same result for small grids (smaller tiles, or
// K split wider): the runtime launches it instead when this kernel's grid
// has fewer blocks in all than P percent of the device's multiprocessors
// (most of the GPU would idle; with a split line, x * y blocks: its z only
// splits their work).
// NAME may have a fallback and a smallgrid line of its own (a ladder: the
// runtime follows it while each rung's own grid is small; no cycles).
// `narrow NAME ARG.DIM MAX` names a kernel of the same module, with the same
// user parameters, computing the same result for narrow buffers: the runtime
// launches it instead when dimension DIM of buffer argument ARG has at most
// MAX elements. ARG must be a buffer and DIM below its rank. `narrow NAME
// ARG MAX` (no `.DIM`) chooses on an integer scalar instead: the runtime
// launches NAME when the value of argument ARG, which must be a scalar:i32
// or scalar:i64, is at most MAX (a negative value never selects it), e.g.
// `narrow attn__decode 5 16` for attention over packed sequences whose
// longest query sequence is scalar argument 5. MAX is a decimal uint64, at
// least 1; serialized in the form it was parsed. A kernel may have several
// narrow lines, each on a different ARG[.DIM] (a matmul's on C's columns
// and on its rows): the runtime takes the first, in order, whose bound
// holds. NAME may have narrow lines of its own, one on the ARG[.DIM] that
// led to it with a smaller MAX (a ladder: the runtime follows it down to
// the narrowest kernel that fits, and reports a ladder that comes back to a
// kernel), and fallback, smallgrid and scratch lines of its own, which
// apply to its own launches. The narrow choice is made first, on the
// arguments; the kernel chosen then makes its own small-grid choice, and the
// kernel chosen by that its own fallback choice (so the narrow line of a
// small-grid variant or fallback plays no part).
// `scratch FIXED PER_PROGRAM` asks the runtime for a zero-filled global
// scratch buffer (decoupled look-back scans keep a tile ticket counter and
// per-block status words there) of scratchBytes = FIXED + PER_PROGRAM *
// (number of blocks of the launch; of tiles for a persistent kernel) bytes.
// FIXED and PER_PROGRAM are decimal byte counts (uint64), each a multiple of
// 4, not both 0; at most one line.
// `scratch FIXED PER_PROGRAM unzeroed` asks for the same buffer without the
// zero-fill: the kernel writes every word it reads (partial results), so
// the launch need not pay for a memset.
// `scratch FIXED PER_PROGRAM epochs` zero-fills the whole buffer when the
// runtime allocates it and again before every 2^30-th launch after, not
// before the others: the kernel keeps it usable (a single-pass scan's last
// program resets the ticket count and advances the epoch that tags the
// statuses, so an earlier launch's statuses read as unpublished).
// `scratch FIXED PER_PROGRAM counters` zero-fills only the first FIXED bytes,
// and only when the runtime allocates the buffer: they are counters that
// the kernel leaves zero when it ends (split-K's arrival counters, which
// wrap to zero when all of a tile's programs have arrived), so launches
// need no memset; the rest is not zero-filled.
// A fallback, small-grid or narrow variant is a kernel of its own: its
// scratch line, if any, applies to its own launches.
// `then NAME` (only with a scratch line) names a kernel of the same module,
// with the same user parameters and a scratch line of its own, that the
// runtime launches right after each launch of this kernel, on the same
// stream, with the same arguments and this launch's scratch buffer as the
// kernel left it (not zero-filled again; NAME's scratch line only gives it
// the parameter), over NAME's own grid: a second pass that combines what
// the first left there (split-key attention). NAME runs even when this
// kernel's grid is empty (attention over no keys: its combine writes the
// rows that saw no key). With a split line, NAME merges the splits'
// partial results, and a launch with z' = 1 (one split) skips it: the
// kernel unsplit writes its results itself. NAME may have no fallback,
// small-grid, narrow or then line and no tensor maps; at most one line.
//
// `waits` says that the kernel begins by waiting for the grid launched
// before it on its stream to end and its memory to be visible
// (griddepcontrol.wait, sm_90), so the runtime launches it with
// programmatic stream serialization: its blocks may become resident, and
// wait, while that grid is still running (tilec marks then kernels so,
// whose first kernels let their dependents launch early). At most one
// line, without arguments.
//
// `persistent N` makes the kernel walk its tiles itself: the grid line
// gives the number of tiles (the product of its three dimensions), and the
// runtime launches a 1-D grid of min(tiles, N * multiprocessors) blocks
// (N, 1..32, the blocks that fit on a multiprocessor); block b takes tiles
// b, b + blocks, ... At most one line. A small-grid choice looks at the
// tiles, not at the blocks launched.
// `cluster X` (X in 2..8, only with a persistent line) launches the blocks
// in thread-block clusters of X along x (cuLaunchKernelEx): the persistent
// grid is rounded to whole clusters, up from the tiles and down from the
// multiprocessors (min(roundup(tiles, X), floor(N * multiprocessors / X) *
// X) blocks), and blocks b and b + 1 ... of a cluster share copies (TMA
// multicast). At most one line.
// `split N` (N in 1..32, not with a persistent line) says that the grid's z
// dimension splits the work of each (x, y) program (split-K: z programs
// take parts of one tile's K and add their partial results), so any z of
// at least 1 computes the same result: the runtime launches z' = min(z,
// max(1, floor(N * multiprocessors / (x * y)))), at most N blocks a
// multiprocessor in all (more splits would only add waves and partial
// results to add). `split N P` (P in 2..1024) also launches z' = 1 when
// z < P: a kernel whose partial results cost more to add than short
// parts of K save (split-K's, below 4 parts of 512) runs those unsplit.
// For both lines the runtime takes N no larger than the
// blocks of the kernel that fit on a multiprocessor (the driver's
// occupancy). The scratch buffer follows the launched grid. A
// small-grid choice looks at the grid of the grid line. At most one line.
//
// Grid: one field per dimension; `-` is 1, otherwise terms joined by `*`,
// each `A.D/P` = ceildiv(size of dimension D of buffer argument A, P) or
// `A/P` = ceildiv(value of integer scalar argument A, P). A dimension is the
// product of its terms, at least 1.
//
// Kernel ABI (the default MLIR memref calling convention): a scalar argument
// is passed by value; a buffer argument of rank r becomes 3 + 2r parameters:
// allocated pointer, aligned pointer, offset (i64, elements), sizes[r] (i64),
// strides[r] (i64, elements). After the user parameters, when the metadata
// has a `scratch` line, comes the scratch buffer as a rank-1 i32 buffer (5
// parameters: allocated pointer, aligned pointer (the same), offset 0, size =
// scratchBytes / 4 words, stride 1). The runtime provides it: 256-byte
// aligned, holding at least scratchBytes bytes for the grid of the kernel
// actually launched (a fallback, small-grid or narrow variant by its own
// line), and zero-filled in stream order immediately before each launch
// (cuMemsetD32Async on the launch stream over those scratchBytes / 4 words
// only: what lies beyond is undefined); the kernel may leave it dirty. A
// kernel's launches on one stream reuse one buffer; launches on two streams
// never share one. Last come the tensor maps, in metadata order, each a
// 128-byte CUtensorMap passed by value (`.param .align 64 .b8 p[128]`, i.e.
// __grid_constant__).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LAUNCHMETADATA_H
#define TILEC_RUNTIME_LAUNCHMETADATA_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

enum class ScalarType { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

/// Size in bytes of one element (i1 is stored as one byte).
unsigned scalarTypeSize(ScalarType type);
/// "f32", "bf16", ...
const char *scalarTypeName(ScalarType type);
std::optional<ScalarType> parseScalarType(std::string_view name);

struct ParamInfo {
  enum class Kind { Scalar, Buffer };
  Kind kind = Kind::Scalar;
  ScalarType type = ScalarType::F32;
  /// Rank of a buffer argument; 0 for scalars.
  unsigned rank = 0;
  /// A dimension whose stride the kernel reads from the view.
  static constexpr int64_t kDynamicStride = INT64_MIN;
  /// A buffer's strides in elements as the kernel's code assumes them (its
  /// memref layout: memref<?x?xf32> reads rows contiguously, stride 1),
  /// kDynamicStride where it reads the view's; empty where none is fixed.
  std::vector<int64_t> strides;

  /// Whether an argument of `o`'s kind, type and rank binds here (strides
  /// are checked against the view, not here).
  bool operator==(const ParamInfo &o) const {
    return kind == o.kind && type == o.type && rank == o.rank;
  }
};

/// One factor of a grid dimension: ceildiv(extent, perProgram), where extent
/// is dimension `dim` of buffer argument `arg`, or the value of integer scalar
/// argument `arg` when `dim` is empty.
struct GridTerm {
  unsigned arg = 0;
  std::optional<unsigned> dim;
  int64_t perProgram = 1;

  bool operator==(const GridTerm &o) const {
    return arg == o.arg && dim == o.dim && perProgram == o.perProgram;
  }
};

/// A TMA descriptor the runtime builds from buffer argument `arg` and passes
/// after the user parameters (see the ABI above).
struct TensorMapInfo {
  /// TMA describes at most 5 dimensions.
  static constexpr unsigned kMaxRank = 5;
  /// TMA's limit on each box extent.
  static constexpr unsigned kMaxBox = 256;

  /// Index of a buffer argument whose rank is box.size().
  unsigned arg = 0;
  /// Box extent per dimension in elements, innermost (contiguous) first.
  std::vector<unsigned> box;
  /// 0 (none), 32, 64 or 128.
  unsigned swizzleBytes = 0;
  /// The box rows a fitted dimension keeps are the buffer's extent rounded
  /// up to this.
  static constexpr unsigned kFitRows = 8;
  /// A box dimension (not the innermost) fitted to the buffer at launch:
  /// min(box, extent rounded up to kFitRows), so that a box never copies
  /// whole parts of kFitRows zeros past a short buffer's end (`:fitD` in
  /// the metadata; the kernel expects the same bytes).
  std::optional<unsigned> fitDim;

  bool operator==(const TensorMapInfo &o) const {
    return arg == o.arg && box == o.box && swizzleBytes == o.swizzleBytes &&
           fitDim == o.fitDim;
  }
};

/// A buffer argument the runtime may stage for TMA (see `repitch`).
struct RepitchArg {
  /// What the kernel does with the buffer, hence which way it is copied:
  /// read (copied in), written (copied out after the kernel and its then
  /// kernel) or both (in, then out).
  enum class Use { Read, Write, ReadWrite };

  unsigned arg = 0;
  /// For a read buffer, the grid axis (0 = x, 1 = y, 2 = z) whose programs
  /// all read each part of it.
  unsigned axis = 0;
  /// For a read buffer, the copy is made only when the grid has at least
  /// this many programs along `axis`. A written buffer is always copied.
  uint64_t minPrograms = 1;
  Use use = Use::Read;

  bool copiedIn() const { return use != Use::Write; }
  bool copiedOut() const { return use != Use::Read; }
  bool operator==(const RepitchArg &o) const {
    return arg == o.arg && use == o.use && axis == o.axis &&
           minPrograms == o.minPrograms;
  }
};

/// A kernel to launch instead when the grid is small (see `smallgrid`).
struct SmallGridVariant {
  /// Kernel of the same module; empty: none.
  std::string kernel;
  /// Launch `kernel` when blocks * 100 < percentOfSms * multiprocessors.
  unsigned percentOfSms = 0;

  bool operator==(const SmallGridVariant &o) const {
    return kernel == o.kernel && percentOfSms == o.percentOfSms;
  }
};

/// A kernel to launch instead when a buffer dimension or an integer scalar
/// is small (see `narrow`).
struct NarrowVariant {
  /// Kernel of the same module; empty: none.
  std::string kernel;
  /// Launch `kernel` when dimension `dim` of buffer argument `arg` has at
  /// most `atMost` elements or, when `dim` is empty, when the value of
  /// integer scalar argument `arg` (i32 or i64) is in [0, atMost].
  unsigned arg = 0;
  std::optional<unsigned> dim;
  uint64_t atMost = 0;

  bool operator==(const NarrowVariant &o) const {
    return kernel == o.kernel && arg == o.arg && dim == o.dim &&
           atMost == o.atMost;
  }
};

/// When the runtime zero-fills a scratch buffer (the `scratch` line's last
/// word).
enum class ScratchFill {
  /// No word: before each launch, the bytes the launch may use.
  EachLaunch,
  /// `unzeroed`: never; the kernel writes every word it reads.
  None,
  /// `counters`: the first fixedBytes, when the buffer is allocated; each
  /// launch leaves them zero.
  Counters,
  /// `epochs`: the whole buffer, when allocated and again before every
  /// kEpochsPerZeroFill-th launch after; in between, the kernel keeps it
  /// usable itself (tilec's single-pass scans: the last ticket resets the
  /// count and advances an epoch that tags each status).
  Epochs,
};

/// The global scratch buffer a kernel asks for (see `scratch`).
struct ScratchInfo {
  uint64_t fixedBytes = 0;
  uint64_t bytesPerProgram = 0;
  ScratchFill fill = ScratchFill::EachLaunch;
  /// Launches an `epochs` buffer serves between zero-fills: the scans tag
  /// their statuses with an epoch's low 30 bits (MapWarpsLookback.cpp).
  static constexpr uint64_t kEpochsPerZeroFill = uint64_t(1) << 30;

  /// Whether the kernel takes a scratch buffer at all.
  bool needed() const { return fixedBytes != 0 || bytesPerProgram != 0; }
  bool operator==(const ScratchInfo &o) const {
    return fixedBytes == o.fixedBytes && bytesPerProgram == o.bytesPerProgram &&
           fill == o.fill;
  }
};

struct LaunchMetadata {
  static constexpr int kVersion = 1;
  std::string kernel;
  std::vector<ParamInfo> params;
  std::array<unsigned, 3> block = {1, 1, 1};
  /// Each grid dimension is the product of its terms (1 when empty).
  std::array<std::vector<GridTerm>, 3> grid;
  /// Dynamic shared memory in bytes.
  unsigned sharedBytes = 0;
  /// Tensor maps passed after the user parameters, in this order.
  std::vector<TensorMapInfo> tensorMaps;
  /// Buffer arguments that must start, and have row pitches, on 4-byte
  /// boundaries for this kernel (else its fallback runs).
  std::vector<unsigned> alignedArgs;
  /// Tensor-mapped buffer arguments that the runtime copies into 16-byte
  /// pitched staging buffers, when TMA's alignment rules reject them, rather
  /// than launching the fallback (see `repitch`).
  std::vector<RepitchArg> repitch;
  /// Kernel of the same module to launch instead when some tensor map cannot
  /// be encoded for the arguments given or some aligned argument is not
  /// aligned (empty: none).
  std::string fallback;
  /// Kernel to launch instead when the grid would leave the GPU mostly idle.
  SmallGridVariant smallGrid;
  /// Kernels to launch instead when a buffer dimension or a scalar is
  /// small: the first line, in order, that holds.
  std::vector<NarrowVariant> narrow;
  /// The zero-filled scratch buffer passed after the user parameters.
  ScratchInfo scratch;
  /// Kernel of the same module launched right after this one, with this
  /// launch's scratch buffer (empty: none).
  std::string then;
  /// The kernel begins by waiting for the grid before it on the stream to
  /// end (see `waits`): it may be launched while that grid runs.
  bool waitsForPrevious = false;
  /// With N > 0, a persistent kernel: min(tiles, N * multiprocessors)
  /// blocks walk the grid's tiles (see `persistent`).
  unsigned persistentBlocksPerSm = 0;
  /// Blocks a thread-block cluster holds along x (1: no clusters).
  unsigned clusterX = 1;
  /// With N > 0, the grid's z dimension splits each (x, y) program's work
  /// and is capped at N blocks a multiprocessor in all (see `split`).
  unsigned splitBlocksPerSm = 0;
  /// With a split line, the fewest splits (z of the grid line) worth their
  /// partial results: a grid asking for fewer launches z = 1 (1: any z).
  unsigned splitMinParts = 1;

  bool operator==(const LaunchMetadata &o) const {
    return kernel == o.kernel && params == o.params && block == o.block &&
           grid == o.grid && sharedBytes == o.sharedBytes &&
           tensorMaps == o.tensorMaps && alignedArgs == o.alignedArgs &&
           repitch == o.repitch && fallback == o.fallback &&
           smallGrid == o.smallGrid && narrow == o.narrow &&
           scratch == o.scratch && then == o.then &&
           waitsForPrevious == o.waitsForPrevious &&
           persistentBlocksPerSm == o.persistentBlocksPerSm &&
           clusterX == o.clusterX && splitBlocksPerSm == o.splitBlocksPerSm &&
           splitMinParts == o.splitMinParts;
  }
};

/// Name of the global that holds the metadata of `kernel` in a cubin.
std::string launchMetadataSymbol(std::string_view kernel);

std::string serialize(const LaunchMetadata &meta);

/// Parses `serialize`'s output. On failure returns nullopt and, if `error` is
/// given, a one-line reason.
std::optional<LaunchMetadata> parseLaunchMetadata(std::string_view text,
                                                  std::string *error = nullptr);

/// Whether `meta`'s smallgrid variant should run instead of its kernel on
/// `grid` (the kernel's own grid, see computeGrid) on a device with
/// `multiprocessors` SMs: blocks * 100 < percentOfSms * multiprocessors,
/// where a split grid's blocks are its x * y (z only splits them). False
/// when the metadata names no variant, `multiprocessors` is not positive, or
/// the grid is empty (it launches nothing).
bool prefersSmallGrid(const LaunchMetadata &meta,
                      const std::array<uint64_t, 3> &grid, int multiprocessors);

/// The grid to launch for `grid` (see computeGrid) on a device with
/// `multiprocessors` SMs: `grid` itself, or for a persistent kernel
/// {min(tiles, persistentBlocksPerSm * multiprocessors), 1, 1} (all tiles
/// when `multiprocessors` is not positive), in whole clusters (see
/// `cluster`), or for a split grid `grid` with z capped (see `split`; z as
/// it is when `multiprocessors` is not positive). Where `residentPerSm`,
/// the kernel's blocks that fit on a multiprocessor at once, is positive,
/// it caps the metadata's blocks an SM: a block the device cannot hold
/// would only make a second wave.
std::array<uint64_t, 3> launchGrid(const LaunchMetadata &meta,
                                   const std::array<uint64_t, 3> &grid,
                                   int multiprocessors, int residentPerSm = 0);

/// Whether `grid` has no program (a dimension of 0): it launches nothing.
inline bool isEmptyGrid(const std::array<uint64_t, 3> &grid) {
  return grid[0] == 0 || grid[1] == 0 || grid[2] == 0;
}

/// Whether a launch of `meta`'s kernel on `launched` (launchGrid's grid)
/// runs its then kernel: when it has one, but not after a split kernel ran
/// unsplit (z of 1, a grid not empty; see `then`).
bool thenRuns(const LaunchMetadata &meta,
              const std::array<uint64_t, 3> &launched);

/// Whether the variant of narrow line `narrow` should run instead of its
/// kernel when dimension `narrow.dim` of buffer argument `narrow.arg` has
/// `extent` elements, or (no `narrow.dim`) scalar argument `narrow.arg` has
/// the non-negative value `extent`: extent <= atMost. False when the line
/// names no variant.
bool prefersNarrow(const NarrowVariant &narrow, uint64_t extent);

/// The bytes of scratch buffer `meta` needs on `grid` (see computeGrid):
/// fixedBytes + bytesPerProgram * grid[0] * grid[1] * grid[2]; 0 when it
/// needs none. UINT64_MAX when that overflows 64 bits, which parsed metadata
/// cannot otherwise produce (it is not a multiple of 4); the launch reports
/// it as an error.
uint64_t scratchBytes(const LaunchMetadata &meta,
                      const std::array<uint64_t, 3> &grid);

/// The scratch buffer's state between launches, as the runtime keeps it
/// per kernel and stream.
struct ScratchState {
  /// The bytes allocated (0: none yet).
  uint64_t capacityBytes = 0;
  /// Launches since the last zero-fill of the whole buffer (`epochs`).
  uint64_t launchesSinceFill = 0;
};

/// The bytes, from the start, of a scratch buffer to zero-fill before a
/// launch that uses `launchBytes` of it, `allocated` telling whether the
/// buffer (of `state.capacityBytes`) was just allocated for this launch
/// (see ScratchFill); updates `state`'s count of launches.
uint64_t scratchBytesToZero(const ScratchInfo &info, bool allocated,
                            uint64_t launchBytes, ScratchState &state);

/// The grid a launch's scratch buffer is sized for (scratchBytes): the
/// tiles (`grid`, see computeGrid) of a persistent kernel, whose status
/// words are a tile's, else the blocks `launched` (launchGrid).
std::array<uint64_t, 3> scratchGrid(const LaunchMetadata &meta,
                                    const std::array<uint64_t, 3> &grid,
                                    const std::array<uint64_t, 3> &launched);

} // namespace tilec

#endif // TILEC_RUNTIME_LAUNCHMETADATA_H
