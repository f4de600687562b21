//===- SharedLayoutTest.cpp - Tiles in workgroup memory, brute force ------===//
//
// The placements are compared element by element with the address formulas
// written out by hand, and the bank-conflict counts with a count over every
// slot of every lane.
//
//===----------------------------------------------------------------------===//

#include "tilec/Layout/SharedLayout.h"

#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace tilec::layout;
using LL = LinearLayout;
using SL = SharedLayout;

namespace {

/// Every offset in [0, n) exactly once.
void expectPermutation(const SL &placement) {
  std::set<int64_t> seen;
  int64_t n = placement.getNumElements();
  for (int64_t index = 0; index < n; ++index) {
    int64_t offset = placement.offsetOfIndex(index);
    ASSERT_GE(offset, 0);
    ASSERT_LT(offset, n);
    ASSERT_TRUE(seen.insert(offset).second) << placement.str();
  }
}

/// The largest number of distinct words asked of one bank by the lanes of
/// warp 0, over every slot: counted directly, without the library's
/// shortcut of looking at slot 0 only.
int64_t countWavefronts(const SL &placement, const LL &threads,
                        unsigned elementBits) {
  int64_t most = 1;
  for (int64_t slot = 0; slot < threads.getPerThread(); ++slot) {
    std::map<int64_t, std::set<int64_t>> wordsOfBank;
    for (int64_t lane = 0; lane < 32; ++lane) {
      int64_t word =
          placement.offsetOf(threads.apply(slot, lane, 0)) * elementBits / 32;
      wordsOfBank[word % 32].insert(word);
    }
    for (auto &[bank, words] : wordsOfBank)
      most = std::max<int64_t>(most, words.size());
  }
  return most;
}

TEST(SharedLayout, RowMajorIsTheIdentity) {
  SL placement = SL::rowMajor({16, 8});
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(placement.offsetOf({r, c}), r * 8 + c);
}

// Hopper's 128-byte swizzle, as tilegpu.copy_async wrote it before the
// placement was a layout: panel p = c / W, then in row r the 16-byte group
// g = (c mod W) / G sits at g xor (r mod 8).
TEST(SharedLayout, Hopper128ByteSwizzleMatchesTheFormula) {
  for (int64_t elementBytes : {2, 4}) {
    int64_t width = 128 / elementBytes, group = 16 / elementBytes;
    for (int64_t rows : {8, 16, 64, 128})
      for (int64_t cols : {width, 2 * width, 4 * width}) {
        Swizzle swizzle{group, 1, 8, width};
        ASSERT_TRUE(SL::canSwizzle({rows, cols}, swizzle));
        SL placement = SL::swizzled({rows, cols}, swizzle);
        expectPermutation(placement);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c) {
            int64_t panel = c / width, inPanel = c % width;
            int64_t column =
                ((inPanel / group) ^ (r % 8)) * group + inPanel % group;
            ASSERT_EQ(placement.offsetOf({r, c}),
                      (panel * rows + r) * width + column)
                << rows << "x" << cols << " at " << r << "," << c;
          }
      }
  }
}

TEST(SharedLayout, EverySwizzleIsAPermutation) {
  for (int64_t rows : {1, 2, 8, 32})
    for (int64_t cols : {1, 4, 16, 64})
      for (int64_t vec : {1, 2, 8})
        for (int64_t perPhase : {1, 2, 4})
          for (int64_t maxPhase : {1, 2, 8})
            for (int64_t panel : {0, 4, 16}) {
              Swizzle swizzle{vec, perPhase, maxPhase, panel};
              if (!SL::canSwizzle({rows, cols}, swizzle))
                continue;
              SL placement = SL::swizzled({rows, cols}, swizzle);
              expectPermutation(placement);
              // The general formula: panels, then vectors xor phase.
              int64_t width = panel ? panel : cols;
              for (int64_t r = 0; r < rows; ++r)
                for (int64_t c = 0; c < cols; ++c) {
                  int64_t inPanel = c % width;
                  int64_t vector =
                      (inPanel / vec) ^ ((r / perPhase) % maxPhase);
                  ASSERT_EQ(placement.offsetOf({r, c}),
                            (c / width * rows + r) * width + vector * vec +
                                inPanel % vec);
                }
            }
}

