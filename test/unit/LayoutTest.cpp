//===- LayoutTest.cpp - Exhaustive tests of the linear layouts ------------===//
//
// Every check here is brute force: the layouts are compared element by
// element with the index formulas tilec's code generation uses, and the
// algebra (locate, slice, conversions) with enumeration over every
// (slot, lane, warp).
//
//===----------------------------------------------------------------------===//

#include "tilec/Layout/LinearLayout.h"

#include "gtest/gtest.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>
#include <vector>

using namespace tilec::layout;
using LL = LinearLayout;
using llvm::SmallVector;
using Coords = SmallVector<int64_t>;
using Formula = std::function<Coords(int64_t slot, int64_t lane, int64_t warp)>;

namespace {

int64_t product(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  return n;
}

/// Row-major coordinates of linear index `l`, computed independently of the
/// library (division, not bits).
Coords coordsOf(llvm::ArrayRef<int64_t> shape, int64_t l) {
  Coords coords(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coords[d] = l % shape[d];
    l /= shape[d];
  }
  return coords;
}

/// Calls f(slot, lane, warp) for every input, in increasing order of the
/// packed input (slot fastest, then lane, then warp).
template <typename F> void forEachInput(const LL &layout, F f) {
  for (int64_t warp = 0; warp < layout.getNumWarps(); ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t slot = 0; slot < layout.getPerThread(); ++slot)
        f(slot, lane, warp);
}

/// Expects `layout` to hold expected(slot, lane, warp) at every input.
void expectMatches(const LL &layout, const Formula &expected) {
  int64_t failures = 0;
  forEachInput(layout, [&](int64_t slot, int64_t lane, int64_t warp) {
    Coords want = expected(slot, lane, warp);
    Coords got = layout.apply(slot, lane, warp);
    if (got != want && failures++ < 3)
      ADD_FAILURE() << layout.str() << " at slot " << slot << " lane " << lane
                    << " warp " << warp << ": got " << layout.rowMajorIndex(got)
                    << ", want " << layout.rowMajorIndex(want);
  });
}

/// Checks locate(), isSurjective() and isInjective() against enumeration:
/// locate must return the first holder in packed input order, i.e. the
/// smallest warp, then lane, then slot.
void expectInverse(const LL &layout) {
  int64_t n = layout.getNumElements();
  std::vector<std::array<int64_t, 3>> first(n, {-1, -1, -1});
  int64_t inputs = 0, held = 0;
  forEachInput(layout, [&](int64_t slot, int64_t lane, int64_t warp) {
    ++inputs;
    int64_t element = layout.applyIndex(slot, lane, warp);
    if (first[element][0] < 0) {
      first[element] = {slot, lane, warp};
      ++held;
    }
  });
  EXPECT_EQ(layout.isSurjective(), held == n) << layout.str();
  EXPECT_EQ(layout.isInjective(), held == inputs) << layout.str();
  int64_t failures = 0;
  for (int64_t element = 0; element < n; ++element) {
    auto holder = layout.locate(layout.delinearize(element));
    bool ok =
        first[element][0] < 0 ? !holder : holder && *holder == first[element];
    if (!ok && failures++ < 3)
      ADD_FAILURE() << layout.str() << ": locate(" << element << ") is "
                    << (holder ? "wrong" : "nullopt");
  }
}

void expectFormulaAndInverse(const LL &layout, const Formula &expected) {
  expectMatches(layout, expected);
  expectInverse(layout);
}

//===----------------------------------------------------------------------===//
// The formulas of tilec's code generation, written out as integer arithmetic
//===----------------------------------------------------------------------===//

Coords blockedFormula(llvm::ArrayRef<int64_t> shape, int64_t threads,
                      int64_t slot, int64_t tid) {
  int64_t n = product(shape);
  if (n < threads)
    return coordsOf(shape, tid % n);
  int64_t v = std::min<int64_t>(4, n / threads);
  return coordsOf(shape, (slot / v * threads + tid) * v + slot % v);
}

Coords mmaAccumulatorFormula(int64_t rows, int64_t cols, int64_t warpsM,
                             int64_t warpsN, int64_t s, int64_t l, int64_t w,
                             bool stridedRows = false) {
  int64_t warpRow = w % warpsM, warpCol = w / warpsM;
  int64_t tileM = rows / warpsM, tileN = cols / warpsN;
  int64_t fragCols = tileN / 8;
  int64_t frag = s / 4, fm = frag / fragCols, fn = frag % fragCols;
  int64_t half = (s / 2) % 2, c = s % 2;
  // Strided: warp w's rows of fragments at 16 (w % warpsM) + 16 warpsM fm.
  int64_t firstRow = stridedRows ? warpRow * 16 : warpRow * tileM;
  int64_t fragmentRow = stridedRows ? fm * 16 * warpsM : fm * 16;
  return {firstRow + l / 4 + fragmentRow + half * 8,
          warpCol * tileN + (l % 4) * 2 + fn * 8 + c};
}

Coords fmaFormula(int64_t rows, int64_t cols, int64_t tm, int64_t tn,
                  int64_t gm, int64_t gn, int64_t s, int64_t t) {
  t %= tm * tn; // Blocks under 32 threads replicate over the upper lanes.
  int64_t ti = t % tm, tj = t / tm;
  int64_t threadCols = cols / tn;
  int64_t i = s / threadCols, j = s % threadCols;
  return {ti * gm + (i / gm) * tm * gm + i % gm,
          tj * gn + (j / gn) * tn * gn + j % gn};
}

Coords operandAFormula(int64_t rows, int64_t cols, int64_t warpsM, int64_t s,
                       int64_t l, int64_t w) {
  int64_t g = l / 4, t = l % 4, i = s % 8, tile = s / 8;
  int64_t kTiles = cols / 16, kTile = tile % kTiles, mTile = tile / kTiles;
  return {(w % warpsM) * (rows / warpsM) + mTile * 16 + g + 8 * ((i / 2) % 2),
          kTile * 16 + t * 2 + i % 2 + 8 * (i / 4)};
}

Coords operandBFormula(int64_t rows, int64_t cols, int64_t warpsM,
                       int64_t warpsN, int64_t s, int64_t l, int64_t w) {
  int64_t g = l / 4, t = l % 4, i = s % 4, tile = s / 4;
  int64_t kTiles = rows / 16, kTile = tile % kTiles, nTile = tile / kTiles;
  return {kTile * 16 + t * 2 + i % 2 + 8 * (i / 2),
          (w / warpsM) * (cols / warpsN) + nTile * 8 + g};
}

/// Every (warpsM, warpsN) with warpsM * warpsN in {1, 2, 4, 8}.
std::vector<std::pair<int64_t, int64_t>> warpSplits() {
  std::vector<std::pair<int64_t, int64_t>> splits;
  for (int64_t warps = 1; warps <= 8; warps *= 2)
    for (int64_t m = 1; m <= warps; m *= 2)
      splits.push_back({m, warps / m});
  return splits;
}

//===----------------------------------------------------------------------===//
// Factories against the formulas
//===----------------------------------------------------------------------===//

TEST(LinearLayoutFactories, BlockedMatchesFormula) {
  std::vector<SmallVector<int64_t>> shapes = {
      {}, {2, 4, 8}, {4, 1, 16}, {8, 8, 8}, {2, 2, 2, 4}};
  for (int64_t a = 1; a <= 256; a *= 2) {
    shapes.push_back({a});
    for (int64_t b = 1; b <= 256; b *= 2)
      shapes.push_back({a, b});
  }
  int64_t layouts = 0;
  for (const auto &shape : shapes)
    for (int64_t threads = 32; threads <= 512; threads *= 2) {
      LL layout = LL::blocked(shape, threads);
      int64_t n = product(shape);
      bool replicated = n < threads;
      ASSERT_EQ(layout.getShape(), llvm::ArrayRef<int64_t>(shape));
      EXPECT_EQ(layout.getNumThreads(), threads);
      EXPECT_EQ(layout.getPerThread(), replicated ? 1 : n / threads);
      EXPECT_TRUE(layout.isSurjective());
      EXPECT_EQ(layout.isInjective(), !replicated) << layout.str();
      expectFormulaAndInverse(layout, [&](int64_t s, int64_t l, int64_t w) {
        return blockedFormula(shape, threads, s, w * 32 + l);
      });
      // applyThread is apply by thread id.
      for (int64_t tid = 0; tid < threads; tid += 7)
        EXPECT_EQ(layout.applyThread(0, tid),
                  blockedFormula(shape, threads, 0, tid));
      ++layouts;
    }
  EXPECT_EQ(layouts, 95 * 5);
}

TEST(LinearLayoutFactories, MmaAccumulatorMatchesFormula) {
  for (auto [warpsM, warpsN] : warpSplits())
    for (int64_t rows = 16 * warpsM; rows <= 256; rows *= 2)
      for (int64_t cols = 8 * warpsN; cols <= 256; cols *= 2) {
        LL layout = LL::mmaAccumulator(rows, cols, warpsM, warpsN);
        EXPECT_EQ(layout.getNumWarps(), warpsM * warpsN);
        EXPECT_EQ(layout.getPerThread(), rows * cols / (warpsM * warpsN * 32));
        EXPECT_TRUE(layout.isInjective() && layout.isSurjective());
        expectFormulaAndInverse(layout, [&, warpsM = warpsM, warpsN = warpsN](
                                            int64_t s, int64_t l, int64_t w) {
          return mmaAccumulatorFormula(rows, cols, warpsM, warpsN, s, l, w);
        });
      }
}

TEST(LinearLayoutFactories, StridedMmaAccumulatorMatchesFormula) {
  int64_t layouts = 0;
  for (auto [warpsM, warpsN] : warpSplits())
    for (int64_t rows = 16 * warpsM; rows <= 512; rows *= 2)
      for (int64_t cols = 8 * warpsN; cols <= 256; cols *= 2) {
        LL layout = LL::mmaAccumulator(rows, cols, warpsM, warpsN,
                                       /*stridedRows=*/true);
        EXPECT_TRUE(layout.isInjective() && layout.isSurjective());
        expectFormulaAndInverse(layout, [&, warpsM = warpsM, warpsN = warpsN](
                                            int64_t s, int64_t l, int64_t w) {
          return mmaAccumulatorFormula(rows, cols, warpsM, warpsN, s, l, w,
                                       /*stridedRows=*/true);
        });
        ++layouts;
      }
  EXPECT_GT(layouts, 100);
  // One fragment row a warp: strided or not, the same layout.
  EXPECT_EQ(LL::mmaAccumulator(128, 64, 8, 1, true),
            LL::mmaAccumulator(128, 64, 8, 1));
  // Two warpgroups of 128 rows each: warp 1 holds rows 16-31 and 144-159.
  LL twoWarpgroups = LL::mmaAccumulator(256, 128, 8, 1, true);
  int64_t perFragmentRow = 128 / 8 * 4;
  EXPECT_EQ(twoWarpgroups.apply(0, 0, 1)[0], 16);
  EXPECT_EQ(twoWarpgroups.apply(perFragmentRow, 0, 1)[0], 144);
}

TEST(LinearLayoutFactories, FmaAccumulatorMatchesFormula) {
  int64_t layouts = 0;
  for (int64_t threads = 8; threads <= 256; threads *= 2)
    for (int64_t tm = 1; tm <= threads; tm *= 2)
      for (int64_t gm = 1; gm <= 4; gm *= 2)
        for (int64_t gn = 1; gn <= 4; gn *= 2)
          for (int64_t rows = tm * gm; rows <= 256; rows *= 2)
            for (int64_t cols = threads / tm * gn;
                 cols <= 256 && rows * cols <= 4096; cols *= 2) {
              int64_t tn = threads / tm;
              LL layout = LL::fmaAccumulator(rows, cols, tm, tn, gm, gn);
              EXPECT_EQ(layout.getNumThreads(), std::max<int64_t>(32, threads));
              EXPECT_EQ(layout.getPerThread(), rows * cols / threads);
              EXPECT_EQ(layout.isInjective(), threads >= 32);
              EXPECT_TRUE(layout.isSurjective());
              expectFormulaAndInverse(layout, [&](int64_t s, int64_t l,
                                                  int64_t w) {
                return fmaFormula(rows, cols, tm, tn, gm, gn, s, w * 32 + l);
              });
              ++layouts;
            }
  EXPECT_GT(layouts, 1000);
}

TEST(LinearLayoutFactories, MmaOperandAMatchesFormula) {
  for (auto [warpsM, warpsN] : warpSplits())
    for (int64_t rows = 16 * warpsM; rows <= 256; rows *= 2)
      for (int64_t cols = 16; cols <= 256; cols *= 2) {
        LL layout = LL::mmaOperandA(rows, cols, warpsM, warpsN);
        EXPECT_EQ(layout.getNumWarps(), warpsM * warpsN);
        EXPECT_EQ(layout.getPerThread(), rows * cols / (warpsM * 32));
        EXPECT_TRUE(layout.isSurjective());
        EXPECT_EQ(layout.isInjective(), warpsN == 1);
        expectFormulaAndInverse(layout, [&, warpsM = warpsM, warpsN = warpsN](
                                            int64_t s, int64_t l, int64_t w) {
          return operandAFormula(rows, cols, warpsM, s, l, w);
        });
      }
}

TEST(LinearLayoutFactories, MmaOperandBMatchesFormula) {
  for (auto [warpsM, warpsN] : warpSplits())
    for (int64_t rows = 16; rows <= 256; rows *= 2)
      for (int64_t cols = 8 * warpsN; cols <= 256; cols *= 2) {
        LL layout = LL::mmaOperandB(rows, cols, warpsM, warpsN);
        EXPECT_EQ(layout.getNumWarps(), warpsM * warpsN);
        EXPECT_EQ(layout.getPerThread(), rows * cols / (warpsN * 32));
        EXPECT_TRUE(layout.isSurjective());
        EXPECT_EQ(layout.isInjective(), warpsM == 1);
        expectFormulaAndInverse(layout, [&, warpsM = warpsM, warpsN = warpsN](
                                            int64_t s, int64_t l, int64_t w) {
          return operandBFormula(rows, cols, warpsM, warpsN, s, l, w);
        });
      }
}

TEST(LinearLayoutFactories, PreconditionsRejectBadSizes) {
  EXPECT_FALSE(LL::tryBlocked({3, 4}, 32));
  EXPECT_FALSE(LL::tryBlocked({4, 4}, 16));
  EXPECT_FALSE(LL::tryBlocked({4, 4}, 96));
  EXPECT_TRUE(LL::tryBlocked({4, 4}, 32));
  EXPECT_FALSE(LL::tryMmaAccumulator(8, 8, 1, 1));
  EXPECT_FALSE(LL::tryMmaAccumulator(32, 8, 4, 1));
  EXPECT_FALSE(LL::tryMmaAccumulator(16, 8, 1, 2));
  EXPECT_FALSE(LL::tryMmaAccumulator(48, 8, 1, 1));
  EXPECT_FALSE(LL::tryMmaAccumulator(16, 8, 0, 1));
  EXPECT_TRUE(LL::tryMmaAccumulator(16, 8, 1, 1));
  EXPECT_FALSE(LL::tryFmaAccumulator(16, 16, 8, 4, 4, 1));
  EXPECT_FALSE(LL::tryFmaAccumulator(16, 16, 4, 4, 3, 1));
  EXPECT_TRUE(LL::tryFmaAccumulator(32, 16, 8, 4, 4, 4));
  EXPECT_FALSE(LL::tryMmaOperandA(16, 8, 1, 1));
  EXPECT_FALSE(LL::tryMmaOperandA(16, 16, 2, 1));
  EXPECT_FALSE(LL::tryMmaOperandA(16, 16, 1, 3));
  EXPECT_TRUE(LL::tryMmaOperandA(16, 16, 1, 8));
  EXPECT_FALSE(LL::tryMmaOperandB(8, 8, 1, 1));
  EXPECT_FALSE(LL::tryMmaOperandB(16, 8, 1, 2));
  EXPECT_TRUE(LL::tryMmaOperandB(16, 8, 8, 1));

  using Bases = SmallVector<LL::Basis>;
  Bases lanes = {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}};
  EXPECT_TRUE(LL::tryCreate({8, 4}, {}, lanes, {}));
  EXPECT_FALSE(LL::tryCreate({8, 3}, {}, lanes, {}));
  EXPECT_FALSE(
      LL::tryCreate({8, 4}, {}, Bases(lanes.begin(), lanes.end() - 1), {}));
  EXPECT_FALSE(LL::tryCreate({8, 4}, {{0, 4}}, lanes, {}));
  EXPECT_FALSE(LL::tryCreate({8, 4}, {{1}}, lanes, {}));
  EXPECT_FALSE(LL::tryCreate({1LL << 40, 1LL << 30}, {}, lanes, {}));
}

