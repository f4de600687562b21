//===- Tiling.cpp - Descriptions -> block programs ------------------------===//
//
// A description says what to compute over whole buffers; tiling decides how
// one program (thread block) computes one tile of the output, and writes that
// program in the tile dialect, where the later passes map it onto the GPU.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "IndexMath.h"

#include "mlir/IR/PatternMatch.h"

namespace tilec {
#define GEN_PASS_DEF_TILETILING
#include "tilec/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

/// How one program computes its C tile.
struct MatmulSchedule {
  int64_t blockM, blockN, blockK;
  int64_t warps;
  int64_t stages;
  /// A producer warp issues the loop's bulk copies (tile.producer_warp).
  bool producerWarp = false;
  /// One block a multiprocessor walks the tiles (tile.persistent).
  bool persistent = false;
  /// Groups of `warps` warps that take alternate tiles of a persistent
  /// walk, fed by one producer (kConsumerGroupsAttr; the `pingpong` hint).
  int64_t groups = 1;
  /// Persistent blocks in thread-block clusters of this many (tile.cluster),
  /// which take tiles on adjacent rows and share B (multicast), or, where
  /// the tile is taller than wide, on adjacent columns and share A.
  int64_t clusterBlocks = 1;

  /// Whether the blocks of a cluster share A (the larger tile of the two).
  /// Hinted 256x128 ran level either way on the H200 (0.886x cuBLAS at
  /// 4096^3 sharing A, 0.879x sharing B,
  /// bench/matmul/results/2026-11-30-h200-strided-256x128); no default
  /// tile is taller than wide.
  bool clusterSharesA() const { return blockM > blockN; }
  /// Split-K: the grid's z dimension splits K in parts of about this many
  /// elements, and the last program of a tile to finish adds the others'
  /// partial results (0: no split).
  int64_t splitKChunk = 0;
  /// With split-K: a kernel of its own adds the partial results (tile.then)
  /// and every split of the grid takes K steps, instead of the last program
  /// of a tile adding them with splits capped (worthwhileSplits).
  bool sumSplitsAfter = false;
  /// With a sum kernel: C's rows a sum program adds. One: the splits'
  /// rows are loaded kSplitSumRows at a time and reduced across them (for
  /// many splits); more: a [sumRows, blockN] slab of each split's partial
  /// tile in turn, added as it comes (for few splits over many rows).
  int64_t sumRows = 1;
  /// Blocks a multiprocessor ptxas fits the kernel's registers for
  /// (tile.min_blocks_per_sm; 0: ptxas's choice).
  int64_t minBlocksPerSm = 0;
  /// A's bulk copies copy only A's rows, not the tile's padding rows past
  /// them (kFitRowsAttr): for tiles taller than C.
  bool fitRowsOfA = false;
};

/// Registers a thread of a ping-pong matmul's producer warpgroup keeps and
/// the two consumer warpgroups take: what the 64K leave, 232 (128 x 40 +
/// 256 x 232).
constexpr int32_t kPingpongProducerRegisters = 40;
constexpr int32_t kPingpongTileRegisters = tileRegistersAfterHandover(
    2 * kWarpgroupThreads, kPingpongProducerRegisters, /*cap=*/256);
static_assert(kPingpongTileRegisters == 232);

/// K elements a split-K program takes at least (the grid's z extent is K /
/// this): 1024^3 (64 tiles of 128x128 on 132 multiprocessors) splits in
/// two.
constexpr int64_t kSplitKChunk = 512;
/// Blocks a multiprocessor the runtime launches a split-K grid with at most
/// (launch metadata `split`): the 16-bit small-grid kernels hold one block
/// a multiprocessor (128 KiB of slots on sm_90a), so one wave. Without the
/// cap, 1024x1024x4096 ran in 8 splits (3.9 waves, each program 8 K steps,
/// the last adding 8 partial tiles) at 0.35x cuBLAS on the H200.
constexpr int64_t kSplitKBlocksPerSm = 1;
/// The fewest parts of `kSplitKChunk` a launch splits K into; fewer run
/// unsplit (launch metadata `split 1 4`). Adding the partial tiles costs
/// about 5 us at two splits on the H200, more than a split of K <= 1536
/// saves: K = 1024 ran 1.15-1.25x faster unsplit, while K = 2048 in 4
/// splits (16 tiles) beat 2 and 1 (bench/matmul/results/
/// 2026-11-30-h200-small-grid and 2026-11-30-h200-split-min-parts).
constexpr int64_t kSplitKMinParts = 4;
/// Arrival counters in the split-K scratch buffer, one a tile; a launch with
/// more tiles runs unsplit (the small-grid kernel has fewer tiles than
/// multiprocessors).
constexpr int64_t kSplitKCounters = 1024;
/// Words before the partial results of split-K with a sum kernel: the
/// launch's splits, padded to 16 bytes.
constexpr int64_t kSplitSumHeaderWords = 4;
/// Splits the sum kernel adds a step (one [rows, blockN] load).
constexpr int64_t kSplitSumRows = 32;
/// Warps of a sum-kernel program.
constexpr int64_t kSplitSumWarps = 4;
/// Splits' slabs a sum program of more than one row of C loads at once
/// (sumSlabOfSplits): the few-rows kernel splits K 4 ways at 32 tiles (C
/// of 4096 columns). 8 at once were 2-7% faster at 8 to 13 splits on the
/// H200 but cost 0.11 s more CPU time to compile (masked loads), 4 cost
/// 0.02 s (bench/matmul/results/2026-12-03-h200-few-rows-sum-slabs).
constexpr int64_t kSplitSumSlabs = 4;

/// The hints of `op`, completed by defaults for its element type: tensor
/// cores want a deep pipeline and wide tiles (128x256 with 8 warps of 64x64
/// beat 128x128 with 4 warps by 9-18% on the H200, bench/matmul/tuning); the
/// f32 outer product 8x8 elements per thread and K steps of 32, which halve
/// the block barriers per FMA against K steps of 8 (0.79x against 0.68x of
/// SGEMM at 4096^3, bench/matmul/results/2026-11-21-h200-f32-sweep).
/// Warpgroup MMA reads whole 128-byte swizzled panels, so its K step is one
/// panel (64 16-bit elements); two warpgroups each own 64 rows x 256 (one
/// m64n256 instruction a 16 of K). cuBLAS's 256x128, each warpgroup 128
/// rows in two m64n128 instructions (#tilegpu.mma strided_rows), runs
/// 1-1.5% behind this on the H200 (4096^3 0.970 against 0.983x cuBLAS,
/// bench/matmul/results/2026-11-30-h200-staged-fit; the 0.79-0.94x first
/// measured was its epilogue, whose staged store did not fit then).
///
/// With the `pingpong` hint (a producer warp feeding warpgroup MMAs), two
/// warpgroups each compute whole 128x128 tiles (two m64n128 a 16 of K),
/// taking alternate tiles of the persistent walk and turns at their K
/// loops, so that one's epilogue (and, accumulating, its read of C) runs
/// while the other's MMAs do (CUTLASS's ping-pong kernel); `warps` is then
/// a group's.
MatmulSchedule chooseSchedule(tile::MatmulOp op, bool warpgroupMma,
                              bool producer) {
  bool isF32 = op.getAType().getElementType().isF32();
  bool pingpong = op.getPingpong() && producer;
  MatmulSchedule s = isF32          ? MatmulSchedule{128, 128, 32, 8, 3}
                     : pingpong     ? MatmulSchedule{128, 128, 64, 4, 5}
                     : warpgroupMma ? MatmulSchedule{128, 256, 64, 8, 4}
                                    : MatmulSchedule{128, 256, 32, 8, 4};
  if (pingpong)
    s.groups = 2;
  // Its tiles' padding rows past a C of 65 to 127 rows are not copied.
  s.fitRowsOfA = warpgroupMma && !isF32;
  if (std::optional<ArrayRef<int64_t>> block = op.getBlock()) {
    s.blockM = (*block)[0];
    s.blockN = (*block)[1];
    s.blockK = (*block)[2];
  }
  if (std::optional<int64_t> warps = op.getWarps())
    s.warps = *warps;
  if (std::optional<int64_t> stages = op.getStages())
    s.stages = *stages;
  return s;
}

/// For grids that would leave most of the GPU idle (launched instead of the
/// default schedule below `kSmallGridPercentOfSms`% of the multiprocessors):
/// at 1024^3 on the H200, bf16 128x128 tiles ran at 0.98x cuBLAS against
/// 0.48x for 128x256, and f32 32x128 at 0.91x SGEMM against 0.55x for
/// 128x128 (bench/matmul/results/2026-11-21-h200-small-sweep). None when the
/// user gave hints: a hinted schedule is used for every shape.
std::optional<MatmulSchedule> smallGridSchedule(tile::MatmulOp op,
                                                bool warpgroupMma) {
  if (op.getBlock() || op.getWarps() || op.getStages() || op.getPingpong())
    return std::nullopt;
  if (op.getAType().getElementType().isF32())
    return MatmulSchedule{32, 128, 32, 4, 3};
  MatmulSchedule s = warpgroupMma ? MatmulSchedule{128, 128, 64, 8, 4}
                                  : MatmulSchedule{128, 128, 32, 8, 4};
  s.splitKChunk = kSplitKChunk;
  // C of 65 to 127 rows comes here (fewer have the few-rows kernels).
  s.fitRowsOfA = warpgroupMma;
  return s;
}

/// C's rows at most for which the few-rows kernel runs (the main kernel's
/// first narrow line): a warpgroup MMA's 64 rows.
constexpr int64_t kFewRows = 64;

/// C's rows a program of the few-rows kernel's sum kernel adds (slabs of
/// each split's partial tile in turn). On the H200 the whole launch ran
/// 1.14-1.18x as fast at 64 rows as with a program a row (whose 2048
/// programs at 64x4096 made it no faster than the kernels before), 1.05x
/// at 32 rows, 0.93-1.03x at 1 to 16; 16 rows a program ran 0.96-1.02x
/// as fast as 8.
constexpr int64_t kFewRowsSumRows = 8;

/// For C of at most kFewRows rows (a batch of decode tokens times a
/// weight), which the 128-row tiles computed and staged half or more in
/// padding: 64x128 tiles, two warpgroups each m64n64 a 16 of K, eight slots
/// of 24 KiB to keep B's stream (which bounds these products) in flight,
/// K split over the grid with a sum kernel (a split stores only C's rows
/// of its partial tile). On the H200 (bench/matmul/results/
/// 2026-12-03-h200-few-rows), at 1 to 64 rows (N and K of 1024 to 28672,
/// B stored either way) with an adder as the small-grid kernel's, 1.37x as
/// fast as the kernels before in geometric mean; one warpgroup of m64n128
/// 1.33x, 64x256 tiles in five slots 1.15x, two blocks a multiprocessor
/// of four slots 1.30x. The sum kernel then ran 1.04-1.24x faster than the
/// adder at 1 to 16 rows, where the last split's serial sum of the partial
/// tiles was most of a launch (about 10 us of fixed cost at 16x4096x4096,
/// against about 4.5 us unsplit). 16-bit warpgroup MMA only (sm_90a); none
/// with hints.
std::optional<MatmulSchedule> fewRowsSchedule(tile::MatmulOp op,
                                              bool warpgroupMma) {
  if (op.getBlock() || op.getWarps() || op.getStages() || op.getPingpong() ||
      !warpgroupMma || op.getAType().getElementType().isF32())
    return std::nullopt;
  MatmulSchedule s{kFewRows, 128, 64, 8, 8};
  s.fitRowsOfA = true;
  s.splitKChunk = kSplitKChunk;
  s.sumSplitsAfter = true;
  s.sumRows = kFewRowsSumRows;
  return s;
}

/// Slots of the wide few-rows kernel: 5 of 40 KiB, as many as fit.
constexpr int64_t kFewRowsWideSlots = 5;

/// The few-rows kernel's wider rung, for C of few rows and many columns
/// (a decode step's largest weights), whose 64x128 tiles outnumber the
/// multiprocessors: 64x256 tiles (two warpgroups each m64n128) in five
/// slots of 40 KiB, K unsplit, taking the launch while their grid fills
/// half the multiprocessors or more (then the few-rows kernel's). On the
/// H200 at 1 to 64 rows of 16896 to 65536 columns, 1.05-1.28x as fast as
/// the 64x128 tiles and 0.91-1.01x cuBLAS (8x28672x4096: 224 tiles of
/// 64x128 on 132 multiprocessors, 112 of 64x256; 1.16-1.19x, 0.92-0.93x;
/// bench/matmul/results/2026-12-03-h200-few-rows-wide). Where the 64x256
/// tiles are fewer they lose: 64x14336x4096 (56 tiles) 0.80 against
/// 0.99-1.01x cuBLAS, 64x4096x4096 0.64 against 0.76x (the 64x128 tiles
/// split 4 ways; 2026-12-03-h200-few-rows-shapes).
MatmulSchedule fewRowsWideSchedule(MatmulSchedule fewRows) {
  MatmulSchedule s{fewRows.blockM, 2 * fewRows.blockN, fewRows.blockK,
                   fewRows.warps, kFewRowsWideSlots};
  s.producerWarp = fewRows.producerWarp;
  s.fitRowsOfA = fewRows.fitRowsOfA;
  return s;
}

/// Slots of the thin few-rows kernel: 8 of 16 KiB, as the 64x128 kernel's
/// slot count.
constexpr int64_t kFewRowsThinSlots = 8;

/// The few-rows kernel's thinner rung, for C of few rows and few columns,
/// whose 64x128 tiles leave most multiprocessors idle and split K: 64x64
/// tiles (one warpgroup of m64n64) in 8 slots of 16 KiB, K split as the
/// few-rows kernel's, with a sum kernel of its own, taking the launch
/// where the 64x128 tiles' grid is under half the multiprocessors. Twice
/// the tiles make half the splits, so half the partial tiles to add. On
/// the H200 (bench/matmul/results/2026-12-03-h200-few-rows-thin, A's boxes
/// fitted to its rows), 1.06-1.26x as fast as the 64x128 tiles at N of
/// 6144 to 8192 (64x8192x4096 1.00-1.02x cuBLAS, was 0.79-0.82x),
/// 1.17-1.20x at 64x4096x4096, 1.03-1.05x at 16 and 32 rows of
/// 4096x4096; 0.90-0.99x at 8x768x8192, whose 6 tiles of 64x128 went to
/// the split kernel before. Where the 64x128 tiles run unsplit they win
/// (16x14336x4096, 112 tiles: 64x64 ran 0.92-0.94x as fast in
/// 2026-12-03-h200-few-rows-n64-fit), and keep those grids.
MatmulSchedule fewRowsThinSchedule(MatmulSchedule fewRows) {
  MatmulSchedule s = fewRows;
  s.blockN = fewRows.blockN / 2;
  s.warps = kWarpgroupThreads / 32;
  s.stages = kFewRowsThinSlots;
  return s;
}

/// The f32 small-grid kernel's own small-grid variant: the same tiles with
/// K split, for products whose C is a few tiles and whose K is long (weight
/// gradients of small layers). Not the f32 small-grid kernel itself: with
/// the split, its unsplit launches of more than one block a multiprocessor
/// ran 10-12% slower on the H200 (1024x1024x4096, 768x768x4096), while
/// split launches ran 2-26x faster (128x128x65536 on 132 blocks instead of
/// 4; bench/matmul/results/2026-11-30-h200-f32-split). Compiled for 3 blocks
/// a multiprocessor, as many as its 60 KB of stages allow: left to itself
/// ptxas kept 128 registers, for 4, and the split's values spilled.
MatmulSchedule splitKSchedule(MatmulSchedule small) {
  small.splitKChunk = kSplitKChunk;
  small.minBlocksPerSm = 3;
  return small;
}

/// The 16-bit small-grid kernel's own small-grid variant, for C of a few
/// tiles: the same tiles and split, but every split of the grid (up to one
/// block a multiprocessor) takes K steps and a sum kernel over all the
/// multiprocessors adds the partial results, where the small-grid kernel's
/// last program of a tile adds them alone, so that its splits stop near
/// sqrt(K steps) (32 blocks at 128x128x65536).
MatmulSchedule splitForSumSchedule(MatmulSchedule small) {
  small.sumSplitsAfter = true;
  return small;
}

/// The main kernel's grid, in percent of the multiprocessors, under which
/// the small-grid kernel runs instead: 2048^3 bf16 (128 blocks of 128x256,
/// 97%) is faster with the main kernel, 1024^3 (32 blocks) with the small.
constexpr int64_t kSmallGridPercentOfSms = 50;
/// The 16-bit small-grid kernel's tiles (a split grid's x * y), in percent
/// of the multiprocessors, under which split-K with a sum kernel runs
/// instead: at most 9 tiles on 132. Its splits pay where they outnumber
/// the adder's: 1.19-1.93x faster on the H200 at 1 to 8 tiles with K of
/// 8192 and more (16 to 132 splits), but 0.92-0.94x at K = 4096 (8 splits
/// either way, plus the sum's launch) and 0.53-0.93x at 16 to 64 tiles
/// (bench/matmul/results/2026-12-01-h200-split-sum).
constexpr int64_t kSplitSumPercentOfSms = 7;

/// C, the matmul's third argument, and its dimension of columns (N).
constexpr unsigned kMatmulC = 2;
constexpr unsigned kRowsOfC = 0;
constexpr unsigned kColumnsOfC = 1;

/// tile.repitch_args for a matmul kernel: A (argument 0) is read along grid
/// x, B (argument 1) along grid y, each copied from one tile on (the runtime's
/// copy kernels cost less than the per-thread copies of a twin even where
/// one tile reads each element). C is written (and read first when `op`
/// accumulates), and copied at any grid. Listing every buffer, each at any
/// grid, leaves the kernel without a twin (tile-bulk-copy-fallback).
ArrayAttr repitchedOperands(Builder &b, tile::MatmulOp op) {
  return b.getArrayAttr(
      {b.getDenseI64ArrayAttr({0, 0, 1}), b.getDenseI64ArrayAttr({1, 1, 1}),
       b.getDenseI64ArrayAttr(
           {kMatmulC, tile::kRepitchWrittenAxis, op.getAccumulate() ? 1 : 0})});
}

/// The (tile row, tile column) of this program. Consecutive program ids walk
/// down a group of `groupRows` tile rows before moving right, so that the
/// programs resident at one time reuse a few A rows and B columns from L2
/// instead of sweeping all of B.
/// The (row, column) of tile `pid` of a `rows` x `columns` grid of tiles in
/// the grouped order.
std::pair<Value, Value> groupedTileCoords(OpBuilder &b, Location loc,
                                          int64_t groupRows, Value pid,
                                          Value columns, Value rows) {
  IndexMath m{b, loc};
  Value group = m.constant(groupRows);
  Value perGroup = m.mul(group, columns);
  Value firstRow = m.mul(m.div(pid, perGroup), group);
  Value rowsInGroup = m.min(m.sub(rows, firstRow), group);
  Value inGroup = m.rem(pid, perGroup);
  Value tileRow = m.add(firstRow, m.rem(inGroup, rowsInGroup));
  Value tileColumn = m.div(inGroup, rowsInGroup);
  return {tileRow, tileColumn};
}

/// The program's tile in the grouped order of the grid's programs.
std::pair<Value, Value> programTileCoords(OpBuilder &b, Location loc,
                                          int64_t groupRows) {
  IndexMath m{b, loc};
  Type index = b.getIndexType();
  auto dim = [&](tile::ProgramDim d) {
    return tile::ProgramDimAttr::get(b.getContext(), d);
  };
  Value column =
      tile::ProgramIdOp::create(b, loc, index, dim(tile::ProgramDim::x));
  Value row = tile::ProgramIdOp::create(b, loc, index, dim(tile::ProgramDim::y));
  Value columns =
      tile::NumProgramsOp::create(b, loc, index, dim(tile::ProgramDim::x));
  Value rows =
      tile::NumProgramsOp::create(b, loc, index, dim(tile::ProgramDim::y));
  return groupedTileCoords(b, loc, groupRows,
                           m.add(m.mul(row, columns), column), columns, rows);
}

RankedTensorType tileType(int64_t rows, int64_t cols, Type elementType) {
  return RankedTensorType::get({rows, cols}, elementType);
}

/// Loads the rows x cols tile of a matrix operand at (row, col), reading a
/// column-major operand as its transpose and transposing the tile back.
Value loadOperandTile(OpBuilder &b, Location loc, Value buffer,
                      tile::MatrixLayout layout, Value row, Value col,
                      int64_t rows, int64_t cols) {
  Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
  if (layout == tile::MatrixLayout::row)
    return tile::LoadOp::create(b, loc, tileType(rows, cols, elementType),
                                buffer, ValueRange{row, col});
  Value stored = tile::LoadOp::create(b, loc, tileType(cols, rows, elementType),
                                      buffer, ValueRange{col, row});
  return tile::TransposeOp::create(b, loc, tileType(rows, cols, elementType),
                                   stored);
}

/// The tile.load a loaded operand tile comes from (through a transpose).
Operation *sourceLoad(Value tile) {
  if (auto transpose = tile.getDefiningOp<tile::TransposeOp>())
    tile = transpose.getOperand();
  return tile.getDefiningOp<tile::LoadOp>();
}

/// The K loop: `init` plus the products of A's rows from m0 and B's
/// columns from n0 over K in [kBegin, kEnd), in f32.
Value accumulateK(OpBuilder &b, Location loc, tile::MatmulOp op,
                  const MatmulSchedule &s, ValueRange args, Value m0, Value n0,
                  Value kBegin, Value kEnd, Value init) {
  IndexMath m{b, loc};
  Value a = args[0], bMatrix = args[1];
  RankedTensorType accType = cast<RankedTensorType>(init.getType());
  auto loop = scf::ForOp::create(
      b, loc, kBegin, kEnd, m.constant(s.blockK), ValueRange{init},
      [&](OpBuilder &lb, Location l, Value kk, ValueRange iterArgs) {
        Value at = loadOperandTile(lb, l, a, op.getALayout(), m0, kk, s.blockM,
                                   s.blockK);
        Value bt = loadOperandTile(lb, l, bMatrix, op.getBLayout(), kk, n0,
                                   s.blockK, s.blockN);
        // The blocks of a cluster take tiles on adjacent rows (columns):
        // B (A) is theirs.
        if (s.clusterBlocks > 1)
          sourceLoad(s.clusterSharesA() ? at : bt)
              ->setAttr(kClusterSharedAttr, lb.getUnitAttr());
        // Along M only: A's rows (B's are K when A is column-major). Not
        // a multicast A: each block of the cluster expects the whole tile.
        bool multicastA = s.clusterBlocks > 1 && s.clusterSharesA();
        if (s.fitRowsOfA && !multicastA &&
            op.getALayout() == tile::MatrixLayout::row)
          sourceLoad(at)->setAttr(kFitRowsAttr, lb.getUnitAttr());
        Value d = tile::DotOp::create(lb, l, accType, at, bt, iterArgs[0]);
        scf::YieldOp::create(lb, l, d);
      });
  loop->setAttr("tile.stages", b.getI64IntegerAttr(s.stages));
  if (s.producerWarp)
    loop->setAttr(kProducerWarpAttr, b.getUnitAttr());
  if (s.groups > 1)
    loop->setAttr(kConsumerGroupsAttr, b.getI64IntegerAttr(s.groups));
  // A block of 2 x 128 + 32 threads gets 168 registers a thread (ptxas
  // allocates whole warpgroups), and the tile walk's bookkeeping then
  // spills: the producer, a warpgroup, hands its registers over to the two
  // warpgroups (larger groups, hinted, would not fit 232 a thread).
  if (s.groups == 2 && s.warps == 4)
    loop->setAttr(kProducerRegistersAttr,
                  b.getDenseI32ArrayAttr(
                      {kPingpongProducerRegisters, kPingpongTileRegisters}));
  return loop.getResult(0);
}

/// C's extent along K: A's columns (rows when A is column-major).
Value matmulK(OpBuilder &b, Location loc, tile::MatmulOp op, Value a) {
  unsigned kDim = op.getALayout() == tile::MatrixLayout::row ? 1 : 0;
  return b.createOrFold<memref::DimOp>(loc, a, kDim);
}

/// C's tile at (m0, n0) from the f32 accumulator: C's type, stored.
void storeResult(OpBuilder &b, Location loc, tile::MatmulOp op,
                 const MatmulSchedule &s, Value c, Value m0, Value n0,
                 Value result) {
  Type cElement = op.getCType().getElementType();
  if (cElement != b.getF32Type())
    result = arith::TruncFOp::create(
        b, loc, tileType(s.blockM, s.blockN, cElement), result);
  tile::StoreOp::create(b, loc, result, c, ValueRange{m0, n0});
}

/// C's tile at (m0, n0) in f32 (accumulating matmuls start from it).
Value loadResult(OpBuilder &b, Location loc, tile::MatmulOp op,
                 const MatmulSchedule &s, Value c, Value m0, Value n0) {
  Type f32 = b.getF32Type();
  Type cElement = op.getCType().getElementType();
  Value tile = tile::LoadOp::create(
      b, loc, tileType(s.blockM, s.blockN, cElement), c, ValueRange{m0, n0});
  if (cElement != f32)
    tile = arith::ExtFOp::create(b, loc, tileType(s.blockM, s.blockN, f32),
                                 tile);
  return tile;
}

Value zeroTile(OpBuilder &b, Location loc, RankedTensorType type) {
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

/// Computes C's tile (tileRow, tileColumn): the accumulator, the K loop
/// and the masked store.
/// Accumulating, the K loop starts from C + 0.0 (C's -0.0 becomes +0.0, as
/// in cuBLAS's alpha A B + beta C): C's f32 elements come from two load
/// paths (a whole aligned tile, or guarded elements), so each accumulator
/// register had several definitions, and ptxas serialized the warpgroup
/// MMAs that read them (C7515; 0.81x cuBLAS at 4096^3 for bf16 in, f32
/// out). The add defines each register once, after the paths meet.
void buildMatmulTile(OpBuilder &b, Location loc, tile::MatmulOp op,
                     const MatmulSchedule &s, ValueRange args, Value tileRow,
                     Value tileColumn) {
  IndexMath m{b, loc};
  Value c = args[2];
  Value m0 = m.mul(tileRow, m.constant(s.blockM));
  Value n0 = m.mul(tileColumn, m.constant(s.blockN));
  Value k = matmulK(b, loc, op, args[0]);
  Value init = zeroTile(b, loc, tileType(s.blockM, s.blockN, b.getF32Type()));
  if (op.getAccumulate()) {
    Value old = loadResult(b, loc, op, s, c, m0, n0);
    init = arith::AddFOp::create(b, loc, old, init);
  }
  Value result =
      accumulateK(b, loc, op, s, args, m0, n0, m.constant(0), k, init);
  storeResult(b, loc, op, s, c, m0, n0, result);
}

/// The f32 partial result of split `split` of tile `tileIndex`, in the
/// scratch buffer after its first `headerWords` words (the adder's arrival
/// counters, or the sum kernel's header): a [blockM, blockN] slot viewed as
/// its first `rows` rows. A split stores only C's rows of its tile (a C of 4
/// rows wrote 64 KiB of a 128x128 slot for 2 KiB of results); the adder
/// loads whole slots, since a load of a run-time row count kept both of
/// its paths' registers (1.5 KiB of spills a thread).
Value partialTileView(OpBuilder &b, Location loc, const MatmulSchedule &s,
                      Value scratch, int64_t headerWords, Value tileIndex,
                      Value splits, Value split, OpFoldResult rows) {
  IndexMath m{b, loc};
  int64_t words = s.blockM * s.blockN;
  Value partial = m.add(m.mul(tileIndex, splits), split);
  Value partialOffset = m.mul(partial, m.constant(words));
  Value offset = m.add(m.constant(headerWords), partialOffset);
  std::optional<int64_t> staticRows = getConstantIntValue(rows);
  if (staticRows)
    rows = b.getIndexAttr(*staticRows);
  auto type = MemRefType::get(
      {staticRows ? *staticRows : ShapedType::kDynamic, s.blockN},
      b.getF32Type(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             {s.blockN, 1}));
  return memref::ReinterpretCastOp::create(
      b, loc, type, scratch, offset,
      ArrayRef<OpFoldResult>{rows, b.getIndexAttr(s.blockN)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(s.blockN), b.getIndexAttr(1)});
}

/// The most splits worth their partial tiles for `steps` K steps: the
/// least power of two whose square is at least `steps`. The last program
/// adds the partial tiles one after the other (about 0.45 us each on the
/// H200, where a K step of a 128x128 tile takes about 0.38 us), so z splits
/// cost steps / z K steps plus z partial tiles, least near z = sqrt(steps)
/// (bench/matmul/results/2026-11-30-h200-split-cap).
Value worthwhileSplits(OpBuilder &b, Location loc, Value steps) {
  IndexMath m{b, loc};
  // Past 256 the grid's cap (one block a multiprocessor) decides.
  Value splits = m.constant(1);
  for (int64_t p = 2; p <= 256; p *= 2) {
    Value tooFew = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                         steps, m.constant(p * p / 4));
    splits = arith::SelectOp::create(b, loc, tooFew, m.constant(p), splits);
  }
  return splits;
}

/// `init` plus what `load` reads at 0, step, 2 step, ... below `count`,
/// each reduced to `init`'s type by `reduce`: the loads of step j + 1 are
/// issued before step j is added, so that successive loads overlap instead
/// of each waiting on the last.
Value sumLoads(OpBuilder &b, Location loc, Value count, int64_t step,
               Value init,
               function_ref<Value(OpBuilder &, Location, Value)> load,
               function_ref<Value(OpBuilder &, Location, Value)> reduce) {
  IndexMath m{b, loc};
  Value zero = m.constant(0);
  auto loop = scf::ForOp::create(
      b, loc, zero, count, m.constant(step),
      ValueRange{init, load(b, loc, zero)},
      [&](OpBuilder &lb, Location l, Value j, ValueRange carried) {
        IndexMath lm{lb, l};
        Value following = lm.add(j, lm.constant(step));
        Value more = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ult,
                                           following, count);
        auto prefetch = scf::IfOp::create(
            lb, l, more,
            [&](OpBuilder &tb, Location tl) {
              scf::YieldOp::create(tb, tl, load(tb, tl, following));
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el, carried[1]);
            });
        Value added =
            arith::AddFOp::create(lb, l, carried[0], reduce(lb, l, carried[1]));
        scf::YieldOp::create(lb, l, ValueRange{added, prefetch.getResult(0)});
      });
  return loop.getResult(0);
}

