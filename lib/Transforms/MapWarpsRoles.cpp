//===- MapWarpsRoles.cpp - Roles and turns of a program's warps -----------===//
//
// tilegpu.warp_roles, after its regions have been mapped to threads: the
// tile threads keep thread ids 0 .. threads-1 (so the layouts computed for
// them hold as they are), and one warp appended after them runs the
// producer (its first thread issues the copies). The tile threads' block
// barriers become named barrier 1 over them alone: the producer warp never
// reaches them.
//
// With groups (ping-pong), G groups of tile threads run the consumers side
// by side: group g on block threads g*threads .. (g+1)*threads-1, its block
// barriers on named barrier kFirstTurnBarrier + G + g, the producer after
// all of them.
//
// tilegpu.turn: the warpgroups' (groups') turns, on named barriers 2 and up.
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
/// Named barriers of an sm_90 block.
static constexpr int64_t kNamedBarriers = 16;
static constexpr int64_t kMaxBlockThreads = 1024;

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

Value tilec::uniformWarpIndex(OpBuilder &b, Location loc, Value blockThreadId) {
  Value warpSize = indexConstant(b, loc, 32);
  Value warp = arith::IndexCastUIOp::create(
      b, loc, b.getI32Type(),
      arith::DivUIOp::create(b, loc, blockThreadId, warpSize));
  Value firstLane = i32Constant(b, loc, 0);
  Value width = i32Constant(b, loc, 32);
  return gpu::ShuffleOp::create(b, loc, warp, firstLane, width,
                                gpu::ShuffleMode::IDX)
      .getShuffleResult();
}

int64_t tilec::consumerGroups(gpu::GPUFuncOp func) {
  int64_t groups = 1;
  func.walk([&](tilegpu::WarpRolesOp roles) {
    groups = std::max<int64_t>(groups, roles.getGroups().value_or(1));
  });
  return groups;
}

FailureOr<int64_t> tilec::checkConsumerGroups(gpu::GPUFuncOp func,
                                              int64_t threads) {
  int64_t groups = consumerGroups(func);
  WalkResult result = func.walk([&](tilegpu::WarpRolesOp roles) {
    if (static_cast<int64_t>(roles.getGroups().value_or(1)) != groups) {
      roles.emitOpError("has ")
          << roles.getGroups().value_or(1) << " groups of tile threads, "
          << "but another tilegpu.warp_roles of the kernel has " << groups;
      return WalkResult::interrupt();
    }
    // A warpgroup of producer threads at most, after the groups; a turn
    // barrier and a block barrier a group.
    int64_t producer =
        roles.getRegisters() ? kWarpgroupThreads : kProducerThreads;
    if (groups > 1 && (groups * threads + producer > kMaxBlockThreads ||
                       kFirstTurnBarrier + 2 * groups > kNamedBarriers)) {
      roles.emitOpError("runs ")
          << groups << " groups of " << threads << " tile threads and "
          << producer << " producer threads: more than a block holds ("
          << kMaxBlockThreads << " threads, " << kNamedBarriers
          << " named barriers)";
      return WalkResult::interrupt();
    }
    // setmaxnreg.inc waits until the registers are free: a request past
    // the register file would never return.
    if (std::optional<ArrayRef<int32_t>> registers = roles.getRegisters()) {
      int64_t needed = kWarpgroupThreads * (*registers)[0] +
                       groups * threads * (*registers)[1];
      if (needed > kRegistersPerMultiprocessor) {
        roles.emitOpError("keeps ")
            << (*registers)[0] << " registers for each of "
            << kWarpgroupThreads << " producer threads and gives "
            << (*registers)[1] << " to each of " << groups * threads
            << " tile threads: " << needed << " registers, more than a "
            << "multiprocessor's " << kRegistersPerMultiprocessor;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return groups;
}

/// The named barrier of the block barriers of the consumers' threads: 1
/// over all of them, or one a group over its own.
static std::pair<Value, Value> consumerBarrier(OpBuilder &b, Location loc,
                                               const MapWarpsState &state) {
  if (state.groups == 1)
    return {i32Constant(b, loc, kTileThreadsBarrier),
            i32Constant(b, loc, state.threads)};
  Value group =
      arith::IndexCastUIOp::create(b, loc, b.getI32Type(), state.groupId);
  Value first = i32Constant(b, loc, kFirstTurnBarrier + state.groups);
  return {arith::AddIOp::create(b, loc, first, group),
          i32Constant(b, loc, state.threads)};
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
    Value uniformWarp = uniformWarpIndex(b, loc, state.blockThreadId);
    Value tileWarps = i32Constant(b, loc, state.groups * state.threads / 32);
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
      auto [id, count] = consumerBarrier(at, barrier.getLoc(), state);
      NVVM::BarrierOp::create(at, barrier.getLoc(), /*res=*/TypeRange{}, id,
                              count, /*reductionOp=*/nullptr,
                              /*reductionPredicate=*/Value());
      barrier.erase();
    });
    roles.erase();
  }
  OpBuilder b(func.getContext());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(
      {static_cast<int32_t>(state.groups * state.threads + producerThreads), 1,
       1}));
}

