//===- MapWarpsRoles.cpp - Roles and turns of a program's warps -----------===//
//
// tilegpu.warp_roles, after its regions have been mapped to threads: the
// tile threads keep thread ids 0 .. threads-1 (so the layouts computed for
// them hold as they are), and one warp appended after them runs the
// producer (its first thread issues the copies). The tile threads' block
// barriers become named barrier 1 over them alone: the producer warp never
// reaches them.
//
// tilegpu.turn: the warpgroups' turns, on named barriers 2 and up.
//
//===----------------------------------------------------------------------===//

#include "MapWarpsPatterns.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

/// Barrier 0 is the whole block's (bar.sync 0, gpu.barrier).
static constexpr int32_t kTileThreadsBarrier = 1;
/// The producer's threads: a warp, of which the first issues the copies.
static constexpr int32_t kProducerThreads = 32;
/// Warpgroup g waits for its turn on named barrier kFirstTurnBarrier + g.
static constexpr int32_t kFirstTurnBarrier = 2;
static constexpr int64_t kWarpgroupThreads = 128;

bool tilec::inProducerRole(Operation *op) {
  auto roles = op->getParentOfType<tilegpu::WarpRolesOp>();
  return roles && roles.getProducer().isAncestor(op->getParentRegion());
}

/// Moves the ops of `region`'s block into an scf.if on `condition` built at
/// `b`'s insertion point.
static scf::IfOp moveIntoIf(OpBuilder &b, Location loc, Value condition,
                            Region &region) {
  auto branch = scf::IfOp::create(b, loc, condition);
  Block *then = branch.thenBlock();
  if (!region.empty())
    then->getOperations().splice(then->begin(),
                                 region.front().getOperations());
  return branch;
}

void tilec::lowerWarpRoles(gpu::GPUFuncOp func, const MapWarpsState &state) {
  SmallVector<tilegpu::WarpRolesOp> all;
  func.walk([&](tilegpu::WarpRolesOp roles) { all.push_back(roles); });
  if (all.empty())
    return;
  int64_t producerThreads = 0;
  for (tilegpu::WarpRolesOp roles : all) {
    Location loc = roles.getLoc();
    OpBuilder b(roles);
    // The roles split on the warp index read from lane 0: ptxas then knows
    // both branches warp-uniform and keeps uniform values (the warpgroup
    // MMA descriptors) in uniform registers inside them.
    Value warpSize = indexConstant(b, loc, 32);
    Value warp = arith::IndexCastUIOp::create(
        b, loc, b.getI32Type(),
        arith::DivUIOp::create(b, loc, state.threadId, warpSize));
    Value firstLane = i32Constant(b, loc, 0);
    Value width = i32Constant(b, loc, 32);
    Value uniformWarp = gpu::ShuffleOp::create(b, loc, warp, firstLane, width,
                                               gpu::ShuffleMode::IDX)
                            .getShuffleResult();
    Value tileWarps = i32Constant(b, loc, state.threads / 32);
    std::optional<ArrayRef<int32_t>> registers =
        state.registerHandover ? roles.getRegisters() : std::nullopt;
    // With registers, the producer warpgroup gives some up, all its warps
    // together; its first warp then runs the region.
    OpBuilder producerAt = b;
    if (registers) {
      auto warpgroup = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                uniformWarp, tileWarps));
      producerAt.setInsertionPointToStart(warpgroup.thenBlock());
      NVVM::SetMaxRegisterOp::create(producerAt, loc, (*registers)[0],
                                     NVVM::SetMaxRegisterAction::decrease);
    }
    moveIntoIf(producerAt, loc,
               arith::CmpIOp::create(producerAt, loc, arith::CmpIPredicate::eq,
                                     uniformWarp, tileWarps),
               roles.getProducer());
    scf::IfOp consumers =
        moveIntoIf(b, loc,
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         uniformWarp, tileWarps),
                   roles.getConsumers());
    if (registers) {
      OpBuilder first = OpBuilder::atBlockBegin(consumers.thenBlock());
      NVVM::SetMaxRegisterOp::create(first, loc, (*registers)[1],
                                     NVVM::SetMaxRegisterAction::increase);
    }
    producerThreads = std::max(producerThreads,
                               registers ? kWarpgroupThreads : kProducerThreads);
    consumers.walk([&](gpu::BarrierOp barrier) {
      OpBuilder at(barrier);
      Value id = arith::ConstantIntOp::create(at, barrier.getLoc(),
                                              kTileThreadsBarrier, 32);
      Value count = arith::ConstantIntOp::create(at, barrier.getLoc(),
                                                 state.threads, 32);
      NVVM::BarrierOp::create(at, barrier.getLoc(), /*res=*/TypeRange{}, id,
                              count, /*reductionOp=*/nullptr,
                              /*reductionPredicate=*/Value());
      barrier.erase();
    });
    roles.erase();
  }
  OpBuilder b(func.getContext());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(state.threads + producerThreads), 1, 1}));
}

