//===- ScoreModBounds.cpp - Keys a score modification masks out -----------===//
//
// Walks the region's yielded value back through selects against -inf to the
// conditions that choose them, and reads each comparison of query and key
// as a bound on their distance. Every step is conservative: what it does
// not recognise bounds nothing.
//
//===----------------------------------------------------------------------===//

#include "ScoreModBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>

using namespace mlir;
using namespace tilec;

namespace {

/// The region's block arguments: score, batch, head, query, key.
constexpr unsigned kQueryArgument = 3, kKeyArgument = 4;
/// Deeper expressions than this prove nothing (and bound the recursion).
constexpr unsigned kMaxDepth = 32;
/// Bounds further from 0 than this are dropped: no sequence is that long,
/// and the tiling's index arithmetic on them must not wrap.
constexpr int64_t kMaxDistance = int64_t(1) << 40;

/// query * q + key * k + constant.
struct Linear {
  int64_t query = 0, key = 0, constant = 0;
};

std::optional<Linear> addScaled(const Linear &a, const Linear &b,
                                int64_t factor) {
  std::optional<int64_t> q = llvm::checkedMul(b.query, factor),
                         k = llvm::checkedMul(b.key, factor),
                         c = llvm::checkedMul(b.constant, factor);
  if (!q || !k || !c)
    return std::nullopt;
  q = llvm::checkedAdd(a.query, *q);
  k = llvm::checkedAdd(a.key, *k);
  c = llvm::checkedAdd(a.constant, *c);
  if (!q || !k || !c)
    return std::nullopt;
  return Linear{*q, *k, *c};
}

std::optional<int64_t> constantIndex(Value v) {
  APInt value;
  if (!v.getType().isIndex() || !matchPattern(v, m_ConstantInt(&value)) ||
      value.getSignificantBits() > 64)
    return std::nullopt;
  return value.getSExtValue();
}

/// `v` as a Linear of the region's query and key, if it is one.
std::optional<Linear> linearIndex(Value v, Block &body, unsigned depth) {
  if (depth > kMaxDepth || !v.getType().isIndex())
    return std::nullopt;
  if (auto argument = dyn_cast<BlockArgument>(v)) {
    if (argument.getOwner() != &body)
      return std::nullopt;
    if (argument.getArgNumber() == kQueryArgument)
      return Linear{1, 0, 0};
    if (argument.getArgNumber() == kKeyArgument)
      return Linear{0, 1, 0};
    return std::nullopt;
  }
  if (std::optional<int64_t> c = constantIndex(v))
    return Linear{0, 0, *c};
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumOperands() != 2)
    return std::nullopt;
  auto operand = [&](unsigned i) {
    return linearIndex(op->getOperand(i), body, depth + 1);
  };
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    std::optional<Linear> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    return addScaled(*lhs, *rhs, isa<arith::AddIOp>(op) ? 1 : -1);
  }
  if (isa<arith::MulIOp>(op)) {
    for (unsigned i : {0u, 1u})
      if (std::optional<int64_t> factor = constantIndex(op->getOperand(i)))
        if (std::optional<Linear> other = operand(1 - i))
          return addScaled(Linear{}, *other, *factor);
  }
  return std::nullopt;
}

/// The predicate that holds for (b, a) where `pred` holds for (a, b).
arith::CmpIPredicate mirrored(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ule:
    return P::uge;
  case P::ugt:
    return P::ult;
  case P::uge:
    return P::ule;
  default:
    return pred;
  }
}

/// The bounds of the pairs for which `lhs pred rhs` holds.
KeyDistanceBounds whereCompares(arith::CmpIPredicate pred, Value lhs,
                                Value rhs, Block &body, unsigned depth) {
  std::optional<Linear> l = linearIndex(lhs, body, depth + 1),
                        r = linearIndex(rhs, body, depth + 1);
  if (!l || !r)
    return {};
  std::optional<Linear> diff = addScaled(*l, *r, -1);
  // Only (query - key) + c or its negation.
  if (!diff || diff->query != -diff->key ||
      (diff->query != 1 && diff->query != -1))
    return {};
  // d pred 0 is (-d) (swapped pred) 0.
  if (diff->query == -1) {
    diff = addScaled(Linear{}, *diff, -1);
    if (!diff)
      return {};
    pred = mirrored(pred);
  }
  // (query - key) + c pred 0, i.e. query - key pred -c.
  std::optional<int64_t> limit = llvm::checkedMul(diff->constant, int64_t(-1));
  if (!limit || *limit > kMaxDistance || *limit < -kMaxDistance)
    return {};
  auto below = [&](int64_t x) { return llvm::checkedSub(x, int64_t(1)); };
  auto above = [&](int64_t x) { return llvm::checkedAdd(x, int64_t(1)); };
  switch (pred) {
  case arith::CmpIPredicate::slt:
    return {std::nullopt, below(*limit)};
  case arith::CmpIPredicate::sle:
    return {std::nullopt, limit};
  case arith::CmpIPredicate::sgt:
    return {above(*limit), std::nullopt};
  case arith::CmpIPredicate::sge:
    return {limit, std::nullopt};
  case arith::CmpIPredicate::eq:
    return {limit, limit};
  default:
    // Unsigned comparisons wrap where query - key is negative.
    return {};
  }
}