/// A split-K program's part of its tile: the tile, the program's split
/// (grid z) of the launch's `gridSplits`, the `splits` that take K steps
/// (the rest take none), and the f32 sum of its run of them.
struct SplitPart {
  Value tileIndex, m0, n0;
  /// C's rows in the tile (blockM but over C's last rows).
  Value rows;
  Value split, gridSplits, splits;
  Value acc;
};

/// Each of a tile's splits takes ceil(steps / splits) K steps (the last
/// may take fewer, and programs past the splits none). The adder's splits
/// are capped where their partial tiles would cost more than they save, or
/// where the tile has no counter; a sum kernel's are the grid's.
SplitPart accumulateSplit(OpBuilder &b, Location loc, tile::MatmulOp op,
                          const MatmulSchedule &s, int64_t groupRows,
                          ValueRange args) {
  IndexMath m{b, loc};
  Type index = b.getIndexType();
  auto dim = [&](tile::ProgramDim d) {
    return tile::ProgramDimAttr::get(b.getContext(), d);
  };
  SplitPart part;
  auto [tileRow, tileColumn] = programTileCoords(b, loc, groupRows);
  Value columns = tile::NumProgramsOp::create(b, loc, index, dim(tile::ProgramDim::x));
  Value rows = tile::NumProgramsOp::create(b, loc, index, dim(tile::ProgramDim::y));
  part.split =
      tile::ProgramIdOp::create(b, loc, index, dim(tile::ProgramDim::z));
  part.gridSplits =
      tile::NumProgramsOp::create(b, loc, index, dim(tile::ProgramDim::z));
  part.tileIndex = m.add(m.mul(tileRow, columns), tileColumn);
  Value fits;
  if (!s.sumSplitsAfter)
    fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                 m.mul(rows, columns),
                                 m.constant(kSplitKCounters));
  Value k = matmulK(b, loc, op, args[0]);
  Value steps = m.ceilDiv(k, m.constant(s.blockK));
  part.splits = part.gridSplits;
  if (!s.sumSplitsAfter) {
    // (Each op built in its own statement: argument order is unspecified.)
    Value worthwhile = worthwhileSplits(b, loc, steps);
    Value capped = m.min(part.gridSplits, worthwhile);
    part.splits = arith::SelectOp::create(b, loc, fits, capped, m.constant(1));
  }
  Value perSplit = m.mul(m.ceilDiv(steps, part.splits), m.constant(s.blockK));
  Value kBegin = m.min(m.mul(part.split, perSplit), k);
  Value kEnd = m.min(m.add(kBegin, perSplit), k);
  part.m0 = m.mul(tileRow, m.constant(s.blockM));
  part.n0 = m.mul(tileColumn, m.constant(s.blockN));
  Value cRows = b.createOrFold<memref::DimOp>(loc, args[kMatmulC], kRowsOfC);
  part.rows = m.min(m.sub(cRows, part.m0), m.constant(s.blockM));
  RankedTensorType accType = tileType(s.blockM, s.blockN, b.getF32Type());
  part.acc = accumulateK(b, loc, op, s, args, part.m0, part.n0, kBegin, kEnd,
                         zeroTile(b, loc, accType));
  return part;
}