TEST(SharedLayout, SwizzlesThatDoNotFitAreRefused) {
  EXPECT_FALSE(SL::canSwizzle({8, 8}, {4, 1, 4, 0}));  // 16 > 8 columns
  EXPECT_FALSE(SL::canSwizzle({8, 8}, {2, 1, 2, 16})); // panel > row
  EXPECT_FALSE(SL::canSwizzle({8, 6}, {1, 1, 1, 0}));  // not a power of 2
  EXPECT_FALSE(SL::canSwizzle({2, 4, 8}, {1, 1, 1, 0}));
}

TEST(SharedLayout, TryCreateNeedsAPermutation) {
  EXPECT_TRUE(SL::tryCreate({4, 4}, {1, 2, 4, 8}).has_value());
  EXPECT_TRUE(SL::tryCreate({4, 4}, {1, 2, 5, 10}).has_value());
  EXPECT_FALSE(SL::tryCreate({4, 4}, {1, 2, 3, 8}).has_value());  // 3 = 1^2
  EXPECT_FALSE(SL::tryCreate({4, 4}, {1, 2, 4, 16}).has_value()); // too big
  EXPECT_FALSE(SL::tryCreate({4, 4}, {1, 2, 4}).has_value());
  EXPECT_FALSE(SL::tryCreate({4, 3}, {1, 2, 4}).has_value());
}

TEST(SharedLayout, OffsetsComposeWithThreads) {
  LL threads = LL::mmaAccumulator(64, 32, 2, 2);
  SL placement = SL::swizzled({64, 32}, {2, 1, 8, 0});
  LL offsets = placement.offsets(threads);
  for (int64_t warp = 0; warp < threads.getNumWarps(); ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t slot = 0; slot < threads.getPerThread(); ++slot)
        ASSERT_EQ(offsets.applyIndex(slot, lane, warp),
                  placement.offsetOf(threads.apply(slot, lane, warp)));
}

TEST(SharedLayout, WavefrontsCountEverySlot) {
  for (unsigned bits : {16u, 32u})
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 32},
                              {32, 64},
                              {128, 128},
                              {32, 16}}) {
      if (!LL::canBuildMmaAccumulator(rows, cols, 2, 2))
        continue;
      LL threads = LL::mmaAccumulator(rows, cols, 2, 2);
      LL blocked = LL::blocked({rows, cols}, 128);
      for (const SL &placement :
           {SL::rowMajor({rows, cols}),
            SL::swizzled({rows, cols}, {2, 1, std::min<int64_t>(8, cols / 2),
                                        0})}) {
        EXPECT_EQ(SL::wavefronts(placement.offsets(threads), bits),
                  countWavefronts(placement, threads, bits));
        EXPECT_EQ(SL::wavefronts(placement.offsets(blocked), bits),
                  countWavefronts(placement, blocked, bits));
      }
    }
}

// An mma.sync accumulator written row-major: the 8 rows of a fragment are
// 32 words apart, so they share 4 banks (8 words each); the exchange's
// placement XORs row bits into the bank bits.
TEST(SharedLayout, ExchangePlacementRemovesConflicts) {
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 32},
                            {128, 128},
                            {64, 64},
                            {32, 16}})
    for (unsigned bits : {16u, 32u}) {
      ASSERT_TRUE(LL::canBuildMmaAccumulator(rows, cols, 2, 2));
      LL mma = LL::mmaAccumulator(rows, cols, 2, 2);
      LL blocked = LL::blocked({rows, cols}, 128);
      SL rowMajor = SL::rowMajor({rows, cols});
      SL chosen = SL::forExchange(mma, blocked, bits);
      expectPermutation(chosen);
      int64_t before = countWavefronts(rowMajor, mma, bits) +
                       countWavefronts(rowMajor, blocked, bits);
      int64_t after = countWavefronts(chosen, mma, bits) +
                      countWavefronts(chosen, blocked, bits);
      EXPECT_LE(after, before) << rows << "x" << cols << " " << bits;
      if (rows == 64 && cols == 32 && bits == 32) {
        EXPECT_EQ(countWavefronts(rowMajor, mma, bits), 8);
        EXPECT_EQ(countWavefronts(chosen, mma, bits), 1) << chosen.str();
      }
    }
}

} // namespace
