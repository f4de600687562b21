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
// tile-assign-layouts has given the accumulators the #tilegpu.mma /
// #tilegpu.fma encoding before.
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
// Operands in workgroup memory
//===----------------------------------------------------------------------===//

namespace {

/// Where a dot operand lives: a 2-D workgroup buffer and the tile's origin
/// in it, or a buffer of swizzled panels holding just the tile; and whether
/// the buffer holds the operand transposed.
struct StagedOperand {
  Value buffer;
  Value row, col;
  bool transposed = false;
  bool swizzled = false;
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
  if (auto placed = dyn_cast_or_null<tilegpu::SharedLayoutAttr>(
          load.getPlacement())) {
    // Descriptors address 128-byte swizzled panels only.
    if (placed.getHardwareSwizzleBytes(load.getType().getElementType()) != 128)
      return std::nullopt;
    staged.swizzled = true;
    return staged;
  }
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

/// The four 32-bit registers of an A fragment held in registers: slots
/// first..first+7 of the #tilegpu.dot_operand layout, in pairs a0..a3 (the
/// order of LinearLayout::mmaOperandA, which is the PTX ISA's).
SmallVector<Value> registerFragment(OpBuilder &b, Location loc,
                                    ArrayRef<Value> slots, int64_t first,
                                    Type elementType) {
  SmallVector<Value> registers;
  auto pairType = VectorType::get({2}, elementType);
  for (int64_t i = 0; i < 4; ++i) {
    Value pair = vector::FromElementsOp::create(
        b, loc, pairType,
        ValueRange{slots[first + 2 * i], slots[first + 2 * i + 1]});
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

/// What every dot lowering reads first: the accumulator layout and where
/// the two operands are staged; nullopt unless the layout has `kind` and
/// both operands are staged (or the lhs is in registers), swizzled or not
/// as `swizzled` says.
struct StagedDot {
  DotLayout layout;
  StagedOperand lhs, rhs;
  /// The lhs comes from registers as A fragments (lhs is then empty).
  bool lhsInRegisters = false;
};
std::optional<StagedDot> matchStagedDot(tile::DotOp op, DotLayout::Kind kind,
                                        std::optional<bool> swizzled) {
  std::optional<DotLayout> layout = DotLayout::get(op.getType());
  bool lhsInRegisters = isa_and_nonnull<tilegpu::DotOperandLayoutAttr>(
      op.getLhs().getType().getEncoding());
  std::optional<StagedOperand> lhs =
      lhsInRegisters ? StagedOperand() : stagedOperand(op.getLhs());
  std::optional<StagedOperand> rhs = stagedOperand(op.getRhs());
  if (!layout || layout->getKind() != kind || !lhs || !rhs)
    return std::nullopt;
  if (lhsInRegisters)
    return swizzled && *swizzled != rhs->swizzled
               ? std::nullopt
               : std::optional(StagedDot{*layout, *lhs, *rhs, true});
  if (swizzled && (lhs->swizzled != *swizzled || rhs->swizzled != *swizzled))
    return std::nullopt;
  return StagedDot{*layout, *lhs, *rhs};
}

/// A warpgroup dot: what WarpgroupDotLowering matches.
static bool isWarpgroupDot(tile::DotOp dot) {
  return matchStagedDot(dot, DotLayout::Kind::Mma, true).has_value();
}

struct MmaDotLowering : MapWarpsPattern<tile::DotOp> {
  using MapWarpsPattern::MapWarpsPattern;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<StagedDot> dot =
        matchStagedDot(op, DotLayout::Kind::Mma, false);
    if (!dot)
      return failure();
    const DotLayout *layout = &dot->layout;
    const StagedOperand *lhs = &dot->lhs, *rhs = &dot->rhs;
    Location loc = op.getLoc();
    IndexBuilder ix{rewriter, loc};
    Type elementType = getElementTypeOrSelf(op.getLhs().getType());
    int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
    int64_t fragRows = layout->getWarpTileM() / 16;
    int64_t fragCols = layout->getWarpTileN() / 8;

    Value warp = ix.div(state.threadId, 32), lane = ix.rem(state.threadId, 32);
    Value warpRow =
        ix.mul(ix.rem(warp, layout->getWarpsM()), layout->getWarpRowStep());
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

    SmallVector<Value> lhsRegisters;
    if (dot->lhsInRegisters)
      lhsRegisters = unpack(rewriter, loc, adaptor.getLhs(),
                            fragRows * 16 * k / 32);
    for (int64_t kk = 0; kk < k; kk += 16) {
      // A fragments (16x16): a0..a3 = rows 0-7/8-15 x k 0-7/8-15.
      SmallVector<SmallVector<Value>> aFrags;
      for (int64_t fm = 0; fm < fragRows && dot->lhsInRegisters; ++fm)
        aFrags.push_back(registerFragment(rewriter, loc, lhsRegisters,
                                          (fm * (k / 16) + kk / 16) * 8,
                                          elementType));
      for (int64_t fm = 0; fm < fragRows && !dot->lhsInRegisters; ++fm) {
        Value m = ix.add(warpRow, fm * layout->getFragmentRowStep());
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

/// Marks the wait after a loop whose dots stay in flight: once the
/// conversion is done, the loop's accumulators are routed through it.
constexpr llvm::StringLiteral kLoopResultsWait = "tile.loop_results_wait";

/// A Hopper shared-memory matrix descriptor for 128-byte swizzled panels
/// whose first row is at shared address `address`: bits 0-13 the address,
/// 16-29 the leading and 32-45 the stride byte offsets (all in 16-byte
/// units), 62-63 the swizzle mode (1: 128 bytes).
Value matrixDescriptor(OpBuilder &b, Location loc, Value address,
                       int64_t leadingBytes, int64_t strideBytes) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, address, c(4)), c(0x3FFF));
  int64_t fixed = ((leadingBytes >> 4) & 0x3FFF) << 16 |
                  ((strideBytes >> 4) & 0x3FFF) << 32 | int64_t(1) << 62;
  return arith::OrIOp::create(b, loc, start, c(fixed));
}


/// Inline PTX `ptx` that reads and writes the f32 `tied` values in place
/// (its operands $0.. $n-1) and reads `inputs` after them (constraints
/// `inputConstraints`, e.g. ",r,l"); returns the values written.
SmallVector<Value> inlinePtxOnF32(OpBuilder &b, Location loc, StringRef ptx,
                                  ArrayRef<Value> tied, ArrayRef<Value> inputs,
                                  StringRef inputConstraints) {
  std::string constraints;
  for (size_t i = 0; i < tied.size(); ++i)
    constraints += i ? ",=f" : "=f";
  constraints += inputConstraints;
  for (size_t i = 0; i < tied.size(); ++i)
    constraints += "," + std::to_string(i);
  SmallVector<Value> operands(inputs);
  llvm::append_range(operands, tied);
  auto structType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(tied.size(), b.getF32Type()));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, structType, operands, ptx, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  SmallVector<Value> written;
  for (size_t i = 0; i < tied.size(); ++i)
    written.push_back(LLVM::ExtractValueOp::create(
        b, loc, asmOp.getResult(0), ArrayRef<int64_t>{int64_t(i)}));
  return written;
}

/// wgmma.wait_group `group` as the op that defines the f32 `values` their
/// users read after it. Nothing else ties the registers of an in-flight
/// wgmma to the wait intrinsic, so the code generator could hoist their
/// reads above it (and ptxas then serializes every wgmma). The wait also
/// reads the i32 `inUse` (A registers of the awaited wgmmas), so that
/// they live, unchanged, until it.
SmallVector<Value> waitGroupDefining(OpBuilder &b, Location loc,
                                     int64_t group, ArrayRef<Value> values,
                                     ArrayRef<Value> inUse = {}) {
  std::string constraints;
  for (size_t i = 0; i < inUse.size(); ++i)
    constraints += ",r";
  return inlinePtxOnF32(
      b, loc, "wgmma.wait_group.sync.aligned " + std::to_string(group) + ";",
      values, inUse, constraints);
}

/// Where the wait for an `overlap` dot goes: before `reader`, the first op
/// of its block that reads its result or releases a staged slot (which its
/// operands may be in), leaving the `laterGroups` groups of the warpgroup
/// dots issued between them in flight.
struct OverlapWait {
  Operation *reader;
  int64_t laterGroups;
};

/// The wait of `op`, an `overlap` dot; nullopt (wait at once) when nothing
/// in its block reads it, or when an op between holds a dot in a region,
/// whose groups might or might not be issued.
std::optional<OverlapWait> overlapWait(tile::DotOp op) {
  Block *block = op->getBlock();
  Operation *reader = nullptr;
  for (Operation *user : op->getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (inBlock && (!reader || inBlock->isBeforeInBlock(reader)))
      reader = inBlock;
  }
  if (!reader)
    return std::nullopt;
  int64_t laterGroups = 0;
  for (Operation *it = op->getNextNode(); it != reader; it = it->getNextNode()) {
    if (auto dot = dyn_cast<tile::DotOp>(it)) {
      laterGroups += dot.getOverlap() && isWarpgroupDot(dot);
      continue;
    }
    bool nestedDot = false, releases = false;
    it->walk([&](Operation *nested) {
      nestedDot |= nested != it && isa<tile::DotOp>(nested);
      releases |= isa<tilegpu::BarrierArriveOp>(nested);
    });
    if (nestedDot)
      return std::nullopt;
    if (releases)
      return OverlapWait{it, laterGroups};
  }
  return OverlapWait{reader, laterGroups};
}

/// wgmma's register-A form: D = A B + D on one warpgroup, A as four 32-bit
/// registers per thread (the mma.sync A fragment of the warp's 16 rows,
/// which is wgmma's too) and B read through `bDescriptor`. NVVM's
/// wgmma.mma_async (MLIR 22) has only the descriptor-A form, which it
/// lowers to inline PTX itself; this builds the register-A instruction the
/// same way, from the shape and the types, with the accumulator registers
/// tied in and out.
SmallVector<Value> warpgroupMmaRegisterA(OpBuilder &b, Location loc,
                                         ArrayRef<Value> acc,
                                         ArrayRef<Value> aRegisters,
                                         Value bDescriptor, int64_t n,
                                         Type elementType, bool transposeB,
                                         bool readAcc) {
  assert(llvm::all_of(aRegisters,
                      [](Value r) { return r.getType().isInteger(32); }));
  int64_t count = acc.size();
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  os << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32."
     << (elementType.isBF16() ? "bf16.bf16" : "f16.f16") << " {";
  for (int64_t i = 0; i < count; ++i)
    os << (i ? ", $" : "$") << i;
  os << "}, {$" << count << ", $" << count + 1 << ", $" << count + 2 << ", $"
     << count + 3 << "}, $" << count + 4
     << ", " << (readAcc ? 1 : 0) << ", 1, 1, " << (transposeB ? 1 : 0)
     << ";";
  SmallVector<Value> inputs(aRegisters);
  inputs.push_back(bDescriptor);
  return inlinePtxOnF32(b, loc, ptx, acc, inputs, ",r,r,r,r,l");
}

/// A dot whose operands sit in 128-byte swizzled panels becomes Hopper
/// warpgroup MMAs: warpgroup g owns 64 rows x N columns of the accumulator
/// and issues one wgmma.mma_async m64nNk16 per 16 of K, addressing the
/// operands through matrix descriptors. K-contiguous operands (A as
/// stored, B transposed) step 32 bytes along a panel row per 16 of K;
/// M/N-contiguous ones step 16 panel rows, their panels LBO bytes apart.
/// The result registers are those of #tilegpu.mma with 16-row warp tiles.
struct WarpgroupDotLowering : MapWarpsPattern<tile::DotOp> {
  using MapWarpsPattern::MapWarpsPattern;

  static constexpr int64_t kPanelRowBytes = 128;
  static constexpr int64_t kAtomBytes = 8 * kPanelRowBytes;

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<StagedDot> dot =
        matchStagedDot(op, DotLayout::Kind::Mma, true);
    if (!dot)
      return failure();
    const DotLayout *layout = &dot->layout;
    const StagedOperand *lhs = &dot->lhs, *rhs = &dot->rhs;
    Location loc = op.getLoc();
    IndexBuilder ix{rewriter, loc};
    MLIRContext *ctx = rewriter.getContext();
    Type elementType = getElementTypeOrSelf(op.getLhs().getType());
    int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
    int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
    int64_t rows = layout->getRows(), cols = layout->getCols();
    int64_t warpgroupsM = layout->getWarpsM() / 4;
    int64_t n = layout->getWarpTileN();
    // m64 instructions a warpgroup issues per 16 of K, each on its own
    // rows (strided_rows) and its own block of registers.
    int64_t instructions = layout->getWarpTileM() / 16;
    if (instructions > 1 && dot->lhsInRegisters)
      return rewriter.notifyMatchFailure(
          op, "A fragments in registers cover 64 rows a warpgroup");

    // This warpgroup's rows and columns of the accumulator.
    Value warpgroup = ix.div(state.threadId, 128);
    Value row0 = ix.mul(ix.rem(warpgroup, warpgroupsM), 64);
    Value col0 = ix.mul(ix.div(warpgroup, warpgroupsM), n);

    // Byte offsets of this warpgroup's operand within its buffer, and the
    // byte step per 16 of K, for each storage order.
    Type i64 = rewriter.getI64Type();
    auto toI64 = [&](Value index) -> Value {
      return arith::IndexCastUIOp::create(rewriter, loc, i64, index);
    };
    struct Operand {
      Value base;        // i64 shared address of this warpgroup's tile
      bool kContiguous;  // stored with K innermost
      int64_t panelBytes; // bytes of one panel
    };
    auto operand = [&](const StagedOperand &staged, Value origin,
                       int64_t extent, bool kContiguous) {
      Value address = sharedAddress(rewriter, loc, staged.buffer);
      // K-contiguous: panels are [extent rows][64 of K]; rows at 128 bytes.
      // Otherwise: panels are [k rows][64 of M/N]; origin is a panel start.
      int64_t panelBytes = (kContiguous ? extent : k) * kPanelRowBytes;
      Value offset = kContiguous
                         ? ix.mul(origin, kPanelRowBytes)
                         : ix.mul(ix.div(origin, 64), panelBytes);
      return Operand{rewriter.createOrFold<arith::AddIOp>(loc, address,
                                                          toI64(offset)),
                     kContiguous, panelBytes};
    };
    // An lhs in registers (dot->lhsInRegisters) has no buffer.
    SmallVector<Operand> a;
    for (int64_t i = 0; i < instructions && !dot->lhsInRegisters; ++i)
      a.push_back(operand(*lhs, ix.add(row0, i * layout->getFragmentRowStep()),
                          rows, !lhs->transposed));
    Operand b = operand(*rhs, col0, cols, rhs->transposed);
    auto descriptorAt = [&](const Operand &o, int64_t kk) {
      int64_t step = o.kContiguous
                         ? (kk / 64) * o.panelBytes + (kk % 64) * elementBytes
                         : kk * kPanelRowBytes;
      Value address = rewriter.createOrFold<arith::AddIOp>(
          loc, o.base, arith::ConstantIntOp::create(rewriter, loc, i64, step));
      // K-contiguous panels need no leading offset (K steps stay inside a
      // panel row); M/N-contiguous ones give the distance between panels.
      return matrixDescriptor(rewriter, loc, address,
                              o.kContiguous ? 16 : o.panelBytes, kAtomBytes);
    };

    int64_t perThread = layout->getPerThread();
    // A zero accumulator is not read: the first wgmma computes D = A B
    // (scale-d 0), so no register is zeroed first.
    bool zeroAcc = matchPattern(op.getAcc(), m_AnyZeroFloat());
    SmallVector<Value> acc =
        zeroAcc ? SmallVector<Value>(
                      perThread,
                      LLVM::PoisonOp::create(rewriter, loc, rewriter.getF32Type()))
                : unpack(rewriter, loc, adaptor.getAcc(), perThread);
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    // The results are only valid once the group completes: the wait
    // defines the accumulator its users read. It comes at once, or for an
    // `overlap` dot just before the first op that reads the result.
    std::optional<OverlapWait> deferred;
    if (op.getOverlap())
      deferred = overlapWait(op);
    auto waitAndReplace = [&](ArrayRef<Value> inUse) {
      if (deferred)
        rewriter.setInsertionPoint(deferred->reader);
      acc = waitGroupDefining(rewriter, loc,
                              deferred ? deferred->laterGroups : 0, acc, inUse);
      replaceDot(rewriter, op, *getTypeConverter(), acc, *lhs, *rhs);
      return success();
    };
    if (dot->lhsInRegisters) {
      // The A registers must not change until the group completes: the
      // wait reads them.
      SmallVector<Value> lhsRegisters =
          unpack(rewriter, loc, adaptor.getLhs(), 16 * k / 32);
      SmallVector<Value> aRegisters;
      for (int64_t kk = 0; kk < k; kk += 16) {
        SmallVector<Value> fragment;
        for (Value reg : registerFragment(rewriter, loc, lhsRegisters,
                                          (kk / 16) * 8, elementType))
          fragment.push_back(
              reg.getType().isInteger(32)
                  ? reg
                  : LLVM::BitcastOp::create(rewriter, loc,
                                            rewriter.getI32Type(), reg));
        acc = warpgroupMmaRegisterA(
            rewriter, loc, acc, fragment, descriptorAt(b, kk), n, elementType,
            /*transposeB=*/!b.kContiguous, /*readAcc=*/kk > 0 || !zeroAcc);
        llvm::append_range(aRegisters, fragment);
      }
      NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
      return waitAndReplace(deferred ? ArrayRef<Value>(aRegisters)
                                     : ArrayRef<Value>());
    }

    // Each instruction's block of the accumulator as the struct wgmma
    // reads and writes.
    Type f32 = rewriter.getF32Type();
    int64_t perInstruction = perThread / instructions;
    auto structType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(perInstruction, f32));
    SmallVector<Value> accStructs;
    for (int64_t i = 0; i < instructions; ++i) {
      Value accStruct = LLVM::PoisonOp::create(rewriter, loc, structType);
      for (int64_t j = 0; j < perInstruction; ++j)
        accStruct = LLVM::InsertValueOp::create(rewriter, loc, accStruct,
                                                acc[i * perInstruction + j],
                                                ArrayRef<int64_t>{j});
      accStructs.push_back(accStruct);
    }
    auto type = elementType.isBF16() ? NVVM::WGMMATypes::bf16
                                     : NVVM::WGMMATypes::f16;
    auto typeAttr = NVVM::WGMMATypesAttr::get(ctx, type);
    auto one = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
    for (int64_t kk = 0; kk < k; kk += 16) {
      Value bDescriptor = descriptorAt(b, kk);
      for (int64_t i = 0; i < instructions; ++i)
        accStructs[i] = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, structType, accStructs[i], descriptorAt(a[i], kk),
            bDescriptor, NVVM::MMAShapeAttr::get(ctx, 64, n, 16), typeAttr,
            typeAttr, NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
            NVVM::WGMMAScaleOutAttr::get(ctx, kk > 0 || !zeroAcc
                                                  ? NVVM::WGMMAScaleOut::one
                                                  : NVVM::WGMMAScaleOut::zero),
            one, one,
            NVVM::MMALayoutAttr::get(ctx, a[i].kContiguous
                                              ? NVVM::MMALayout::row
                                              : NVVM::MMALayout::col),
            NVVM::MMALayoutAttr::get(ctx, b.kContiguous ? NVVM::MMALayout::col
                                                        : NVVM::MMALayout::row),
            /*satfinite=*/nullptr);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    auto extractAll = [&] {
      for (int64_t i = 0; i < perThread; ++i)
        acc[i] = LLVM::ExtractValueOp::create(
            rewriter, loc, accStructs[i / perInstruction],
            ArrayRef<int64_t>{i % perInstruction});
    };
    if (deferred) {
      extractAll();
      return waitAndReplace({});
    }
    // The registers are only valid, and the operand slots only free, once
    // the group has completed. A dot that only feeds the next iteration's
    // dot may stay in flight (its slots allowing): the next wgmma on the
    // same registers is ordered after it, and the loop's users wait.
    int64_t inFlight = 0;
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (auto attr = op->getAttrOfType<IntegerAttr>(kDotInFlightAttr);
        attr && loop && op->hasOneUse() &&
        isa<scf::YieldOp>(*op->getUsers().begin()))
      inFlight = attr.getInt();
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, inFlight);
    if (inFlight > 0) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(loop);
      auto wait = NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
      wait->setAttr(kLoopResultsWait, rewriter.getUnitAttr());
    }
    extractAll();
    replaceDot(rewriter, op, *getTypeConverter(), acc, *lhs, *rhs);
    return success();
  }
};