TEST(LinearLayout, QueriesAndPrinting) {
  LL layout = LL::mmaAccumulator(16, 8, 1, 1);
  EXPECT_EQ(layout.str(), "[16x8] register: (0,1) (8,0) lane: (0,2) (0,4) "
                          "(1,0) (2,0) (4,0) warp: -");
  EXPECT_EQ(layout.getRank(), 2u);
  EXPECT_EQ(layout.getNumElements(), 128);
  EXPECT_EQ(layout.getNumBits(InDim::Lane), kLaneBits);
  EXPECT_EQ(layout.getBasis(InDim::Register, 1), LL::Basis({8, 0}));
  EXPECT_EQ(layout.rowMajorIndex({3, 5}), 29);
  EXPECT_EQ(layout.delinearize(29), Coords({3, 5}));
  EXPECT_FALSE(layout.locate({16, 0}));
  EXPECT_FALSE(layout.locate({0}));
  EXPECT_EQ(layout, LL::mmaAccumulator(16, 8, 1, 1));
  EXPECT_NE(layout, LL::blocked({16, 8}, 32));
  // A layout holding only half of its tile.
  LL half({2, 32}, {}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 0}}, {});
  EXPECT_FALSE(half.isSurjective());
  EXPECT_FALSE(half.isInjective());
  expectInverse(half);
}