LogicalResult tilec::checkTurnSupported(tilegpu::TurnOp op, int64_t threads) {
  if (threads % kWarpgroupThreads == 0)
    return success();
  return op.emitOpError("needs whole warpgroups, but the block has ")
         << threads << " threads";
}

namespace {

/// A turn step on the named barriers of the warpgroups' (groups') turns.
/// Barrier kFirstTurnBarrier + g completes when taker g waits on it
/// (`take`) and the one before it has arrived (`pass`): two takers'
/// threads. The first taker arrives on its own barrier before the loop
/// (`open`); after it (`close`), the taker whose turn it is (the first,
/// or the one after `turns` turns) waits on its barrier once more, taking
/// back the last turn passed.
struct TurnLowering : MapWarpsPattern<tilegpu::TurnOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::TurnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool grouped = state.groups > 1;
    int64_t takerThreads = grouped ? state.threads : kWarpgroupThreads;
    int64_t takers = grouped ? state.groups : state.threads / kWarpgroupThreads;
    if (takers < 2) {
      rewriter.eraseOp(op); // one warpgroup always has the turn
      return success();
    }
    Location loc = op.getLoc();
    Value warpgroup = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI32Type(),
        grouped ? state.groupId
                : arith::DivUIOp::create(
                      rewriter, loc, state.threadId,
                      indexConstant(rewriter, loc, kWarpgroupThreads))
                      .getResult());
    Value count = i32Constant(rewriter, loc, 2 * takerThreads);
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
          rewriter, loc, next, i32Constant(rewriter, loc, takers));
      NVVM::BarrierArriveOp::create(rewriter, loc, barrierOf(wrapped), count);
      break;
    }
    case tilegpu::TurnStep::open:
    case tilegpu::TurnStep::close: {
      Value turns = adaptor.getTurns();
      Value holder = turns ? arith::IndexCastUIOp::create(
                                 rewriter, loc, rewriter.getI32Type(),
                                 arith::RemUIOp::create(
                                     rewriter, loc, turns,
                                     indexConstant(rewriter, loc, takers)))
                                 .getResult()
                           : i32Constant(rewriter, loc, 0);
      Value own = turns ? barrierOf(holder) : Value();
      Value holds = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, warpgroup, holder);
      auto branch = scf::IfOp::create(rewriter, loc, holds);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(branch.thenBlock());
      if (!own)
        own = i32Constant(rewriter, loc, kFirstTurnBarrier);
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

/// The thread's group, computed once at the kernel entry.
struct GroupIdLowering : MapWarpsPattern<tilegpu::GroupIdOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tilegpu::GroupIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (state.groups == 1)
      rewriter.replaceOp(op, indexConstant(rewriter, op.getLoc(), 0));
    else
      rewriter.replaceOp(op, state.groupId);
    return success();
  }
};

} // namespace

void tilec::populateMapWarpsRolesPatterns(const TypeConverter &converter,
                                          MapWarpsState &state,
                                          RewritePatternSet &patterns) {
  patterns.add<TurnLowering, GroupIdLowering>(converter, patterns.getContext(),
                                              state);
}
