//===- LinearLayout.cpp - Tiles spread over threads, as GF(2) maps --------===//

#include "tilec/Layout/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace tilec::layout;
using llvm::ArrayRef;
using llvm::SmallVector;
using Basis = LinearLayout::Basis;

/// Packed vectors live in uint64_t; two bits of headroom keep every shift
/// below well defined.
static constexpr unsigned kMaxBits = 62;

static constexpr InDim kInDims[] = {InDim::Register, InDim::Lane, InDim::Warp};

static bool isPow2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }

static unsigned log2(int64_t v) { return llvm::Log2_64(uint64_t(v)); }

//===----------------------------------------------------------------------===//
// Echelon form over GF(2)
//===----------------------------------------------------------------------===//

bool LinearLayout::Echelon::insert(uint64_t vec, uint64_t combo) {
  for (unsigned bit = rows.size(); bit-- > 0;) {
    if (!(vec >> bit & 1))
      continue;
    if (rows[bit].vec == 0) {
      rows[bit] = {vec, combo};
      return true;
    }
    vec ^= rows[bit].vec;
    combo ^= rows[bit].combo;
  }
  return false;
}

// Inputs are inserted in increasing order, so a row's combination uses only
// pivot inputs (those independent of all lower inputs) and the solution sets
// every free input to zero. Any other solution differs by a kernel vector,
// whose highest bit is a free input, so it is larger: this one is minimal.
std::optional<uint64_t> LinearLayout::Echelon::solve(uint64_t vec) const {
  if (rows.size() < 64 && (vec >> rows.size()) != 0)
    return std::nullopt;
  uint64_t combo = 0;
  for (unsigned bit = rows.size(); bit-- > 0;) {
    if (!(vec >> bit & 1))
      continue;
    if (rows[bit].vec == 0)
      return std::nullopt;
    vec ^= rows[bit].vec;
    combo ^= rows[bit].combo;
  }
  return combo;
}