/// Stores C's tile from `part`'s sum when the tile is unsplit (program 0
/// takes all of K), and returns the else block, where the tile is split.
Block *storeUnsplitTile(OpBuilder &b, Location loc, tile::MatmulOp op,
                        const MatmulSchedule &s, Value c,
                        const SplitPart &part) {
  IndexMath m{b, loc};
  Value unsplit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        part.splits, m.constant(1));
  auto ifUnsplit = scf::IfOp::create(b, loc, unsplit, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifUnsplit.thenBlock());
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      part.split, m.constant(0));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  Value result = op.getAccumulate()
                     ? arith::AddFOp::create(
                           b, loc, part.acc,
                           loadResult(b, loc, op, s, c, part.m0, part.n0))
                     : part.acc;
  storeResult(b, loc, op, s, c, part.m0, part.n0, result);
  return ifUnsplit.elseBlock();
}

/// Split-K with an adder: the grid's z programs of a tile take equal runs
/// of K steps; each leaves its f32 partial result in the scratch buffer and
/// arrives at the tile's counter, and the last to arrive adds the partial
/// results in split order (the same sum whichever finishes last) and
/// stores C. With one split, or more tiles than counters, program 0 takes
/// all of K and stores C itself.
void buildSplitKMatmulTile(OpBuilder &b, Location loc, tile::MatmulOp op,
                           const MatmulSchedule &s, int64_t groupRows,
                           ValueRange args) {
  Value c = args[2];
  // The scratch buffer's alignment (256 bytes, the launch metadata's
  // contract) lets the partial results' loads and stores skip their checks.
  Value scratch = memref::AssumeAlignmentOp::create(b, loc, args[3], 16);
  SplitPart part = accumulateSplit(b, loc, op, s, groupRows, args);
  Value m0 = part.m0, n0 = part.n0, splits = part.splits;
  // Stored: C's rows of the slot; loaded: all of it (partialTileView).
  auto partialView = [&](OpBuilder &vb, Location l, Value split,
                         OpFoldResult rows) {
    return partialTileView(vb, l, s, scratch, kSplitKCounters, part.tileIndex,
                           part.gridSplits, split, rows);
  };
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(storeUnsplitTile(b, loc, op, s, c, part));
  // Programs past the splits (the grid asked for more than are worth it)
  // have taken no K steps and leave nothing.
  IndexMath em{b, loc};
  Value one = em.constant(1);
  Value taking = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       part.split, splits);
  auto ifTaking = scf::IfOp::create(b, loc, taking, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifTaking.thenBlock());
  tile::StoreOp::create(b, loc, part.acc,
                        partialView(b, loc, part.split, part.rows),
                        ValueRange{em.constant(0), em.constant(0)});
  Value before =
      tilegpu::ArriveOp::create(b, loc, scratch, part.tileIndex, splits);
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, before,
                                     em.sub(splits, one));
  auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifLast.thenBlock());
  RankedTensorType accType = cast<RankedTensorType>(part.acc.getType());
  auto loadPartial = [&](OpBuilder &lb, Location l, Value j) -> Value {
    IndexMath lm{lb, l};
    return tile::LoadOp::create(
        lb, l, accType, partialView(lb, l, j, lb.getIndexAttr(s.blockM)),
        ValueRange{lm.constant(0), lm.constant(0)});
  };
  // Accumulating, the sum starts from C: adding C after the loop held C,
  // the sum and the prefetched partial at once (ptxas spilled 232 bytes
  // of the f32 kernel).
  Value initial = op.getAccumulate() ? loadResult(b, loc, op, s, c, m0, n0)
                                     : zeroTile(b, loc, accType);
  Value sum =
      sumLoads(b, loc, splits, 1, initial, loadPartial,
               [](OpBuilder &ab, Location l, Value loaded) { return loaded; });
  storeResult(b, loc, op, s, c, m0, n0, sum);
}

