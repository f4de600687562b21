//===- AssignLayouts.cpp - Give every tile its layout over the threads ----===//
//
// Analysis first: the layout each value must take, from the dots outwards
// (see the pass description). Then the mutation: types are set, every
// operand that arrives in another layout than its user needs gets a
// tilegpu.convert_layout, and the conversions are folded into producers that
// can make any layout.
//
//===----------------------------------------------------------------------===//

#include "DotLayout.h"
#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

namespace tilec {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

static bool isElementwise(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op);
}

static Attribute encodingOf(Type type) {
  auto tile = dyn_cast<RankedTensorType>(type);
  return tile ? tile.getEncoding() : Attribute();
}

/// The layout of reducing a tile laid out as `parent` (a tile of
/// `parentType`) along `axis`.
static Attribute sliceOf(RankedTensorType parentType, Attribute parent,
                         unsigned axis) {
  auto encoding = dyn_cast_or_null<tile::LayoutEncodingAttrInterface>(parent);
  if (!encoding || parentType.getRank() < 2)
    return Attribute();
  return tilegpu::SliceLayoutAttr::get(parent.getContext(), axis,
                                       parentType.getDimSize(axis), encoding);
}

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

namespace {

/// The layouts chosen so far, propagated forward from the anchors.
class LayoutPlan {
public:
  explicit LayoutPlan(int64_t threads) : threads(threads) {}

  /// Records `layout` for `value` (the first choice wins) and follows it.
  void assign(Value value, Attribute layout) {
    if (!layout || !isa<RankedTensorType>(value.getType()))
      return;
    if (!layouts.insert({value, layout}).second)
      return;
    worklist.push_back(value);
  }

  void propagate() {
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      Attribute layout = layouts.lookup(value);
      if (auto arg = dyn_cast<BlockArgument>(value))
        if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
          if (arg.getArgNumber() > 0)
            assignLoopSlot(loop, arg.getArgNumber() - 1, layout);
      for (OpOperand &use : value.getUses())
        follow(use, layout);
    }
  }

  const llvm::MapVector<Value, Attribute> &getLayouts() const {
    return layouts;
  }

private:
  void assignLoopSlot(scf::ForOp loop, unsigned i, Attribute layout) {
    assign(loop.getRegionIterArgs()[i], layout);
    assign(loop.getResult(i), layout);
  }

  void follow(OpOperand &use, Attribute layout) {
    Operation *user = use.getOwner();
    if (isElementwise(user)) {
      for (Value result : user->getResults())
        assign(result, layout);
    } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp()))
        assignLoopSlot(loop, use.getOperandNumber(), layout);
    } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
      if (use.getOperandNumber() >= loop.getNumControlOperands())
        assignLoopSlot(loop,
                       use.getOperandNumber() - loop.getNumControlOperands(),
                       layout);
    } else if (auto prefix = dyn_cast<tile::PrefixOp>(user)) {
      // A prefix scans in the layout its tiles arrive in, where it can.
      // Its totals are in the slice of that layout.
      if (prefix.getInputs().size() == 1 &&
          prefixRunsOnLayout(prefix, layout, threads)) {
        assign(prefix.getScans()[0], layout);
        assign(prefix.getTotals()[0],
               sliceOf(prefix.getType(), layout, prefix.getAxis()));
      }
    } else if (auto reduce = dyn_cast<tile::ReduceOp>(user)) {
      assign(reduce.getResult(),
             sliceOf(reduce.getInput().getType(), layout, reduce.getAxis()));
    } else if (auto broadcast = dyn_cast<tile::BroadcastOp>(user)) {
      auto slice = dyn_cast<tilegpu::SliceLayoutAttr>(layout);
      if (slice && broadcast.getDims().size() == 1 &&
          broadcast.getDims()[0] == int64_t(slice.getDim()) &&
          broadcast.getType().getDimSize(slice.getDim()) ==
              slice.getParentSize())
        assign(broadcast.getResult(), slice.getParent());
    }
  }

  int64_t threads;
  llvm::MapVector<Value, Attribute> layouts;
  SmallVector<Value> worklist;
};

} // namespace

//===----------------------------------------------------------------------===//
// Mutation
//===----------------------------------------------------------------------===//

static void setEncoding(Value value, Attribute layout) {
  auto type = cast<RankedTensorType>(value.getType());
  value.setType(type.cloneWithEncoding(layout));
}

