//===- MapWarps.cpp - Distribute tiles over warps and lanes ---------------===//
//
// After this pass no tensor is left in the kernel: each tile is a vector of
// the elements one thread owns (see TileLayout.h), so that the upstream
// GPU -> NVVM conversion can take over. This file holds the pass, the
// analysis that precedes any rewrite, and the patterns for element-wise ops
// and tile construction.
//
//===----------------------------------------------------------------------===//

#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace tilec {
#define GEN_PASS_DEF_TILEMAPWARPS
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

static bool hasTileTypes(Operation *op) {
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

bool tilec::hasEncodedTile(Operation *op) {
  // Placed tiles (in workgroup memory) are the dot lowering's business.
  auto encoded = [](Type t) {
    auto tile = dyn_cast<RankedTensorType>(t);
    return tile && isa_and_nonnull<tile::LayoutEncodingAttrInterface>(
                       tile.getEncoding());
  };
  return llvm::any_of(op->getOperandTypes(), encoded) ||
         llvm::any_of(op->getResultTypes(), encoded);
}

static bool isElementwise(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
}

/// Registers hold a thread's part of every live tile; past this many elements
/// a thread the code spills heavily and compiles slowly.
static constexpr int64_t kMaxElementsPerThread = 512;

/// Rejects, with a located error, what the rewrite cannot express, so that
/// the conversion itself never fails half-way.
static LogicalResult checkSupported(gpu::GPUFuncOp func, int64_t threads) {
  FailureOr<int64_t> groups = checkConsumerGroups(func, threads);
  if (failed(groups))
    return failure();
  WalkResult result = func.walk([&](Operation *op) {
    if (auto turn = dyn_cast<tilegpu::TurnOp>(op))
      return failed(checkTurnSupported(turn, threads)) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
    if (!hasTileTypes(op))
      return WalkResult::advance();
    for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                        op->getResultTypes())) {
      if (!isa<RankedTensorType>(type))
        continue;
      if (failed(tile::verifyTileShape([op]() { return op->emitOpError(); },
                                       type, "tile")))
        return WalkResult::interrupt();
      auto tileType = cast<RankedTensorType>(type);
      // Any encoding (accumulator, slice, operand) says it; blocked without.
      int64_t perThread =
          tileType.getEncoding()
              ? tilegpu::layoutOf(tileType, threads).getPerThread()
              : TileLayout(tileType.getShape(), threads).getPerThread();
      if (perThread > kMaxElementsPerThread) {
        op->emitOpError("uses a tile of ")
            << tileType.getNumElements() << " elements, " << perThread
            << " for each of the " << threads << " threads; at most "
            << kMaxElementsPerThread
            << " a thread are supported: use a smaller tile or more warps";
        return WalkResult::interrupt();
      }
    }
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      // An mma.sync lhs may come from registers (tile-assign-layouts gave
      // it the A-fragment layout).
      bool lhsInRegisters = isa_and_nonnull<tilegpu::DotOperandLayoutAttr>(
          dot.getLhs().getType().getEncoding());
      for (Value operand : {dot.getLhs(), dot.getRhs()}) {
        if (operand == dot.getLhs() && lhsInRegisters)
          continue;
        Operation *def = operand.getDefiningOp();
        auto placed = dyn_cast_or_null<tilegpu::SharedLayoutAttr>(
            cast<RankedTensorType>(operand.getType()).getEncoding());
        Type elementType = getElementTypeOrSelf(operand.getType());
        if (placed &&
            placed.getHardwareSwizzleBytes(elementType) != int64_t(128)) {
          op->emitOpError("reads placed operands as warpgroup MMA does, in "
                          "128-byte swizzled panels; got ")
              << placed;
          return WalkResult::interrupt();
        }
        if (!def || !isStagedDotOperand(def)) {
          op->emitOpError(operand == dot.getLhs()
                              ? "lhs must be staged in workgroup memory or, "
                                "for 16-bit mma.sync dots, held in registers"
                              : "rhs must be staged in workgroup memory; run "
                                "tile-promote-shared first");
          return WalkResult::interrupt();
        }
      }
    }
    if (auto prefix = dyn_cast<tile::PrefixOp>(op))
      if (failed(checkPrefixSupported(prefix, threads)))
        return WalkResult::interrupt();
    if (hasEncodedTile(op) && !isa<tile::DotOp, tile::PrefixOp>(op)) {
      bool covered = isElementwise(op) ||
                     isa<tile::ReduceOp, tile::BroadcastOp, tile::RangeOp,
                         tile::SplatOp, tile::LoadOp, tile::StoreOp,
                         tilegpu::ConvertLayoutOp, scf::ForOp, scf::YieldOp,
                         scf::IfOp>(op);
      if (!covered) {
        op->emitOpError("on a tile with a layout encoding is not supported "
                        "yet; convert it to the blocked layout first");
        return WalkResult::interrupt();
      }
      if (failed(checkLayoutOpSupported(op, threads)))
        return WalkResult::interrupt();
    }
    if (std::optional<ExchangeBuffer> buffer = exchangeBufferFor(op, threads))
      if (failed(checkExchangeBufferFits(op, buffer->forGroups(*groups))))
        return WalkResult::interrupt();
    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      Type elementType = getElementTypeOrSelf(reduce.getInput());
      if (elementType.isInteger(1)) {
        op->emitOpError("of i1 elements is not supported; extend to i8 or "
                        "wider first");
        return WalkResult::interrupt();
      }
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense || !dense.isSplat()) {
        op->emitOpError("on tiles must be a splat; use tile.range and "
                        "arithmetic for varying tiles");
        return WalkResult::interrupt();
      }
    }
    bool known = isa<tile::TileDialect, tilegpu::TileGPUDialect>(
                     op->getDialect()) ||
                 isElementwise(op) || isa<scf::ForOp, scf::IfOp, scf::YieldOp,
                                          scf::WhileOp, scf::ConditionOp>(op);
    if (!known) {
      op->emitOpError("on tiles is not supported by tile-map-warps");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The group of the block's thread `blockThreadId` running a program of
/// `threads` threads, from the warp index read from lane 0 so that ptxas
/// knows it warp-uniform (the tile loops' bounds derive from it).
static Value uniformGroup(OpBuilder &b, Location loc, Value blockThreadId,
                          int64_t threads) {
  Value warp = uniformWarpIndex(b, loc, blockThreadId);
  Value group =
      arith::DivUIOp::create(b, loc, warp, i32Constant(b, loc, threads / 32));
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), group);
}

