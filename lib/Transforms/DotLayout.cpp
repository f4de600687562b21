//===- DotLayout.cpp - How a tile.dot accumulator is spread over threads --===//

#include "DotLayout.h"
#include "TileLayout.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

std::optional<DotLayout> DotLayout::get(RankedTensorType type) {
  Attribute encoding = type.getEncoding();
  if (!encoding)
    return std::nullopt;
  DotLayout layout;
  layout.rows = type.getDimSize(0);
  layout.cols = type.getDimSize(1);
  if (auto mma = dyn_cast<tilegpu::MmaLayoutAttr>(encoding)) {
    layout.kind = Kind::Mma;
    layout.gridM = mma.getWarpsM();
    layout.gridN = mma.getWarpsN();
    layout.stridedRows = mma.getStridedRows();
    return layout;
  }
  if (auto fma = dyn_cast<tilegpu::FmaLayoutAttr>(encoding)) {
    layout.kind = Kind::Fma;
    layout.gridM = fma.getThreadsM();
    layout.gridN = fma.getThreadsN();
    layout.groupM = fma.getGroupM();
    layout.groupN = fma.getGroupN();
    return layout;
  }
  return std::nullopt;
}

int64_t DotLayout::getPerThread() const {
  if (kind == Kind::Mma)
    return rows * cols / (gridM * gridN * 32);
  return rows * cols / (gridM * gridN);
}

/// Position along one dimension of element i of a thread's fma block:
/// groups of `group` consecutive elements, group g of thread t at
/// (g * grid + t) * group.
static Value fmaPosition(OpBuilder &b, Location loc, Value threadCoord,
                         int64_t grid, int64_t group, int64_t i) {
  Value base = b.createOrFold<arith::MulIOp>(loc, threadCoord,
                                             indexConstant(b, loc, group));
  return b.createOrFold<arith::AddIOp>(
      loc, base,
      indexConstant(b, loc, (i / group) * grid * group + i % group));
}

Value DotLayout::rowOf(OpBuilder &b, Location loc, Value t, int64_t i) const {
  return fmaPosition(b, loc, t, gridM, groupM, i);
}

Value DotLayout::colOf(OpBuilder &b, Location loc, Value t, int64_t j) const {
  return fmaPosition(b, loc, t, gridN, groupN, j);
}

/// Splits `units` (a power of two) into a grid (gm, gn) with gm * gn = units
/// whose cells of (rows / gm) x (cols / gn) are as square as possible and at
/// least minM x minN.
static std::optional<std::pair<int64_t, int64_t>>
squarestGrid(int64_t units, int64_t rows, int64_t cols, int64_t minM,
             int64_t minN) {
  std::optional<std::pair<int64_t, int64_t>> best;
  int64_t bestSkew = 0;
  for (int64_t gm = 1; gm <= units; gm *= 2) {
    int64_t gn = units / gm;
    if (rows % (gm * minM) != 0 || cols % (gn * minN) != 0)
      continue;
    int64_t cm = rows / gm, cn = cols / gn;
    int64_t skew = cm > cn ? cm / cn : cn / cm;
    // Prefer taller cells on ties: A fragments are reused across more columns.
    if (!best || skew < bestSkew || (skew == bestSkew && cm > cn)) {
      best = {gm, gn};
      bestSkew = skew;
    }
  }
  return best;
}

/// Elements in one 128-byte panel row of swizzled 16-bit operands.
static constexpr int64_t kPanelElements = 64;

static bool isSwizzledLoad(Value operand) {
  if (auto transpose = operand.getDefiningOp<tile::TransposeOp>())
    operand = transpose.getInput();
  auto load = operand.getDefiningOp<tile::LoadOp>();
  return load && load.getPlacement();
}

/// The warp grid of a warpgroup-MMA accumulator of `rows` rows on `warps`
/// warps: 16 rows a warp, the rest of the warps splitting the columns; or,
/// with more rows than that (strided_rows), all warps along the rows, each
/// warpgroup issuing one m64 instruction per 64 rows it owns.
static std::optional<std::pair<int64_t, int64_t>>
warpgroupMmaGrid(int64_t rows, int64_t warps) {
  if (warps % (rows / 16) == 0)
    return std::pair{rows / 16, warps / (rows / 16)};
  if (rows % (16 * warps) == 0)
    return std::pair{warps, int64_t(1)};
  return std::nullopt;
}

bool tilec::fitsWarpgroupMma(tile::DotOp dot, int64_t threads,
                             bool lhsInRegisters) {
  Type input = getElementTypeOrSelf(dot.getLhs().getType());
  auto acc = cast<RankedTensorType>(dot.getAcc().getType());
  if (!(input.isF16() || input.isBF16()) || !acc.getElementType().isF32())
    return false;
  int64_t rows = acc.getDimSize(0), cols = acc.getDimSize(1);
  int64_t k = cast<RankedTensorType>(dot.getLhs().getType()).getDimSize(1);
  int64_t warps = threads / 32;
  // threads is 0 where the block size is unknown.
  if (warps < 4 || warps % 4 != 0 || rows < 64 || rows % 64 != 0)
    return false;
  std::optional<std::pair<int64_t, int64_t>> grid =
      warpgroupMmaGrid(rows, warps);
  if (!grid)
    return false;
  // A fragments in registers hold whole rows of K: every warpgroup takes
  // 64 rows of its own, none shares them by splitting the columns.
  if (lhsInRegisters && warps != rows / 16)
    return false;
  // Nor do strided rows suit a result that becomes A fragments (those
  // follow mma.sync's warp tiles, rows together).
  if (grid->first * 16 < rows && feedsRegisterLhs(dot))
    return false;
  int64_t warpgroupCols = cols / grid->second;
  if (warpgroupCols % 8 != 0 || warpgroupCols > 256 || k % 16 != 0)
    return false;
  // A not transposed and B transposed are stored K-contiguous.
  bool lhsKContiguous = !lhsInRegisters &&
                        !dot.getLhs().getDefiningOp<tile::TransposeOp>();
  bool rhsKContiguous =
      static_cast<bool>(dot.getRhs().getDefiningOp<tile::TransposeOp>());
  if ((lhsKContiguous || rhsKContiguous) && k % kPanelElements != 0)
    return false;
  return rhsKContiguous || warpgroupCols % kPanelElements == 0;
}