/// The type `user` needs its operand `use` to have, given the layouts of
/// its results: the same layout for element-wise ops and loop slots, the
/// dot's for its accumulator, the slice for a broadcast's input, anything
/// for ops that take every layout, and the blocked layout for the rest.
static Type expectedOperandType(OpOperand &use) {
  Operation *user = use.getOwner();
  auto type = dyn_cast<RankedTensorType>(use.get().getType());
  // A placed tile stays in workgroup memory, where its reader takes it.
  if (!type || isa_and_nonnull<tile::SharedEncodingAttrInterface>(
                   type.getEncoding()))
    return use.get().getType();
  auto withLayoutOf = [&](Type other) {
    return type.cloneWithEncoding(encodingOf(other));
  };
  if (isElementwise(user))
    return withLayoutOf(user->getResult(0).getType());
  if (auto yield = dyn_cast<scf::YieldOp>(user)) {
    if (!isa<scf::ForOp, scf::IfOp>(yield->getParentOp()))
      return type.dropEncoding();
    return withLayoutOf(
        yield->getParentOp()->getResult(use.getOperandNumber()).getType());
  }
  if (auto loop = dyn_cast<scf::ForOp>(user)) {
    unsigned n = loop.getNumControlOperands();
    if (use.getOperandNumber() < n)
      return type;
    return withLayoutOf(loop.getResult(use.getOperandNumber() - n).getType());
  }
  if (auto dot = dyn_cast<tile::DotOp>(user)) {
    if (use.get() == dot.getAcc())
      return dot.getType();
    // An mma.sync lhs not staged in workgroup memory comes from registers,
    // as A fragments.
    auto mma = dyn_cast_or_null<tilegpu::MmaLayoutAttr>(
        encodingOf(dot.getType()));
    if (use.get() == dot.getLhs() && mma && !isWorkgroupOperand(use.get()))
      return type.cloneWithEncoding(
          tilegpu::DotOperandLayoutAttr::get(user->getContext(), 0, mma));
    return type;
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(user)) {
    Attribute parent = encodingOf(broadcast.getType());
    if (!parent || broadcast.getDims().size() != 1)
      return type.dropEncoding();
    return type.cloneWithEncoding(sliceOf(
        broadcast.getType(), parent, broadcast.getDims()[0]));
  }
  if (auto prefix = dyn_cast<tile::PrefixOp>(user))
    return withLayoutOf(prefix.getScans()[0].getType());
  if (isa<tile::ReduceOp, tile::StoreOp, tilegpu::ConvertLayoutOp>(user))
    return type;
  return type.dropEncoding();
}

/// Inserts a conversion before every operand that arrives in another
/// layout than its user needs.
static void insertConversions(gpu::GPUFuncOp func) {
  SmallVector<std::pair<OpOperand *, Type>> mismatches;
  func.walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      Type expected = expectedOperandType(use);
      if (expected != use.get().getType())
        mismatches.push_back({&use, expected});
    }
  });
  for (auto [use, expected] : mismatches) {
    OpBuilder b(use->getOwner());
    use->set(tilegpu::ConvertLayoutOp::create(b, use->getOwner()->getLoc(),
                                              expected, use->get()));
  }
}

//===----------------------------------------------------------------------===//
// Folding conversions into producers
//===----------------------------------------------------------------------===//

namespace {

/// Splats, splat constants and ranges are made in the layout asked for.
struct FoldIntoConstruction : OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getInput().getDefiningOp();
    if (!def || !isa<tile::SplatOp, tile::RangeOp, arith::ConstantOp>(def))
      return failure();
    Operation *clone = rewriter.clone(*def);
    clone->getResult(0).setType(op.getType());
    if (auto constant = dyn_cast<arith::ConstantOp>(clone)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense || !dense.isSplat())
        return rewriter.notifyMatchFailure(op, "not a splat");
      constant.setValueAttr(DenseElementsAttr::get(
          op.getType(), dense.getSplatValue<Attribute>()));
    }
    rewriter.replaceOp(op, clone->getResults());
    if (def->use_empty())
      rewriter.eraseOp(def);
    return success();
  }
};

/// A load used once reads straight into the layout asked for.
struct FoldIntoLoad : OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto load = op.getInput().getDefiningOp<tile::LoadOp>();
    if (!load || !load->hasOneUse() || load.getPlacement())
      return failure();
    rewriter.modifyOpInPlace(load,
                             [&] { load.getResult().setType(op.getType()); });
    rewriter.replaceOp(op, load.getResult());
    return success();
  }
};

