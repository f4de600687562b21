//===- LinearLayout.h - Tiles spread over threads, GF(2) maps --*- C++ -*-===//
//
// A layout says which element of a tile each register slot of each thread of
// a block holds. Every layout tilec uses is *linear over GF(2)*: the inputs
// are the bits of the slot (Register), of the lane (Lane, always 5 bits) and
// of the warp (Warp); each input bit has a basis vector, one coordinate per
// tensor dimension, and the element at (slot, lane, warp) is the per-dimension
// XOR of the basis vectors of the set input bits. Every tile dimension is a
// power of two, so XOR of coordinates is XOR of row-major indices, and
// questions such as "who holds this element" or "does this conversion stay
// inside a thread" become small linear algebra instead of enumeration.
//
// A zero basis vector means the bit replicates: the threads (or slots) that
// differ in that bit hold the same element.
//
// The library is plain C++ over LLVM's ADT/Support, without MLIR, so that the
// layout algebra can be tested exhaustively on its own.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LAYOUT_LINEARLAYOUT_H
#define TILEC_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace tilec {
namespace layout {

/// The input dimensions of a layout, from the fastest-varying (within a
/// thread) to the slowest.
enum class InDim { Register = 0, Lane = 1, Warp = 2 };

/// The number of lane bits: a warp is 32 lanes.
constexpr unsigned kLaneBits = 5;

class LinearLayout {
public:
  /// One coordinate per tensor dimension.
  using Basis = llvm::SmallVector<int64_t, 2>;

  /// A layout from explicit basis vectors. Preconditions (checked by
  /// isValid, asserted here): every shape dimension is a power of two,
  /// exactly 5 lane bases, every basis has one coordinate per dimension, in
  /// [0, shape[d]), and the element and input spaces have at most 62 bits.
  LinearLayout(llvm::ArrayRef<int64_t> shape,
               llvm::SmallVector<Basis> registers,
               llvm::SmallVector<Basis> lanes, llvm::SmallVector<Basis> warps);

  static bool isValid(llvm::ArrayRef<int64_t> shape,
                      llvm::ArrayRef<Basis> registers,
                      llvm::ArrayRef<Basis> lanes, llvm::ArrayRef<Basis> warps);
  /// The constructor for bases that come from user input: nullopt where
  /// isValid fails.
  static std::optional<LinearLayout>
  tryCreate(llvm::ArrayRef<int64_t> shape, llvm::SmallVector<Basis> registers,
            llvm::SmallVector<Basis> lanes, llvm::SmallVector<Basis> warps);

  //===--------------------------------------------------------------------===//
  // The layouts tilec uses. Each plain factory asserts its canBuild
  // predicate; the try* form returns nullopt instead, for sizes that come
  // from user input.
  //===--------------------------------------------------------------------===//

  /// The blocked layout of tile-map-warps, over `threads` threads (a power
  /// of two >= 32). The n elements, in row-major order l, are cut into
  /// chunks of V = min(4, n / threads) consecutive elements and dealt round
  /// robin: slot s of thread t holds l = (s / V * threads + t) * V + s % V.
  /// Tiles with n < threads elements are replicated: thread t holds the one
  /// element l = t mod n.
  static LinearLayout blocked(llvm::ArrayRef<int64_t> shape, int64_t threads);
  static bool canBuildBlocked(llvm::ArrayRef<int64_t> shape, int64_t threads);
  static std::optional<LinearLayout> tryBlocked(llvm::ArrayRef<int64_t> shape,
                                                int64_t threads);

