//===- SharedLayout.cpp - Tiles in workgroup memory, GF(2) maps -----------===//

#include "tilec/Layout/SharedLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <sstream>

using namespace tilec::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

static bool isPow2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }
static unsigned log2(int64_t v) { return llvm::Log2_64(v); }

static unsigned indexBits(ArrayRef<int64_t> shape) {
  unsigned bits = 0;
  for (int64_t size : shape)
    bits += log2(size);
  return bits;
}

SharedLayout SharedLayout::rowMajor(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> offsets;
  for (unsigned i = 0, e = indexBits(shape); i < e; ++i)
    offsets.push_back(int64_t(1) << i);
  return SharedLayout(shape, std::move(offsets));
}

bool SharedLayout::canSwizzle(ArrayRef<int64_t> shape, Swizzle s) {
  if (shape.size() != 2 || !isPow2(shape[0]) || !isPow2(shape[1]))
    return false;
  int64_t panelCols = s.panelCols ? s.panelCols : shape[1];
  return isPow2(s.vec) && isPow2(s.perPhase) && isPow2(s.maxPhase) &&
         isPow2(panelCols) && panelCols <= shape[1] &&
         s.vec * s.maxPhase <= panelCols;
}

SharedLayout SharedLayout::swizzled(ArrayRef<int64_t> shape, Swizzle s) {
  assert(canSwizzle(shape, s) && "swizzle does not fit the tile");
  unsigned rowBits = log2(shape[0]), colBits = log2(shape[1]);
  unsigned panelBits = log2(s.panelCols ? s.panelCols : shape[1]);
  unsigned vecBits = log2(s.vec), phaseShift = log2(s.perPhase),
           phaseBits = log2(s.maxPhase);
  SmallVector<int64_t> offsets;
  // Column bits (the low index bits): inside a panel they stay, the panel
  // number goes above the rows.
  for (unsigned j = 0; j < colBits; ++j)
    offsets.push_back(int64_t(1) << (j < panelBits ? j : j + rowBits));
  for (unsigned k = 0; k < rowBits; ++k) {
    int64_t offset = int64_t(1) << (k + panelBits);
    if (k >= phaseShift && k < phaseShift + phaseBits)
      offset ^= int64_t(1) << (k - phaseShift + vecBits);
    offsets.push_back(offset);
  }
  return SharedLayout(shape, std::move(offsets));
}

std::optional<SharedLayout>
SharedLayout::tryCreate(ArrayRef<int64_t> shape,
                        SmallVector<int64_t> bitOffsets) {
  for (int64_t size : shape)
    if (!isPow2(size))
      return std::nullopt;
  unsigned bits = indexBits(shape);
  if (bitOffsets.size() != bits || bits > 62)
    return std::nullopt;
  // Independent offsets below 2^bits: Gaussian elimination on the pivots.
  SmallVector<uint64_t> rows;
  for (int64_t offset : bitOffsets) {
    if (offset <= 0 || offset >> bits)
      return std::nullopt;
    uint64_t v = offset;
    for (uint64_t row : rows)
      v = std::min(v, v ^ row);
    if (!v)
      return std::nullopt;
    rows.push_back(v);
  }
  return SharedLayout(shape, std::move(bitOffsets));
}

int64_t SharedLayout::offsetOfIndex(int64_t index) const {
  int64_t offset = 0;
  for (unsigned i = 0; i < bitOffsets.size(); ++i)
    if (index >> i & 1)
      offset ^= bitOffsets[i];
  return offset;
}

int64_t SharedLayout::offsetOf(ArrayRef<int64_t> coords) const {
  assert(coords.size() == shape.size());
  int64_t index = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    index = index * shape[d] + coords[d];
  return offsetOfIndex(index);
}

int64_t SharedLayout::offsetOfCoordinateBit(unsigned dim, unsigned bit) const {
  unsigned shift = 0;
  for (unsigned d = dim + 1; d < shape.size(); ++d)
    shift += log2(shape[d]);
  return bitOffsets[shift + bit];
}

LinearLayout SharedLayout::offsets(const LinearLayout &threads) const {
  assert(threads.getShape() == ArrayRef<int64_t>(shape) && "shape mismatch");
  SmallVector<SmallVector<LinearLayout::Basis>, 3> bases;
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp}) {
    bases.emplace_back();
    for (const LinearLayout::Basis &basis : threads.getBases(in))
      bases.back().push_back({offsetOf(basis)});
  }
  return LinearLayout({getNumElements()}, std::move(bases[0]),
                      std::move(bases[1]), std::move(bases[2]));
}

int64_t SharedLayout::wavefronts(const LinearLayout &offsets,
                                 unsigned elementBits) {
  assert(elementBits && elementBits <= 32 && "at most one word per element");
  // Lanes' offsets differ from slot 0's by XOR with one constant, which
  // maps words to words and banks to banks alike: slot 0 stands for all.
  llvm::DenseMap<int64_t, llvm::DenseSet<int64_t>> wordsOfBank;
  int64_t most = 1;
  for (int64_t lane = 0; lane < 32; ++lane) {
    int64_t word = offsets.applyIndex(0, lane, 0) * elementBits / 32;
    llvm::DenseSet<int64_t> &words = wordsOfBank[word % 32];
    words.insert(word);
    most = std::max<int64_t>(most, words.size());
  }
  return most;
}

SharedLayout SharedLayout::forExchange(const LinearLayout &writer,
                                       const LinearLayout &reader,
                                       unsigned elementBits) {
  assert(writer.getShape() == reader.getShape() && "shape mismatch");
  SharedLayout best = rowMajor(writer.getShape());
  auto cost = [&](const SharedLayout &placement) {
    return wavefronts(placement.offsets(writer), elementBits) +
           wavefronts(placement.offsets(reader), elementBits);
  };
  unsigned bits = best.bitOffsets.size();
  // The index bits that pick the bank of an element: five bits above
  // those that pick its place in a word.
  unsigned low = log2(std::max<int64_t>(1, 32 / elementBits));
  unsigned bankEnd = std::min(bits, low + 5);
  if (low >= bankEnd)
    return best;
  int64_t bestCost = cost(best);
  for (unsigned i = bankEnd; i < bits && bestCost > 2; ++i) {
    int64_t chosen = best.bitOffsets[i];
    for (int64_t mask = 1; mask < (int64_t(1) << (bankEnd - low)); ++mask) {
      SharedLayout trial = best;
      trial.bitOffsets[i] = (int64_t(1) << i) ^ (mask << low);
      int64_t trialCost = cost(trial);
      if (trialCost < bestCost) {
        bestCost = trialCost;
        chosen = trial.bitOffsets[i];
      }
    }
    best.bitOffsets[i] = chosen;
  }
  return best;
}

std::string SharedLayout::str() const {
  std::ostringstream os;
  os << "[";
  for (unsigned d = 0; d < shape.size(); ++d)
    os << (d ? "x" : "") << shape[d];
  os << "] offsets {";
  for (unsigned i = 0; i < bitOffsets.size(); ++i)
    os << (i ? ", " : "") << bitOffsets[i];
  os << "}";
  return os.str();
}