struct FmaDotLowering : MapWarpsPattern<tile::DotOp> {
  using MapWarpsPattern::MapWarpsPattern;

  /// A thread's operand values for K indices k0 .. k0 + kStep - 1, as
  /// values[i][dk] for its `count` positions `position(i)` along M (N).
  /// Where that dimension is contiguous ([K][X] buffers, positions in groups
  /// of 4) each group is one 16-byte read per k; where K is contiguous
  /// ([X][K] buffers) each position is one read of kStep values.
  static SmallVector<SmallVector<Value>>
  readFragment(OpBuilder &b, Location loc, const StagedOperand &operand,
               bool kContiguous, int64_t k0, int64_t kStep, int64_t count,
               function_ref<Value(int64_t)> position) {
    IndexBuilder ix{b, loc};
    SmallVector<SmallVector<Value>> values(count);
    auto vectorType = [&](int64_t n) {
      return VectorType::get({n}, b.getF32Type());
    };
    if (kContiguous) {
      for (int64_t i = 0; i < count; ++i) {
        Value run = vector::LoadOp::create(
            b, loc, vectorType(kStep), operand.buffer,
            ValueRange{ix.add(operand.row, position(i)),
                       ix.add(operand.col, k0)},
            /*nontemporal=*/false, llvm::MaybeAlign(kStep * 4));
        values[i] = unpack(b, loc, run, kStep);
      }
      return values;
    }
    for (int64_t dk = 0; dk < kStep; ++dk) {
      for (int64_t i = 0; i < count; i += 4) {
        Value group = vector::LoadOp::create(
            b, loc, vectorType(4), operand.buffer,
            ValueRange{ix.add(operand.row, k0 + dk),
                       ix.add(operand.col, position(i))},
            /*nontemporal=*/false, llvm::MaybeAlign(16));
        for (auto [g, v] : llvm::enumerate(unpack(b, loc, group, 4)))
          values[i + g].push_back(v);
      }
    }
    return values;
  }

  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<StagedDot> dot =
        matchStagedDot(op, DotLayout::Kind::Fma, std::nullopt);
    if (!dot)
      return failure();
    const DotLayout *layout = &dot->layout;
    const StagedOperand *lhs = &dot->lhs, *rhs = &dot->rhs;
    Location loc = op.getLoc();
    IndexBuilder ix{rewriter, loc};
    int64_t k = cast<RankedTensorType>(op.getLhs().getType()).getDimSize(1);
    int64_t rows = layout->getThreadRows(), cols = layout->getThreadCols();
    // The layout groups a dimension by 4 exactly where the staged operand is
    // contiguous along it (chooseDotLayout); otherwise K is contiguous.
    bool lhsKContiguous = layout->getGroupM() == 1;
    bool rhsKContiguous = layout->getGroupN() == 1;
    if (lhsKContiguous == lhs->transposed || rhsKContiguous != rhs->transposed)
      return rewriter.notifyMatchFailure(op, "layout does not fit the staging");
    // 16-byte K runs where K is contiguous (the slot rows are padded by 16
    // bytes, so runs stay aligned).
    int64_t kStep = (lhsKContiguous || rhsKContiguous) && k % 4 == 0 ? 4 : 1;
    Value ti = ix.rem(state.threadId, layout->getThreadsM());
    Value tj = ix.div(state.threadId, layout->getThreadsM());

