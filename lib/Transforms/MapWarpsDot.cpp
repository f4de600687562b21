//===- MapWarpsDot.cpp - tile.dot over warps and lanes --------------------===//
//
// A dot reads its operands from the workgroup-memory slots that
// tile-promote-shared staged them in, and keeps its accumulator in the
// registers where the multiply leaves it:
//   - f16/bf16: each warp owns a warp tile of 16x8 mma.sync m16n8k16
//     fragments, its operands fetched with ldmatrix (.trans for operands
//     stored the other way round);
//   - f32: each thread owns a block of the tile and computes an outer
//     product with FMAs, reading 16-byte groups of the operands.
// Before rewriting, the accumulator tensors (through loops, element-wise
// ops, loads and stores) are given the #tile.mma / #tile.fma encoding.
//
//===----------------------------------------------------------------------===//

#include "DotLayout.h"
#include "MapWarpsPatterns.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Accumulator layouts
//===----------------------------------------------------------------------===//

static bool isElementwiseOp(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op);
}

/// Values that must share `value`'s layout, through the ops an accumulator
/// may flow through; fails (with an error) at any other op.
static LogicalResult linkedValues(Value value, SmallVectorImpl<Value> &out) {
  auto addTensors = [&](Operation *op) {
    for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (isa<RankedTensorType>(v.getType()))
        out.push_back(v);
  };
  auto addLoopSlot = [&](scf::ForOp loop, unsigned i) {
    out.push_back(loop.getInitArgs()[i]);
    out.push_back(loop.getRegionIterArgs()[i]);
    out.push_back(loop.getResult(i));
    out.push_back(loop.getYieldedValues()[i]);
  };

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return emitError(value.getLoc(),
                       "a tile.dot accumulator can only be carried by scf.for");
    addLoopSlot(loop, arg.getArgNumber() - 1);
  } else {
    Operation *def = value.getDefiningOp();
    if (auto loop = dyn_cast<scf::ForOp>(def))
      addLoopSlot(loop, cast<OpResult>(value).getResultNumber());
    else if (auto dot = dyn_cast<tile::DotOp>(def))
      out.push_back(dot.getAcc());
    else if (isElementwiseOp(def))
      addTensors(def);
    else if (!isa<arith::ConstantOp, tile::LoadOp>(def))
      return def->emitOpError("cannot produce a tile.dot accumulator yet");
  }

  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
      if (!loop)
        return user->emitOpError("cannot carry a tile.dot accumulator yet");
      addLoopSlot(loop, use.getOperandNumber());
    } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
      addLoopSlot(loop, use.getOperandNumber() - loop.getNumControlOperands());
    } else if (auto dot = dyn_cast<tile::DotOp>(user)) {
      if (use.get() != dot.getAcc())
        return user->emitOpError(
            "cannot use a tile.dot result as a dot operand yet");
      out.push_back(dot.getResult());
    } else if (isElementwiseOp(user)) {
      addTensors(user);
    } else if (!isa<tile::StoreOp>(user)) {
      return user->emitOpError("cannot use a tile.dot accumulator yet");
    }
  }
  return success();
}

static void setLayout(Value value, Attribute layout) {
  auto type = cast<RankedTensorType>(value.getType());
  auto encoded = RankedTensorType::get(type.getShape(), type.getElementType(),
                                       layout);
  value.setType(encoded);
  // A splat constant's attribute carries its type too.
  if (auto constant = value.getDefiningOp<arith::ConstantOp>()) {
    auto dense = cast<DenseElementsAttr>(constant.getValue());
    constant.setValueAttr(
        DenseElementsAttr::get(encoded, dense.getSplatValue<Attribute>()));
  }
}