/// The bounds of the pairs for which `condition` is `holds`.
KeyDistanceBounds whereHolds(Value condition, bool holds, Block &body,
                             unsigned depth) {
  if (depth > kMaxDepth)
    return {};
  Operation *op = condition.getDefiningOp();
  if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(op))
    return whereCompares(holds ? cmp.getPredicate()
                               : arith::invertPredicate(cmp.getPredicate()),
                         cmp.getLhs(), cmp.getRhs(), body, depth);
  if (!op || !isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op))
    return {};
  auto operand = [&](unsigned i, bool value) {
    return whereHolds(op->getOperand(i), value, body, depth + 1);
  };
  if (isa<arith::XOrIOp>(op)) {
    // x ^ true is not x.
    for (unsigned i : {0u, 1u})
      if (matchPattern(op->getOperand(i), m_One()))
        return operand(1 - i, !holds);
    return {};
  }
  // a & b holds where both do, fails where either does; a | b the dual.
  bool both = isa<arith::AndIOp>(op) == holds;
  KeyDistanceBounds a = operand(0, holds), b = operand(1, holds);
  return both ? a.intersect(b) : a.unite(b);
}

bool isNegativeInfinity(Value v) {
  FloatAttr value;
  return matchPattern(v, m_Constant(&value)) &&
         value.getValue().isNegative() && value.getValue().isInfinity();
}

/// The bounds of the pairs for which `score` may be more than -inf.
KeyDistanceBounds whereVisible(Value score, Block &body, unsigned depth) {
  auto select = score.getDefiningOp<arith::SelectOp>();
  if (!select || depth > kMaxDepth)
    return {};
  Value onTrue = select.getTrueValue(), onFalse = select.getFalseValue();
  Value condition = select.getCondition();
  if (isNegativeInfinity(onFalse))
    return whereHolds(condition, true, body, depth + 1)
        .intersect(whereVisible(onTrue, body, depth + 1));
  if (isNegativeInfinity(onTrue))
    return whereHolds(condition, false, body, depth + 1)
        .intersect(whereVisible(onFalse, body, depth + 1));
  return whereVisible(onTrue, body, depth + 1)
      .unite(whereVisible(onFalse, body, depth + 1));
}

} // namespace

KeyDistanceBounds
KeyDistanceBounds::intersect(const KeyDistanceBounds &other) const {
  auto tighter = [](std::optional<int64_t> a, std::optional<int64_t> b,
                    bool lower) -> std::optional<int64_t> {
    if (!a || !b)
      return a ? a : b;
    return lower ? std::max(*a, *b) : std::min(*a, *b);
  };
  return {tighter(min, other.min, true), tighter(max, other.max, false)};
}

KeyDistanceBounds
KeyDistanceBounds::unite(const KeyDistanceBounds &other) const {
  auto looser = [](std::optional<int64_t> a, std::optional<int64_t> b,
                   bool lower) -> std::optional<int64_t> {
    if (!a || !b)
      return std::nullopt;
    return lower ? std::min(*a, *b) : std::max(*a, *b);
  };
  return {looser(min, other.min, true), looser(max, other.max, false)};
}

KeyDistanceBounds tilec::analyzeScoreModMask(Region &scoreMod) {
  if (scoreMod.empty())
    return {};
  Block &body = scoreMod.front();
  Operation *terminator = body.getTerminator();
  if (!terminator || terminator->getNumOperands() != 1 ||
      body.getNumArguments() <= kKeyArgument)
    return {};
  return whereVisible(terminator->getOperand(0), body, 0);
}