//===----------------------------------------------------------------------===//
// A pool of layouts for the algebra tests
//===----------------------------------------------------------------------===//

/// `layout` with its register bases reordered: bit j of the result is bit
/// order[j] of `layout`.
LL reorderRegisters(const LL &layout, llvm::ArrayRef<unsigned> order) {
  SmallVector<LL::Basis> registers;
  for (unsigned bit : order)
    registers.push_back(layout.getBasis(InDim::Register, bit));
  return LL(layout.getShape(), registers,
            SmallVector<LL::Basis>(layout.getBases(InDim::Lane)),
            SmallVector<LL::Basis>(layout.getBases(InDim::Warp)));
}

LL::Basis xorBasis(const LL::Basis &a, const LL::Basis &b) {
  LL::Basis result(a);
  for (size_t d = 0; d < a.size(); ++d)
    result[d] ^= b[d];
  return result;
}

/// Hand-made variants of `layout` that exercise each conversion case.
std::vector<LL> variantsOf(const LL &layout) {
  std::vector<LL> variants;
  SmallVector<LL::Basis> registers(layout.getBases(InDim::Register));
  SmallVector<LL::Basis> lanes(layout.getBases(InDim::Lane));
  SmallVector<LL::Basis> warps(layout.getBases(InDim::Warp));
  auto shape = layout.getShape();
  // Registers reversed: a pure register permutation.
  SmallVector<unsigned> reversed;
  for (unsigned bit = registers.size(); bit-- > 0;)
    reversed.push_back(bit);
  variants.push_back(reorderRegisters(layout, reversed));
  // Lanes 0 and 2 swapped: data moves across lanes, not warps.
  SmallVector<LL::Basis> swapped(lanes);
  std::swap(swapped[0], swapped[2]);
  variants.push_back(LL(shape, registers, swapped, warps));
  // Fewer slots, and a repeated slot.
  if (!registers.empty()) {
    variants.push_back(LL(
        shape, SmallVector<LL::Basis>(registers.begin(), registers.end() - 1),
        lanes, warps));
    SmallVector<LL::Basis> repeated(registers);
    repeated.push_back(LL::Basis(shape.size(), 0));
    variants.push_back(LL(shape, repeated, lanes, warps));
    // Lane 0 also flips register bit 0: each thread still holds its
    // elements, but in a slot that depends on the lane.
    SmallVector<LL::Basis> mixed(lanes);
    mixed[0] = xorBasis(mixed[0], registers[0]);
    variants.push_back(LL(shape, registers, mixed, warps));
  }
  return variants;
}