unsigned LinearLayout::Echelon::rank() const {
  unsigned rank = 0;
  for (const Row &row : rows)
    rank += row.vec != 0;
  return rank;
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

bool LinearLayout::isValid(ArrayRef<int64_t> shape, ArrayRef<Basis> registers,
                           ArrayRef<Basis> lanes, ArrayRef<Basis> warps) {
  unsigned outBits = 0;
  for (int64_t size : shape) {
    if (!isPow2(size))
      return false;
    outBits += log2(size);
  }
  if (outBits > kMaxBits || lanes.size() != kLaneBits ||
      registers.size() + lanes.size() + warps.size() > kMaxBits)
    return false;
  for (ArrayRef<Basis> group : {registers, lanes, warps})
    for (const Basis &basis : group) {
      if (basis.size() != shape.size())
        return false;
      for (unsigned d = 0; d < shape.size(); ++d)
        if (basis[d] < 0 || basis[d] >= shape[d])
          return false;
    }
  return true;
}

LinearLayout::LinearLayout(ArrayRef<int64_t> shape,
                           SmallVector<Basis> registers,
                           SmallVector<Basis> lanes, SmallVector<Basis> warps)
    : shape(shape.begin(), shape.end()) {
  assert(isValid(shape, registers, lanes, warps) && "invalid linear layout");
  // Row-major: the innermost dimension takes the low bits.
  dimShift.resize(shape.size());
  for (unsigned d = shape.size(); d-- > 0;) {
    dimShift[d] = outBits;
    outBits += log2(shape[d]);
  }
  bases = {std::move(registers), std::move(lanes), std::move(warps)};
  all = Echelon(outBits);
  unsigned inputBit = 0;
  for (InDim in : kInDims)
    for (const Basis &basis : bases[index(in)]) {
      packed[index(in)].push_back(pack(basis));
      all.insert(packed[index(in)].back(), uint64_t(1) << inputBit++);
    }
}

std::optional<LinearLayout>
LinearLayout::tryCreate(ArrayRef<int64_t> shape, SmallVector<Basis> registers,
                        SmallVector<Basis> lanes, SmallVector<Basis> warps) {
  if (!isValid(shape, registers, lanes, warps))
    return std::nullopt;
  return LinearLayout(shape, std::move(registers), std::move(lanes),
                      std::move(warps));
}

uint64_t LinearLayout::pack(ArrayRef<int64_t> coords) const {
  uint64_t value = 0;
  for (unsigned d = 0; d < coords.size(); ++d)
    value |= uint64_t(coords[d]) << dimShift[d];
  return value;
}

//===----------------------------------------------------------------------===//
// The layouts tilec uses
//===----------------------------------------------------------------------===//

namespace {
/// Collects the bases of one layout: each input bit is given as "this much
/// along dimension d" (a power of two) or as a broadcast.
struct BasisBuilder {
  explicit BasisBuilder(ArrayRef<int64_t> shape) : shape(shape) {}

  Basis along(unsigned dim, int64_t step) const {
    Basis basis(shape.size(), 0);
    basis[dim] = step;
    return basis;
  }
  Basis zero() const { return Basis(shape.size(), 0); }
  /// The basis of bit `bit` of the row-major index.
  Basis linearBit(unsigned bit) const {
    for (unsigned d = shape.size(); d-- > 0;) {
      unsigned width = log2(shape[d]);
      if (bit < width)
        return along(d, int64_t(1) << bit);
      bit -= width;
    }
    assert(false && "row-major bit out of range");
    return zero();
  }
  /// Appends `count` bits stepping along `dim` by step, 2 * step, ...
  void addAlong(SmallVector<Basis> &to, unsigned dim, int64_t step,
                unsigned count) const {
    for (unsigned i = 0; i < count; ++i)
      to.push_back(along(dim, step << i));
  }
  void addZero(SmallVector<Basis> &to, unsigned count) const {
    to.append(count, zero());
  }

  ArrayRef<int64_t> shape;
};

/// Splits the thread-id bases of a layout into lane and warp bases.
void splitThreadBits(SmallVector<Basis> &threadBases, SmallVector<Basis> &lanes,
                     SmallVector<Basis> &warps) {
  for (unsigned i = 0; i < threadBases.size(); ++i)
    (i < kLaneBits ? lanes : warps).push_back(std::move(threadBases[i]));
}
} // namespace

bool LinearLayout::canBuildBlocked(ArrayRef<int64_t> shape, int64_t threads) {
  unsigned bits = 0;
  for (int64_t size : shape) {
    if (!isPow2(size))
      return false;
    bits += log2(size);
  }
  return bits <= kMaxBits && isPow2(threads) && threads >= 32 &&
         log2(threads) <= kMaxBits / 2;
}

LinearLayout LinearLayout::blocked(ArrayRef<int64_t> shape, int64_t threads) {
  assert(canBuildBlocked(shape, threads));
  BasisBuilder b(shape);
  unsigned elementBits = 0;
  for (int64_t size : shape)
    elementBits += log2(size);
  unsigned threadBits = log2(threads);
  SmallVector<Basis> registers, threadBases;
  if (elementBits < threadBits) {
    // Replicated: thread t holds element t mod n, so the thread bits above
    // log2(n) broadcast.
    for (unsigned i = 0; i < threadBits; ++i)
      threadBases.push_back(i < elementBits ? b.linearBit(i) : b.zero());
  } else {
    // l = (s / V * T + t) * V + s % V: the low v slot bits, then the thread
    // bits, then the remaining slot bits.
    unsigned slotBits = elementBits - threadBits;
    unsigned vectorBits = std::min(2u, slotBits);
    for (unsigned i = 0; i < slotBits; ++i)
      registers.push_back(b.linearBit(i < vectorBits ? i : i + threadBits));
    for (unsigned i = 0; i < threadBits; ++i)
      threadBases.push_back(b.linearBit(vectorBits + i));
  }
  SmallVector<Basis> lanes, warps;
  splitThreadBits(threadBases, lanes, warps);
  return LinearLayout(shape, std::move(registers), std::move(lanes),
                      std::move(warps));
}

std::optional<LinearLayout> LinearLayout::tryBlocked(ArrayRef<int64_t> shape,
                                                     int64_t threads) {
  if (!canBuildBlocked(shape, threads))
    return std::nullopt;
  return blocked(shape, threads);
}

/// Shared precondition of the 2-D layouts: powers of two, a grid of
/// gridM x gridN cells of at least minRows x minCols each, and input bits
/// (elements, plus replicating lanes and `copies` replicating warps) that
/// fit the packing.
static bool fitsGrid(int64_t rows, int64_t cols, int64_t gridM, int64_t gridN,
                     int64_t minRows, int64_t minCols, int64_t copies = 1) {
  for (int64_t v : {rows, cols, gridM, gridN, minRows, minCols, copies})
    if (!isPow2(v))
      return false;
  return log2(gridM) + log2(minRows) <= log2(rows) &&
         log2(gridN) + log2(minCols) <= log2(cols) &&
         log2(rows) + log2(cols) + kLaneBits + log2(copies) <= kMaxBits;
}

bool LinearLayout::canBuildMmaAccumulator(int64_t rows, int64_t cols,
                                          int64_t warpsM, int64_t warpsN) {
  return fitsGrid(rows, cols, warpsM, warpsN, 16, 8);
}

LinearLayout LinearLayout::mmaAccumulator(int64_t rows, int64_t cols,
                                          int64_t warpsM, int64_t warpsN,
                                          bool stridedRows) {
  assert(canBuildMmaAccumulator(rows, cols, warpsM, warpsN));
  int64_t shape[] = {rows, cols};
  BasisBuilder b(shape);
  int64_t warpTileM = rows / warpsM, warpTileN = cols / warpsN;
  SmallVector<Basis> registers, lanes, warps;
  // s = frag * 4 + half * 2 + c, frag = fm * fragCols + fn.
  registers.push_back(b.along(1, 1));                 // c
  registers.push_back(b.along(0, 8));                 // half
  b.addAlong(registers, 1, 8, log2(warpTileN / 8));   // fn
  // fm: the next 16 rows, or (strided) the next 16 rows of every warp.
  b.addAlong(registers, 0, stridedRows ? 16 * warpsM : 16,
             log2(warpTileM / 16));
  // Lane l: column (l % 4) * 2, row l / 4.
  b.addAlong(lanes, 1, 2, 2);
  b.addAlong(lanes, 0, 1, 3);
  // Warp w: warp tile (w % warpsM, w / warpsM); strided, its first 16 rows.
  b.addAlong(warps, 0, stridedRows ? 16 : warpTileM, log2(warpsM));
  b.addAlong(warps, 1, warpTileN, log2(warpsN));
  return LinearLayout(shape, std::move(registers), std::move(lanes),
                      std::move(warps));
}

std::optional<LinearLayout> LinearLayout::tryMmaAccumulator(int64_t rows,
                                                            int64_t cols,
                                                            int64_t warpsM,
                                                            int64_t warpsN) {
  if (!canBuildMmaAccumulator(rows, cols, warpsM, warpsN))
    return std::nullopt;
  return mmaAccumulator(rows, cols, warpsM, warpsN);
}

bool LinearLayout::canBuildFmaAccumulator(int64_t rows, int64_t cols,
                                          int64_t threadsM, int64_t threadsN,
                                          int64_t groupM, int64_t groupN) {
  return fitsGrid(rows, cols, threadsM, threadsN, groupM, groupN);
}

LinearLayout LinearLayout::fmaAccumulator(int64_t rows, int64_t cols,
                                          int64_t threadsM, int64_t threadsN,
                                          int64_t groupM, int64_t groupN) {
  assert(
      canBuildFmaAccumulator(rows, cols, threadsM, threadsN, groupM, groupN));
  int64_t shape[] = {rows, cols};
  BasisBuilder b(shape);
  int64_t threadRows = rows / threadsM, threadCols = cols / threadsN;
  SmallVector<Basis> registers, threadBases;
  // s = i * threadCols + j; each of i, j is (group index, index in group).
  b.addAlong(registers, 1, 1, log2(groupN));
  b.addAlong(registers, 1, threadsN * groupN, log2(threadCols / groupN));
  b.addAlong(registers, 0, 1, log2(groupM));
  b.addAlong(registers, 0, threadsM * groupM, log2(threadRows / groupM));
  // t = tj * threadsM + ti; a block under 32 threads replicates over lanes.
  b.addAlong(threadBases, 0, groupM, log2(threadsM));
  b.addAlong(threadBases, 1, groupN, log2(threadsN));
  if (threadBases.size() < kLaneBits)
    b.addZero(threadBases, kLaneBits - threadBases.size());
  SmallVector<Basis> lanes, warps;
  splitThreadBits(threadBases, lanes, warps);
  return LinearLayout(shape, std::move(registers), std::move(lanes),
                      std::move(warps));
}

std::optional<LinearLayout>
LinearLayout::tryFmaAccumulator(int64_t rows, int64_t cols, int64_t threadsM,
                                int64_t threadsN, int64_t groupM,
                                int64_t groupN) {
  if (!canBuildFmaAccumulator(rows, cols, threadsM, threadsN, groupM, groupN))
    return std::nullopt;
  return fmaAccumulator(rows, cols, threadsM, threadsN, groupM, groupN);
}

bool LinearLayout::canBuildMmaOperandA(int64_t rows, int64_t cols,
                                       int64_t warpsM, int64_t warpsN) {
  return fitsGrid(rows, cols, warpsM, 1, 16, 16, /*copies=*/warpsN);
}

LinearLayout LinearLayout::mmaOperandA(int64_t rows, int64_t cols,
                                       int64_t warpsM, int64_t warpsN) {
  assert(canBuildMmaOperandA(rows, cols, warpsM, warpsN));
  int64_t shape[] = {rows, cols};
  BasisBuilder b(shape);
  int64_t warpTileM = rows / warpsM;
  SmallVector<Basis> registers, lanes, warps;
  // s = ((mTile * (K / 16) + kTile) * 8 + i).
  registers.push_back(b.along(1, 1));                 // i % 2
  registers.push_back(b.along(0, 8));                 // (i / 2) % 2
  registers.push_back(b.along(1, 8));                 // i / 4
  b.addAlong(registers, 1, 16, log2(cols / 16));      // kTile
  b.addAlong(registers, 0, 16, log2(warpTileM / 16)); // mTile
  // Lane l: column (l % 4) * 2, row l / 4.
  b.addAlong(lanes, 1, 2, 2);
  b.addAlong(lanes, 0, 1, 3);
  // The warps along N need the same rows of A: copies.
  b.addAlong(warps, 0, warpTileM, log2(warpsM));
  b.addZero(warps, log2(warpsN));
  return LinearLayout(shape, std::move(registers), std::move(lanes),
                      std::move(warps));
}

std::optional<LinearLayout> LinearLayout::tryMmaOperandA(int64_t rows,
                                                         int64_t cols,
                                                         int64_t warpsM,
                                                         int64_t warpsN) {
  if (!canBuildMmaOperandA(rows, cols, warpsM, warpsN))
    return std::nullopt;
  return mmaOperandA(rows, cols, warpsM, warpsN);
}

bool LinearLayout::canBuildMmaOperandB(int64_t rows, int64_t cols,
                                       int64_t warpsM, int64_t warpsN) {
  return fitsGrid(rows, cols, 1, warpsN, 16, 8, /*copies=*/warpsM);
}

LinearLayout LinearLayout::mmaOperandB(int64_t rows, int64_t cols,
                                       int64_t warpsM, int64_t warpsN) {
  assert(canBuildMmaOperandB(rows, cols, warpsM, warpsN));
  int64_t shape[] = {rows, cols};
  BasisBuilder b(shape);
  int64_t warpTileN = cols / warpsN;
  SmallVector<Basis> registers, lanes, warps;
  // s = ((nTile * (K / 16) + kTile) * 4 + i).
  registers.push_back(b.along(0, 1));               // i % 2
  registers.push_back(b.along(0, 8));               // i / 2
  b.addAlong(registers, 0, 16, log2(rows / 16));    // kTile
  b.addAlong(registers, 1, 8, log2(warpTileN / 8)); // nTile
  // Lane l: k = (l % 4) * 2, n = l / 4.
  b.addAlong(lanes, 0, 2, 2);
  b.addAlong(lanes, 1, 1, 3);
  // The warps along M need the same columns of B: copies.
  b.addZero(warps, log2(warpsM));
  b.addAlong(warps, 1, warpTileN, log2(warpsN));
  return LinearLayout(shape, std::move(registers), std::move(lanes),
                      std::move(warps));
}

std::optional<LinearLayout> LinearLayout::tryMmaOperandB(int64_t rows,
                                                         int64_t cols,
                                                         int64_t warpsM,
                                                         int64_t warpsN) {
  if (!canBuildMmaOperandB(rows, cols, warpsM, warpsN))
    return std::nullopt;
  return mmaOperandB(rows, cols, warpsM, warpsN);
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int64_t LinearLayout::applyIndex(int64_t reg, int64_t lane,
                                 int64_t warp) const {
  assert(reg >= 0 && reg < getPerThread() && lane >= 0 && lane < 32 &&
         warp >= 0 && warp < getNumWarps() && "input out of range");
  uint64_t value = 0;
  int64_t inputs[] = {reg, lane, warp};
  for (InDim in : kInDims)
    for (unsigned bit = 0, e = getNumBits(in); bit < e; ++bit)
      if (inputs[index(in)] >> bit & 1)
        value ^= packedBasis(in, bit);
  return int64_t(value);
}

SmallVector<int64_t> LinearLayout::apply(int64_t reg, int64_t lane,
                                         int64_t warp) const {
  return delinearize(applyIndex(reg, lane, warp));
}

SmallVector<int64_t> LinearLayout::applyThread(int64_t slot,
                                               int64_t threadId) const {
  return apply(slot, threadId % 32, threadId / 32);
}

int64_t LinearLayout::rowMajorIndex(ArrayRef<int64_t> coords) const {
  assert(coords.size() == shape.size());
  int64_t index = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    index = index * shape[d] + coords[d];
  return index;
}

SmallVector<int64_t> LinearLayout::delinearize(int64_t index) const {
  SmallVector<int64_t> coords(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d)
    coords[d] = (index >> dimShift[d]) & (shape[d] - 1);
  return coords;
}

bool LinearLayout::isSurjective() const { return all.rank() == outBits; }

bool LinearLayout::isInjective() const {
  unsigned inputBits = 0;
  for (InDim in : kInDims)
    inputBits += getNumBits(in);
  return all.rank() == inputBits;
}

std::array<int64_t, 3> LinearLayout::unpackInput(uint64_t combo) const {
  std::array<int64_t, 3> result;
  for (InDim in : kInDims) {
    unsigned bits = getNumBits(in);
    result[index(in)] = int64_t(combo & ((uint64_t(1) << bits) - 1));
    combo >>= bits;
  }
  return result;
}

std::optional<std::array<int64_t, 3>>
LinearLayout::locate(ArrayRef<int64_t> coords) const {
  if (coords.size() != shape.size())
    return std::nullopt;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (coords[d] < 0 || coords[d] >= shape[d])
      return std::nullopt;
  std::optional<uint64_t> combo = all.solve(pack(coords));
  if (!combo)
    return std::nullopt;
  return unpackInput(*combo);
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

std::optional<SmallVector<std::pair<InDim, unsigned>>>
LinearLayout::scanBits(unsigned dim) const {
  unsigned dimBits = llvm::Log2_64(shape[dim]);
  SmallVector<std::optional<std::pair<InDim, unsigned>>> carrier(dimBits);
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp}) {
    for (auto [bit, basis] : llvm::enumerate(getBases(in))) {
      if (basis[dim] == 0)
        continue;
      bool alone = llvm::isPowerOf2_64(basis[dim]);
      for (auto [d, c] : llvm::enumerate(basis))
        alone &= d == dim || c == 0;
      unsigned power = llvm::Log2_64(basis[dim]);
      if (!alone || carrier[power])
        return std::nullopt;
      carrier[power] = {in, unsigned(bit)};
    }
  }
  SmallVector<std::pair<InDim, unsigned>> bits;
  for (auto &c : carrier) {
    if (!c)
      return std::nullopt;
    bits.push_back(*c);
  }
  return bits;
}

SmallVector<unsigned> LinearLayout::bitsAlong(unsigned dim, InDim in) const {
  assert(dim < getRank());
  SmallVector<unsigned> bits;
  for (unsigned bit = 0, e = getNumBits(in); bit < e; ++bit)
    if (getBasis(in, bit)[dim] != 0)
      bits.push_back(bit);
  return bits;
}

/// `basis` without coordinate `dim`.
static Basis dropDim(const Basis &basis, unsigned dim) {
  Basis result(basis);
  result.erase(result.begin() + dim);
  return result;
}

/// The row-major index of `basis` with dimension `dim` dropped; equivalently
/// the packed basis with the bits of `dim` squeezed out.
static uint64_t packWithout(ArrayRef<int64_t> shape, const Basis &basis,
                            unsigned dim) {
  uint64_t value = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != dim)
      value = (value << log2(shape[d])) | uint64_t(basis[d]);
  return value;
}