LogicalResult tilec::checkTurnSupported(tilegpu::TurnOp op, int64_t threads) {
  if (threads % kWarpgroupThreads == 0)
    return success();
  return op.emitOpError("needs whole warpgroups, but the block has ")
         << threads << " threads";
}

namespace {

/// A turn step on the named barriers of the warpgroups' turns. Barrier
/// kFirstTurnBarrier + g completes when warpgroup g waits on it (`take`)
/// and the warpgroup before it has arrived (`pass`): 256 threads. The
/// first warpgroup arrives on its own barrier before the loop (`open`) and
/// waits on it once more after (`close`), taking back the last turn.
struct TurnLowering : MapWarpsPattern<tilegpu::TurnOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::TurnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t warpgroups = state.threads / kWarpgroupThreads;
    if (warpgroups < 2) {
      rewriter.eraseOp(op); // one warpgroup always has the turn
      return success();
    }
    Location loc = op.getLoc();
    Value warpgroup = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI32Type(),
        arith::DivUIOp::create(
            rewriter, loc, state.threadId,
            indexConstant(rewriter, loc, kWarpgroupThreads)));
    Value count = i32Constant(rewriter, loc, 2 * kWarpgroupThreads);
    auto barrierOf = [&](Value index) -> Value {
      return arith::AddIOp::create(
          rewriter, loc, index, i32Constant(rewriter, loc, kFirstTurnBarrier));
    };
    auto wait = [&](Value barrier) {
      NVVM::BarrierOp::create(rewriter, loc, /*res=*/TypeRange{}, barrier,
                              count, /*reductionOp=*/nullptr,
                              /*reductionPredicate=*/Value());
    };
    switch (op.getStep()) {
    case tilegpu::TurnStep::take:
      wait(barrierOf(warpgroup));
      break;
    case tilegpu::TurnStep::pass: {
      Value next = arith::AddIOp::create(rewriter, loc, warpgroup,
                                         i32Constant(rewriter, loc, 1));
      Value wrapped = arith::RemUIOp::create(
          rewriter, loc, next, i32Constant(rewriter, loc, warpgroups));
      NVVM::BarrierArriveOp::create(rewriter, loc, barrierOf(wrapped), count);
      break;
    }
    case tilegpu::TurnStep::open:
    case tilegpu::TurnStep::close: {
      Value first =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                warpgroup, i32Constant(rewriter, loc, 0));
      auto branch = scf::IfOp::create(rewriter, loc, first);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(branch.thenBlock());
      Value own = i32Constant(rewriter, loc, kFirstTurnBarrier);
      if (op.getStep() == tilegpu::TurnStep::open)
        NVVM::BarrierArriveOp::create(rewriter, loc, own, count);
      else
        wait(own);
      break;
    }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tilec::populateMapWarpsTurnPatterns(const TypeConverter &converter,
                                         MapWarpsState &state,
                                         RewritePatternSet &patterns) {
  patterns.add<TurnLowering>(converter, patterns.getContext(), state);
}