FailureOr<Attribute> tilec::chooseDotLayout(tile::DotOp dot, int64_t threads,
                                            bool feedsRegisterLhs) {
  auto acc = cast<RankedTensorType>(dot.getAcc().getType());
  Type input = getElementTypeOrSelf(dot.getLhs().getType());
  int64_t rows = acc.getDimSize(0), cols = acc.getDimSize(1);
  int64_t k = cast<RankedTensorType>(dot.getLhs().getType()).getDimSize(1);
  MLIRContext *ctx = dot.getContext();
  if (isSwizzledLoad(dot.getLhs()) || isSwizzledLoad(dot.getRhs())) {
    // The lhs is either in swizzled panels too or in registers (wgmma's
    // register-A form).
    bool lhsInRegisters = !isWorkgroupOperand(dot.getLhs());
    if ((!lhsInRegisters && !isSwizzledLoad(dot.getLhs())) ||
        !isSwizzledLoad(dot.getRhs()) ||
        !fitsWarpgroupMma(dot, threads, lhsInRegisters))
      return dot.emitOpError("cannot map a ")
             << rows << "x" << cols << "x" << k << " dot onto " << threads / 32
             << " warps of warpgroup MMA: the rhs must be swizzled and the "
                "lhs swizzled or in registers, each warpgroup needs a "
                "multiple of 64 rows (64 of its own with the lhs in "
                "registers) and at most 256 columns, panels must not "
                "straddle warpgroups";
    auto [gridM, gridN] = *warpgroupMmaGrid(rows, threads / 32);
    return Attribute(
        tilegpu::MmaLayoutAttr::get(ctx, gridM, gridN,
                                    /*stridedRows=*/gridM * 16 < rows));
  }
  if (input.isF16() || input.isBF16()) {
    // An lhs in registers is held as A fragments of whole K rows: warps
    // split the rows only, so that a previous dot's accumulator of those
    // rows converts to it without leaving the threads.
    int64_t warps = threads / 32;
    bool rowsOnly = feedsRegisterLhs || !isWorkgroupOperand(dot.getLhs());
    if (rowsOnly && rows % (16 * warps) == 0 &&
        cols % 16 == 0 && k % 16 == 0)
      return Attribute(tilegpu::MmaLayoutAttr::get(ctx, warps, 1));
    auto grid = squarestGrid(threads / 32, rows, cols, 16, 16);
    if (!grid || k % 16 != 0)
      return dot.emitOpError("cannot map a ")
             << rows << "x" << cols << "x" << k << " dot onto " << threads / 32
             << " warps of mma.sync m16n8k16: each warp needs a tile of at "
                "least 16x16 and K must be a multiple of 16";
    return Attribute(tilegpu::MmaLayoutAttr::get(ctx, grid->first, grid->second));
  }
  auto grid = squarestGrid(threads, rows, cols, 4, 4);
  if (!grid)
    return dot.emitOpError("cannot map a ")
           << rows << "x" << cols << " f32 dot onto " << threads
           << " threads: each thread needs a block of at least 4x4";
  // A transposed is staged [K][M] and B not transposed [K][N]: M (N) is
  // contiguous there, so 16-byte groups along it. Otherwise K is contiguous
  // and each thread reads whole K-runs of rows threads_m apart.
  bool mContiguous =
      static_cast<bool>(dot.getLhs().getDefiningOp<tile::TransposeOp>());
  bool nContiguous = !dot.getRhs().getDefiningOp<tile::TransposeOp>();
  return Attribute(tilegpu::FmaLayoutAttr::get(ctx, grid->first, grid->second,
                                            mContiguous ? 4 : 1,
                                            nContiguous ? 4 : 1));
}

/// Whether `dot`'s result reaches, through element-wise ops (casts, scales)
/// and loop-carried values (into later iterations and later loops), the lhs
/// of a dot that takes it from registers.
bool tilec::feedsRegisterLhs(tile::DotOp dot) {
  SmallVector<Value> worklist = {dot.getResult()};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto next = dyn_cast<tile::DotOp>(user)) {
        if (use.get() == next.getLhs() && !isWorkgroupOperand(use.get()))
          return true;
      } else if (isa<arith::ArithDialect, math::MathDialect>(
                     user->getDialect())) {
        llvm::append_range(worklist, user->getResults());
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        unsigned n = use.getOperandNumber();
        if (isa<scf::ForOp, scf::IfOp>(yield->getParentOp()))
          worklist.push_back(yield->getParentOp()->getResult(n));
        // Round the loop, to the next iteration.
        if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp()))
          worklist.push_back(loop.getRegionIterArgs()[n]);
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        unsigned n = use.getOperandNumber();
        if (n >= loop.getNumControlOperands())
          worklist.push_back(
              loop.getRegionIterArgs()[n - loop.getNumControlOperands()]);
      }
    }
  }
  return false;
}

bool tilec::isWorkgroupOperand(Value operand) {
  if (auto transpose = operand.getDefiningOp<tile::TransposeOp>())
    operand = transpose.getInput();
  auto load = operand.getDefiningOp<tile::LoadOp>();
  if (!load)
    return false;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
      load.getBuffer().getType().getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}