/// Creates the thread id and one workgroup buffer per exchanging op before
/// any rewrite, since the conversion must not change the kernel signature.
static void prepareState(gpu::GPUFuncOp func, int64_t threads,
                         MapWarpsState &state) {
  state.threads = threads;
  state.groups = consumerGroups(func);
  state.alignedCopies = func->hasAttr(tile::kAlignedArgsAttrName);
  if (auto cluster = func->getAttrOfType<IntegerAttr>(tile::kClusterAttrName))
    state.clusterBlocks = cluster.getInt();
  func.walk([&](tile::LoadOp load) {
    if (load.getPlacement())
      state.asyncProxyReads = true;
  });

  OpBuilder builder(func.getContext());
  builder.setInsertionPointToStart(&func.getBody().front());
  Location loc = func.getLoc();
  state.blockThreadId =
      gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  state.threadId = state.blockThreadId;
  if (state.groups > 1) {
    state.threadId =
        arith::RemUIOp::create(builder, loc, state.blockThreadId,
                               indexConstant(builder, loc, threads));
    state.groupId = uniformGroup(builder, loc, state.blockThreadId, threads);
  }

  auto workgroup = gpu::AddressSpaceAttr::get(func.getContext(),
                                              gpu::AddressSpace::Workgroup);
  func.walk([&](Operation *op) {
    std::optional<ExchangeBuffer> buffer = exchangeBufferFor(op, threads);
    if (!buffer)
      return;
    auto type = MemRefType::get({buffer->elements}, buffer->elementType,
                                MemRefLayoutAttrInterface(), workgroup);
    ExchangeBuffer all = buffer->forGroups(state.groups);
    Value allocated = func.addWorkgroupAttribution(
        state.groups == 1
            ? type
            : MemRefType::get({all.bytes()}, builder.getI8Type(),
                              MemRefLayoutAttrInterface(), workgroup),
        op->getLoc());
    // The NVPTX back end merges neighbouring reads of a buffer into 16-byte
    // vector loads whatever the buffer's declared alignment: every buffer
    // asks for 16 at least (ExchangeBuffer::alignment), so that a small one
    // before it cannot misalign it.
    func.setWorkgroupAttributionAttr(
        func.getNumWorkgroupAttributions() - 1,
        LLVM::LLVMDialect::getAlignAttrName(),
        builder.getI64IntegerAttr(buffer->alignment));
    state.stats.workgroupBytes += all.bytes();
    if (state.groups == 1) {
      state.exchangeBuffers[op] = allocated;
      return;
    }
    // Each group's part, as the buffer the program would have alone.
    Value shift = arith::MulIOp::create(
        builder, loc, state.groupId,
        indexConstant(builder, loc, buffer->groupStride()));
    state.exchangeBuffers[op] = memref::ViewOp::create(
        builder, loc, type, allocated, shift, ValueRange{});
  });
}