    SmallVector<Value> acc =
        unpack(rewriter, loc, adaptor.getAcc(), layout->getPerThread());
    for (int64_t k0 = 0; k0 < k; k0 += kStep) {
      SmallVector<SmallVector<Value>> a = readFragment(
          rewriter, loc, *lhs, lhsKContiguous, k0, kStep, rows,
          [&](int64_t i) { return layout->rowOf(rewriter, loc, ti, i); });
      SmallVector<SmallVector<Value>> b = readFragment(
          rewriter, loc, *rhs, rhsKContiguous, k0, kStep, cols,
          [&](int64_t j) { return layout->colOf(rewriter, loc, tj, j); });
      // Column by column, the rows of odd columns backwards: consecutive
      // FMAs share their b value, and at each turn their a value too, so
      // that ptxas keeps more operands in the reuse caches. Register bank
      // conflicts (two uncached sources in one bank) fell from 818 to 596
      // in a K step's 2048 FMAs, and 4096^3 ran 1.8% faster on the H200
      // than row by row (bench/matmul/results/2026-11-28-h200-f32-order).
      for (int64_t dk = 0; dk < kStep; ++dk)
        for (int64_t j = 0; j < cols; ++j)
          for (int64_t r = 0; r < rows; ++r) {
            int64_t i = j % 2 ? rows - 1 - r : r;
            acc[i * cols + j] = math::FmaOp::create(
                rewriter, loc, a[i][dk], b[j][dk], acc[i * cols + j]);
          }
    }
    replaceDot(rewriter, op, *getTypeConverter(), acc, *lhs, *rhs);
    return success();
  }
};

} // namespace

