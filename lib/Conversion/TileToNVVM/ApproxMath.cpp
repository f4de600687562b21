//===- ApproxMath.cpp - Fast-math ops as NVIDIA's approximate instructions ===//
//
// The GPU to NVVM conversion sends math ops to libdevice, which honours
// subnormals unless the whole module flushes them. The ops tilec marks
// `afn` (the exponentials of an online softmax) need neither: they become
// the flushing instruction alone.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilec {
#define GEN_PASS_DEF_TILEAPPROXMATHTONVVM
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Whether `op` may be rewritten: it allows approximation, on f32.
static bool isApproximableExp2(math::Exp2Op op) {
  return bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn) &&
         getElementTypeOrSelf(op.getType()).isF32();
}

namespace {

/// math.exp2 {afn} on f32 (or a vector of f32, element by element) as
/// ex2.approx.ftz.f32.
struct Exp2ToApproxFtz : OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!isApproximableExp2(op))
      return failure();
    Location loc = op.getLoc();
    auto exp2 = [&](Value x) -> Value {
      return LLVM::CallIntrinsicOp::create(
                 rewriter, loc, rewriter.getF32Type(),
                 rewriter.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
                 ValueRange{x})
          .getResult(0);
    };
    auto vectorType = dyn_cast<VectorType>(op.getType());
    if (!vectorType) {
      rewriter.replaceOp(op, exp2(op.getOperand()));
      return success();
    }
    if (vectorType.getRank() != 1 || vectorType.isScalable())
      return failure();
    SmallVector<Value> elements;
    for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i)
      elements.push_back(exp2(
          vector::ExtractOp::create(rewriter, loc, op.getOperand(), i)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vectorType,
                                                        elements);
    return success();
  }
};

struct TileApproxMathToNVVMPass
    : tilec::impl::TileApproxMathToNVVMBase<TileApproxMathToNVVMPass> {
  void runOnOperation() override {
    // Counted first: the rewrite removes the marks.
    getOperation()->walk([&](math::Exp2Op op) {
      if (isApproximableExp2(op))
        ++numRewritten;
    });
    RewritePatternSet patterns(&getContext());
    populateApproxMathToNVVMPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void tilec::populateApproxMathToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<Exp2ToApproxFtz>(patterns.getContext());
}