LogicalResult tilec::assignDotLayouts(gpu::GPUFuncOp func, int64_t threads) {
  // Analysis: the layout every accumulator value must take.
  llvm::MapVector<Value, Attribute> layouts;
  WalkResult walk = func.walk([&](tile::DotOp dot) {
    FailureOr<Attribute> layout = chooseDotLayout(dot, threads);
    if (failed(layout))
      return WalkResult::interrupt();
    SmallVector<Value> worklist = {dot.getResult(), dot.getAcc()};
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      auto [it, inserted] = layouts.insert({value, *layout});
      if (!inserted) {
        if (it->second != *layout) {
          dot.emitOpError("accumulator needs two layouts: ")
              << it->second << " and " << *layout;
          return WalkResult::interrupt();
        }
        continue;
      }
      if (failed(linkedValues(value, worklist)))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Mutation.
  for (auto [value, layout] : layouts)
    setLayout(value, layout);
  return success();
}

//===----------------------------------------------------------------------===//
// Operands in workgroup memory
//===----------------------------------------------------------------------===//

namespace {

/// Where a dot operand lives: a 2-D workgroup buffer, the tile's origin in
/// it, and whether the buffer holds the operand transposed.
struct StagedOperand {
  Value buffer;
  Value row, col;
  bool transposed = false;
  SmallVector<Operation *, 2> producers;
};

} // namespace

static bool isWorkgroup(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  auto space =
      memref ? dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace())
             : nullptr;
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

static std::optional<StagedOperand> stagedOperand(Value operand) {
  StagedOperand staged;
  if (auto transpose = operand.getDefiningOp<tile::TransposeOp>()) {
    staged.transposed = true;
    staged.producers.push_back(transpose);
    operand = transpose.getInput();
  }
  auto load = operand.getDefiningOp<tile::LoadOp>();
  if (!load || !isWorkgroup(load.getBuffer().getType()))
    return std::nullopt;
  staged.producers.push_back(load);
  staged.buffer = load.getBuffer();
  staged.row = load.getIndices()[0];
  staged.col = load.getIndices()[1];
  return staged;
}

bool tilec::isStagedDotOperand(Operation *op) {
  if (!op->hasOneUse())
    return false;
  Operation *user = *op->getUsers().begin();
  if (isa<tile::TransposeOp>(user))
    return isStagedDotOperand(user);
  auto dot = dyn_cast<tile::DotOp>(user);
  return dot && op->getResult(0) != dot.getAcc() &&
         stagedOperand(op->getResult(0)).has_value();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

struct IndexBuilder {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return indexConstant(b, loc, v); }
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value add(Value x, int64_t y) { return add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    return b.createOrFold<arith::MulIOp>(loc, x, c(y));
  }
  Value div(Value x, int64_t y) {
    return b.createOrFold<arith::DivUIOp>(loc, x, c(y));
  }
  Value rem(Value x, int64_t y) {
    return b.createOrFold<arith::RemUIOp>(loc, x, c(y));
  }
};

/// The accumulator as one scalar per slot, so fragments can be updated in
/// place; the canonicalizer folds the extracts away.
SmallVector<Value> unpack(OpBuilder &b, Location loc, Value vector,
                          int64_t count) {
  SmallVector<Value> scalars;
  for (int64_t i = 0; i < count; ++i)
    scalars.push_back(vector::ExtractOp::create(b, loc, vector, i));
  return scalars;
}

/// Reads one ldmatrix x4 (four 8x8 matrices) as its four 32-bit registers,
/// typed as nvvm.mma.sync wants them: vector<2xf16> for f16, i32 for bf16.
SmallVector<Value> loadMatrices(OpBuilder &b, Location loc, Value buffer,
                                Value row, Value col, bool transpose,
                                Type elementType) {
  auto type = VectorType::get({4, 2}, elementType);
  Value matrices = nvgpu::LdMatrixOp::create(
      b, loc, type, buffer, ValueRange{row, col}, b.getBoolAttr(transpose),
      b.getI32IntegerAttr(4));
  SmallVector<Value> registers;
  for (int64_t i = 0; i < 4; ++i) {
    Value pair = vector::ExtractOp::create(b, loc, matrices, i);
    registers.push_back(
        elementType.isBF16()
            ? Value(LLVM::BitcastOp::create(b, loc, b.getI32Type(), pair))
            : pair);
  }
  return registers;
}

/// Replaces `dot` by its per-thread accumulator and erases the operand
/// loads (and transposes) it read through workgroup memory directly.
void replaceDot(ConversionPatternRewriter &rewriter, tile::DotOp dot,
                const TypeConverter &converter, ArrayRef<Value> acc,
                const StagedOperand &lhs, const StagedOperand &rhs) {
  auto vectorType = converter.convertType<VectorType>(dot.getType());
  rewriter.replaceOp(dot, vector::FromElementsOp::create(
                              rewriter, dot.getLoc(), vectorType, acc));
  for (Operation *producer :
       llvm::concat<Operation *const>(lhs.producers, rhs.producers))
    rewriter.eraseOp(producer);
}

struct MmaDotLowering : MapWarpsPattern<tile::DotOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<DotLayout> layout = DotLayout::get(op.getType());
    std::optional<StagedOperand> lhs = stagedOperand(op.getLhs());
    std::optional<StagedOperand> rhs = stagedOperand(op.getRhs());
    if (!layout || layout->getKind() != DotLayout::Kind::Mma || !lhs || !rhs)
      return failure();
    Location loc = op.getLoc();
    IndexBuilder ix{rewriter, loc};
    Type elementType = getElementTypeOrSelf(op.getLhs().getType());
    int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
    int64_t fragRows = layout->getWarpTileM() / 16;
    int64_t fragCols = layout->getWarpTileN() / 8;

    Value warp = ix.div(state.threadId, 32), lane = ix.rem(state.threadId, 32);
    Value warpRow = ix.mul(ix.rem(warp, layout->getWarpsM()),
                           layout->getWarpTileM());
    Value warpCol = ix.mul(ix.div(warp, layout->getWarpsM()),
                           layout->getWarpTileN());
    // ldmatrix x4: lanes 8i..8i+7 give the row addresses of matrix i.
    Value matrix = ix.div(lane, 8), rowInMatrix = ix.rem(lane, 8);
    Value lane16 = ix.rem(lane, 16);

    SmallVector<Value> acc =
        unpack(rewriter, loc, adaptor.getAcc(), layout->getPerThread());
    auto mmaTypes = elementType.isBF16()
                        ? std::array{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16}
                        : std::array{NVVM::MMATypes::f16, NVVM::MMATypes::f16};
    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), {f32, f32, f32, f32});

    for (int64_t kk = 0; kk < k; kk += 16) {
      // A fragments (16x16): a0..a3 = rows 0-7/8-15 x k 0-7/8-15.
      SmallVector<SmallVector<Value>> aFrags;
      for (int64_t fm = 0; fm < fragRows; ++fm) {
        Value m = ix.add(warpRow, fm * 16);
        Value row, col;
        if (!lhs->transposed) { // [M][K]: lane l -> row l%16, k (l/16)*8
          row = ix.add(lhs->row, ix.add(m, lane16));
          col = ix.add(lhs->col, ix.add(ix.mul(ix.div(lane, 16), 8), kk));
        } else { // [K][M]: matrix i -> k + (i/2)*8, m + (i%2)*8
          row = ix.add(lhs->row, ix.add(ix.add(rowInMatrix, kk),
                                        ix.mul(ix.div(matrix, 2), 8)));
          col = ix.add(lhs->col, ix.add(m, ix.mul(ix.rem(matrix, 2), 8)));
        }
        aFrags.push_back(loadMatrices(rewriter, loc, lhs->buffer, row, col,
                                      lhs->transposed, elementType));
      }
      // B fragments: one ldmatrix x4 covers two 8-column fragments.
      SmallVector<SmallVector<Value>> bFrags;
      for (int64_t fn = 0; fn < fragCols; fn += 2) {
        Value n = ix.add(warpCol, fn * 8);
        Value row, col;
        if (rhs->transposed) { // [N][K]: matrix i -> n + (i/2)*8, k + (i%2)*8
          row = ix.add(rhs->row, ix.add(ix.add(n, rowInMatrix),
                                        ix.mul(ix.div(matrix, 2), 8)));
          col = ix.add(rhs->col, ix.add(ix.mul(ix.rem(matrix, 2), 8), kk));
        } else { // [K][N]: matrix i -> k + (i%2)*8, n + (i/2)*8
          row = ix.add(rhs->row, ix.add(ix.add(rowInMatrix, kk),
                                        ix.mul(ix.rem(matrix, 2), 8)));
          col = ix.add(rhs->col, ix.add(n, ix.mul(ix.div(matrix, 2), 8)));
        }
        SmallVector<Value> regs =
            loadMatrices(rewriter, loc, rhs->buffer, row, col,
                         !rhs->transposed, elementType);
        bFrags.push_back({regs[0], regs[1]});
        bFrags.push_back({regs[2], regs[3]});
      }
      for (int64_t fm = 0; fm < fragRows; ++fm) {
        for (int64_t fn = 0; fn < fragCols; ++fn) {
          SmallVector<int64_t> slots;
          for (int64_t h = 0; h < 2; ++h)
            for (int64_t c = 0; c < 2; ++c)
              slots.push_back(layout->mmaSlot(fm, fn, h, c));
          SmallVector<Value> c;
          for (int64_t s : slots)
            c.push_back(acc[s]);
          Value d = NVVM::MmaOp::create(
              rewriter, loc, resultType, aFrags[fm], bFrags[fn], c,
              ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
              mmaTypes,
              std::array{NVVM::MMALayout::row, NVVM::MMALayout::col});
          for (auto [i, s] : llvm::enumerate(slots))
            acc[s] = LLVM::ExtractValueOp::create(rewriter, loc, d,
                                                  ArrayRef<int64_t>{int64_t(i)});
        }
      }
    }
    replaceDot(rewriter, op, *getTypeConverter(), acc, *lhs, *rhs);
    return success();
  }
};