/// The wait after a loop whose wgmma stays in flight becomes one that
/// defines the f32 values the loop returns (waitGroupDefining), so that the
/// epilogue's reads stay below it.
void tilec::tieLoopResultsToWaits(gpu::GPUFuncOp func) {
  SmallVector<NVVM::WgmmaWaitGroupSyncOp> waits;
  func.walk([&](NVVM::WgmmaWaitGroupSyncOp wait) {
    if (wait->hasAttr(kLoopResultsWait))
      waits.push_back(wait);
  });
  for (NVVM::WgmmaWaitGroupSyncOp wait : waits) {
    auto loop = dyn_cast_or_null<scf::ForOp>(wait->getPrevNode());
    wait->removeAttr(kLoopResultsWait);
    if (!loop)
      continue;
    OpBuilder b(wait);
    Location loc = wait.getLoc();
    SmallVector<Value> scalars;
    SmallVector<OpResult> results;
    llvm::SmallPtrSet<Operation *, 32> unpacking;
    for (OpResult result : loop->getResults()) {
      auto type = dyn_cast<VectorType>(result.getType());
      if (!type || type.getRank() != 1 || !type.getElementType().isF32())
        continue;
      results.push_back(result);
      for (Value scalar : unpack(b, loc, result, type.getNumElements())) {
        scalars.push_back(scalar);
        unpacking.insert(scalar.getDefiningOp());
      }
    }
    if (scalars.empty())
      continue;
    SmallVector<Value> waitedScalars =
        waitGroupDefining(b, loc, wait.getGroup(), scalars);
    int64_t next = 0;
    for (OpResult result : results) {
      auto type = cast<VectorType>(result.getType());
      SmallVector<Value> waited;
      for (int64_t i = 0; i < type.getNumElements(); ++i)
        waited.push_back(waitedScalars[next++]);
      Value vector = vector::FromElementsOp::create(b, loc, type, waited);
      result.replaceUsesWithIf(vector, [&](OpOperand &use) {
        return !unpacking.contains(use.getOwner());
      });
    }
    wait.erase();
  }
}

Value tilec::sharedAddress(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value address = b.createOrFold<arith::AddIOp>(
      loc, pointer,
      b.createOrFold<arith::MulIOp>(
          loc, metadata.getOffset(),
          indexConstant(b, loc, type.getElementTypeBitWidth() / 8)));
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
}

void tilec::populateMapWarpsDotPatterns(const TypeConverter &converter,
                                        MapWarpsState &state,
                                        RewritePatternSet &patterns) {
  patterns.add<MmaDotLowering, WarpgroupDotLowering, FmaDotLowering>(
      converter, patterns.getContext(), state);
}
