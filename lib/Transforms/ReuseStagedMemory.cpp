//===- ReuseStagedMemory.cpp - Workgroup buffers in retired slots --------===//
//
// A kernel's pipelined loops take their slots from dynamic shared memory;
// its workgroup buffers (the exchanges through memory that tile-map-warps
// makes) are static, on top of them. A buffer used only after the last
// loop is done with its slots can take the slots' bytes instead: a block
// then needs the larger of the two, not their sum, and more blocks may
// share a multiprocessor.
//
//===----------------------------------------------------------------------===//

#include "tilec/Transforms/Passes.h"

#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

namespace tilec {
#define GEN_PASS_DEF_TILEREUSESTAGEDMEMORY
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Workgroup buffers start 16-byte aligned, as the static ones do
/// (tile-map-warps): the NVPTX back end merges neighbouring reads into
/// 16-byte vector loads.
static constexpr int64_t kBufferAlignment = 16;

/// Whether a value of `type` may carry an address: a buffer, a pointer, or
/// an integer computed from either (a warpgroup MMA's descriptor). Data
/// read from memory as floats carries none.
static bool mayCarryAddress(Type type) {
  return isa<MemRefType, LLVM::LLVMPointerType, IntegerType, IndexType>(type);
}

/// The ops that use a value derived from `roots`: through the
/// address-carrying results of any op, and out of regions through their
/// terminators.
static SmallVector<Operation *> usersOf(ArrayRef<Value> roots) {
  llvm::SetVector<Operation *> users;
  llvm::SetVector<Value> derived(roots.begin(), roots.end());
  auto derive = [&](ResultRange results) {
    for (Value result : results)
      if (mayCarryAddress(result.getType()))
        derived.insert(result);
  };
  for (unsigned i = 0; i < derived.size(); ++i) {
    for (Operation *user : derived[i].getUsers()) {
      users.insert(user);
      derive(user->getResults());
      if (user->hasTrait<OpTrait::IsTerminator>())
        if (Operation *parent = user->getParentOp())
          derive(parent->getResults());
    }
  }
  return users.takeVector();
}

/// Whether `op` may still touch shared memory without naming it: a
/// warpgroup MMA's reads and cp.async's writes end at their waits, and
/// inline assembly (which the dot lowering uses for both) is not looked
/// into.
static bool waitsOnSharedMemory(Operation *op) {
  return isa<NVVM::WgmmaWaitGroupSyncOp, NVVM::CpAsyncWaitGroupOp,
             LLVM::InlineAsmOp>(op);
}

/// The ops of `func` that use its dynamic shared memory or may wait on it.
static SmallVector<Operation *> stagedOps(gpu::GPUFuncOp func) {
  SmallVector<Value> bases;
  SmallVector<Operation *> waits;
  func.walk([&](Operation *op) {
    if (auto dynamic = dyn_cast<gpu::DynamicSharedMemoryOp>(op))
      bases.push_back(dynamic);
    else if (waitsOnSharedMemory(op))
      waits.push_back(op);
  });
  SmallVector<Operation *> staged = usersOf(bases);
  llvm::append_range(staged, waits);
  return staged;
}

/// The innermost block holding `op` that is `block` or holds it.
static Block *enclosingBlock(Block *block, Operation *op) {
  while (block && !block->findAncestorOpInBlock(*op)) {
    Operation *parent = block->getParentOp();
    block = parent ? parent->getBlock() : nullptr;
  }
  return block;
}

namespace {
/// A workgroup buffer that can move, and where the block barrier between
/// the staged ops and its uses goes: after `lastStaged` and before
/// `firstUse`, the ancestors of the last staged op and of the buffer's
/// first use in the innermost block holding all of them.
struct MovedBuffer {
  BlockArgument buffer;
  Operation *lastStaged, *firstUse;
};
} // namespace

/// Where `buffer` can move, if it can: every use comes after every staged
/// op, with no loop around them (whose next iteration would stage into the
/// memory again), and every thread of the block reaches the place of the
/// barrier (its block is the kernel's, or has a block barrier already).
static std::optional<MovedBuffer>
placeBuffer(BlockArgument buffer, gpu::GPUFuncOp func,
            ArrayRef<Operation *> staged) {
  SmallVector<Operation *> users = usersOf({buffer});
  if (users.empty() || staged.empty())
    return std::nullopt;
  Block *block = users.front()->getBlock();
  for (Operation *op : llvm::concat<Operation *const>(users, staged))
    block = enclosingBlock(block, op);
  if (!block)
    return std::nullopt;
  for (Operation *user : users)
    for (Operation *parent = user->getParentOp(); parent != func;
         parent = parent->getParentOp())
      if (isa<LoopLikeOpInterface>(parent))
        return std::nullopt;
  if (block != &func.getBody().front() &&
      block->getOps<gpu::BarrierOp>().empty())
    return std::nullopt;
  auto earliest = [&](ArrayRef<Operation *> ops, bool last) {
    Operation *found = nullptr;
    for (Operation *op : ops) {
      Operation *top = block->findAncestorOpInBlock(*op);
      if (!found || (last ? found->isBeforeInBlock(top)
                          : top->isBeforeInBlock(found)))
        found = top;
    }
    return found;
  };
  Operation *firstUse = earliest(users, /*last=*/false);
  Operation *lastStaged = earliest(staged, /*last=*/true);
  if (!lastStaged->isBeforeInBlock(firstUse))
    return std::nullopt;
  return MovedBuffer{buffer, lastStaged, firstUse};
}

/// Puts a block barrier before `m.firstUse` unless one already separates it
/// from `m.lastStaged`.
static void separateFromStaged(RewriterBase &rewriter, const MovedBuffer &m) {
  bool synchronized = llvm::any_of(
      llvm::make_range(std::next(m.lastStaged->getIterator()),
                       m.firstUse->getIterator()),
      [](Operation &op) { return isa<gpu::BarrierOp>(op); });
  if (synchronized)
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(m.firstUse);
  gpu::BarrierOp::create(rewriter, m.firstUse->getLoc());
}

/// Removes the workgroup attributions at `indices` (ascending) of `func`,
/// with their attributes; they must have no uses.
static void eraseWorkgroupAttributions(gpu::GPUFuncOp func,
                                       ArrayRef<unsigned> indices) {
  unsigned first = func.getFirstWorkgroupAttributionIndex();
  unsigned count = func.getNumWorkgroupAttributions();
  if (ArrayAttr attrs = func.getWorkgroupAttribAttrsAttr()) {
    SmallVector<Attribute> kept;
    for (auto [i, attr] : llvm::enumerate(attrs))
      if (!llvm::is_contained(indices, i))
        kept.push_back(attr);
    func.setWorkgroupAttribAttrsAttr(
        ArrayAttr::get(func.getContext(), kept));
  }
  for (unsigned index : llvm::reverse(indices))
    func.getBody().front().eraseArgument(first + index);
  func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                Builder(func).getI64IntegerAttr(count - indices.size()));
}

