//===- StageWindows.cpp - Windows read twice, copied once -----------------===//
//
// A single-pass scan reads its piece twice: for the total it publishes,
// then, behind the look-back, to scan it. Held in registers between the two,
// the piece bounds how many programs fit a multiprocessor; read twice from
// global memory, it costs a second trip to L2. Copied once into workgroup
// memory, it costs neither.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace tilec {
#define GEN_PASS_DEF_TILESTAGEWINDOWS
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Windows start on this boundary: cp.async of 16 bytes writes, and 16-byte
/// vector loads read, only 16-byte aligned workgroup addresses.
static constexpr int64_t kWindowAlignment = 16;

namespace {
/// What identifies a window: the buffer, the loop-invariant indices before
/// the last, the base of the last and the loop's constant bounds and step
/// (the tile's extent along the last dimension), and the tile's shape.
struct WindowKey {
  Value buffer, base;
  /// The last index is `base - iv`: the loop walks the window from its end.
  bool descending;
  SmallVector<Value> leading;
  int64_t lower, upper, step;
  SmallVector<int64_t> tileShape;

  bool operator==(const WindowKey &other) const {
    return buffer == other.buffer && base == other.base &&
           descending == other.descending && leading == other.leading &&
           lower == other.lower && upper == other.upper && step == other.step &&
           tileShape == other.tileShape;
  }

  /// The induction variable's last value.
  int64_t last() const { return upper - step; }
};

/// The loads that read one window, in program order.
struct Window {
  WindowKey key;
  SmallVector<tile::LoadOp> reads;
};
} // namespace

/// `index` as `base + iv` or `base - iv` (`descending`) of `loop`, base
/// defined outside the loop.
static Value baseOfInductionVar(scf::ForOp loop, Value index,
                                bool &descending) {
  Value iv = loop.getInductionVar();
  Value base;
  if (auto add = index.getDefiningOp<arith::AddIOp>()) {
    descending = false;
    if (add.getRhs() == iv)
      base = add.getLhs();
    else if (add.getLhs() == iv)
      base = add.getRhs();
  } else if (auto sub = index.getDefiningOp<arith::SubIOp>()) {
    descending = true;
    if (sub.getRhs() == iv)
      base = sub.getLhs();
  }
  return base && loop.isDefinedOutsideOfLoop(base) ? base : Value();
}

/// The window `load` reads, if it reads one tile of a window an iteration
/// of its loop.
static std::optional<WindowKey> windowOf(tile::LoadOp load) {
  auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
  auto bufferType = cast<MemRefType>(load.getBuffer().getType());
  RankedTensorType tileType = load.getType();
  if (!loop || bufferType.getMemorySpace() || tileType.getEncoding() ||
      bufferType.getRank() > 2 || tileType.getRank() != bufferType.getRank())
    return std::nullopt;
  if (std::optional<TypedAttr> padding = load.getPadding();
      padding && !matchPattern(*padding, m_Zero()) &&
      !matchPattern(*padding, m_AnyZeroFloat()))
    return std::nullopt;
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *upper <= *lower ||
      *step != tileType.getShape().back() || (*upper - *lower) % *step != 0)
    return std::nullopt;
  ValueRange indices = load.getIndices();
  bool descending = false;
  Value base = baseOfInductionVar(loop, indices.back(), descending);
  // A buffer the kernel may write (through any op but a read) may change
  // between the reads.
  bool written = llvm::any_of(load.getBuffer().getUsers(), [](Operation *user) {
    return !isa<tile::LoadOp, memref::DimOp>(user);
  });
  // Loops inside another loop would copy the next window over one that
  // other threads may still read.
  bool repeated = loop->getParentOfType<LoopLikeOpInterface>() != nullptr;
  if (!base || written || repeated ||
      !loop.isDefinedOutsideOfLoop(load.getBuffer()) ||
      !llvm::all_of(indices.drop_back(), [&](Value index) {
        return loop.isDefinedOutsideOfLoop(index);
      }))
    return std::nullopt;
  return WindowKey{load.getBuffer(),
                   base,
                   descending,
                   llvm::to_vector(indices.drop_back()),
                   *lower,
                   *upper,
                   *step,
                   llvm::to_vector(tileType.getShape())};
}

/// The window's shape in workgroup memory: the tile's, with the whole
/// window along the last dimension.
static SmallVector<int64_t> windowShape(const WindowKey &key) {
  SmallVector<int64_t> shape = key.tileShape;
  shape.back() = key.upper - key.lower;
  return shape;
}