struct FmaDotLowering : MapWarpsPattern<tile::DotOp> {
  using MapWarpsPattern::MapWarpsPattern;

  /// Reads the `count` operand elements at positions `position(i)` along the
  /// non-K dimension for K index `k`: 16-byte groups where that dimension
  /// is contiguous, single elements otherwise.
  static SmallVector<Value>
  readOperand(OpBuilder &b, Location loc, const StagedOperand &operand,
              bool contiguous, Value k, int64_t count,
              function_ref<Value(int64_t)> position) {
    IndexBuilder ix{b, loc};
    SmallVector<Value> values;
    for (int64_t i = 0; i < count; i += contiguous ? 4 : 1) {
      Value p = position(i);
      if (contiguous) {
        auto type = VectorType::get({4}, b.getF32Type());
        Value group = vector::LoadOp::create(
            b, loc, type, operand.buffer,
            ValueRange{ix.add(operand.row, k), ix.add(operand.col, p)},
            /*nontemporal=*/false, llvm::MaybeAlign(16));
        llvm::append_range(values, unpack(b, loc, group, 4));
      } else {
        values.push_back(memref::LoadOp::create(
            b, loc, operand.buffer,
            ValueRange{ix.add(operand.row, p), ix.add(operand.col, k)}));
      }
    }
    return values;
  }

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<DotLayout> layout = DotLayout::get(op.getType());
    std::optional<StagedOperand> lhs = stagedOperand(op.getLhs());
    std::optional<StagedOperand> rhs = stagedOperand(op.getRhs());
    if (!layout || layout->getKind() != DotLayout::Kind::Fma || !lhs || !rhs)
      return failure();
    Location loc = op.getLoc();
    IndexBuilder ix{rewriter, loc};
    int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
    int64_t rows = layout->getThreadRows(), cols = layout->getThreadCols();
    Value ti = ix.rem(state.threadId, layout->getThreadsM());
    Value tj = ix.div(state.threadId, layout->getThreadsM());
    auto position = [&](Value t, int64_t grid, int64_t i) {
      return ix.add(ix.mul(t, 4), (i / 4) * grid * 4 + i % 4);
    };

