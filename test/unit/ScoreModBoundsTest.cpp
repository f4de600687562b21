//===- ScoreModBoundsTest.cpp - Keys a score modification masks -----------===//
//
// Each region below is parsed into a tile.attention; the bounds the
// analysis finds are compared with the expected ones, and checked sound
// against the region's meaning written out in C++: every (query, key) the
// bounds exclude must be masked by the region.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Transforms/ScoreModBounds.h"

#include "tilec/Dialect/Tile/TileDialect.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <functional>

using namespace mlir;
using tilec::KeyDistanceBounds;

namespace {

struct Case {
  const char *name;
  /// The region's body, between its block header and its tile.yield %r.
  const char *body;
  std::optional<int64_t> min, max;
  /// Whether the region keeps key k for query q.
  std::function<bool(int64_t q, int64_t k)> keeps;
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.name; }

KeyDistanceBounds analyze(MLIRContext &context, const std::string &body) {
  std::string source = R"(
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %ninf = arith.constant 0xFF800000 : f32
)" + body + R"(
  tile.yield %r : f32
})";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module) {
    ADD_FAILURE() << "does not parse:\n" << source;
    return {};
  }
  auto attention = *module->getOps<tilec::tile::AttentionOp>().begin();
  return tilec::analyzeScoreModMask(attention.getScoreMod());
}

class ScoreModBoundsTest : public ::testing::TestWithParam<Case> {};

TEST_P(ScoreModBoundsTest, FindsSoundBounds) {
  const Case &c = GetParam();
  MLIRContext context;
  context.loadDialect<tilec::tile::TileDialect, arith::ArithDialect>();
  KeyDistanceBounds bounds = analyze(context, c.body);
  EXPECT_EQ(bounds.min, c.min);
  EXPECT_EQ(bounds.max, c.max);
  for (int64_t q = 0; q < 80; ++q)
    for (int64_t k = 0; k < 80; ++k) {
      bool excluded = (bounds.min && q - k < *bounds.min) ||
                      (bounds.max && q - k > *bounds.max);
      if (excluded)
        ASSERT_FALSE(c.keeps(q, k)) << "q " << q << ", k " << k;
    }
}

