//===- MapWarpsBulkCopy.cpp - Bulk tensor copies on transaction barriers --===//
//
// tilegpu.copy_bulk becomes Hopper TMA: thread 0 announces the tile's bytes
// on the slot's mbarrier and issues one cp.async.bulk.tensor per 128-byte
// panel, through a tensor-map descriptor the runtime builds for the source
// buffer and passes by value after the kernel's own parameters. Every
// thread then waits for the barrier's phase (mbarrier.try_wait.parity)
// instead of copying anything itself.
//
//===----------------------------------------------------------------------===//

#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <map>

using namespace mlir;
using namespace tilec;

/// The shared-memory space of LLVM pointers on NVPTX.
static constexpr unsigned kSharedAddressSpace = 3;
/// Suspend-time hint of each try_wait, in nanoseconds: long enough that a
/// waiting warp yields the scheduler while the copy is in flight.
static constexpr int32_t kTryWaitTicks = 10000000;

/// A fitted box's rows (tilegpu.copy_bulk fit_rows) are the source's
/// rows rounded up to this (at most the panel's): the launch metadata's
/// `fit` rule (TensorMapInfo::kFitRows), which the kernel repeats to
/// announce the bytes the box brings.
static constexpr int64_t kFitRows = 8;

/// The swizzle of a bulk store's rows in workgroup memory
/// (storeStagedBulk).
static constexpr int64_t kStoreSwizzleBytes = 128;

/// A kernel's tensor-map parameters, by buffer argument and box (with its
/// swizzle last).
using TensorMapDescriptors =
    std::map<std::pair<unsigned, SmallVector<int64_t>>, Value>;

/// Narrows the kernel's tile.repitch_args to the buffers with a tensor map:
/// TMA's alignment rules are what a staged copy satisfies. Drops the
/// attribute when none is left.
static void keepRepitchedTensorMaps(gpu::GPUFuncOp func,
                                    const TensorMapDescriptors &descriptors) {
  auto requested = func->getAttrOfType<ArrayAttr>(tile::kRepitchArgsAttrName);
  if (!requested)
    return;
  // Entries are [argument, axis, programs]; a malformed one is kept for
  // tile-emit-launch-metadata to report.
  SmallVector<Attribute> kept;
  for (Attribute attr : requested) {
    auto entry = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!entry || entry.empty() ||
        llvm::any_of(descriptors, [&](const auto &descriptor) {
          return int64_t(descriptor.first.first) == entry[0];
        }))
      kept.push_back(attr);
  }
  if (kept.empty())
    func->removeAttr(tile::kRepitchArgsAttrName);
  else
    func->setAttr(tile::kRepitchArgsAttrName,
                  ArrayAttr::get(func.getContext(), kept));
}