    SmallVector<Value> acc =
        unpack(rewriter, loc, adaptor.getAcc(), layout->getPerThread());
    for (int64_t kk = 0; kk < k; ++kk) {
      Value kIndex = ix.c(kk);
      // A stored [K][M] (transposed) and B stored [K][N] have the thread's
      // 4-groups contiguous.
      SmallVector<Value> a = readOperand(
          rewriter, loc, *lhs, lhs->transposed, kIndex, rows, [&](int64_t i) {
            return position(ti, layout->getThreadsM(), i);
          });
      SmallVector<Value> b = readOperand(
          rewriter, loc, *rhs, !rhs->transposed, kIndex, cols, [&](int64_t j) {
            return position(tj, layout->getThreadsN(), j);
          });
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          acc[i * cols + j] =
              math::FmaOp::create(rewriter, loc, a[i], b[j], acc[i * cols + j]);
    }
    replaceDot(rewriter, op, *getTypeConverter(), acc, *lhs, *rhs);
    return success();
  }
};

} // namespace

void tilec::populateMapWarpsDotPatterns(const TypeConverter &converter,
                                        MapWarpsState &state,
                                        RewritePatternSet &patterns) {
  patterns.add<MmaDotLowering, FmaDotLowering>(converter,
                                               patterns.getContext(), state);
}