SmallVector<unsigned> LinearLayout::sliceKeptRegisterBits(unsigned dim) const {
  assert(dim < getRank());
  Echelon kept(outBits - log2(shape[dim]));
  SmallVector<unsigned> bits;
  for (unsigned bit = 0, e = getNumBits(InDim::Register); bit < e; ++bit)
    if (kept.insert(packWithout(shape, getBasis(InDim::Register, bit), dim), 0))
      bits.push_back(bit);
  return bits;
}

LinearLayout LinearLayout::slice(unsigned dim) const {
  assert(dim < getRank());
  SmallVector<int64_t> newShape(shape.begin(), shape.end());
  newShape.erase(newShape.begin() + dim);
  std::array<SmallVector<Basis>, 3> newBases;
  for (unsigned bit : sliceKeptRegisterBits(dim))
    newBases[0].push_back(dropDim(getBasis(InDim::Register, bit), dim));
  for (InDim in : {InDim::Lane, InDim::Warp})
    for (const Basis &basis : getBases(in))
      newBases[index(in)].push_back(dropDim(basis, dim));
  return LinearLayout(newShape, std::move(newBases[0]), std::move(newBases[1]),
                      std::move(newBases[2]));
}

bool LinearLayout::isSliceOf(const LinearLayout &parent, unsigned dim) const {
  return dim < parent.getRank() && getRank() + 1 == parent.getRank() &&
         *this == parent.slice(dim);
}