/// Layouts of `shape` over `warps` warps, from every factory that fits.
std::vector<LL> poolOf(llvm::ArrayRef<int64_t> shape, int64_t warps) {
  std::vector<LL> pool;
  int64_t threads = 32 * warps;
  pool.push_back(LL::blocked(shape, threads));
  if (shape.size() != 2)
    return pool;
  int64_t rows = shape[0], cols = shape[1];
  for (int64_t m = 1; m <= warps; m *= 2) {
    int64_t n = warps / m;
    for (auto layout : {LL::tryMmaAccumulator(rows, cols, m, n),
                        LL::tryMmaOperandA(rows, cols, m, n),
                        LL::tryMmaOperandB(rows, cols, m, n)})
      if (layout)
        pool.push_back(*layout);
  }
  for (int64_t tm = 1; tm <= threads; tm *= 2)
    for (int64_t group : {1, 4})
      if (auto layout =
              LL::tryFmaAccumulator(rows, cols, tm, threads / tm, group, group))
        pool.push_back(*layout);
  size_t factories = pool.size();
  for (size_t i = 0; i < factories; ++i)
    for (LL &variant : variantsOf(pool[i]))
      pool.push_back(std::move(variant));
  return pool;
}

std::vector<SmallVector<int64_t>> poolShapes() {
  return {{16, 16}, {32, 32},  {64, 64}, {32, 64}, {64, 32}, {16, 64},
          {64, 16}, {128, 32}, {4, 8},   {256},    {4096},   {8, 16, 16}};
}