/// The alignment `buffer` asks for (llvm.align: a bulk store's swizzled
/// rows need 1024 bytes), at least kBufferAlignment. The dynamic shared
/// memory starts 1024-byte aligned.
static uint64_t bufferAlignment(gpu::GPUFuncOp func, BlockArgument buffer) {
  unsigned index =
      buffer.getArgNumber() - func.getFirstWorkgroupAttributionIndex();
  auto align = dyn_cast_or_null<IntegerAttr>(func.getWorkgroupAttributionAttr(
      index, LLVM::LLVMDialect::getAlignAttrName()));
  return std::max<int64_t>(kBufferAlignment, align ? align.getInt() : 0);
}

static int64_t bufferBytes(BlockArgument buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

FailureOr<int64_t> tilec::reuseStagedMemory(RewriterBase &rewriter,
                                            gpu::GPUFuncOp func) {
  auto dynamicBytes =
      func->getAttrOfType<IntegerAttr>(tile::kDynamicSharedBytesAttrName);
  if (!dynamicBytes || func.getWorkgroupAttributions().empty())
    return 0;
  // Warp roles: the tile threads meet by named barriers, and the producer
  // warp would never reach a block barrier put in for them.
  if (func.walk([](NVVM::BarrierOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return 0;
  SmallVector<Operation *> staged = stagedOps(func);
  SmallVector<MovedBuffer> moved;
  for (BlockArgument buffer : func.getWorkgroupAttributions())
    if (std::optional<MovedBuffer> m = placeBuffer(buffer, func, staged))
      moved.push_back(*m);
  if (moved.empty())
    return 0;

  Block &body = func.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  Value base = gpu::DynamicSharedMemoryOp::create(
      rewriter, func.getLoc(),
      MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                      MemRefLayoutAttrInterface(),
                      gpu::AddressSpaceAttr::get(
                          rewriter.getContext(), gpu::AddressSpace::Workgroup)));
  int64_t offset = 0;
  SmallVector<unsigned> indices;
  unsigned firstIndex = func.getFirstWorkgroupAttributionIndex();
  for (const MovedBuffer &m : moved) {
    separateFromStaged(rewriter, m);
    offset = llvm::alignTo(offset, bufferAlignment(func, m.buffer));
    Value byteShift =
        arith::ConstantIndexOp::create(rewriter, m.buffer.getLoc(), offset);
    Value view = memref::ViewOp::create(rewriter, m.buffer.getLoc(),
                                        m.buffer.getType(), base, byteShift,
                                        ValueRange{});
    rewriter.replaceAllUsesWith(m.buffer, view);
    offset += bufferBytes(m.buffer);
    indices.push_back(m.buffer.getArgNumber() - firstIndex);
  }
  llvm::sort(indices);
  eraseWorkgroupAttributions(func, indices);
  func->setAttr(tile::kDynamicSharedBytesAttrName,
                rewriter.getI64IntegerAttr(
                    std::max(dynamicBytes.getInt(), offset)));
  return offset;
}

namespace {
struct TileReuseStagedMemoryPass
    : tilec::impl::TileReuseStagedMemoryBase<TileReuseStagedMemoryPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    FailureOr<int64_t> bytes = reuseStagedMemory(rewriter, getOperation());
    if (failed(bytes))
      return signalPassFailure();
    if (*bytes > 0) {
      ++numKernels;
      numBytes += *bytes;
    }
  }
};
} // namespace