/// Split-K with a sum kernel: the grid's z programs of a tile all take
/// equal runs of K steps and, split, leave their f32 partial results in
/// the scratch buffer (after a header of kSplitSumHeaderWords, whose first
/// word program (0, 0, 0) sets to the launch's splits, as i32 bits) for
/// the sum kernel the runtime launches next (buildSplitSumBody). With one
/// split, program 0 stores C itself and the runtime skips the sum.
void buildSplitForSumTile(OpBuilder &b, Location loc, tile::MatmulOp op,
                          const MatmulSchedule &s, int64_t groupRows,
                          ValueRange args) {
  Value scratch = memref::AssumeAlignmentOp::create(b, loc, args[3], 16);
  SplitPart part = accumulateSplit(b, loc, op, s, groupRows, args);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(storeUnsplitTile(b, loc, op, s, args[2], part));
  IndexMath m{b, loc};
  Value zero = m.constant(0);
  tile::StoreOp::create(b, loc, part.acc,
                        partialTileView(b, loc, s, scratch,
                                        kSplitSumHeaderWords, part.tileIndex,
                                        part.splits, part.split, part.rows),
                        ValueRange{zero, zero});
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      m.add(part.tileIndex, part.split), zero);
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  Value count =
      arith::IndexCastUIOp::create(b, loc, b.getI32Type(), part.splits);
  Value bits = arith::BitcastOp::create(b, loc, b.getF32Type(), count);
  memref::StoreOp::create(b, loc, bits, scratch, ValueRange{zero});
}