//===----------------------------------------------------------------------===//
// Slices
//===----------------------------------------------------------------------===//

Coords dropCoord(Coords coords, unsigned dim) {
  coords.erase(coords.begin() + dim);
  return coords;
}

/// Slot `slot` of the sliced layout names original slots whose kept bits
/// spell `slot` (the dropped bits are free).
bool keptBitsMatch(int64_t original, int64_t sliced,
                   llvm::ArrayRef<unsigned> kept) {
  for (unsigned k = 0; k < kept.size(); ++k)
    if ((original >> kept[k] & 1) != (sliced >> k & 1))
      return false;
  return true;
}

void expectSlice(const LL &layout, unsigned dim) {
  LL sliced = layout.slice(dim);
  SmallVector<unsigned> kept = layout.sliceKeptRegisterBits(dim);
  ASSERT_EQ(sliced.getPerThread(), int64_t(1) << kept.size());
  EXPECT_EQ(sliced.getShape(),
            llvm::ArrayRef<int64_t>(dropCoord(Coords(layout.getShape()), dim)));
  EXPECT_EQ(sliced.getNumWarps(), layout.getNumWarps());
  EXPECT_TRUE(sliced.isSliceOf(layout, dim));
  for (int64_t warp = 0; warp < layout.getNumWarps(); ++warp)
    for (int64_t lane = 0; lane < 32; ++lane) {
      // The kept coordinates a thread holds, before and after.
      std::vector<Coords> projected;
      for (int64_t slot = 0; slot < layout.getPerThread(); ++slot)
        projected.push_back(dropCoord(layout.apply(slot, lane, warp), dim));
      std::set<Coords> before(projected.begin(), projected.end()), after;
      for (int64_t slot = 0; slot < sliced.getPerThread(); ++slot) {
        Coords element = sliced.apply(slot, lane, warp);
        after.insert(element);
        bool found = false;
        for (int64_t original = 0; original < layout.getPerThread() && !found;
             ++original)
          found = keptBitsMatch(original, slot, kept) &&
                  projected[original] == element;
        EXPECT_TRUE(found) << layout.str() << " slice " << dim << " slot "
                           << slot;
      }
      EXPECT_EQ(before, after) << layout.str() << " slice " << dim;
      // perThread is the number of distinct kept images: no slot repeats.
      EXPECT_EQ(int64_t(after.size()), sliced.getPerThread());
    }
  // bitsAlong: the bits whose single-bit input moves along `dim`.
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp}) {
    SmallVector<unsigned> expected;
    for (unsigned bit = 0; bit < layout.getNumBits(in); ++bit) {
      int64_t one = int64_t(1) << bit;
      Coords element = in == InDim::Register ? layout.apply(one, 0, 0)
                       : in == InDim::Lane   ? layout.apply(0, one, 0)
                                             : layout.apply(0, 0, one);
      if (element[dim] != 0)
        expected.push_back(bit);
    }
    EXPECT_EQ(layout.bitsAlong(dim, in), expected);
  }
}

TEST(LinearLayoutAlgebra, SliceByBruteForce) {
  int64_t slices = 0;
  for (const auto &shape : poolShapes())
    for (int64_t warps = 1; warps <= 4; warps *= 2)
      for (const LL &layout : poolOf(shape, warps))
        for (unsigned dim = 0; dim < layout.getRank(); ++dim) {
          expectSlice(layout, dim);
          ++slices;
        }
  EXPECT_GT(slices, 300);
}