LinearLayout::Echelon LinearLayout::echelonOf(ArrayRef<InDim> ins) const {
  Echelon echelon(outBits);
  unsigned offset = 0;
  for (InDim in : kInDims) {
    if (llvm::is_contained(ins, in))
      for (unsigned bit = 0, e = getNumBits(in); bit < e; ++bit)
        echelon.insert(packedBasis(in, bit), uint64_t(1) << (offset + bit));
    offset += getNumBits(in);
  }
  return echelon;
}

/// Same elements and the same number of threads: the conversions below
/// compare layouts bit by bit.
static bool comparable(const LinearLayout &a, const LinearLayout &b) {
  return a.getShape() == b.getShape() &&
         a.getNumBits(InDim::Warp) == b.getNumBits(InDim::Warp);
}

// src slot r holds dst slot s's element in thread t iff
//   srcReg(r) = dstReg(s) ^ (dstThread(t) ^ srcThread(t)).
// For one r to serve every thread, the thread term must vanish for all t,
// i.e. the lane and warp bases must be equal; r then solves
// srcReg(r) = dstReg(s), which is linear in s.
std::optional<SmallVector<int64_t>>
LinearLayout::registerPermutation(const LinearLayout &dst) const {
  if (!comparable(*this, dst) ||
      packed[index(InDim::Lane)] != dst.packed[index(InDim::Lane)] ||
      packed[index(InDim::Warp)] != dst.packed[index(InDim::Warp)])
    return std::nullopt;
  Echelon src = echelonOf({InDim::Register});
  unsigned dstBits = dst.getNumBits(InDim::Register);
  SmallVector<int64_t> bitSources(dstBits);
  for (unsigned bit = 0; bit < dstBits; ++bit) {
    std::optional<uint64_t> combo =
        src.solve(dst.packedBasis(InDim::Register, bit));
    if (!combo)
      return std::nullopt;
    bitSources[bit] = int64_t(*combo);
  }
  SmallVector<int64_t> perm(dst.getPerThread(), 0);
  for (int64_t slot = 1; slot < dst.getPerThread(); ++slot) {
    // Linear in the slot: add the source of the lowest set bit.
    unsigned low = llvm::countr_zero(uint64_t(slot));
    perm[slot] = perm[slot & (slot - 1)] ^ bitSources[low];
  }
  return perm;
}