/// The splits whose partial results a sum kernel adds: the header's, which
/// the split kernel's program 0 writes whenever the runtime runs the sum (a
/// launch split in two or more), clamped to [1, K / 512] all the same (and
/// to none for K = 0, whose empty split grid writes no header).
Value summedSplits(OpBuilder &b, Location loc, tile::MatmulOp op,
                   const MatmulSchedule &s, Value scratch, Value a) {
  IndexMath m{b, loc};
  Value word =
      memref::LoadOp::create(b, loc, scratch, ValueRange{m.constant(0)});
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), word);
  Value count = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), bits);
  Value k = matmulK(b, loc, op, a);
  Value gridSplits = m.ceilDiv(k, m.constant(s.splitKChunk));
  return m.min(m.max(count, m.constant(1)), gridSplits);
}

/// The sum of row `row` of tile `tileIndex` over the splits' partial
/// results, as a [1, blockN] tile: kSplitSumRows splits at a time (a
/// [kSplitSumRows, blockN] load of their rows, reduced along the splits),
/// the next group's load issued before this group's sum.
Value sumRowOfSplits(OpBuilder &b, Location loc, const MatmulSchedule &s,
                     Value scratch, Value tileIndex, Value row, Value splits) {
  IndexMath m{b, loc};
  Type f32 = b.getF32Type();
  int64_t words = s.blockM * s.blockN;
  Value rowWords =
      m.mul(m.rem(row, m.constant(s.blockM)), m.constant(s.blockN));
  Value tileWords = m.mul(m.mul(tileIndex, splits), m.constant(words));
  Value offset =
      m.add(m.constant(kSplitSumHeaderWords), m.add(tileWords, rowWords));
  auto rowsType = MemRefType::get(
      {ShapedType::kDynamic, s.blockN}, f32,
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {words, 1}));
  Value rows = memref::ReinterpretCastOp::create(
      b, loc, rowsType, scratch, offset,
      ArrayRef<OpFoldResult>{splits, b.getIndexAttr(s.blockN)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(words), b.getIndexAttr(1)});
  auto groupType = tileType(kSplitSumRows, s.blockN, f32);
  auto rowType = RankedTensorType::get({s.blockN}, f32);
  // Rows past the splits read as zero.
  auto loadGroup = [&](OpBuilder &lb, Location l, Value j) -> Value {
    return tile::LoadOp::create(lb, l, groupType, rows,
                                ValueRange{j, IndexMath{lb, l}.constant(0)});
  };
  Value sum =
      sumLoads(b, loc, splits, kSplitSumRows, zeroTile(b, loc, rowType),
               loadGroup, [&](OpBuilder &ab, Location l, Value group) -> Value {
                 return tile::ReduceOp::create(ab, l, rowType,
                                               tile::ReduceKind::add, group,
                                               /*axis=*/0);
               });
  return tile::BroadcastOp::create(b, loc, tileType(1, s.blockN, f32), sum,
                                   ArrayRef<int64_t>{0});
}

/// The sum of rows [row0, row0 + sumRows) of tile `tileIndex` over the
/// splits' partial results: kSplitSumSlabs splits' [sumRows, blockN] slabs
/// a step, all loaded before they are added (whole slabs: rows past C's in
/// a partial tile are not stored, and not stored from here either), the
/// next step's loads issued before this step's sum is added. A program is
/// a chain of dependent loads (the header's split count, then the slabs),
/// so what it costs is round trips to memory, not bytes.
Value sumSlabOfSplits(OpBuilder &b, Location loc, const MatmulSchedule &s,
                      Value scratch, Value tileIndex, Value row0,
                      Value splits) {
  IndexMath m{b, loc};
  RankedTensorType slabType = tileType(s.sumRows, s.blockN, b.getF32Type());
  Value rowInTile = m.rem(row0, m.constant(s.blockM));
  auto loadSlabs = [&](OpBuilder &lb, Location l, Value j) -> Value {
    IndexMath lm{lb, l};
    SmallVector<Value> slabs;
    for (int64_t i = 0; i < kSplitSumSlabs; ++i) {
      // Split j is one of the splits; past them a slot has no rows, and
      // its slab reads as zero.
      Value split = lm.add(j, lm.constant(i));
      OpFoldResult rows = lb.getIndexAttr(s.blockM);
      if (i > 0) {
        Value taken = arith::CmpIOp::create(
            lb, l, arith::CmpIPredicate::ult, split, splits);
        rows = arith::SelectOp::create(lb, l, taken, lm.constant(s.blockM),
                                       lm.constant(0))
                   .getResult();
      }
      Value slot = partialTileView(lb, l, s, scratch, kSplitSumHeaderWords,
                                   tileIndex, splits, split, rows);
      slabs.push_back(tile::LoadOp::create(
          lb, l, slabType, slot, ValueRange{rowInTile, lm.constant(0)}));
    }
    Value sum = slabs.front();
    for (Value slab : ArrayRef<Value>(slabs).drop_front())
      sum = arith::AddFOp::create(lb, l, sum, slab);
    return sum;
  };
  return sumLoads(b, loc, splits, kSplitSumSlabs, zeroTile(b, loc, slabType),
                  loadSlabs,
                  [](OpBuilder &, Location, Value slabs) { return slabs; });
}

/// The sum kernel of split-K with a sum kernel: program (x, y) adds the
/// splits' partial results of C's rows from y * sumRows along tile column
/// x (one row: sumRowOfSplits; more: sumSlabOfSplits), and stores those
/// rows of C.
void buildSplitSumBody(OpBuilder &b, Location loc, tile::MatmulOp op,
                       const MatmulSchedule &s, ValueRange args) {
  IndexMath m{b, loc};
  Type index = b.getIndexType();
  auto dim = [&](tile::ProgramDim d) {
    return tile::ProgramDimAttr::get(b.getContext(), d);
  };
  Value scratch = memref::AssumeAlignmentOp::create(b, loc, args[3], 16);
  Value tileColumn =
      tile::ProgramIdOp::create(b, loc, index, dim(tile::ProgramDim::x));
  Value columns =
      tile::NumProgramsOp::create(b, loc, index, dim(tile::ProgramDim::x));
  Value y = tile::ProgramIdOp::create(b, loc, index, dim(tile::ProgramDim::y));
  Value row0 = m.mul(y, m.constant(s.sumRows));
  Value tileRow = m.div(row0, m.constant(s.blockM));
  Value tileIndex = m.add(m.mul(tileRow, columns), tileColumn);
  Value splits = summedSplits(b, loc, op, s, scratch, args[0]);
  Value result =
      s.sumRows == 1
          ? sumRowOfSplits(b, loc, s, scratch, tileIndex, row0, splits)
          : sumSlabOfSplits(b, loc, s, scratch, tileIndex, row0, splits);
  MatmulSchedule rowsSchedule = s;
  rowsSchedule.blockM = s.sumRows;
  Value n0 = m.mul(tileColumn, m.constant(s.blockN));
  if (op.getAccumulate())
    result = arith::AddFOp::create(
        b, loc, result,
        loadResult(b, loc, op, rowsSchedule, args[2], row0, n0));
  storeResult(b, loc, op, rowsSchedule, args[2], row0, n0, result);
}