//===----------------------------------------------------------------------===//
// Patterns: element-wise ops and tile construction
//===----------------------------------------------------------------------===//

namespace {

/// Any arith/math op on tiles becomes the same op on the per-thread vectors:
/// all tiles of one shape share a layout, so element i of every operand
/// vector is the same tile element.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwise(op) || isa<arith::ConstantOp>(op) || !hasTileTypes(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return failure();
    auto type = getTypeConverter()->convertType<VectorType>(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, DenseElementsAttr::get(type, dense.getSplatValue<Attribute>()));
    return success();
  }
};

struct SplatLowering : OpConversionPattern<tile::SplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getTypeConverter()->convertType<VectorType>(op.getType());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getValue());
    return success();
  }
};

struct RangeLowering : MapWarpsPattern<tile::RangeOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (hasEncodedTile(op))
      return failure();
    Location loc = op.getLoc();
    TileLayout layout = state.layoutOf(op.getType());
    Type elementType = op.getType().getElementType();
    auto castIndex = [&](Value linear) -> Value {
      return rewriter.createOrFold<arith::IndexCastUIOp>(loc, elementType,
                                                        linear);
    };
    rewriter.replaceOp(op, layout.buildVector(rewriter, loc, state.threadId,
                                              elementType, castIndex));
    return success();
  }

};

} // namespace

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void tilec::buildIf(OpBuilder &b, Location loc, Value condition,
                    function_ref<void(OpBuilder &)> body) {
  auto guarded = scf::IfOp::create(b, loc, condition);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(guarded.thenBlock());
  body(b);
}

void tilec::inThread(OpBuilder &b, Location loc, Value threadId,
                     int64_t thread, function_ref<void(OpBuilder &)> body) {
  Value index = indexConstant(b, loc, thread);
  buildIf(b, loc,
          b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                        threadId, index),
          body);
}

void tilec::inFirstThread(OpBuilder &b, Location loc, Value threadId,
                          function_ref<void(OpBuilder &)> body) {
  inThread(b, loc, threadId, 0, body);
}

Value tilec::bitcastIfNeeded(OpBuilder &b, Location loc, Value v, Type to) {
  if (v.getType() == to)
    return v;
  return arith::BitcastOp::create(b, loc, to, v);
}

Value tilec::toWordBits(OpBuilder &b, Location loc, Value v) {
  unsigned width = v.getType().getIntOrFloatBitWidth();
  Value bits = bitcastIfNeeded(b, loc, v, b.getIntegerType(width));
  if (width == 32)
    return bits;
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
}

Value tilec::fromWordBits(OpBuilder &b, Location loc, Value bits, Type to) {
  unsigned width = to.getIntOrFloatBitWidth();
  if (width != 32)
    bits = arith::TruncIOp::create(b, loc, b.getIntegerType(width), bits);
  return bitcastIfNeeded(b, loc, bits, to);
}