// Thread t holds srcThread(t) + span(srcReg) and needs
// dstThread(t) + span(dstReg): the dst registers must lie in the src span,
// and so must srcThread(t) ^ dstThread(t), which is linear in t, so checking
// each lane and warp bit suffices.
bool LinearLayout::isThreadLocalConversion(const LinearLayout &dst) const {
  if (!comparable(*this, dst))
    return false;
  Echelon src = echelonOf({InDim::Register});
  for (uint64_t vec : dst.packed[index(InDim::Register)])
    if (!src.solve(vec))
      return false;
  for (InDim in : {InDim::Lane, InDim::Warp})
    for (unsigned bit = 0, e = getNumBits(in); bit < e; ++bit)
      if (!src.solve(packedBasis(in, bit) ^ dst.packedBasis(in, bit)))
        return false;
  return true;
}

// The same argument one level up: a warp holds
// srcWarp(w) + span(srcReg, srcLane).
int64_t LinearLayout::LaneAffine::at(int64_t lane) const {
  int64_t v = constant;
  for (unsigned i = 0; i < kLaneBits; ++i)
    if (lane >> i & 1)
      v ^= bits[i];
  return v;
}

bool LinearLayout::LaneAffine::isConstant() const {
  return llvm::all_of(bits, [](int64_t v) { return v == 0; });
}