/// Fills the body of the matmul kernel: one C tile a program, or (persistent
/// schedules) a loop of each program over the tiles pid, pid + programs, ...
/// in the grouped order, so that the next tile's copies can overlap this
/// one's store.
void buildMatmulBody(OpBuilder &b, Location loc, tile::MatmulOp op,
                     const MatmulSchedule &s, int64_t groupRows,
                     ValueRange args) {
  if (s.splitKChunk) {
    if (s.sumSplitsAfter)
      buildSplitForSumTile(b, loc, op, s, groupRows, args);
    else
      buildSplitKMatmulTile(b, loc, op, s, groupRows, args);
    tile::ReturnOp::create(b, loc);
    return;
  }
  if (!s.persistent) {
    auto [tileRow, tileColumn] = programTileCoords(b, loc, groupRows);
    buildMatmulTile(b, loc, op, s, args, tileRow, tileColumn);
    tile::ReturnOp::create(b, loc);
    return;
  }
  IndexMath m{b, loc};
  Value c = args[2];
  Value cRows = b.createOrFold<memref::DimOp>(loc, c, 0);
  Value rows = m.ceilDiv(cRows, m.constant(s.blockM));
  Value cColumns = b.createOrFold<memref::DimOp>(loc, c, 1);
  Value columns = m.ceilDiv(cColumns, m.constant(s.blockN));
  Type index = b.getIndexType();
  auto x = tile::ProgramDimAttr::get(b.getContext(), tile::ProgramDim::x);
  Value pid = tile::ProgramIdOp::create(b, loc, index, x);
  Value programs = tile::NumProgramsOp::create(b, loc, index, x);
  // The blocks of a cluster (consecutive ids) walk groups of as many
  // adjacent tile rows (columns, sharing A) together, one each, all the
  // same number of times (a row or column past C computes a tile that
  // nothing stores).
  // (Each op built in its own statement: argument order is unspecified.)
  Value cluster = m.constant(s.clusterBlocks);
  Value rank = m.rem(pid, cluster);
  // The walk is over clusters' tiles: rows x ceil(columns / cluster)
  // sharing A, ceil(rows / cluster) x columns sharing B.
  bool sharesA = s.clusterSharesA();
  Value clusterRows = sharesA ? rows : m.ceilDiv(rows, cluster);
  Value clusterColumns = sharesA ? m.ceilDiv(columns, cluster) : columns;
  Value firstGroup = m.div(pid, cluster);
  Value groupTiles = m.mul(clusterRows, clusterColumns);
  Value clusters = m.div(programs, cluster);
  auto tiles = scf::ForOp::create(
      b, loc, firstGroup, groupTiles, clusters, ValueRange{},
      [&](OpBuilder &lb, Location l, Value t, ValueRange) {
        IndexMath lm{lb, l};
        auto [tileRow, tileColumn] =
            groupedTileCoords(lb, l, groupRows, t, clusterColumns, clusterRows);
        // The cluster's tile, then this block's of its cluster's.
        if (sharesA)
          tileColumn = lm.add(lm.mul(tileColumn, cluster), rank);
        else
          tileRow = lm.add(lm.mul(tileRow, cluster), rank);
        buildMatmulTile(lb, l, op, s, args, tileRow, tileColumn);
        scf::YieldOp::create(lb, l);
      });
  tiles->setAttr(kPersistentTilesAttr, b.getUnitAttr());
  tile::ReturnOp::create(b, loc);
}

struct TileTilingPass : tilec::impl::TileTilingBase<TileTilingPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<tile::MatmulOp> matmuls(getOperation().getOps<tile::MatmulOp>());
    for (tile::MatmulOp matmul : matmuls) {
      FailureOr<tile::KernelOp> kernel =
          tileMatmul(rewriter, matmul, groupRows, warpgroupMma,
                     smallGridVariants, producerWarp);
      if (failed(kernel))
        return signalPassFailure();
      ++numMatmuls;
      if ((*kernel)->hasAttr(tile::kSmallGridAttrName))
        ++numSmallGridVariants;
    }
    SmallVector<tile::AttentionOp> attentions(
        getOperation().getOps<tile::AttentionOp>());
    for (tile::AttentionOp attention : attentions) {
      if (failed(
              tileAttention(rewriter, attention, producerWarp, warpgroupMma)))
        return signalPassFailure();
      ++numAttentions;
    }
    SmallVector<tile::ScanOp> scans(getOperation().getOps<tile::ScanOp>());
    for (tile::ScanOp scan : scans) {
      if (failed(tileScan(rewriter, scan)))
        return signalPassFailure();
      ++numScans;
    }
  }
};

/// tile.scratch of a split-K kernel with schedule `s` (and its sum kernel).
DenseI64ArrayAttr splitScratch(Builder &b, const MatmulSchedule &s) {
  int64_t partialBytes = s.blockM * s.blockN * 4;
  if (s.sumSplitsAfter)
    return b.getDenseI64ArrayAttr({kSplitSumHeaderWords * 4, partialBytes, 0});
  return b.getDenseI64ArrayAttr({kSplitKCounters * 4, partialBytes, 2});
}

/// A tile.kernel named `name` of `type`, `grid` and `warps`, before `op`,
/// with an entry block taking `type`'s inputs; the rewriter is left at the
/// start of that block (callers hold an InsertionGuard).
tile::KernelOp createKernelBefore(RewriterBase &rewriter, Operation *op,
                                  StringRef name, FunctionType type,
                                  ArrayRef<Attribute> grid, int64_t warps) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto kernel = tile::KernelOp::create(
      rewriter, loc, name, type, /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
      rewriter.getArrayAttr(grid), warps);
  rewriter.createBlock(&kernel.getBody(), {}, type.getInputs(),
                       SmallVector<Location>(type.getNumInputs(), loc));
  return kernel;
}

/// Builds the tile.kernel named `name` computing `op` with schedule `s`,
/// before `op`.
tile::KernelOp buildMatmulKernel(RewriterBase &rewriter, tile::MatmulOp op,
                                 StringRef name, const MatmulSchedule &s,
                                 int64_t groupRows) {
  Location loc = op.getLoc();
  Builder &b = rewriter;
  // The grid: x over C's columns, y over its rows (argument 2 is C), z
  // (split-K) over K (argument 0's columns, or rows when column-major).
  SmallVector<Attribute> grid{
      tile::GridAttr::get(b.getContext(), 2, 1u, s.blockN),
      tile::GridAttr::get(b.getContext(), 2, 0u, s.blockM)};
  FunctionType type = op.getFunctionType();
  if (s.splitKChunk) {
    unsigned kDim = op.getALayout() == tile::MatrixLayout::row ? 1 : 0;
    grid.push_back(tile::GridAttr::get(b.getContext(), 0, kDim, s.splitKChunk));
    type = tile::withScratchArgument(type, b.getF32Type());
  }
  OpBuilder::InsertionGuard guard(rewriter);
  tile::KernelOp kernel =
      createKernelBefore(rewriter, op, name, type, grid, s.warps);
  if (s.splitKChunk) {
    // The adder's counters are kept zero (each tile's wraps when its last
    // split arrives); the sum kernel's header is written before it is read.
    // Then one f32 partial result a program, written before it is read.
    kernel->setAttr(tile::kScratchAttrName, splitScratch(b, s));
    kernel->setAttr(tile::kSplitAttrName,
                    b.getI64IntegerAttr(kSplitKBlocksPerSm));
    kernel->setAttr(tile::kSplitMinPartsAttrName,
                    b.getI64IntegerAttr(kSplitKMinParts));
  }
  if (s.minBlocksPerSm)
    kernel->setAttr(tile::kMinBlocksPerSmAttrName,
                    b.getI64IntegerAttr(s.minBlocksPerSm));
  if (s.persistent)
    kernel->setAttr(tile::kPersistentAttrName, b.getI64IntegerAttr(1));
  if (s.clusterBlocks > 1)
    kernel->setAttr(tile::kClusterAttrName,
                    b.getI64IntegerAttr(s.clusterBlocks));
  buildMatmulBody(rewriter, loc, op, s, groupRows,
                  kernel.getBody().getArguments());
  return kernel;
}

/// Builds the sum kernel named `name` of `split`, a split-K kernel with
/// schedule `s` and a sum kernel, and names it as `split`'s then kernel:
/// x over C's tile columns, y over C's rows, `s.sumRows` a program
/// (buildSplitSumBody).
void buildSplitSumKernel(RewriterBase &rewriter, tile::MatmulOp op,
                         StringRef name, const MatmulSchedule &s,
                         tile::KernelOp split) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<Attribute> grid{
      tile::GridAttr::get(ctx, kMatmulC, kColumnsOfC, s.blockN),
      tile::GridAttr::get(ctx, kMatmulC, kRowsOfC, s.sumRows)};
  OpBuilder::InsertionGuard guard(rewriter);
  tile::KernelOp kernel = createKernelBefore(
      rewriter, op, name, split.getFunctionType(), grid, kSplitSumWarps);
  kernel->setAttr(tile::kScratchAttrName, splitScratch(rewriter, s));
  buildSplitSumBody(rewriter, loc, op, s, kernel.getBody().getArguments());
  tile::ReturnOp::create(rewriter, loc);
  split->setAttr(tile::kThenAttrName,
                 FlatSymbolRefAttr::get(kernel.getNameAttr()));
}