  /// The accumulator (C/D) fragments of mma.sync m16n8, also used for
  /// Hopper wgmma accumulators (16 rows per warp). Warp w covers the
  /// (rows / warpsM) x (cols / warpsN) warp tile at (w % warpsM,
  /// w / warpsM); inside it, slot s is fragment s / 4 (fragments row-major
  /// over 16x8 pieces), and in a fragment lane l holds row l / 4 (+8 for
  /// bit 1 of s) and columns (l % 4) * 2 + (s % 2).
  /// With `stridedRows` a warp's rows of fragments lie 16 * warpsM rows
  /// apart (warp w's row of fragments i at 16 (w % warpsM) + 16 warpsM i)
  /// instead of together, as repeated warpgroup MMAs leave them.
  /// Preconditions: powers of two, rows % (16 * warpsM) == 0,
  /// cols % (8 * warpsN) == 0.
  static LinearLayout mmaAccumulator(int64_t rows, int64_t cols, int64_t warpsM,
                                     int64_t warpsN, bool stridedRows = false);
  static bool canBuildMmaAccumulator(int64_t rows, int64_t cols, int64_t warpsM,
                                     int64_t warpsN);
  static std::optional<LinearLayout>
  tryMmaAccumulator(int64_t rows, int64_t cols, int64_t warpsM, int64_t warpsN);

  /// The accumulator of the outer-product (FMA) dot: a threadsM x threadsN
  /// thread grid (thread t at (t % threadsM, t / threadsM)); each thread
  /// holds a (rows / threadsM) x (cols / threadsN) block, slots row-major,
  /// made of groupM x groupN groups of adjacent elements that repeat every
  /// threadsM * groupM rows and threadsN * groupN columns:
  ///   row = ti*gm + (i/gm)*tm*gm + i%gm,  col = tj*gn + (j/gn)*tn*gn + j%gn.
  /// Preconditions: powers of two, rows % (threadsM * groupM) == 0,
  /// cols % (threadsN * groupN) == 0. With threadsM * threadsN < 32 (not
  /// used by tilec) the upper lanes replicate the lower ones.
  static LinearLayout fmaAccumulator(int64_t rows, int64_t cols,
                                     int64_t threadsM, int64_t threadsN,
                                     int64_t groupM, int64_t groupN);
  static bool canBuildFmaAccumulator(int64_t rows, int64_t cols,
                                     int64_t threadsM, int64_t threadsN,
                                     int64_t groupM, int64_t groupN);
  static std::optional<LinearLayout>
  tryFmaAccumulator(int64_t rows, int64_t cols, int64_t threadsM,
                    int64_t threadsN, int64_t groupM, int64_t groupN);

  /// The A (M x K) operand fragments of mma.sync m16n8k16 with 16-bit
  /// elements, as the PTX ISA lays them out: in each 16x16 tile, lane l
  /// (g = l / 4, t = l % 4) holds register element i (0..7) at
  /// row g + 8 * ((i / 2) % 2), column t * 2 + i % 2 + 8 * (i / 4).
  /// Warp w takes rows (w % warpsM) * M / warpsM onwards; the warps along N
  /// (w / warpsM) hold copies. Inside a warp the tiles are ordered with K
  /// fastest, s = ((mTile * (K / 16) + kTile) * 8 + i), so that one k16 step
  /// of the warp reads 8 consecutive slots per m tile.
  /// Preconditions: powers of two, M % (16 * warpsM) == 0, K % 16 == 0.
  static LinearLayout mmaOperandA(int64_t rows, int64_t cols, int64_t warpsM,
                                  int64_t warpsN);
  static bool canBuildMmaOperandA(int64_t rows, int64_t cols, int64_t warpsM,
                                  int64_t warpsN);
  static std::optional<LinearLayout>
  tryMmaOperandA(int64_t rows, int64_t cols, int64_t warpsM, int64_t warpsN);

  /// The B (K x N) operand fragments of mma.sync m16n8k16 with 16-bit
  /// elements: in each 16x8 tile, lane l (g = l / 4, t = l % 4) holds
  /// register element i (0..3) at k = t * 2 + i % 2 + 8 * (i / 2), n = g.
  /// Warp w takes columns (w / warpsM) * N / warpsN onwards; the warps along
  /// M hold copies. Tiles are ordered with K fastest,
  /// s = ((nTile * (K / 16) + kTile) * 4 + i).
  /// Preconditions: powers of two, K % 16 == 0, N % (8 * warpsN) == 0.
  static LinearLayout mmaOperandB(int64_t rows, int64_t cols, int64_t warpsM,
                                  int64_t warpsN);
  static bool canBuildMmaOperandB(int64_t rows, int64_t cols, int64_t warpsM,
                                  int64_t warpsN);
  static std::optional<LinearLayout>
  tryMmaOperandB(int64_t rows, int64_t cols, int64_t warpsM, int64_t warpsN);