llvm::SmallVector<int64_t> LinearLayout::LaneAffine::image() const {
  llvm::SmallVector<int64_t> values;
  for (int64_t lane = 0; lane < 32; ++lane)
    if (!llvm::is_contained(values, at(lane)))
      values.push_back(at(lane));
  return values;
}

/// The affine function taking `values[lane]`, if there is one.
static std::optional<LinearLayout::LaneAffine>
fitLaneAffine(llvm::ArrayRef<int64_t> values) {
  LinearLayout::LaneAffine f;
  f.constant = values[0];
  for (unsigned i = 0; i < kLaneBits; ++i)
    f.bits[i] = values[int64_t(1) << i] ^ f.constant;
  for (int64_t lane = 0; lane < 32; ++lane)
    if (f.at(lane) != values[lane])
      return std::nullopt;
  return f;
}

std::optional<llvm::SmallVector<LinearLayout::LaneShuffle>>
LinearLayout::warpShuffles(const LinearLayout &dst) const {
  if (!isWarpLocalConversion(dst))
    return std::nullopt;
  for (unsigned bit = 0, e = getNumBits(InDim::Warp); bit < e; ++bit)
    if (packedBasis(InDim::Warp, bit) != dst.packedBasis(InDim::Warp, bit))
      return std::nullopt;
  // With equal warp bases, warp 0's frame serves every warp: the holder of
  // an element of warp 0 (smallest warp first) is in warp 0.
  llvm::SmallVector<LaneShuffle> plan;
  for (int64_t slot = 0; slot < dst.getPerThread(); ++slot) {
    llvm::SmallVector<int64_t> lanes, slots;
    for (int64_t lane = 0; lane < 32; ++lane) {
      std::optional<std::array<int64_t, 3>> holder =
          locate(dst.apply(slot, lane, 0));
      if (!holder || (*holder)[2] != 0)
        return std::nullopt;
      slots.push_back((*holder)[0]);
      lanes.push_back((*holder)[1]);
    }
    std::optional<LaneAffine> sourceLane = fitLaneAffine(lanes);
    std::optional<LaneAffine> sourceSlot = fitLaneAffine(slots);
    if (!sourceLane || !sourceSlot)
      return std::nullopt;
    plan.push_back({*sourceLane, *sourceSlot});
  }
  return plan;
}

bool LinearLayout::isWarpLocalConversion(const LinearLayout &dst) const {
  if (!comparable(*this, dst))
    return false;
  Echelon src = echelonOf({InDim::Register, InDim::Lane});
  for (InDim in : {InDim::Register, InDim::Lane})
    for (uint64_t vec : dst.packed[index(in)])
      if (!src.solve(vec))
        return false;
  for (unsigned bit = 0, e = getNumBits(InDim::Warp); bit < e; ++bit)
    if (!src.solve(packedBasis(InDim::Warp, bit) ^
                   dst.packedBasis(InDim::Warp, bit)))
      return false;
  return true;
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  return shape == other.shape && bases == other.bases;
}

std::string LinearLayout::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleave(shape, os, "x");
  os << ']';
  static const char *names[] = {"register", "lane", "warp"};
  for (InDim in : kInDims) {
    os << ' ' << names[index(in)] << ':';
    if (getBases(in).empty())
      os << " -";
    for (const Basis &basis : getBases(in)) {
      os << " (";
      llvm::interleave(basis, os, ",");
      os << ')';
    }
  }
  return text;
}