/// scanBits(dim), checked by enumeration: where it gives the carriers, the
/// coordinate along `dim` of every input is the sum of its carrier bits
/// shifted to their powers, and flipping a carrier moves nothing else;
/// where it gives nullopt, no such carriers exist (some basis moves `dim`
/// together with another coordinate, or by no single power of two, or two
/// bases share a power).
void expectScanBits(const LL &layout, unsigned dim) {
  auto bits = layout.scanBits(dim);
  auto inputBit = [](int64_t slot, int64_t lane, int64_t warp, InDim in,
                     unsigned bit) {
    int64_t v = in == InDim::Register ? slot : in == InDim::Lane ? lane : warp;
    return (v >> bit) & 1;
  };
  if (bits) {
    ASSERT_EQ(int64_t(1) << bits->size(), layout.getShape()[dim]);
    forEachInput(layout, [&](int64_t slot, int64_t lane, int64_t warp) {
      int64_t want = 0;
      for (auto [p, carrier] : llvm::enumerate(*bits))
        want |= inputBit(slot, lane, warp, carrier.first, carrier.second)
                << p;
      Coords got = layout.apply(slot, lane, warp);
      ASSERT_EQ(got[dim], want);
      for (auto [in, bit] : *bits) {
        int64_t s = slot, l = lane, w = warp;
        (in == InDim::Register ? s : in == InDim::Lane ? l : w) ^=
            int64_t(1) << bit;
        Coords flipped = layout.apply(s, l, w);
        for (unsigned d = 0; d < layout.getRank(); ++d)
          if (d != dim)
            ASSERT_EQ(flipped[d], got[d]);
      }
    });
    return;
  }
  // No carriers: some basis moving `dim` is not a lone power of two, or
  // two bases carry the same power.
  std::set<int64_t> powers;
  bool clash = false;
  for (InDim in : {InDim::Register, InDim::Lane, InDim::Warp})
    for (const auto &basis : layout.getBases(in)) {
      if (basis[dim] == 0)
        continue;
      bool alone = llvm::isPowerOf2_64(basis[dim]);
      for (unsigned d = 0; d < basis.size(); ++d)
        alone &= d == dim || basis[d] == 0;
      clash |= !alone || !powers.insert(basis[dim]).second;
    }
  EXPECT_TRUE(clash || int64_t(powers.size()) !=
                           llvm::Log2_64(layout.getShape()[dim]));
}

TEST(LinearLayoutAlgebra, ScanBitsByBruteForce) {
  int64_t found = 0, checked = 0;
  for (const auto &shape : poolShapes())
    for (int64_t warps = 1; warps <= 4; warps *= 2)
      for (const LL &layout : poolOf(shape, warps))
        for (unsigned dim = 0; dim < layout.getRank(); ++dim) {
          expectScanBits(layout, dim);
          found += layout.scanBits(dim).has_value();
          ++checked;
        }
  EXPECT_GT(found, 100);
  EXPECT_GT(checked, found);
}

// The mma.sync accumulator of 16x16 on one warp, along its columns:
// register bit 0, lane bits 0 and 1, register bit 2 (matmul_cumsum).
TEST(LinearLayoutAlgebra, MmaColumnsScanInThreadsAndLanes) {
  LL acc = LL::mmaAccumulator(16, 16, 1, 1);
  auto bits = acc.scanBits(1);
  ASSERT_TRUE(bits.has_value());
  using Carriers = std::vector<std::pair<InDim, unsigned>>;
  Carriers want = {{InDim::Register, 0},
                   {InDim::Lane, 0},
                   {InDim::Lane, 1},
                   {InDim::Register, 2}};
  EXPECT_EQ(Carriers(bits->begin(), bits->end()), want);
}

TEST(LinearLayoutAlgebra, SliceOfSliceAndIsSliceOf) {
  LL layout = LL::blocked({8, 16, 16}, 64);
  LL twice = layout.slice(2).slice(0);
  EXPECT_EQ(twice.getShape(), llvm::ArrayRef<int64_t>({16}));
  expectSlice(layout.slice(2), 0);
  LL scalar = LL::blocked({256}, 32).slice(0);
  EXPECT_EQ(scalar.getRank(), 0u);
  EXPECT_EQ(scalar.getPerThread(), 1);
  EXPECT_TRUE(scalar.isSurjective());
  EXPECT_TRUE(scalar.isSliceOf(LL::blocked({256}, 32), 0));

  LL mma = LL::mmaAccumulator(64, 64, 4, 1);
  EXPECT_TRUE(mma.slice(1).isSliceOf(mma, 1));
  EXPECT_FALSE(mma.slice(1).isSliceOf(mma, 0));
  EXPECT_FALSE(mma.slice(0).isSliceOf(mma, 1));
  EXPECT_FALSE(LL::blocked({64}, 128).isSliceOf(mma, 1));
  EXPECT_FALSE(mma.isSliceOf(mma, 1));
}