  //===--------------------------------------------------------------------===//
  // Queries
  //===--------------------------------------------------------------------===//

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  unsigned getRank() const { return shape.size(); }
  int64_t getNumElements() const { return int64_t(1) << outBits; }
  unsigned getNumBits(InDim in) const { return bases[index(in)].size(); }
  /// Register slots per thread: 2^(register bits).
  int64_t getPerThread() const {
    return int64_t(1) << getNumBits(InDim::Register);
  }
  int64_t getNumWarps() const { return int64_t(1) << getNumBits(InDim::Warp); }
  /// Threads of the block: 32 * warps.
  int64_t getNumThreads() const { return 32 * getNumWarps(); }
  const Basis &getBasis(InDim in, unsigned bit) const {
    return bases[index(in)][bit];
  }
  llvm::ArrayRef<Basis> getBases(InDim in) const { return bases[index(in)]; }

  /// The coordinates of the element held by slot `reg` of lane `lane` of
  /// warp `warp`.
  llvm::SmallVector<int64_t> apply(int64_t reg, int64_t lane,
                                   int64_t warp) const;
  /// The same element as a row-major index, without building coordinates.
  int64_t applyIndex(int64_t reg, int64_t lane, int64_t warp) const;
  /// apply() by block thread id: lane = tid % 32, warp = tid / 32.
  llvm::SmallVector<int64_t> applyThread(int64_t slot, int64_t threadId) const;

  /// Row-major index of `coords`, and back.
  int64_t rowMajorIndex(llvm::ArrayRef<int64_t> coords) const;
  llvm::SmallVector<int64_t> delinearize(int64_t index) const;

  /// Every element is held by some (slot, lane, warp).
  bool isSurjective() const;
  /// No element is held twice: no zero basis and independent bases.
  bool isInjective() const;

  /// Who holds the element at `coords`: the holder {slot, lane, warp} with
  /// the smallest warp, then lane, then slot (the free bits of a replicated
  /// layout are zero). Nullopt when nobody holds it (or coords are out of
  /// range). Solved by the echelon form kept since construction.
  std::optional<std::array<int64_t, 3>>
  locate(llvm::ArrayRef<int64_t> coords) const;

  //===--------------------------------------------------------------------===//
  // Algebra
  //===--------------------------------------------------------------------===//

  /// The input bits `in` whose basis has a nonzero coordinate along `dim`:
  /// for a reduction along `dim`, the register bits combine inside a thread
  /// and the lane (warp) bits name the shuffles (shared-memory steps).
  llvm::SmallVector<unsigned> bitsAlong(unsigned dim, InDim in) const;

  /// For a scan along `dim`: the input bit that carries each bit of the
  /// coordinate along `dim`, from the lowest. Nullopt unless every such
  /// input bit moves along `dim` alone by one power of two, and every other
  /// basis moves nothing along `dim` (the elements of a row, in order, are
  /// then the combinations of those bits).
  std::optional<llvm::SmallVector<std::pair<InDim, unsigned>>>
  scanBits(unsigned dim) const;

  /// The register bits that survive slice(dim), in order: the k-th register
  /// bit of the slice is bit keptRegisterBits[k] of this layout. The others
  /// are the slots a reduction along `dim` folds together.
  llvm::SmallVector<unsigned> sliceKeptRegisterBits(unsigned dim) const;

  /// The layout of the result of reducing dimension `dim`: `dim` is removed
  /// from every basis; register bits whose basis becomes zero or dependent
  /// on earlier kept register bases are dropped (their slots merge inside a
  /// thread), lane and warp bits stay, as broadcasts where their basis
  /// becomes zero (those threads hold copies of the result).
  LinearLayout slice(unsigned dim) const;

  /// True when *this == parent.slice(dim): broadcasting this layout back
  /// along `dim` into `parent` needs no data movement across threads.
  bool isSliceOf(const LinearLayout &parent, unsigned dim) const;