static int64_t windowBytes(const WindowKey &key, Type elementType) {
  int64_t elements = 1;
  for (int64_t size : windowShape(key))
    elements *= size;
  return elements * elementType.getIntOrFloatBitWidth() / 8;
}

/// The windows of `func` read by two or more loops of one block, at most
/// `maxBytes` each.
static SmallVector<Window> reusedWindows(gpu::GPUFuncOp func,
                                         int64_t maxBytes) {
  SmallVector<Window> windows;
  func.walk([&](tile::LoadOp load) {
    std::optional<WindowKey> key = windowOf(load);
    if (!key)
      return;
    auto *window =
        llvm::find_if(windows, [&](const Window &w) { return w.key == *key; });
    if (window == windows.end())
      windows.push_back({std::move(*key), {load}});
    else
      window->reads.push_back(load);
  });
  return llvm::filter_to_vector(windows, [&](const Window &window) {
    tile::LoadOp firstRead = window.reads.front();
    Operation *first = firstRead->getParentOp();
    bool sameBlock = llvm::all_of(window.reads, [&](tile::LoadOp read) {
      return read->getParentOp()->getBlock() == first->getBlock();
    });
    bool severalLoops = llvm::any_of(window.reads, [&](tile::LoadOp read) {
      return read->getParentOp() != first;
    });
    Type elementType = firstRead.getType().getElementType();
    return sameBlock && severalLoops &&
           windowBytes(window.key, elementType) <= maxBytes;
  });
}

void tilec::stageWindow(RewriterBase &rewriter, gpu::GPUFuncOp func,
                        ArrayRef<tile::LoadOp> reads) {
  tile::LoadOp firstRead = reads.front();
  std::optional<WindowKey> key = windowOf(firstRead);
  assert(key && "reads of a window");
  Operation *firstLoop = firstRead->getParentOp();
  for (tile::LoadOp read : reads)
    if (read->getParentOp()->isBeforeInBlock(firstLoop))
      firstLoop = read->getParentOp();
  Location loc = firstLoop->getLoc();
  Type elementType = firstRead.getType().getElementType();
  auto windowType = MemRefType::get(
      windowShape(*key), elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                 gpu::AddressSpace::Workgroup));
  Value window = func.addWorkgroupAttribution(windowType, loc);
  // 16-byte copies and reads need it; a buffer's elements alone promise
  // less.
  func.setWorkgroupAttributionAttr(
      func.getNumWorkgroupAttributions() - 1,
      LLVM::LLVMDialect::getAlignAttrName(),
      rewriter.getI64IntegerAttr(kWindowAlignment));

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(firstLoop);
  // The window starts at the first tile's index (base + lower) or, walked
  // from its end, at the last one's (base - last); iteration iv reads the
  // window at iv - lower or last - iv.
  int64_t firstOffset = key->descending ? key->last() : key->lower;
  Value first = arith::ConstantIndexOp::create(rewriter, loc, firstOffset);
  SmallVector<Value> indices = key->leading;
  if (!firstOffset)
    indices.push_back(key->base);
  else if (key->descending)
    indices.push_back(arith::SubIOp::create(rewriter, loc, key->base, first));
  else
    indices.push_back(arith::AddIOp::create(rewriter, loc, key->base, first));
  tilegpu::CopyAsyncOp::create(rewriter, loc, key->buffer, indices, window);
  tilegpu::AsyncCommitOp::create(rewriter, loc);
  tilegpu::AsyncWaitOp::create(rewriter, loc, 0);

  // The window's leading dimensions hold the tile's whole.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (tile::LoadOp read : reads) {
    Value iv = cast<scf::ForOp>(read->getParentOp()).getInductionVar();
    rewriter.setInsertionPoint(read);
    SmallVector<Value> at(key->leading.size(), zero);
    if (key->descending)
      at.push_back(arith::SubIOp::create(rewriter, read.getLoc(), first, iv));
    else if (firstOffset)
      at.push_back(arith::SubIOp::create(rewriter, read.getLoc(), iv, first));
    else
      at.push_back(iv);
    rewriter.replaceOpWithNewOp<tile::LoadOp>(read, read.getType(), window, at);
  }
}

namespace {
struct TileStageWindowsPass
    : tilec::impl::TileStageWindowsBase<TileStageWindowsPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    SmallVector<Window> windows = reusedWindows(func, maxBytes);
    IRRewriter rewriter(&getContext());
    for (const Window &window : windows) {
      stageWindow(rewriter, func, window.reads);
      ++numWindows;
      numReads += window.reads.size();
    }
  }
};
} // namespace