/// convert(broadcast(x)) to a layout L is broadcast(convert(x) to the
/// slice of L), which folds further into x's producer.
struct FoldThroughBroadcast : OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto broadcast = op.getInput().getDefiningOp<tile::BroadcastOp>();
    Attribute target = op.getType().getEncoding();
    if (!broadcast || !target || broadcast.getDims().size() != 1)
      return failure();
    Attribute slice =
        sliceOf(op.getType(), target, broadcast.getDims()[0]);
    if (!slice)
      return failure();
    RankedTensorType inputType = broadcast.getInput().getType();
    auto converted = tilegpu::ConvertLayoutOp::create(
        rewriter, op.getLoc(), inputType.cloneWithEncoding(slice),
        broadcast.getInput());
    rewriter.replaceOpWithNewOp<tile::BroadcastOp>(
        op, op.getType(), converted, broadcast.getDimsAttr());
    if (broadcast->use_empty())
      rewriter.eraseOp(broadcast);
    return success();
  }
};

/// Whether `value` can be made in any layout at little cost: splats,
/// constants, ranges, single-use loads, conversions, and broadcasts or
/// element-wise ops of such values (a mask built from ranges and splats,
/// say). Element-wise ops with other uses are made twice: a few integer
/// ops a slot are cheaper than an exchange through workgroup memory.
static bool isRematerializable(Value value, unsigned depth = 8) {
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0)
    return false;
  if (isa<tile::SplatOp, tile::RangeOp, arith::ConstantOp,
          tilegpu::ConvertLayoutOp>(def))
    return true;
  if (auto load = dyn_cast<tile::LoadOp>(def))
    return load->hasOneUse() && !load.getPlacement();
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(def))
    return broadcast.getDims().size() == 1 &&
           isRematerializable(broadcast.getInput(), depth - 1);
  if (!isElementwise(def) || def->getNumResults() != 1)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return !isa<RankedTensorType>(operand.getType()) ||
           isRematerializable(operand, depth - 1);
  });
}

/// convert(f(x, y)) is f(convert(x), convert(y)) where x and y can be made
/// in the new layout directly: the conversion disappears.
struct FoldThroughElementwise : OpRewritePattern<tilegpu::ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tilegpu::ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getInput().getDefiningOp();
    if (!def || !isElementwise(def) || !isRematerializable(op.getInput()))
      return failure();
    Attribute target = op.getType().getEncoding();
    IRMapping mapping;
    for (Value operand : def->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      mapping.map(operand, tilegpu::ConvertLayoutOp::create(
                               rewriter, op.getLoc(),
                               type.cloneWithEncoding(target), operand));
    }
    Operation *clone = rewriter.clone(*def, mapping);
    clone->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, clone->getResults());
    if (def->use_empty())
      rewriter.eraseOp(def);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult tilec::assignLayouts(gpu::GPUFuncOp func, int64_t threads) {
  LayoutPlan plan(threads);
  WalkResult walk = func.walk([&](tile::DotOp dot) {
    FailureOr<Attribute> layout =
        chooseDotLayout(dot, threads, feedsRegisterLhs(dot));
    if (failed(layout))
      return WalkResult::interrupt();
    // The accumulator operand follows: through the loop that carries it,
    // or by a conversion folded into its producer.
    plan.assign(dot.getResult(), *layout);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  plan.propagate();

  for (auto [value, layout] : plan.getLayouts())
    setEncoding(value, layout);
  insertConversions(func);

  RewritePatternSet patterns(func.getContext());
  patterns.add<FoldIntoConstruction, FoldIntoLoad, FoldThroughBroadcast,
               FoldThroughElementwise>(
      func.getContext());
  tilegpu::ConvertLayoutOp::getCanonicalizationPatterns(patterns,
                                                        func.getContext());
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  // Only conversions and the ops they fold into are rewritten.
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  SmallVector<Operation *> conversions;
  func.walk([&](tilegpu::ConvertLayoutOp op) { conversions.push_back(op); });
  return applyOpPatternsGreedily(conversions, std::move(patterns), config);
}

namespace {
struct TileAssignLayoutsPass
    : tilec::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    if (!func.isKernel())
      return;
    std::optional<int64_t> threads = layoutThreads(func);
    if (!threads) {
      emitBadBlockSize(func);
      return signalPassFailure();
    }
    if (failed(assignLayouts(func, *threads)))
      return signalPassFailure();
    func.walk([&](tilegpu::ConvertLayoutOp) { ++numConversions; });
  }
};
} // namespace