TEST(LinearLayoutAlgebra, MmaRowReductionNeedsTwoShuffles) {
  for (int64_t warpsM = 1; warpsM <= 8; warpsM *= 2)
    for (int64_t cols = 8; cols <= 128; cols *= 2) {
      LL mma = LL::mmaAccumulator(16 * warpsM, cols, warpsM, 1);
      // Shuffles xor 1 and 2; no warp crosses a row.
      EXPECT_EQ(mma.bitsAlong(1, InDim::Lane), SmallVector<unsigned>({0, 1}));
      EXPECT_TRUE(mma.bitsAlong(1, InDim::Warp).empty());
      LL rows = mma.slice(1);
      // Each thread keeps rows g and g + 8.
      EXPECT_EQ(rows.getPerThread(), 2);
      EXPECT_EQ(rows.getBasis(InDim::Lane, 0), LL::Basis({0}));
      EXPECT_EQ(rows.getBasis(InDim::Lane, 1), LL::Basis({0}));
    }
  LL split = LL::mmaAccumulator(64, 64, 2, 2);
  EXPECT_EQ(split.bitsAlong(1, InDim::Warp), SmallVector<unsigned>({1}));
  EXPECT_EQ(split.bitsAlong(0, InDim::Warp), SmallVector<unsigned>({0}));
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

struct ConversionCounts {
  int64_t registerOnly = 0, threadLocal = 0, warpLocal = 0, pairs = 0;
  int64_t shufflePlans = 0;
};

/// A layout with what each thread and each warp holds, enumerated once.
struct Enumerated {
  explicit Enumerated(const LL &layout) : layout(layout) {
    int64_t threads = layout.getNumThreads();
    at.resize(threads);
    held.resize(threads);
    warpHeld.assign(layout.getNumWarps(),
                    std::vector<bool>(layout.getNumElements()));
    for (int64_t t = 0; t < threads; ++t) {
      for (int64_t s = 0; s < layout.getPerThread(); ++s) {
        at[t].push_back(layout.applyIndex(s, t % 32, t / 32));
        warpHeld[t / 32][at[t].back()] = true;
      }
      held[t] = at[t];
      std::sort(held[t].begin(), held[t].end());
      held[t].erase(std::unique(held[t].begin(), held[t].end()), held[t].end());
    }
  }
  LL layout;
  /// at[thread][slot]: the element; held[thread]: the set of them, sorted.
  std::vector<std::vector<int64_t>> at, held;
  std::vector<std::vector<bool>> warpHeld;
};

/// Checks the three conversion predicates from `src` to `dst` by
/// enumeration.
void expectConversion(const Enumerated &srcE, const Enumerated &dstE,
                      ConversionCounts &counts) {
  const LL &src = srcE.layout, &dst = dstE.layout;
  int64_t threads = src.getNumThreads();
  ASSERT_EQ(threads, dst.getNumThreads());
  const auto &srcAt = srcE.at, &dstAt = dstE.at;
  auto what = [&] { return src.str() + " -> " + dst.str(); };

  // Does one src slot serve each dst slot in every thread?
  bool mapExists = true;
  for (int64_t s = 0; s < dst.getPerThread() && mapExists; ++s) {
    bool found = false;
    for (int64_t r = 0; r < src.getPerThread() && !found; ++r) {
      found = true;
      for (int64_t t = 0; t < threads && found; ++t)
        found = srcAt[t][r] == dstAt[t][s];
    }
    mapExists = found;
  }
  auto perm = src.registerPermutation(dst);
  EXPECT_EQ(perm.has_value(), mapExists) << what();
  if (perm) {
    ASSERT_EQ(int64_t(perm->size()), dst.getPerThread());
    for (int64_t t = 0; t < threads; ++t)
      for (int64_t s = 0; s < dst.getPerThread(); ++s)
        ASSERT_EQ(dstAt[t][s], srcAt[t][(*perm)[s]]) << what();
  }

  bool threadLocal = true;
  for (int64_t t = 0; t < threads && threadLocal; ++t)
    threadLocal = std::includes(srcE.held[t].begin(), srcE.held[t].end(),
                                dstE.held[t].begin(), dstE.held[t].end());
  EXPECT_EQ(src.isThreadLocalConversion(dst), threadLocal) << what();

  bool warpLocal = true;
  for (int64_t t = 0; t < threads && warpLocal; ++t)
    for (int64_t element : dstAt[t])
      warpLocal &= srcE.warpHeld[t / 32][element];
  EXPECT_EQ(src.isWarpLocalConversion(dst), warpLocal) << what();

  // Every shuffle plan moves, in every thread of every warp, the element the
  // dst slot holds; equal warp bases give one for every warp-local pair.
  auto shuffles = src.warpShuffles(dst);
  bool sameWarps =
      src.getBases(InDim::Warp) == dst.getBases(InDim::Warp);
  if (warpLocal && sameWarps) {
    EXPECT_TRUE(shuffles.has_value()) << what();
    ++counts.shufflePlans;
  }
  if (shuffles) {
    ASSERT_TRUE(warpLocal) << what();
    ASSERT_EQ(int64_t(shuffles->size()), dst.getPerThread());
    for (int64_t t = 0; t < threads; ++t) {
      int64_t warp = t / 32, lane = t % 32;
      for (int64_t s = 0; s < dst.getPerThread(); ++s) {
        const LL::LaneShuffle &move = (*shuffles)[s];
        int64_t sourceLane = move.sourceLane.at(lane);
        int64_t sourceSlot = move.sourceSlot.at(lane);
        ASSERT_GE(sourceLane, 0);
        ASSERT_LT(sourceLane, 32);
        ASSERT_LT(sourceSlot, src.getPerThread());
        ASSERT_EQ(dstAt[t][s], srcAt[warp * 32 + sourceLane][sourceSlot])
            << what();
      }
    }
  }

  ++counts.pairs;
  counts.registerOnly += mapExists;
  counts.threadLocal += threadLocal;
  counts.warpLocal += warpLocal;
}

void expectConversion(const LL &src, const LL &dst, ConversionCounts &counts) {
  expectConversion(Enumerated(src), Enumerated(dst), counts);
}

TEST(LinearLayoutAlgebra, ConversionsByBruteForce) {
  ConversionCounts counts;
  for (const auto &shape : poolShapes())
    for (int64_t warps = 1; warps <= 4; warps *= 2) {
      std::vector<Enumerated> pool;
      for (const LL &layout : poolOf(shape, warps))
        pool.emplace_back(layout);
      for (const Enumerated &src : pool)
        for (const Enumerated &dst : pool)
          expectConversion(src, dst, counts);
    }
  // Every outcome occurs, and they nest: register-only implies thread-local
  // implies warp-local, each strictly.
  EXPECT_GT(counts.pairs, counts.warpLocal);
  EXPECT_GT(counts.warpLocal, counts.threadLocal);
  EXPECT_GT(counts.threadLocal, counts.registerOnly);
  EXPECT_GT(counts.registerOnly, 0);
  EXPECT_GT(counts.shufflePlans, counts.threadLocal);
  std::printf("%lld pairs: %lld warp-local (%lld with shuffle plans), %lld "
              "thread-local, %lld register-only\n",
              (long long)counts.pairs, (long long)counts.warpLocal,
              (long long)counts.shufflePlans, (long long)counts.threadLocal,
              (long long)counts.registerOnly);
}

TEST(LinearLayoutAlgebra, IdentityAndReorderedRegisters) {
  for (const auto &shape : poolShapes())
    for (const LL &layout : poolOf(shape, 2)) {
      auto identity = layout.registerPermutation(layout);
      ASSERT_TRUE(identity);
      // Slots of a repeated register bit are served by the lowest copy.
      std::set<Coords> distinct;
      for (int64_t s = 0; s < layout.getPerThread(); ++s)
        distinct.insert(layout.apply(s, 0, 0));
      bool slotsDistinct = int64_t(distinct.size()) == layout.getPerThread();
      for (int64_t s = 0; s < layout.getPerThread(); ++s) {
        if (slotsDistinct) {
          EXPECT_EQ((*identity)[s], s);
        }
        EXPECT_EQ(layout.apply((*identity)[s], 0, 0), layout.apply(s, 0, 0));
      }
      // Reverse the register bits: slot s of the result is slot
      // bitreverse(s) of the original.
      unsigned bits = layout.getNumBits(InDim::Register);
      SmallVector<unsigned> order;
      for (unsigned bit = bits; bit-- > 0;)
        order.push_back(bit);
      LL reordered = reorderRegisters(layout, order);
      auto perm = layout.registerPermutation(reordered);
      ASSERT_TRUE(perm);
      for (int64_t s = 0; s < layout.getPerThread(); ++s) {
        int64_t expected = 0;
        for (unsigned j = 0; j < bits; ++j)
          if (s >> j & 1)
            expected |= int64_t(1) << order[j];
        if (slotsDistinct) {
          EXPECT_EQ((*perm)[s], expected);
        }
        for (int64_t t = 0; t < layout.getNumThreads(); t += 5)
          EXPECT_EQ(reordered.applyThread(s, t),
                    layout.applyThread((*perm)[s], t));
      }
    }
}

// FlashAttention-2's trick: the accumulator fragments of two adjacent n8
// tiles are exactly an A fragment of one k16 tile, so the P of P @ V needs
// no data movement (with every warp along M).
TEST(LinearLayoutAlgebra, MmaAccumulatorIsOperandAInRegisters) {
  ConversionCounts counts;
  for (int64_t warpsM = 1; warpsM <= 8; warpsM *= 2)
    for (int64_t rows = 16 * warpsM; rows <= 128; rows *= 2)
      for (int64_t cols = 16; cols <= 128; cols *= 2) {
        LL acc = LL::mmaAccumulator(rows, cols, warpsM, 1);
        LL a = LL::mmaOperandA(rows, cols, warpsM, 1);
        auto perm = acc.registerPermutation(a);
        ASSERT_TRUE(perm) << acc.str() << " -> " << a.str();
        for (int64_t s = 0; s < a.getPerThread(); ++s)
          EXPECT_EQ((*perm)[s], s); // Same slots, even.
        forEachInput(a, [&](int64_t s, int64_t l, int64_t w) {
          ASSERT_EQ(a.apply(s, l, w), acc.apply((*perm)[s], l, w));
        });
        expectConversion(acc, a, counts);
        // With warps along N, the A copies span columns other warps hold.
        if (warpsM <= 4) {
          LL acc2 = LL::mmaAccumulator(rows, cols * 2, warpsM, 2);
          LL a2 = LL::mmaOperandA(rows, cols * 2, warpsM, 2);
          EXPECT_FALSE(acc2.registerPermutation(a2));
          EXPECT_FALSE(acc2.isWarpLocalConversion(a2));
          expectConversion(acc2, a2, counts);
        }
      }
}

TEST(LinearLayoutAlgebra, BlockedToMmaMovesData) {
  for (auto [warpsM, warpsN] : warpSplits()) {
    if (warpsM > 4)
      continue; // 64 rows are too few for 8 warps of 16.
    LL acc = LL::mmaAccumulator(64, 64, warpsM, warpsN);
    LL blocked = LL::blocked({64, 64}, 32 * warpsM * warpsN);
    EXPECT_FALSE(blocked.registerPermutation(acc));
    EXPECT_FALSE(blocked.isThreadLocalConversion(acc));
    EXPECT_FALSE(acc.registerPermutation(blocked));
  }
  // Different thread counts never convert locally.
  LL a = LL::blocked({64, 64}, 64), b = LL::blocked({64, 64}, 128);
  EXPECT_FALSE(a.registerPermutation(b));
  EXPECT_FALSE(a.isThreadLocalConversion(b));
  EXPECT_FALSE(a.isWarpLocalConversion(b));
  // A single warp holds everything: any conversion is warp-local.
  EXPECT_TRUE(LL::blocked({16, 16}, 32)
                  .isWarpLocalConversion(LL::mmaAccumulator(16, 16, 1, 1)));
}

} // namespace