const Case kCases[] = {
    {"window", R"(
  %w = arith.constant 16 : index
  %d = arith.subi %q, %k : index
  %in = arith.cmpi slt, %d, %w : index
  %r = arith.select %in, %s, %ninf : f32)",
     std::nullopt, 15, [](int64_t q, int64_t k) { return q - k < 16; }},
    // k >= q - 9, written with the key on the left and -inf chosen when the
    // condition holds.
    {"mirrored", R"(
  %c9 = arith.constant 9 : index
  %lo = arith.subi %q, %c9 : index
  %out = arith.cmpi slt, %k, %lo : index
  %r = arith.select %out, %ninf, %s : f32)",
     std::nullopt, 9, [](int64_t q, int64_t k) { return k >= q - 9; }},
    // Causal and a window of 8 in one condition.
    {"band", R"(
  %c8 = arith.constant 8 : index
  %causal = arith.cmpi sle, %k, %q : index
  %d = arith.subi %q, %k : index
  %near = arith.cmpi slt, %d, %c8 : index
  %in = arith.andi %causal, %near : i1
  %r = arith.select %in, %s, %ninf : f32)",
     0, 7, [](int64_t q, int64_t k) { return k <= q && q - k < 8; }},
    // Two selects, one after the other.
    {"nested", R"(
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %kk = arith.addi %k, %c2 : index
  %ahead = arith.cmpi sge, %q, %kk : index
  %m = arith.select %ahead, %s, %ninf : f32
  %d = arith.subi %q, %k : index
  %near = arith.cmpi sle, %d, %c5 : index
  %r = arith.select %near, %m, %ninf : f32)",
     2, 5, [](int64_t q, int64_t k) { return q >= k + 2 && q - k <= 5; }},
    // Either of two diagonals bounds neither side alone, but the band that
    // holds both.
    {"either", R"(
  %c3 = arith.constant 3 : index
  %at = arith.cmpi eq, %q, %k : index
  %qk = arith.addi %k, %c3 : index
  %at3 = arith.cmpi eq, %q, %qk : index
  %in = arith.ori %at, %at3 : i1
  %r = arith.select %in, %s, %ninf : f32)",
     0, 3, [](int64_t q, int64_t k) { return q == k || q == k + 3; }},
    // Keys in a negated condition: not (q - k > 4).
    {"negated", R"(
  %true = arith.constant true
  %c4 = arith.constant 4 : index
  %d = arith.subi %q, %k : index
  %far = arith.cmpi sgt, %d, %c4 : index
  %in = arith.xori %far, %true : i1
  %r = arith.select %in, %s, %ninf : f32)",
     std::nullopt, 4, [](int64_t q, int64_t k) { return q - k <= 4; }},
    // 2 * (q - k) < 7 is not recognised: bounds nothing.
    {"scaled", R"(
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %d = arith.subi %q, %k : index
  %dd = arith.muli %d, %c2 : index
  %in = arith.cmpi slt, %dd, %c7 : index
  %r = arith.select %in, %s, %ninf : f32)",
     std::nullopt, std::nullopt,
     [](int64_t q, int64_t k) { return 2 * (q - k) < 7; }},
    // Unsigned: q - k wraps where the key is ahead, which the comparison
    // then rejects; nothing is proven.
    {"unsigned", R"(
  %w = arith.constant 16 : index
  %d = arith.subi %q, %k : index
  %in = arith.cmpi ult, %d, %w : index
  %r = arith.select %in, %s, %ninf : f32)",
     std::nullopt, std::nullopt,
     [](int64_t q, int64_t k) { return q >= k && q - k < 16; }},
    // A bound past any sequence length is dropped rather than risk index
    // arithmetic that wraps.
    {"huge", R"(
  %w = arith.constant 4611686018427387904 : index
  %d = arith.subi %q, %k : index
  %in = arith.cmpi slt, %d, %w : index
  %r = arith.select %in, %s, %ninf : f32)",
     std::nullopt, std::nullopt, [](int64_t, int64_t) { return true; }},
    // Documents: q / 1000 == k / 1000 bounds nothing linear.
    {"documents", R"(
  %len = arith.constant 1000 : index
  %dq = arith.divui %q, %len : index
  %dk = arith.divui %k, %len : index
  %same = arith.cmpi eq, %dq, %dk : index
  %r = arith.select %same, %s, %ninf : f32)",
     std::nullopt, std::nullopt,
     [](int64_t q, int64_t k) { return q / 1000 == k / 1000; }},
    // The head takes part: nothing is proven about query and key.
    {"per_head", R"(
  %d = arith.subi %q, %k : index
  %in = arith.cmpi slt, %d, %h : index
  %r = arith.select %in, %s, %ninf : f32)",
     std::nullopt, std::nullopt, [](int64_t, int64_t) { return true; }},
    // A select whose sides are both scores masks nothing.
    {"soft_cap", R"(
  %c = arith.constant 3.0e+01 : f32
  %big = arith.cmpf ogt, %s, %c : f32
  %r = arith.select %big, %c, %s : f32)",
     std::nullopt, std::nullopt, [](int64_t, int64_t) { return true; }},
    // A bias after the mask: the yielded value is an addf, not proven.
    {"after_mask", R"(
  %w = arith.constant 16 : index
  %d = arith.subi %q, %k : index
  %in = arith.cmpi slt, %d, %w : index
  %m = arith.select %in, %s, %ninf : f32
  %one = arith.constant 1.0 : f32
  %r = arith.addf %m, %one : f32)",
     std::nullopt, std::nullopt, [](int64_t, int64_t) { return true; }},
};

INSTANTIATE_TEST_SUITE_P(
    Regions, ScoreModBoundsTest, ::testing::ValuesIn(kCases),
    [](const ::testing::TestParamInfo<Case> &info) {
      return std::string(info.param.name);
    });

} // namespace