ShuffledValue tilec::shuffleValue(OpBuilder &b, Location loc, Value v,
                                  int64_t offset, Value width,
                                  gpu::ShuffleMode mode) {
  Type type = v.getType();
  bool widen = type.getIntOrFloatBitWidth() != 32;
  Value word = widen ? toWordBits(b, loc, v) : v;
  Value offsetValue = i32Constant(b, loc, offset);
  auto shuffle =
      gpu::ShuffleOp::create(b, loc, word, offsetValue, width, mode);
  Value moved = shuffle.getShuffleResult();
  return {widen ? fromWordBits(b, loc, moved, type) : moved,
          shuffle.getValid()};
}

LogicalResult tilec::mapTilesToThreads(gpu::GPUFuncOp func,
                                       MapWarpsStats *stats,
                                       bool registerHandover,
                                       bool bulkCopies) {
  std::optional<int64_t> threads = layoutThreads(func);
  if (!threads) {
    emitBadBlockSize(func);
    return failure();
  }
  if (failed(assignLayouts(func, *threads)) ||
      failed(checkSupported(func, *threads)))
    return failure();
  MapWarpsState state;
  prepareState(func, *threads, state);
  state.registerHandover = registerHandover;
  state.bulkCopies = bulkCopies;
  if (failed(addTensorMapParams(func, state)))
    return failure();

  MLIRContext *ctx = func.getContext();
  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([&state](RankedTensorType type) -> Type {
    return VectorType::get({state.perThread(type)}, type.getElementType());
  });

  ConversionTarget target(*ctx);
  target.addIllegalDialect<tile::TileDialect, tilegpu::TileGPUDialect>();
  // Dots read their staged operands themselves and erase these.
  // Its regions are rewritten like any other; the op itself after.
  target.addLegalOp<tilegpu::WarpRolesOp>();
  target.addDynamicallyLegalOp<tile::LoadOp, tile::TransposeOp>(
      [](Operation *op) { return isStagedDotOperand(op); });
  target.addLegalDialect<gpu::GPUDialect, vector::VectorDialect,
                         memref::MemRefDialect, nvgpu::NVGPUDialect,
                         NVVM::NVVMDialect, LLVM::LLVMDialect>();
  target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
      [](Operation *op) { return !hasTileTypes(op); });

  RewritePatternSet patterns(ctx);
  patterns.add<ElementwiseLowering, ConstantLowering, SplatLowering>(converter,
                                                                     ctx);
  patterns.add<RangeLowering>(converter, ctx, state);
  populateMapWarpsMemoryPatterns(converter, state, patterns);
  populateMapWarpsExchangePatterns(converter, state, patterns);
  populateMapWarpsLayoutPatterns(converter, state, patterns);
  populateMapWarpsPrefixPatterns(converter, state, patterns);
  populateMapWarpsLookbackPatterns(converter, state, patterns);
  populateMapWarpsDotPatterns(converter, state, patterns);
  populateMapWarpsAsyncCopyPatterns(converter, state, patterns);
  populateMapWarpsBulkCopyPatterns(converter, state, patterns);
  populateMapWarpsRolesPatterns(converter, state, patterns);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  if (failed(applyPartialConversion(func, target, std::move(patterns))))
    return failure();
  tieLoopResultsToWaits(func);
  finishBulkStores(func);
  lowerWarpRoles(func, state);
  if (stats)
    *stats = state.stats;
  return success();
}

namespace {
struct TileMapWarpsPass : tilec::impl::TileMapWarpsBase<TileMapWarpsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    if (!func.isKernel()) {
      // Tiles are spread over a kernel's block; a device function has none.
      WalkResult tileOp = func.walk([&](Operation *op) {
        StringRef dialect =
            op->getDialect() ? op->getDialect()->getNamespace() : "";
        if (dialect != "tile" && dialect != "tilegpu" && !hasTileTypes(op))
          return WalkResult::advance();
        op->emitOpError("is lowered only in a kernel; '")
            << func.getName() << "' is not one";
        return WalkResult::interrupt();
      });
      if (tileOp.wasInterrupted())
        signalPassFailure();
      return;
    }
    MapWarpsStats stats;
    if (failed(mapTilesToThreads(func, &stats, registerHandover, bulkCopies)))
      return signalPassFailure();
    numReductions += stats.reductions;
    numPrefixes += stats.prefixes;
    numShuffles += stats.shuffles;
    numWorkgroupBytes += stats.workgroupBytes;
  }
};
} // namespace