/// C's columns at most for which the GEMV kernel (each column's programs
/// reading A again, from L2 where they run together) runs instead of the
/// tile kernels (tile.narrow). On the H200 against the small-grid kernel
/// (bench/matmul/results/2026-12-02-h200-gemv/columns): 16-bit, 2 columns
/// 1.07-2.7x as fast, 3 columns 0.90-1.33x, 4 columns 0.54-0.92x (but
/// 512x4x8192); f32, against the SIMT kernels, 2.5-6.7x at 2 to 4 columns.
constexpr int64_t kGemvColumns16Bit = 2;
constexpr int64_t kGemvColumnsF32 = 4;
/// C's rows at most for which the vector-matrix kernel (the GEMV program
/// over B stored [N, K]) runs instead. On the H200 against the kernels
/// that ran before (bench/matmul/results/2026-12-02-h200-vecmat): one row
/// 1.1-1.8x as fast in bf16 and 1.8-6.2x in f32, two rows 1.18x and
/// 1.54x, four rows of f32 0.95x.
constexpr int64_t kVecmatRows = 2;
/// Matrix lines a GEMV program computes, and K elements it reads of each a
/// step, for a matrix whose K is contiguous (a row-major A, or B stored
/// [N, K]): whole 1 KiB runs of 8 rows, 8 loads a thread
/// of 4 warps. On the H200 (bf16, bench/matmul/results/2026-12-02-h200-gemv,
/// hand-written sweeps) no other shape won at every size: 4 rows of 512
/// were level (faster at 4096x1x4096, slower at 1024x1x8192), 16 to 32 rows,
/// steps of 256 or 1024, 8 warps and loading each step's tiles before the
/// previous step's products (more registers, fewer blocks a multiprocessor)
/// were slower.
constexpr int64_t kGemvRows = 8;
constexpr int64_t kGemvDepth = 512;
/// For a matrix whose lines are contiguous (a column-major A stored
/// [K, M], or a row-major B): 32 lines are 64 contiguous bytes of 16-bit
/// elements (two sectors), 128 of K a step.
constexpr int64_t kGemvColumnMajorRows = 32;
constexpr int64_t kGemvColumnMajorDepth = 128;
constexpr int64_t kGemvWarps = 4;
/// The GEMV grid, in percent of the multiprocessors, under which the
/// small-grid kernel (and down its ladder, split-K) runs instead: the main
/// kernel's share, since one block of 4 warps a multiprocessor cannot keep
/// enough loads in flight. At 97% (1024x1x4096, 128 programs) the GEMV
/// kernel ran 2.4x as fast as the small-grid kernel on the H200; under
/// 50% it was not measured.
constexpr int64_t kGemvPercentOfSms = 50;

/// Which line of C a GEMV kernel computes a program at a time, and so which
/// operand is its matrix and which its vector. A column of C is A times a
/// column of B; a row of C is a row of A times B, or B's transpose times
/// that row: the same program over B as the matrix.
enum class GemvLine { column, row };

/// The operands of a GEMV kernel for `op` computing C a `line` at a time.
struct GemvOperands {
  /// The matrix (A, or B for rows), and whether K is its contiguous
  /// dimension (A row-major, or B stored [N, K]).
  unsigned matrix;
  bool kContiguous;
  /// The vector's operand and the dimension it runs along (B's column, or
  /// A's row, as stored), and C's (0: a column; 1: a row).
  unsigned vector, vectorAlongDim, cAlongDim;
};
GemvOperands gemvOperands(tile::MatmulOp op, GemvLine line) {
  bool aRowMajor = op.getALayout() == tile::MatrixLayout::row;
  bool bRowMajor = op.getBLayout() == tile::MatrixLayout::row;
  if (line == GemvLine::column)
    return {/*matrix=*/0, aRowMajor, /*vector=*/1, bRowMajor ? 0u : 1u,
            kRowsOfC};
  return {/*matrix=*/1, !bRowMajor, /*vector=*/0, aRowMajor ? 1u : 0u,
          kColumnsOfC};
}

/// Matrix lines (of C's other dimension) a GEMV program computes, and K
/// elements it reads of each a step.
struct GemvTile {
  int64_t rows, depth;
};
GemvTile gemvTile(const GemvOperands &operands) {
  if (operands.kContiguous)
    return {kGemvRows, kGemvDepth};
  return {kGemvColumnMajorRows, kGemvColumnMajorDepth};
}

/// The 1-D view of line `index` of the 2-D `matrix` along dimension
/// `alongDim` (a column when alongDim is 0, a row when 1).
Value matrixLine(OpBuilder &b, Location loc, Value matrix, unsigned alongDim,
                 Value index) {
  auto type = cast<MemRefType>(matrix.getType());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  OpFoldResult length = b.createOrFold<memref::DimOp>(loc, matrix, alongDim);
  SmallVector<OpFoldResult> offsets{zero, zero}, sizes{one, one};
  offsets[1 - alongDim] = index;
  sizes[alongDim] = length;
  SmallVector<OpFoldResult> strides{one, one};
  MemRefType lineType = memref::SubViewOp::inferRankReducedResultType(
      {ShapedType::kDynamic}, type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, lineType, matrix, offsets, sizes,
                                   strides);
}

/// `tile` in f32 (16-bit elements extended).
Value toF32(OpBuilder &b, Location loc, Value tile) {
  auto type = cast<RankedTensorType>(tile.getType());
  if (type.getElementType().isF32())
    return tile;
  return arith::ExtFOp::create(b, loc, type.clone(b.getF32Type()), tile);
}

/// The body of a GEMV program computing C a `line` at a time (x: C's line
/// n, y: gemvTile's lines of the matrix from m0; for a column, A's rows and
/// C's rows m0...): the products of the matrix's lines and the vector
/// summed over K in an f32 tile in the matrix's stored orientation (K
/// contiguous, so each warp reads whole runs of its lines, or its lines
/// contiguous), reduced once after the loop.
/// Every access is a plain load or store, checked for alignment at run
/// time: no tensor map, no staging copy, any pitch.
void buildGemvBody(OpBuilder &b, Location loc, tile::MatmulOp op, GemvLine line,
                   ValueRange args) {
  IndexMath m{b, loc};
  Type index = b.getIndexType();
  MLIRContext *ctx = b.getContext();
  Value n = tile::ProgramIdOp::create(
      b, loc, index, tile::ProgramDimAttr::get(ctx, tile::ProgramDim::x));
  Value row = tile::ProgramIdOp::create(
      b, loc, index, tile::ProgramDimAttr::get(ctx, tile::ProgramDim::y));
  GemvOperands operands = gemvOperands(op, line);
  GemvTile program = gemvTile(operands);
  int64_t rows = program.rows, depth = program.depth;
  Value m0 = m.mul(row, m.constant(rows));
  Value matrix = args[operands.matrix], c = args[2];
  Value k = matmulK(b, loc, op, args[0]);
  Value vector =
      matrixLine(b, loc, args[operands.vector], operands.vectorAlongDim, n);
  Value cLine = matrixLine(b, loc, c, operands.cAlongDim, n);
  // The accumulator in the matrix's stored orientation: [rows, K] or
  // [K, rows].
  bool kContiguous = operands.kContiguous;
  unsigned kAxis = kContiguous ? 1 : 0;
  SmallVector<int64_t, 2> shape{rows, depth};
  if (!kContiguous)
    std::swap(shape[0], shape[1]);
  Type element = op.getAType().getElementType();
  auto accType = RankedTensorType::get(shape, b.getF32Type());
  auto loop = scf::ForOp::create(
      b, loc, m.constant(0), k, m.constant(depth),
      ValueRange{zeroTile(b, loc, accType)},
      [&](OpBuilder &lb, Location l, Value kk, ValueRange iterArgs) {
        SmallVector<Value, 2> at{m0, kk};
        if (!kContiguous)
          std::swap(at[0], at[1]);
        Value matrixTile = tile::LoadOp::create(
            lb, l, RankedTensorType::get(shape, element), matrix, at);
        Value vectorTile =
            tile::LoadOp::create(lb, l, RankedTensorType::get({depth}, element),
                                 vector, ValueRange{kk});
        Value vectorLines = tile::BroadcastOp::create(
            lb, l, accType, toF32(lb, l, vectorTile),
            lb.getDenseI64ArrayAttr({1 - int64_t(kAxis)}));
        Value product =
            arith::MulFOp::create(lb, l, toF32(lb, l, matrixTile), vectorLines);
        Value sum = arith::AddFOp::create(lb, l, iterArgs[0], product);
        scf::YieldOp::create(lb, l, sum);
      });
  auto columnType = RankedTensorType::get({rows}, b.getF32Type());
  Value result = tile::ReduceOp::create(
      b, loc, columnType, tile::ReduceKind::add, loop.getResult(0), kAxis);
  Type cElement = op.getCType().getElementType();
  auto cTileType = RankedTensorType::get({rows}, cElement);
  if (op.getAccumulate()) {
    Value old = tile::LoadOp::create(b, loc, cTileType, cLine, ValueRange{m0});
    result = arith::AddFOp::create(b, loc, toF32(b, loc, old), result);
  }
  if (!cElement.isF32())
    result = arith::TruncFOp::create(b, loc, cTileType, result);
  tile::StoreOp::create(b, loc, result, cLine, ValueRange{m0});
}

/// Builds the GEMV kernel named `name` computing `op` a `line` of C a
/// program where C has few columns, or few rows (buildGemvBody), before
/// `op`.
tile::KernelOp buildGemvKernel(RewriterBase &rewriter, tile::MatmulOp op,
                               GemvLine line, StringRef name) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  GemvOperands operands = gemvOperands(op, line);
  // x: one program a line of C; y: along the line, gemvTile's rows each.
  unsigned alongLine = operands.cAlongDim, acrossLines = 1 - alongLine;
  SmallVector<Attribute> grid{
      tile::GridAttr::get(ctx, kMatmulC, acrossLines, 1),
      tile::GridAttr::get(ctx, kMatmulC, alongLine, gemvTile(operands).rows)};
  OpBuilder::InsertionGuard guard(rewriter);
  tile::KernelOp kernel = createKernelBefore(
      rewriter, op, name, op.getFunctionType(), grid, kGemvWarps);
  buildGemvBody(rewriter, loc, op, line, kernel.getBody().getArguments());
  tile::ReturnOp::create(rewriter, loc);
  return kernel;
}

} // namespace