LogicalResult tilec::addTensorMapParams(gpu::GPUFuncOp func,
                                        MapWarpsState &state) {
  TensorMapDescriptors descriptors;
  SmallVector<Attribute> described;
  MLIRContext *ctx = func.getContext();
  // One descriptor per buffer argument, box and swizzle: appended to the
  // kernel's parameters and listed as [argument, box..., swizzle bytes].
  // `fitDim`: the box dimension fitted to the source at launch, if any.
  auto describe = [&](Operation *op, unsigned arg, ArrayRef<int64_t> box,
                      int64_t swizzleBytes,
                      std::optional<int64_t> fitDim = std::nullopt) {
    SmallVector<int64_t> key(box);
    key.push_back(swizzleBytes);
    if (fitDim)
      key.push_back(*fitDim);
    Value &descriptor = descriptors[{arg, key}];
    if (!descriptor) {
      unsigned index = func.getNumArguments();
      (void)func.insertArgument(index, LLVM::LLVMPointerType::get(ctx),
                                DictionaryAttr::get(ctx), op->getLoc());
      descriptor = func.getArgument(index);
      SmallVector<int64_t> entry = {arg};
      llvm::append_range(entry, key);
      described.push_back(DenseI64ArrayAttr::get(ctx, entry));
    }
    state.tensorMaps[op] = descriptor;
  };
  WalkResult result = func.walk([&](tilegpu::CopyBulkOp copy) {
    auto src = dyn_cast<BlockArgument>(copy.getSrc());
    if (!src || src.getOwner() != &func.getBody().front() ||
        src.getArgNumber() >= func.getNumArguments()) {
      copy.emitOpError("source must be an argument of the enclosing kernel");
      return WalkResult::interrupt();
    }
    MemRefType dst = copy.getDst().getType();
    // Each block of the cluster copies a whole number of swizzle atoms (8
    // rows of 128 bytes) of every panel.
    if (copy.getMulticast() &&
        (state.clusterBlocks < 2 ||
         dst.getDimSize(1) % (8 * state.clusterBlocks) != 0)) {
      copy.emitOpError("multicast needs a kernel in thread-block clusters "
                       "(tile.cluster) and panels whose rows split into 8-row "
                       "parts, one per block; got ")
          << dst.getDimSize(1) << " rows in clusters of "
          << state.clusterBlocks;
      return WalkResult::interrupt();
    }
    // The box, innermost first: a panel's columns, its rows along
    // rows_dim, one element in every other dimension.
    int64_t rank = copy.getSrc().getType().getRank();
    SmallVector<int64_t> box(rank, 1);
    box[0] = dst.getDimSize(2);
    // A multicast copy's block copies its share of the rows.
    int64_t rowsInBox = rank - 1 - copy.getRowsDimension();
    box[rowsInBox] =
        dst.getDimSize(1) / (copy.getMulticast() ? state.clusterBlocks : 1);
    describe(copy, src.getArgNumber(), box,
             *copy.getLayout().getHardwareSwizzleBytes(dst.getElementType()),
             copy.getFitRows() ? std::optional(rowsInBox) : std::nullopt);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // Staged stores that go out in bulk: 128-byte swizzled rows.
  func.walk([&](tile::StoreOp store) {
    if (std::optional<BulkStoreBox> box = bulkStoreBox(store, state.threads))
      describe(store, box->arg, box->box, kStoreSwizzleBytes);
  });
  if (!described.empty())
    func->setAttr(tile::kTensorMapsAttrName, ArrayAttr::get(ctx, described));
  keepRepitchedTensorMaps(func, descriptors);
  return success();
}

namespace {

/// The !llvm.ptr<3> at i64 shared-memory address `address`.
Value sharedPointer(OpBuilder &b, Location loc, Value address) {
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), kSharedAddressSpace),
      address);
}

/// The !llvm.ptr<3> of barrier `index` of an i64 barrier buffer.
Value barrierPointer(OpBuilder &b, Location loc, Value barriers, Value index) {
  Value offset = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(),
      b.createOrFold<arith::MulIOp>(loc, index, indexConstant(b, loc, 8)));
  return sharedPointer(b, loc,
                       b.createOrFold<arith::AddIOp>(
                           loc, sharedAddress(b, loc, barriers), offset));
}

/// The !llvm.ptr<3> of every barrier of a static i64 barrier buffer, in
/// order.
SmallVector<Value> barrierPointers(OpBuilder &b, Location loc,
                                   Value barriers) {
  SmallVector<Value> pointers;
  int64_t count = cast<MemRefType>(barriers.getType()).getDimSize(0);
  for (int64_t i = 0; i < count; ++i)
    pointers.push_back(
        barrierPointer(b, loc, barriers, indexConstant(b, loc, i)));
  return pointers;
}

/// The rows of a fitted box (fit_rows) of at most `rows` rows along
/// `rowsDim` of `src`: its extent rounded up to kFitRows, as the runtime
/// fits it (at least one part, as for an empty source).
Value fittedRows(OpBuilder &b, Location loc, Value src, unsigned rowsDim,
                 int64_t rows) {
  Value extent = b.createOrFold<memref::DimOp>(loc, src, rowsDim);
  Value parts = arith::DivUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, extent,
                            indexConstant(b, loc, kFitRows - 1)),
      indexConstant(b, loc, kFitRows));
  parts = arith::MaxUIOp::create(b, loc, parts, indexConstant(b, loc, 1));
  return arith::MinUIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, parts, indexConstant(b, loc, kFitRows)),
      indexConstant(b, loc, rows));
}

/// Builds `body` for the thread that issues `op`'s copies: the producer's
/// first thread, the first after every group of tile threads, or else the
/// program's first thread.
void inIssuer(OpBuilder &b, Location loc, Operation *op,
              const MapWarpsState &state,
              function_ref<void(OpBuilder &)> body) {
  if (inProducerRole(op))
    inThread(b, loc, state.blockThreadId, state.groups * state.threads, body);
  else
    inFirstThread(b, loc, state.threadId, body);
}