  //===--------------------------------------------------------------------===//
  // Conversions from *this to `dst` (same shape, same number of warps).
  //===--------------------------------------------------------------------===//

  /// A conversion that only moves registers: for every dst slot s, the src
  /// slot perm[s] such that for *every* thread, src slot perm[s] holds what
  /// dst slot s holds. Nullopt when no such thread-independent map exists
  /// (it exists exactly when the lane and warp bases are equal and the dst
  /// register bases lie in the span of the src ones). Not necessarily a
  /// permutation: dst may drop or repeat slots.
  std::optional<llvm::SmallVector<int64_t>>
  registerPermutation(const LinearLayout &dst) const;

  /// Each thread already holds all of its dst elements, possibly in slots
  /// that depend on the thread (a superset of registerPermutation's cases).
  bool isThreadLocalConversion(const LinearLayout &dst) const;

  /// Each warp already holds all of the dst elements of its threads, so the
  /// conversion needs only warp shuffles. Warp bases may differ only by
  /// something every warp holds anyway (typically they are equal).
  bool isWarpLocalConversion(const LinearLayout &dst) const;

  /// A function of the lane id, affine over GF(2): constant ^ (xor of
  /// bits[i] for the set bits i of the lane).
  struct LaneAffine {
    int64_t constant = 0;
    std::array<int64_t, kLaneBits> bits = {};
    int64_t at(int64_t lane) const;
    bool isConstant() const;
    /// The distinct values over the 32 lanes, in lane order.
    llvm::SmallVector<int64_t> image() const;
  };
  /// Where dst slot s of lane l finds its element in the same warp: slot
  /// sourceSlot(l) of lane sourceLane(l).
  struct LaneShuffle {
    LaneAffine sourceLane, sourceSlot;
  };
  /// The shuffles of a warp-local conversion with equal warp bases, one
  /// per dst slot (a receiver reads sourceSlot(l) of lane sourceLane(l));
  /// nullopt otherwise.
  std::optional<llvm::SmallVector<LaneShuffle>>
  warpShuffles(const LinearLayout &dst) const;

  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  /// e.g. "[16x8] register: (0,1) (8,0) lane: (0,2) ... warp: -".
  std::string str() const;

private:
  static unsigned index(InDim in) { return static_cast<unsigned>(in); }

  /// A basis of the span of some packed vectors in echelon form, each row
  /// tagged with the combination of input bits that produces it. Rows are
  /// indexed by their highest set bit, so reduction runs from high to low.
  class Echelon {
  public:
    explicit Echelon(unsigned outBits) : rows(outBits) {}
    /// Adds `vec` (made by inputs `combo`); false when already in the span.
    bool insert(uint64_t vec, uint64_t combo);
    /// The input combination that makes `vec`, if `vec` is in the span.
    std::optional<uint64_t> solve(uint64_t vec) const;
    unsigned rank() const;

  private:
    struct Row {
      uint64_t vec = 0, combo = 0;
    };
    llvm::SmallVector<Row, 16> rows;
  };

  uint64_t pack(llvm::ArrayRef<int64_t> coords) const;
  uint64_t packedBasis(InDim in, unsigned bit) const {
    return packed[index(in)][bit];
  }
  /// The echelon form of the span of the packed bases of `ins`, fed in
  /// input order (register, lane, warp, low bits first), tagged by the
  /// packed input index.
  Echelon echelonOf(llvm::ArrayRef<InDim> ins) const;
  /// Packed input index -> {slot, lane, warp}.
  std::array<int64_t, 3> unpackInput(uint64_t combo) const;

  llvm::SmallVector<int64_t, 2> shape;
  /// Bit offset of each dimension in the row-major index.
  llvm::SmallVector<unsigned, 2> dimShift;
  unsigned outBits = 0;
  std::array<llvm::SmallVector<Basis>, 3> bases;
  /// The bases as row-major indices.
  std::array<llvm::SmallVector<uint64_t>, 3> packed;
  /// The echelon form of all bases, for locate() and the rank queries.
  Echelon all{0};
};

} // namespace layout
} // namespace tilec

#endif // TILEC_LAYOUT_LINEARLAYOUT_H