FailureOr<tile::KernelOp>
tilec::tileMatmul(RewriterBase &rewriter, tile::MatmulOp op, int64_t groupRows,
                  bool warpgroupMma, bool smallGridVariant, bool producerWarp) {
  if (groupRows < 1)
    return op.emitOpError("needs a positive group size, got ") << groupRows;
  std::optional<MatmulSchedule> small =
      smallGridVariant ? smallGridSchedule(op, warpgroupMma) : std::nullopt;
  std::string smallName = (op.getSymName() + "__small_grid").str();
  std::string splitName = (op.getSymName() + "__split_k").str();
  std::string sumName = (op.getSymName() + "__split_k_sum").str();
  std::string gemvName = (op.getSymName() + "__gemv").str();
  std::string vecmatName = (op.getSymName() + "__vecmat").str();
  std::string fewRowsName = (op.getSymName() + "__few_rows").str();
  std::string fewRowsSumName = (op.getSymName() + "__few_rows_sum").str();
  std::string fewRowsWideName = (op.getSymName() + "__few_rows_wide").str();
  std::string fewRowsThinName = (op.getSymName() + "__few_rows_thin").str();
  std::string fewRowsThinSumName =
      (op.getSymName() + "__few_rows_thin_sum").str();
  std::optional<MatmulSchedule> fewRows =
      small ? fewRowsSchedule(op, warpgroupMma) : std::nullopt;
  // Only over B stored [N, K] (see below).
  bool vecmat = gemvOperands(op, GemvLine::row).kContiguous;
  SmallVector<StringRef, 10> variantNames;
  if (small)
    variantNames.append({smallName, splitName, gemvName});
  if (small && vecmat)
    variantNames.push_back(vecmatName);
  if (fewRows)
    variantNames.append({fewRowsName, fewRowsSumName, fewRowsWideName,
                         fewRowsThinName, fewRowsThinSumName});
  // 16-bit small-grid kernels split K with an adder; their own variant
  // splits with a sum kernel.
  if (small && small->splitKChunk)
    variantNames.push_back(sumName);
  for (StringRef name : variantNames)
    if (SymbolTable::lookupNearestSymbolFrom(
            op, StringAttr::get(op.getContext(), name)))
      return op.emitOpError("cannot name its small-grid kernel '")
             << name << "': the symbol exists";

  // Only warpgroup MMA's operands come by bulk copies for a producer to
  // issue.
  bool producer = producerWarp && warpgroupMma &&
                  !op.getAType().getElementType().isF32();
  MatmulSchedule schedule = chooseSchedule(op, warpgroupMma, producer);
  schedule.producerWarp = producer;
  // With a producer, the next tile's copies overlap this tile's store,
  // and pairs of blocks share B.
  schedule.persistent = producer;
  schedule.clusterBlocks = producer ? 2 : 1;
  tile::KernelOp kernel =
      buildMatmulKernel(rewriter, op, op.getSymName(), schedule, groupRows);
  // Each element of A is read by a row of C's tiles (grid x), of B by a
  // column (grid y). Since the runtime's copy kernels stage them, copies of
  // either pay from one tile on (on the H200, a misaligned A read by one
  // tile: 1.04-3.6x faster than the twin's per-thread copies at 8448x256 to
  // 65536x256 with odd K, bench/matmul/results/
  // 2026-12-01-h200-repitch-a-one-tile; B: 1.44x at 128x32767x4096).
  kernel->setAttr(tile::kRepitchArgsAttrName, repitchedOperands(rewriter, op));
  if (small) {
    small->producerWarp = producer;
    tile::KernelOp smallKernel =
        buildMatmulKernel(rewriter, op, smallName, *small, groupRows);
    // Copies paid from one tile on against a twin of the small-grid
    // kernel (split K, per-thread copies): 1.3x to 4.2x faster at
    // 1000x1003x517, 128x8191x4096 and 333x4097x4099.
    smallKernel->setAttr(tile::kRepitchArgsAttrName,
                         repitchedOperands(rewriter, op));
    tile::setSmallGridVariant(kernel, smallKernel, kSmallGridPercentOfSms);
    // The small-grid kernel's own, taken on its own (smaller tiles') grid:
    // f32's splits K, 16-bit's splits it wider.
    MatmulSchedule split = small->splitKChunk ? splitForSumSchedule(*small)
                                              : splitKSchedule(*small);
    tile::KernelOp splitKernel =
        buildMatmulKernel(rewriter, op, splitName, split, groupRows);
    splitKernel->setAttr(tile::kRepitchArgsAttrName,
                         repitchedOperands(rewriter, op));
    if (split.sumSplitsAfter)
      buildSplitSumKernel(rewriter, op, sumName, split, splitKernel);
    tile::setSmallGridVariant(smallKernel, splitKernel,
                              split.sumSplitsAfter ? kSplitSumPercentOfSms
                                                   : kSmallGridPercentOfSms);
    // Where C is a column or a few, a tile of columns would compute columns
    // past N (and, 16-bit, stage B and C through copies): the GEMV kernel
    // reads A with plain loads. Where its grid is small, down the
    // small-grid kernel's ladder (split K).
    tile::KernelOp gemvKernel =
        buildGemvKernel(rewriter, op, GemvLine::column, gemvName);
    tile::setSmallGridVariant(gemvKernel, smallKernel, kGemvPercentOfSms);
    bool isF32 = op.getAType().getElementType().isF32();
    int64_t gemvLines = isF32 ? kGemvColumnsF32 : kGemvColumns16Bit;
    // Where C has few rows, 64-row tiles: the main kernel's first narrow
    // line, so that a short C goes there whatever its columns (a launch
    // takes the first line that holds), to the 64x256 tiles, whose grid, if
    // under half the multiprocessors, goes to the 64x128 tiles, theirs, if
    // under half too, to the 64x64 tiles, and theirs, if as small as the
    // split kernel's, there. A C of few columns goes to the GEMV kernel.
    tile::KernelOp rowsRung = kernel;
    if (fewRows) {
      fewRows->producerWarp = producer;
      MatmulSchedule thin = fewRowsThinSchedule(*fewRows);
      tile::KernelOp thinKernel =
          buildMatmulKernel(rewriter, op, fewRowsThinName, thin, groupRows);
      buildSplitSumKernel(rewriter, op, fewRowsThinSumName, thin, thinKernel);
      thinKernel->setAttr(tile::kRepitchArgsAttrName,
                          repitchedOperands(rewriter, op));
      tile::setSmallGridVariant(thinKernel, splitKernel, kSplitSumPercentOfSms);
      tile::KernelOp fewRowsKernel =
          buildMatmulKernel(rewriter, op, fewRowsName, *fewRows, groupRows);
      buildSplitSumKernel(rewriter, op, fewRowsSumName, *fewRows,
                          fewRowsKernel);
      fewRowsKernel->setAttr(tile::kRepitchArgsAttrName,
                             repitchedOperands(rewriter, op));
      tile::setSmallGridVariant(fewRowsKernel, thinKernel,
                                kSmallGridPercentOfSms);
      // Its wider rung on top: a grid of 64x256 tiles under half the
      // multiprocessors goes to the 64x128 tiles.
      tile::KernelOp wideKernel =
          buildMatmulKernel(rewriter, op, fewRowsWideName,
                            fewRowsWideSchedule(*fewRows), groupRows);
      wideKernel->setAttr(tile::kRepitchArgsAttrName,
                          repitchedOperands(rewriter, op));
      tile::setSmallGridVariant(wideKernel, fewRowsKernel,
                                kSmallGridPercentOfSms);
      tile::setNarrowVariant(kernel, wideKernel, kMatmulC, kRowsOfC, kFewRows);
      rowsRung = wideKernel;
    }
    // Where C is a row or a few (a batch of one times a linear layer's
    // weight), the same program over B computes C a row at a time: the
    // narrowest rung of the rows' ladder (the few-rows kernel's first line,
    // or the main kernel's). Only over B stored [N, K]: over B [K, N] its
    // programs of 8 to 32 columns (tiles of 16 to 64 bytes a row) ran at
    // 0.4-0.9x the tile kernels' speed in bf16 on the H200, for want of a
    // K split to give them more programs.
    if (vecmat) {
      tile::KernelOp vecmatKernel =
          buildGemvKernel(rewriter, op, GemvLine::row, vecmatName);
      tile::setSmallGridVariant(vecmatKernel, smallKernel, kGemvPercentOfSms);
      tile::setNarrowVariant(rowsRung, vecmatKernel, kMatmulC, kRowsOfC,
                             kVecmatRows);
    }
    // The few-rows kernel's C of few columns too.
    if (fewRows)
      tile::setNarrowVariant(rowsRung, gemvKernel, kMatmulC, kColumnsOfC,
                             gemvLines);
    // Where C has no more columns than the small-grid tile, the main
    // kernel's wider tiles would compute columns past N.
    bool smallIsNarrower = small->blockN < schedule.blockN;
    if (smallIsNarrower)
      tile::setNarrowVariant(kernel, smallKernel, kMatmulC, kColumnsOfC,
                             small->blockN);
    // The narrowest rung of the columns' ladder.
    tile::setNarrowVariant(smallIsNarrower ? smallKernel : kernel, gemvKernel,
                           kMatmulC, kColumnsOfC, gemvLines);
  }
  rewriter.eraseOp(op);
  return kernel;
}