struct BarrierInitLowering : MapWarpsPattern<tilegpu::BarrierInitOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::BarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    inFirstThread(rewriter, loc, state.blockThreadId, [&](OpBuilder &b) {
      Value arrivals = i32Constant(b, loc, op.getArrivals());
      for (Value barrier : barrierPointers(b, loc, adaptor.getBarriers()))
        NVVM::MBarrierInitOp::create(b, loc, barrier, arrivals,
                                     /*predicate=*/nullptr);
      // The copy engine completes transactions on the barriers: make the
      // initialization visible to it, not only to the threads (sm_90's
      // fence; before it no copy engine waits on them).
      if (state.bulkCopies)
        NVVM::FenceMbarrierInitOp::create(b, loc);
    });
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

struct BarrierInvalLowering : MapWarpsPattern<tilegpu::BarrierInvalOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::BarrierInvalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    gpu::BarrierOp::create(rewriter, loc);
    inFirstThread(rewriter, loc, state.blockThreadId, [&](OpBuilder &b) {
      for (Value barrier : barrierPointers(b, loc, adaptor.getBarriers()))
        NVVM::MBarrierInvalOp::create(b, loc, barrier);
    });
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

struct CopyBulkLowering : MapWarpsPattern<tilegpu::CopyBulkOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::CopyBulkOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!state.bulkCopies)
      return op.emitOpError("needs bulk tensor copies (TMA): sm_90 or later");
    Value descriptor = state.tensorMaps.lookup(op);
    if (!descriptor)
      return rewriter.notifyMatchFailure(op, "no tensor map for the source");
    Location loc = op.getLoc();
    MemRefType dst = op.getDst().getType();
    int64_t panels = dst.getDimSize(0), rows = dst.getDimSize(1),
            width = dst.getDimSize(2);
    int64_t panelBytes = rows * width * dst.getElementTypeBitWidth() / 8;
    MLIRContext *ctx = rewriter.getContext();
    auto clusterPointer = LLVM::LLVMPointerType::get(ctx, 7);
    // Multicast: this block copies rows [r R / X, (r + 1) R / X) of each
    // panel, r its rank in the cluster of X, into every block's slot.
    int64_t share = op.getMulticast() ? state.clusterBlocks : 1;
    int64_t shareRows = rows / share;
    int64_t rowBytes = width * dst.getElementTypeBitWidth() / 8;
    auto issue = [&](OpBuilder &b) {
      Value barrier = barrierPointer(b, loc, adaptor.getBarriers(),
                                     adaptor.getBarrier());
      SmallVector<Value> indices(adaptor.getIndices());
      unsigned rowsDim = op.getRowsDimension();
      // One arrival that expects every byte of the tile; the copy engine
      // counts boxes in full, zero-filled parts included. A fitted box
      // brings its rows only.
      Value bytes =
          op.getFitRows()
              ? arith::MulIOp::create(
                    b, loc,
                    arith::IndexCastUIOp::create(
                        b, loc, b.getI32Type(),
                        fittedRows(b, loc, adaptor.getSrc(), rowsDim, rows)),
                    i32Constant(b, loc, panels * rowBytes))
              : i32Constant(b, loc, panels * panelBytes);
      NVVM::MBarrierArriveExpectTxOp::create(
          b, loc, /*res=*/Type(), barrier, bytes,
          NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA),
          b.getBoolAttr(false), /*predicate=*/nullptr);
      Value base = sharedAddress(b, loc, adaptor.getDst());
      auto toI32 = [&](Value index) {
        return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
      };
      Value mask;
      if (share > 1) {
        Value rankInCluster = arith::IndexCastUIOp::create(
            b, loc, b.getIndexType(),
            NVVM::ClusterId::create(b, loc, b.getI32Type()));
        Value firstRow = b.createOrFold<arith::MulIOp>(
            loc, rankInCluster, indexConstant(b, loc, shareRows));
        indices[rowsDim] =
            b.createOrFold<arith::AddIOp>(loc, indices[rowsDim], firstRow);
        base = b.createOrFold<arith::AddIOp>(
            loc, base,
            arith::IndexCastUIOp::create(
                b, loc, b.getI64Type(),
                b.createOrFold<arith::MulIOp>(
                    loc, firstRow, indexConstant(b, loc, rowBytes))));
        mask = arith::ConstantIntOp::create(b, loc, (1 << share) - 1, 16);
      }
      for (int64_t p = 0; p < panels; ++p) {
        Value address = b.createOrFold<arith::AddIOp>(
            loc, base,
            arith::ConstantIntOp::create(b, loc, p * panelBytes, 64));
        Value dstPointer = LLVM::AddrSpaceCastOp::create(
            b, loc, clusterPointer, sharedPointer(b, loc, address));
        // Coordinates are innermost first: the panel's first column, then
        // the row and any outer indices.
        SmallVector<Value> coordinates = {toI32(b.createOrFold<arith::AddIOp>(
            loc, indices.back(), indexConstant(b, loc, p * width)))};
        for (Value index : llvm::reverse(ArrayRef(indices).drop_back()))
          coordinates.push_back(toI32(index));
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            b, loc, dstPointer, descriptor, coordinates, barrier,
            /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/mask,
            /*l2CacheHint=*/nullptr,
            NVVM::TMALoadModeAttr::get(ctx, NVVM::TMALoadMode::TILE),
            /*isCTAOnly=*/b.getBoolAttr(false), /*group=*/nullptr,
            /*predicate=*/nullptr);
      }
    };
    inIssuer(rewriter, loc, op, state, issue);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierWaitLowering : MapWarpsPattern<tilegpu::BarrierWaitOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::BarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto wait = [&](OpBuilder &b) {
      Value barrier = barrierPointer(b, loc, adaptor.getBarriers(),
                                     adaptor.getBarrier());
      Value phase = arith::IndexCastUIOp::create(b, loc, b.getI32Type(),
                                                 adaptor.getPhase());
      Value parity =
          arith::AndIOp::create(b, loc, phase, i32Constant(b, loc, 1));
      NVVM::MBarrierTryWaitParityOp::create(b, loc, barrier, parity,
                                            i32Constant(b, loc, kTryWaitTicks));
    };
    if (op.getIssuer())
      inIssuer(rewriter, loc, op, state, wait);
    else
      wait(rewriter);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierArriveLowering : MapWarpsPattern<tilegpu::BarrierArriveOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierPointer(rewriter, loc, adaptor.getBarriers(),
                                   adaptor.getBarrier());
    bool cluster = op.getCluster();
    auto arrive = [&](OpBuilder &b) {
      if (!cluster) {
        NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(), barrier,
                                       /*count=*/Value());
        return;
      }
      // The same barrier of every block of the cluster (this one's too),
      // through its address in the cluster's shared window.
      auto clusterPointer = LLVM::LLVMPointerType::get(b.getContext(), 7);
      for (int64_t rank = 0; rank < state.clusterBlocks; ++rank) {
        Value remote = NVVM::MapaOp::create(b, loc, clusterPointer, barrier,
                                            i32Constant(b, loc, rank));
        NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(), remote,
                                       /*count=*/Value());
      }
    };
    if (!op.getWarp()) {
      arrive(rewriter);
    } else {
      // The warp's lanes meet, which orders their reads before the first
      // lane's arrival (its release) on their behalf.
      NVVM::SyncWarpOp::create(rewriter, loc, i32Constant(rewriter, loc, -1));
      Value lane = arith::RemUIOp::create(rewriter, loc, state.threadId,
                                          indexConstant(rewriter, loc, 32));
      buildIf(rewriter, loc,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    lane, indexConstant(rewriter, loc, 0)),
              arrive);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClusterSyncLowering : OpConversionPattern<tilegpu::ClusterSyncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tilegpu::ClusterSyncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Not .aligned: the producer warp and the tile threads arrive from
    // different branches.
    NVVM::ClusterArriveOp::create(rewriter, op.getLoc(), /*aligned=*/nullptr);
    rewriter.replaceOpWithNewOp<NVVM::ClusterWaitOp>(op, /*aligned=*/nullptr);
    return success();
  }
};

} // namespace

void tilec::populateMapWarpsBulkCopyPatterns(const TypeConverter &converter,
                                             MapWarpsState &state,
                                             RewritePatternSet &patterns) {
  patterns.add<BarrierInitLowering, BarrierInvalLowering, CopyBulkLowering>(
      converter, patterns.getContext(), state);
  patterns.add<BarrierArriveLowering, BarrierWaitLowering>(
      converter, patterns.getContext(), state);
  patterns.add<ClusterSyncLowering>(converter, patterns.getContext());
}
