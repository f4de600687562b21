//===- TilingAttention.cpp - Attention descriptions -> block programs -----===//
//
// Flash attention: a program owns a block of query rows of one (batch, head)
// and walks the keys in blocks with an online softmax. S = Q K^T stays in
// the registers where the dot leaves it; its row maximum and sum are reduced
// where the rows live; exp2 takes the scale folded with log2(e); P, rounded
// to the input type, is the lhs of P V as it is; the f32 accumulator is
// rescaled by a broadcast row vector. Key blocks every row of the block sees
// whole run in a first loop without a mask; the rest (the blocks the causal
// diagonal crosses, a partial last block) in a second one with the mask;
// causal blocks past the diagonal are never visited. K and V tiles are
// plain tile.loads in the loop, which tile-promote-shared stages like
// matmul's operands.
//
// Decode (a few query rows against many keys) would leave most of the GPU
// idle with one program per (batch, head), so a narrow variant of the
// kernel splits the keys into chunks, one program each, which leave
// partial results (unnormalised accumulator, row maximum and sum) in the
// runtime's scratch buffer; its `then` kernel merges them per (batch,
// head) with the same rescaling as the online softmax. The runtime caps
// the chunks a (batch, head) gets by the multiprocessors (`tile.split`),
// and the programs share the keys among as many chunks as it launched.
// Packed sequences get the same variants when max_seqlen_k sizes the
// chunks' grid.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Dialect/TileGPU/TileGPUOps.h"
#include "tilec/Transforms/Passes.h"

#include "IndexMath.h"
#include "ScoreModBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

namespace {

/// How one program computes its block of output rows.
struct AttentionSchedule {
  int64_t blockM, blockN, warps, stages;
  /// The fewest keys a program of the key-chunk kernel takes (a multiple
  /// of blockN): the grid's chunks before the runtime caps them.
  int64_t keysPerProgram = 0;
  /// Columns of the head dim a program of the combine kernel takes.
  int64_t combineColumns = 0;
  /// Query rows (or packed heads) of the key-chunk and combine kernels: the
  /// rows of partial results a key-chunk program leaves, at most blockM.
  int64_t partialRows = 0;
  /// Chunks a step of the combine of one packed head takes, one a row of
  /// its tile (AttentionProgram::combineChunkLanes); 0: the combine's rows
  /// are the partial rows.
  int64_t combineLanes = 0;
  /// Each key block's softmax overlaps the previous block's P V
  /// (AttentionProgram::pipelinedStep).
  bool overlapSoftmax = false;
  /// The warpgroups take turns at issuing each step's two dots
  /// (tilegpu.turn), so that one's dots run while another's softmax does.
  bool warpgroupTurns = false;
  /// A producer warp issues the key loops' copies (kProducerWarpAttr).
  bool producerWarp = false;
  /// The producer is a warpgroup that hands its registers to the tile
  /// threads (kProducerRegistersAttr).
  bool producerRegisters = false;
  /// The whole kernel's blocks walk its tiles (AttentionProgram::
  /// buildPersistent).
  bool persistent = false;
  /// Query rows (max_seqlen_q for packed sequences) up to which the runtime
  /// launches instead a variant without warpgroup turns (the schedule
  /// chooseSchedule gives with `shortRows`); 0: no such variant.
  int64_t turnsFromRowsAbove = 0;
  /// The key-chunk kernel's programs a multiprocessor at most, all chunks
  /// of the grid together (launch metadata `split`): the runtime caps the
  /// chunks so that no more run.
  int64_t splitBlocksPerSm = 0;
};

/// Query rows above which attention at d128 takes warpgroup turns by
/// default, without a mask and causal (chooseSchedule).
constexpr int64_t kTurnsFromRowsAbove = 512;
constexpr int64_t kCausalTurnsFromRowsAbove = 1024;

/// What one kernel of an attention computes.
enum class AttentionPart {
  /// O (and the LSE) of a block of query rows over all keys.
  whole,
  /// All query rows (at most blockM) over one chunk of keys: partial
  /// results in the scratch buffer.
  keyChunk,
  /// O (and the LSE) of all query rows from the chunks' partial results.
  combine,
};

/// The hints of `op`, completed by defaults for its head dim: 16 query rows
/// a warp, so that each warp's rows of S, P and O stay in its registers
/// through both dots; 64 rows on 4 warps at d64 and 128 on 8 at d128, keys
/// in blocks of 128, two stages (the hand-written block programs these
/// match ran at 0.95x and 1.0x torch SDPA's flash backend at 4x16x4096 on
/// the H200, bench/results/2026-11-24-h200-placements). Causal d64 takes
/// keys in blocks of 64: its diagonal blocks mask half as much, which at
/// 512-1024 tokens is 1.27-1.34x faster, at 4096-16384 0.92-0.96x
/// (bench/results/2026-11-24-h200-overlap/bn64). d256 takes 128 rows on 8
/// warps and keys in blocks of 64: Q and two stages of K and V fill 192 KiB
/// of shared memory (128x128 would need 320 KiB), and the 64x256 f32
/// accumulator of each warpgroup is half of a thread's registers. Measured
/// 1.4-1.7x 64 rows on 4 warps, which spills and leaves one warpgroup an SM
/// (bench/results/2026-11-24-h200-d256).
AttentionSchedule chooseSchedule(tile::AttentionOp op, int64_t headDim,
                                 bool producerWarp, bool shortRows = false) {
  AttentionSchedule s = headDim > 128     ? AttentionSchedule{128, 64, 8, 2}
                        : headDim > 64   ? AttentionSchedule{128, 128, 8, 2}
                        : op.getCausal() ? AttentionSchedule{64, 64, 4, 2}
                                         : AttentionSchedule{64, 128, 4, 2};
  if (std::optional<ArrayRef<int64_t>> block = op.getBlock()) {
    s.blockM = (*block)[0];
    s.blockN = (*block)[1];
  }
  if (std::optional<int64_t> warps = op.getWarps())
    s.warps = *warps;
  if (std::optional<int64_t> stages = op.getStages())
    s.stages = *stages;
  // A producer warp issues K and V for two warpgroups (or more), which then
  // meet on no barrier a key block: d128 1.03-1.13x at 7 of 8 shapes on the
  // H200, 0.97-0.99x at 4x16x16x4096x4096 without a mask; d256, whose tiles
  // need more registers than a block with a producer warp gets, with the
  // producer a warpgroup handing its registers over (kProducerRegistersAttr)
  // 1.07-1.15x (bench/results/2026-11-29-h200-attention-producer). Not
  // where one warpgroup has the barrier to itself (d64: 0.87-0.96x).
  bool defaultProducer = producerWarp && s.warps >= 8;
  s.producerWarp = op.getProducerWarp() || defaultProducer;
  // Ping-pong by default where a producer feeds two warpgroups at d128:
  // without a mask 1.01-1.08x the producer schedule at 1024-16384 query
  // rows; causal (without a window or score modification, not measured)
  // 1.01-1.02x at 2048-4096 and 1.10x at 16384. Not at d256 (not measured
  // with a producer). Without a producer it lost (0.84-0.92x): the
  // warpgroup whose thread refilled the slots waited there for the other's
  // release (bench/results/2026-11-29-h200-pingpong).
  bool plainMask =
      !op.getCausal() || (!op.getWindow() && op.getScoreMod().empty());
  bool defaultPingpong = defaultProducer && headDim == 128 && plainMask &&
                         !shortRows && !op.getBlock() && !op.getWarps() &&
                         !op.getStages();
  bool pingpong = op.getPingpong() || defaultPingpong;
  // Where a tile's keys are few, the turns cost more than they hide:
  // without a mask 0.85x at 256 rows and 0.94x at 512, causal 0.94x at 512
  // and 0.98x at 1024 (bench/results/2026-11-30-h200-short-rows and
  // -causal-pingpong), so the kernel has a variant without turns for at
  // most 512 (causal 1024) query rows. Not with a score modification: a
  // document mask ran 0.90x without turns at 512 rows.
  if (defaultPingpong && !op.getPingpong() && op.getScoreMod().empty())
    s.turnsFromRowsAbove =
        op.getCausal() ? kCausalTurnsFromRowsAbove : kTurnsFromRowsAbove;
  // Only warpgroup MMA (64 rows on 4 warps) runs a dot while the warps
  // compute. Not the default alone: ptxas packs each block's P into the
  // registers the previous P V still reads, so it moves that dot's wait up
  // to the row maximum, and the exponentials run after it anyway (measured
  // 0.82-1.02x the serial order, bench/results/2026-11-24-h200-overlap).
  s.overlapSoftmax = (op.getOverlapSoftmax() || pingpong) &&
                     s.blockM >= 64 && s.warps % 4 == 0 &&
                     s.blockM == 16 * s.warps;
  // Turns need the dots of a step issued together, and two warpgroups.
  s.warpgroupTurns = pingpong && s.overlapSoftmax && s.warps >= 8;
  // A block of 288 threads gets 168 registers a thread (ptxas allocates
  // whole warpgroups), fewer than d256's or the overlapped softmax's tiles
  // need, and where a score modification or a window masks, its work
  // spills there (ALiBi 284 bytes, a causal window with the LSE 188): the
  // producer, a warpgroup then, hands its registers to the tile threads.
  // Against the producer warp on the H200: ALiBi 1.20-1.51x, the window
  // 1.13-1.19x at 256-4096 tokens; not the short-rows variant, whose tiles
  // fit (0.98-1.0x; bench/results/2026-11-30-h200-handover).
  s.producerRegisters =
      s.producerWarp &&
      (headDim > 128 || s.overlapSoftmax || (s.warps >= 8 && !shortRows));
  s.persistent = op.getPersistent();
  return s;
}

/// Registers a thread of the producer warpgroup keeps and the tile threads
/// take at most where the producer hands its registers over: two
/// warpgroups take 240 (128 x 24 + 256 x 240 fits the 64K registers of a
/// multiprocessor), more (hinted) what is left.
constexpr int32_t kProducerRegisters = 24;
constexpr int32_t kTileRegisters = 240;

/// The key-chunk kernel's schedule: 64 rows on 4 warps, of which at most
/// 16 (partialRows) are queries and the rest pad, so that the dots are
/// warpgroup MMAs from swizzled slots that TMA fills and each warp owns
/// whole rows (16 rows on 4 warps split the keys of S over the warps: two
/// exchanges through workgroup memory a key block, 74-82% of DRAM
/// bandwidth).
/// - On Hopper (`warpgroupMma`), three stages of K and V (96 KiB at d64
///   and d128), so that a program alone on a multiprocessor keeps two key
///   blocks in flight while it works on the third; elsewhere two, which
///   keep d256 within an sm_80 block's shared memory (not measured there).
///   Against two stages on the H200: d128 4.3-5.3% faster at
///   16x32x8x1x16384, 8x32x8x1x32768 and 8x32x8x1x65536, d64 11% at
///   64x32x8x1x4096 and 64x8x8x1x4096, the rest within -1.8% to +0.7%
///   (bench/results/2026-11-29-h200-decode-stages).
/// - Chunks of at least 1024 keys, so that a single sequence of 8192 keys
///   and 16 heads still makes 128 programs; the runtime caps them so that
///   at most one program a multiprocessor runs in all (fewer, longer
///   programs read K and V faster: against chunks of 1024 keys,
///   3.2-4.5% at 16x32x8x1x16384, 8x32x8x1x32768 and 1x16x16x1x65536,
///   bench/results/2026-11-28-h200-decode-split), two on Hopper at d64,
///   whose three stages leave room for two (4-9% faster than one at
///   16x32x8x1x16384, 8x32x8x1x32768, 8x32x8x1x65536 and 1x16x16x1x65536,
///   3.5% slower at MQA 8x64x1x1x32768; at d128 two gained nothing).
/// - The combine in groups of 32 columns, so that its chain of dependent
///   steps runs on 2 to 4 times the programs with a quarter to a half of
///   the bytes a step.
AttentionSchedule chooseDecodeSchedule(int64_t headDim, bool warpgroupMma) {
  AttentionSchedule s{
      64, headDim <= 64 ? 128 : 64, 4, warpgroupMma ? 3 : 2, 1024, 32, 16};
  s.splitBlocksPerSm = warpgroupMma && headDim <= 64 ? 2 : 1;
  return s;
}

/// The scratch buffer's first words: the key-chunk kernel's program 0
/// leaves there how many chunks the runtime launched (i32 bits in an f32
/// word), which its `then` kernel reads; 16 bytes keep the partial results
/// 16-byte aligned.
constexpr int64_t kScratchHeaderWords = 4;

/// The key-chunk schedule with packed heads: every row of the block may be
/// a query head, so that a program takes all the query heads of its K/V
/// head (up to 64) and each K/V chunk is read once. Packs of 16 on a grid
/// over the query heads read each chunk once a pack and left most programs
/// idle: 1.47x and 2.2x slower at MQA with 32 and 64 query heads, 0.7-1.9%
/// faster at GQA 4:1 (bench/results/2026-11-28-h200-packed-grid).
AttentionSchedule packedHeadsSchedule(AttentionSchedule decode) {
  decode.partialRows = decode.blockM;
  return decode;
}

/// The combine kernel's schedule: one row a partial row; with packed heads,
/// one head a program and 16 chunks a step, one a row of the tile, so that
/// every thread merges chunks of the head it computes (a single packed head
/// left 15 of 16 rows idle, and its 64 chunks took 8 steps of a
/// latency-bound chain: 26 us at 1x16x16x1x65536 on the H200).
AttentionSchedule combineSchedule(AttentionSchedule decode, bool packHeads) {
  decode.producerWarp = false;
  decode.blockM = packHeads ? 1 : decode.partialRows;
  decode.combineLanes = packHeads ? 16 : 0;
  return decode;
}

/// The online-softmax state a key loop carries: the output accumulator, the
/// running row maximum (log2 domain) and the running row sum; pipelined,
/// also the probabilities of the last key block, whose P V the accumulator
/// does not hold yet.
struct SoftmaxState {
  Value acc, rowMax, rowSum;
  Value pending = nullptr;
};

/// One softmax step's results: the block's probabilities, the factor that
/// rescales the accumulator to the new row maximum, and the new maximum
/// and sum.
struct Probabilities {
  Value p, alpha, rowMax, rowSum;
};

/// See AttentionProgram::keyRanges().
struct KeyRanges {
  Value first, wholeBegin, wholeEnd, end;
};

/// Builds the body of one attention kernel.
class AttentionProgram {
public:
  /// With `packHeads` (a single query row), the rows of a key-chunk or
  /// combine program are query heads sharing a K/V head instead of queries.
  AttentionProgram(OpBuilder &b, Location loc, tile::AttentionOp op,
                   const AttentionSchedule &s, bool packHeads = false)
      : b(b), loc(loc), op(op), s(s), m{b, loc}, packHeads(packHeads) {
    MemRefType q = op.getOperandType(0);
    element = q.getElementType();
    headDim = q.getShape().back();
    columns = headDim;
    dims = tile::attentionDimPositions(op.getLayout());
    modBounds = analyzeScoreModMask(op.getScoreMod());
  }

  void build(ValueRange args, AttentionPart part);
  void buildPersistent(ValueRange args);

private:
  RankedTensorType tileOf(ArrayRef<int64_t> shape, Type elementType) {
    return RankedTensorType::get(shape, elementType);
  }
  RankedTensorType scoresType(Type elementType) {
    return tileOf({s.blockM, s.blockN}, elementType);
  }
  Value constantTile(RankedTensorType type, Attribute value) {
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
  }
  Value floatTile(RankedTensorType type, double value) {
    return constantTile(type, b.getFloatAttr(type.getElementType(), value));
  }
  Value splatIndex(Value index, RankedTensorType type) {
    Value i32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
    return tile::SplatOp::create(b, loc, type, i32);
  }

  /// A row maximum with -inf (a row that has seen no key) replaced by 0, so
  /// that subtracting it keeps exp2 at 0 rather than NaN.
  Value finiteOrZero(Value rowMax) {
    auto type = cast<RankedTensorType>(rowMax.getType());
    Value empty = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OEQ, rowMax,
        floatTile(type, -std::numeric_limits<double>::infinity()));
    return arith::SelectOp::create(b, loc, empty, floatTile(type, 0.0),
                                   rowMax);
  }

  Value rowsView(Value buffer, Value firstHead, OpFoldResult heads,
                 Value seqStart, OpFoldResult seq);
  /// The length of `buffer`'s sequence, which a view of its rows may take
  /// in place of `length` (the same for every valid call); `length` itself
  /// for packed sequences.
  Value ownLength(Value buffer, Value length) {
    return op.isRagged() ? length
                         : b.createOrFold<memref::DimOp>(loc, buffer, dims.seq);
  }
  Value headView(Value buffer, Value head, Value seqStart, Value seqLength) {
    return rowsView(buffer, head, b.getIndexAttr(1), seqStart, seqLength);
  }
  Value headsView(Value buffer, Value firstHead) {
    return rowsView(buffer, firstHead, viewHeads, queryStart,
                    b.getIndexAttr(1));
  }
  void loadSequenceBounds(ValueRange args);
  Value setUpChunks(ValueRange args, Value chunk);
  Value lseView(Value buffer, Value head);
  Value setUpHeadPacks(ValueRange args, Value slot, bool combine);
  void setUpViews(ValueRange args, bool outputs = true);
  void setUpOutputViews(ValueRange args);
  Value outputView(Value o);
  void setUpScoreTiles(ValueRange args);
  Value positions(unsigned along, Value start);
  void setUpPartials(ValueRange args, Value chunks);
  Value partialView(Value row, OpFoldResult rows, Value statsWords = nullptr,
                    bool broadcast = false, int64_t rowStride = 1);
  SoftmaxState initialState();
  Value floorToBlock(Value x) {
    Value blockN = m.constant(s.blockN);
    return m.mul(m.div(m.maxSigned(x, zero), blockN), blockN);
  }
  /// The position of the program's last query row (packed heads are all
  /// query 0).
  Value lastRow() {
    return packHeads ? firstRow
                     : m.add(firstRow, m.constant(queryRows() - 1));
  }
  /// The query rows a program answers for: fewer than its block's rows in
  /// the key-chunk kernel.
  int64_t queryRows() const { return s.partialRows ? s.partialRows : s.blockM; }
  KeyRanges builtinKeyRanges();
  KeyRanges keyRanges();
  KeyRanges clampToChunk(const KeyRanges &keys, Value chunk);
  SoftmaxState keyLoops(const KeyRanges &keys, bool pipelined);
  Value transposedKeys(Value keyBlock);
  Value scoreDot(Value q, Value keysT, bool overlap);
  void turn(tilegpu::TurnStep step) {
    if (s.warpgroupTurns)
      tilegpu::TurnOp::create(b, loc, step, /*turns=*/Value());
  }
  Value scores(Value dot, Value keyBlock, bool masked);
  Probabilities softmax(const SoftmaxState &state, Value scores);
  /// 2^x, which may be approximate and flush subnormal results to 0.
  Value exp2(Value x) {
    return math::Exp2Op::create(b, loc, x, arith::FastMathFlags::afn);
  }
  Value valueDot(Value p, Value valueBlock, Value acc, bool overlap);
  SoftmaxState step(const SoftmaxState &state, Value q, Value keyBlock,
                    bool masked);
  SoftmaxState pipelinedStep(const SoftmaxState &state, Value q,
                             Value keyBlock, bool masked);
  SoftmaxState drainPending(const SoftmaxState &state, Value end);
  SoftmaxState keyLoop(Value lower, Value upper, const SoftmaxState &init,
                       bool masked);
  void storeResults(const SoftmaxState &state);
  Value partialRow(Value chunk);
  void storePartials(const SoftmaxState &state, Value chunk);
  SoftmaxState mergePartials(const SoftmaxState &carried,
                             ArrayRef<SoftmaxState> parts);
  Value rowStatistic(Value tile);
  SoftmaxState combinePartials(Value chunks);
  SoftmaxState combineChunkLanes(Value chunks);

  OpBuilder &b;
  Location loc;
  tile::AttentionOp op;
  AttentionSchedule s;
  IndexMath m;
  Type element;
  int64_t headDim;
  tile::AttentionDimPositions dims;
  bool packHeads;
  /// The keys the score modification masks whatever the score.
  KeyDistanceBounds modBounds;
  /// With packHeads: the query heads a key-chunk program takes, as rows;
  /// the heads the views of Q, O and the LSE cover (packedRows, or 1 where
  /// a combine program takes one head); the program's head's row among
  /// them (see setUpHeadPacks).
  Value packedRows, viewHeads, packRow;

  // Set by build(). Values the loops use are defined before them, where
  // tile-promote-shared looks for the positions of loads it pipelines.
  Value zero, batch, head, queryLength, keyLength, firstRow;
  /// The K/V head of `head`.
  Value kvHead;
  /// The first query and key token of this program's sequence: 0 but for
  /// packed sequences.
  Value queryStart, keyStart;
  /// The columns of O this program computes: all but in the combine.
  Value firstColumn;
  int64_t columns;
  Value qHead, kHead, vHead, oHead, lseHead;
  /// The scale, and the scale times log2(e), as f32 score tiles.
  Value scaleTile, log2ScaleTile;
  /// The scale times log2(e) where the softmax folds it: a positive
  /// constant and no score modification. scores() then leaves Q K^T
  /// unscaled, and the softmax scales its row maximum (max(s) c = max(s c)
  /// for c > 0) and takes fma(s, c, -max) as the exponent: one instruction
  /// an element instead of a multiply and a subtraction.
  std::optional<double> foldableLog2Scale;
  /// Causal: n_kv - n_q, the key a query row sees last minus its position.
  Value diagonalShift;
  /// Key-chunk and combine kernels: views of the scratch buffer's partial
  /// results, and the partial index of this (batch, head)'s chunk 0 (see
  /// setUpPartials).
  Value scratch, chunkBase, maxWords, sumWords, usedPartialRows;
  /// The keys a key-chunk program takes (see setUpChunks).
  Value chunkKeys;
  /// The slot (grid x of the key-chunk kernel) whose programs left this
  /// program's partial results, and the slots there are: the head and the
  /// query heads, or, with packed heads, the pack's (see setUpHeadPacks).
  Value partialSlot, partialSlots;
};

/// The 2-D [rows, d] view of a buffer at (batch, firstHead, seqStart):
/// `seq` rows of its sequence (`heads` 1) or, for packed heads (`seq` 1),
/// one query of `heads` heads, a head stride apart; with dynamic row stride
/// and offset whatever the buffer's strides.
Value AttentionProgram::rowsView(Value buffer, Value firstHead,
                                 OpFoldResult heads, Value seqStart,
                                 OpFoldResult seq) {
  auto type = cast<MemRefType>(buffer.getType());
  unsigned rank = dims.rank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  if (dims.batch)
    offsets[*dims.batch] = batch;
  offsets[dims.heads] = firstHead;
  // A constant start folds to a static offset.
  offsets[dims.seq] = getAsOpFoldResult(seqStart);
  sizes[dims.heads] = heads;
  sizes[dims.seq] = seq;
  sizes[rank - 1] = b.getIndexAttr(headDim);
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      {ShapedType::kDynamic, headDim}, type, offsets, sizes, strides);
  Value view = memref::SubViewOp::create(b, loc, viewType, buffer, offsets,
                                         sizes, strides);
  auto dynamicRows = StridedLayoutAttr::get(
      b.getContext(), ShapedType::kDynamic, {ShapedType::kDynamic, 1});
  auto rowsType = MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                                  element, dynamicRows, type.getMemorySpace());
  return memref::CastOp::create(b, loc, rowsType, view);
}

/// The 1-D [n_q] view of one head's log-sum-exp ([batch, heads, n_q], or
/// [heads, tokens] for packed sequences); with packHeads, the [packedRows]
/// view of query 0 of the packed heads.
Value AttentionProgram::lseView(Value buffer, Value headIndex) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<OpFoldResult> offsets = {batch, headIndex, b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(1),
                                     queryLength};
  if (packHeads)
    sizes = {b.getIndexAttr(1), viewHeads, b.getIndexAttr(1)};
  if (op.isRagged()) {
    offsets = {headIndex, queryStart};
    sizes = {b.getIndexAttr(1), queryLength};
    if (packHeads)
      sizes = {viewHeads, b.getIndexAttr(1)};
  }
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      {ShapedType::kDynamic}, type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, viewType, buffer, offsets, sizes,
                                   strides);
}

/// The key blocks a program visits, in three ranges of block starts:
/// [first, wholeBegin) and [wholeEnd, end) need the mask, [wholeBegin,
/// wholeEnd) every row sees whole. Causal: row i sees keys
/// j <= i + n_kv - n_q, so the first row bounds the whole blocks on the
/// right and the last row the end; a window W also hides keys
/// j <= i + n_kv - n_q - W, so the first row bounds the first block and the
/// last row the whole ones on the left. Bounds are clamped to the keys there
/// are, and signed, as the diagonal may start left of key 0.
KeyRanges AttentionProgram::builtinKeyRanges() {
  Value wholeBlocksEnd = floorToBlock(keyLength);
  if (!op.getCausal())
    return {zero, zero, wholeBlocksEnd, keyLength};
  Value one = m.constant(1);
  Value firstRowLast = m.add(firstRow, diagonalShift);
  // Packed heads are all query 0.
  Value lastRowLast = m.add(lastRow(), diagonalShift);
  Value end = m.min(m.maxSigned(m.add(lastRowLast, one), zero), keyLength);
  Value wholeEnd =
      m.min(floorToBlock(m.add(firstRowLast, one)), wholeBlocksEnd);
  std::optional<int64_t> window = op.getWindow();
  if (!window)
    return {zero, zero, wholeEnd, end};
  // Row i's first key is its last - (W - 1); blocks start on multiples of
  // BN, so the whole blocks start at the last row's first key rounded up.
  Value firstRowFirst = m.sub(firstRowLast, m.constant(*window - 1));
  Value lastRowFirst = m.sub(lastRowLast, m.constant(*window - 1));
  Value first = m.min(floorToBlock(firstRowFirst), end);
  Value wholeBegin = m.min(
      m.max(floorToBlock(m.add(lastRowFirst, m.constant(s.blockN - 1))),
            first),
      end);
  return {first, wholeBegin, m.min(m.max(wholeEnd, wholeBegin), end), end};
}

/// The built-in ranges narrowed to the keys the score modification leaves
/// (modBounds): row i sees keys i - max .. i - min at most, so the first
/// row bounds the first block and the last row the end. The narrowed
/// ranges keep their masks; the region masks every block it is applied to,
/// so a whole range that now ends inside a block stays correct.
KeyRanges AttentionProgram::keyRanges() {
  KeyRanges keys = builtinKeyRanges();
  if (!modBounds.min && !modBounds.max)
    return keys;
  Value end = keys.end, first = keys.first;
  if (modBounds.min) {
    Value lastRowEnd = m.sub(lastRow(), m.constant(*modBounds.min - 1));
    end = m.min(end, m.maxSigned(lastRowEnd, zero));
  }
  if (modBounds.max) {
    Value firstRowFirst = m.sub(firstRow, m.constant(*modBounds.max));
    first = m.max(first, floorToBlock(firstRowFirst));
  }
  first = m.min(first, end);
  Value wholeBegin = m.min(m.max(keys.wholeBegin, first), end);
  Value wholeEnd = m.min(m.max(keys.wholeEnd, wholeBegin), end);
  return {first, wholeBegin, wholeEnd, end};
}

/// K^T of the key block at `keyBlock`.
Value AttentionProgram::transposedKeys(Value keyBlock) {
  Value k = tile::LoadOp::create(b, loc, tileOf({s.blockN, headDim}, element),
                                 kHead, ValueRange{keyBlock, zero});
  return tile::TransposeOp::create(b, loc, tileOf({headDim, s.blockN}, element),
                                   k);
}

/// Q K^T of the keys `keysT` (transposedKeys).
Value AttentionProgram::scoreDot(Value q, Value keysT, bool overlap) {
  RankedTensorType f32Scores = scoresType(b.getF32Type());
  Value zeros = floatTile(f32Scores, 0.0);
  return tile::DotOp::create(b, loc, f32Scores, q, keysT, zeros, overlap);
}

/// The scores of the key block at `keyBlock` from its `dot`, scaled into
/// the log2 domain: scale * log2(e) * Q K^T, through the score modification
/// (which sees scale * Q K^T) when there is one, or left to the softmax to
/// scale (foldableLog2Scale); with `masked`, keys past the end and (causal)
/// past the diagonal are -inf.
Value AttentionProgram::scores(Value dot, Value keyBlock, bool masked) {
  Type f32 = b.getF32Type();
  RankedTensorType f32Scores = scoresType(f32);
  RankedTensorType i32Scores = scoresType(b.getI32Type());
  // Position tiles are built where they are used, in the loops that read
  // them, so that none is live across a loop that does not.
  Value keyPositions, queryPositions;
  auto keys = [&]() {
    if (!keyPositions)
      keyPositions = positions(1, keyBlock);
    return keyPositions;
  };
  // Packed rows are query 0 of heads head, head + 1, ...
  auto queries = [&]() {
    if (!queryPositions)
      queryPositions = packHeads ? splatIndex(zero, i32Scores)
                                 : positions(0, firstRow);
    return queryPositions;
  };
  Value scaled;
  if (Region &mod = op.getScoreMod(); !mod.empty()) {
    Value scores = arith::MulFOp::create(b, loc, dot, scaleTile);
    Value batches = splatIndex(batch, i32Scores);
    Value heads = packHeads ? positions(0, head) : splatIndex(head, i32Scores);
    Value queryTile = queries();
    Value keyTile = keys();
    SmallVector<Value> modified = tile::applyElementwiseBody(
        b, loc, mod.front(), {scores, batches, heads, queryTile, keyTile});
    scaled = arith::MulFOp::create(b, loc, modified.front(),
                                   floatTile(f32Scores, M_LOG2E));
  } else if (foldableLog2Scale) {
    scaled = dot;
  } else {
    scaled = arith::MulFOp::create(b, loc, dot, log2ScaleTile);
  }
  if (!masked)
    return scaled;
  Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, keys(),
                                      splatIndex(keyLength, i32Scores));
  // Causal: row i sees keys up to its position + the diagonal shift; with
  // a window W, from W - 1 before that.
  if (op.getCausal()) {
    Value lastSeen = arith::AddIOp::create(
        b, loc, queries(), splatIndex(diagonalShift, i32Scores));
    Value seen = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                       keys(), lastSeen);
    valid = arith::AndIOp::create(b, loc, valid, seen);
  }
  if (std::optional<int64_t> window = op.getWindow()) {
    Value firstSeen = arith::AddIOp::create(
        b, loc, queries(),
        splatIndex(m.sub(diagonalShift, m.constant(*window - 1)), i32Scores));
    Value seen = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                       keys(), firstSeen);
    valid = arith::AndIOp::create(b, loc, valid, seen);
  }
  return arith::SelectOp::create(
      b, loc, valid, scaled,
      floatTile(f32Scores, -std::numeric_limits<double>::infinity()));
}

/// The online softmax of one key block's scores against the running row
/// maximum and sum of `state`.
Probabilities AttentionProgram::softmax(const SoftmaxState &state,
                                        Value scores) {
  Type f32 = b.getF32Type();
  RankedTensorType rowsType = tileOf({s.blockM}, f32);
  Value blockMax = tile::ReduceOp::create(
      b, loc, rowsType, tile::ReduceKind::max, scores, 1);
  if (foldableLog2Scale)
    blockMax = arith::MulFOp::create(b, loc, blockMax,
                                     floatTile(rowsType, *foldableLog2Scale));
  Value rowMax = arith::MaximumFOp::create(b, loc, state.rowMax, blockMax);
  Value shift = finiteOrZero(rowMax);
  Value alpha = exp2(arith::SubFOp::create(b, loc, state.rowMax, shift));
  Value exponent;
  if (foldableLog2Scale) {
    // The rows negated before the broadcast: one negation a row, not an
    // element.
    Value negShift = tile::BroadcastOp::create(
        b, loc, scoresType(f32), arith::NegFOp::create(b, loc, shift),
        ArrayRef<int64_t>{1});
    exponent = math::FmaOp::create(
        b, loc, scores, floatTile(scoresType(f32), *foldableLog2Scale),
        negShift);
  } else {
    Value shiftTile = tile::BroadcastOp::create(b, loc, scoresType(f32), shift,
                                                ArrayRef<int64_t>{1});
    exponent = arith::SubFOp::create(b, loc, scores, shiftTile);
  }
  Value p = exp2(exponent);
  Value blockSum = tile::ReduceOp::create(b, loc, rowsType,
                                          tile::ReduceKind::add, p, 1);
  Value rowSum = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, state.rowSum, alpha), blockSum);
  return {p, alpha, rowMax, rowSum};
}

/// acc + P V for the value block at `valueBlock`, P in the input type.
Value AttentionProgram::valueDot(Value p, Value valueBlock, Value acc,
                                 bool overlap) {
  Value v = tile::LoadOp::create(b, loc, tileOf({s.blockN, headDim}, element),
                                 vHead, ValueRange{valueBlock, zero});
  return tile::DotOp::create(b, loc, acc.getType(), p, v, acc, overlap);
}

/// acc scaled row by row by `alpha`.
static Value rescale(OpBuilder &b, Location loc, Value acc, Value alpha) {
  Value alphaTile = tile::BroadcastOp::create(b, loc, acc.getType(), alpha,
                                              ArrayRef<int64_t>{1});
  return arith::MulFOp::create(b, loc, acc, alphaTile);
}

/// One online-softmax step over the key block at `keyBlock`, in order:
/// scores, softmax, rescale, P V.
SoftmaxState AttentionProgram::step(const SoftmaxState &state, Value q,
                                    Value keyBlock, bool masked) {
  Probabilities next = softmax(
      state, scores(scoreDot(q, transposedKeys(keyBlock), /*overlap=*/false),
                    keyBlock, masked));
  Value pLow = arith::TruncFOp::create(b, loc, scoresType(element), next.p);
  Value acc = valueDot(pLow, keyBlock, rescale(b, loc, state.acc, next.alpha),
                       /*overlap=*/false);
  return {acc, next.rowMax, next.rowSum};
}

/// The same step with the softmax in the shadow of the tensor cores: issue
/// this block's Q K^T, then the previous block's P V (`state.pending`),
/// compute this block's softmax while P V runs, and leave its P pending.
/// (FlashAttention-3's intra-warpgroup overlap.) The first step's pending P
/// is zero, so the value block before the first it reads (zero-filled
/// before key 0) adds nothing.
SoftmaxState AttentionProgram::pipelinedStep(const SoftmaxState &state,
                                             Value q, Value keyBlock,
                                             bool masked) {
  Value keysT = transposedKeys(keyBlock);
  // The turn is taken after the key load, before which tile-promote-shared
  // waits for the slot: a warpgroup does not hold the turn waiting for data.
  turn(tilegpu::TurnStep::take);
  Value dot = scoreDot(q, keysT, /*overlap=*/true);
  Value previous = m.sub(keyBlock, m.constant(s.blockN));
  Value acc = valueDot(state.pending, previous, state.acc, /*overlap=*/true);
  turn(tilegpu::TurnStep::pass);
  Probabilities next = softmax(state, scores(dot, keyBlock, masked));
  return {rescale(b, loc, acc, next.alpha), next.rowMax, next.rowSum,
          arith::TruncFOp::create(b, loc, scoresType(element), next.p)};
}

/// The loop over the key blocks in [lower, upper), with Q loaded before it.
SoftmaxState AttentionProgram::keyLoop(Value lower, Value upper,
                                       const SoftmaxState &init, bool masked) {
  Value q = tile::LoadOp::create(b, loc, tileOf({s.blockM, headDim}, element),
                                 qHead, ValueRange{firstRow, zero});
  SmallVector<Value> inits = {init.acc, init.rowMax, init.rowSum};
  if (init.pending) {
    inits.push_back(init.pending);
    turn(tilegpu::TurnStep::open);
  }
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, m.constant(s.blockN), inits,
      [&](OpBuilder &, Location, Value keyBlock, ValueRange iterArgs) {
        SoftmaxState state{iterArgs[0], iterArgs[1], iterArgs[2]};
        SoftmaxState next;
        if (init.pending) {
          state.pending = iterArgs[3];
          next = pipelinedStep(state, q, keyBlock, masked);
        } else {
          next = step(state, q, keyBlock, masked);
        }
        SmallVector<Value> results = {next.acc, next.rowMax, next.rowSum};
        if (next.pending)
          results.push_back(next.pending);
        scf::YieldOp::create(b, loc, results);
      });
  loop->setAttr("tile.stages", b.getI64IntegerAttr(s.stages));
  if (s.producerWarp)
    loop->setAttr(kProducerWarpAttr, b.getUnitAttr());
  if (s.producerRegisters)
    loop->setAttr(kProducerRegistersAttr,
                  b.getDenseI32ArrayAttr(
                      {kProducerRegisters,
                       tileRegistersAfterHandover(32 * s.warps,
                                                  kProducerRegisters,
                                                  kTileRegisters)}));
  SoftmaxState result{loop.getResult(0), loop.getResult(1), loop.getResult(2)};
  if (init.pending) {
    result.pending = loop.getResult(3);
    turn(tilegpu::TurnStep::close);
  }
  return result;
}

/// Adds the pending P V of the last key block before `end` (the blocks
/// start at multiples of blockN; with none, P is zero).
SoftmaxState AttentionProgram::drainPending(const SoftmaxState &state,
                                            Value end) {
  Value blockN = m.constant(s.blockN);
  Value last = m.sub(m.mul(m.ceilDiv(end, blockN), blockN), blockN);
  return {valueDot(state.pending, last, state.acc, /*overlap=*/false),
          state.rowMax, state.rowSum};
}

/// O = acc / rowSum (0 for a row that saw no key), and the log-sum-exp
/// ln(2) * (rowMax + log2(rowSum)) (-inf for such a row).
void AttentionProgram::storeResults(const SoftmaxState &state) {
  Type f32 = b.getF32Type();
  RankedTensorType rowsType = tileOf({s.blockM}, f32);
  RankedTensorType accType = tileOf({s.blockM, columns}, f32);
  Value noKey = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                      state.rowSum, floatTile(rowsType, 0.0));
  Value divisor = arith::SelectOp::create(b, loc, noKey,
                                          floatTile(rowsType, 1.0),
                                          state.rowSum);
  // One division a row, then a multiply an element: an IEEE division of
  // each element costs a dozen instructions, which at 512 keys is a
  // tenth of a program's softmax work.
  Value reciprocal =
      arith::DivFOp::create(b, loc, floatTile(rowsType, 1.0), divisor);
  Value out = arith::MulFOp::create(
      b, loc, state.acc,
      tile::BroadcastOp::create(b, loc, accType, reciprocal,
                                ArrayRef<int64_t>{1}));
  Value outLow = arith::TruncFOp::create(
      b, loc, tileOf({s.blockM, columns}, element), out);
  tile::StoreOp::create(b, loc, outLow, oHead,
                        ValueRange{firstRow, firstColumn});
  if (!lseHead)
    return;
  // One column group writes the log-sum-exp.
  OpBuilder::InsertionGuard guard(b);
  if (columns != headDim) {
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        firstColumn, zero);
    auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
  }
  // Named, so that the ops come in one order whatever the compiler's
  // order of evaluating arguments.
  Value rowMax = finiteOrZero(state.rowMax);
  Value log2Sum = arith::AddFOp::create(
      b, loc, rowMax, math::Log2Op::create(b, loc, state.rowSum));
  Value lse = arith::MulFOp::create(b, loc, log2Sum,
                                    floatTile(rowsType, M_LN2));
  tile::StoreOp::create(b, loc, lse, lseHead, ValueRange{firstRow});
}

/// Views of Q, K, V, O (and the LSE) for this program's (batch, head).
void AttentionProgram::setUpViews(ValueRange args, bool outputs) {
  Value q = args[0], k = args[1], v = args[2];
  // Grouped-query attention: heads / kv_heads query heads share a K/V head
  // (packed heads: set by setUpHeadPacks).
  if (!kvHead) {
    Value heads = b.createOrFold<memref::DimOp>(loc, q, dims.heads);
    Value kvHeads = b.createOrFold<memref::DimOp>(loc, k, dims.heads);
    Value group = m.div(heads, kvHeads);
    kvHead = m.div(head, group);
  }
  qHead = packHeads ? headsView(q, head)
                    : headView(q, head, queryStart, queryLength);
  if (outputs)
    oHead = outputView(args[3]);
  kHead = headView(k, kvHead, keyStart, keyLength);
  // V's rows are K's: viewed by its own length, each view is its whole
  // buffer's sequence, which the copy engine can stage (tile-promote-shared).
  vHead = headView(v, kvHead, keyStart, ownLength(v, keyLength));
  if (outputs && op.getLse())
    lseHead = lseView(args[4], head);
}

/// O's rows of this program: Q's, viewed by O's own length, so that each
/// view is its whole buffer's sequence, which bulk stores can write
/// (tile-map-warps).
Value AttentionProgram::outputView(Value o) {
  return packHeads ? headsView(o, head)
                   : headView(o, head, queryStart, ownLength(o, queryLength));
}

/// O's and the LSE's views, where setUpViews left them out.
void AttentionProgram::setUpOutputViews(ValueRange args) {
  oHead = outputView(args[3]);
  if (op.getLse())
    lseHead = lseView(args[4], head);
}

/// This program's sequence's first query and key tokens and lengths: the
/// buffers' whole sequences, or, packed, from cu_seqlens_q and cu_seqlens_k.
/// The grid has one program per offset, one more than the sequences: the
/// last reads both bounds at the last offset (clamped), an empty sequence.
void AttentionProgram::loadSequenceBounds(ValueRange args) {
  if (!op.isRagged()) {
    queryStart = keyStart = zero;
    queryLength = b.createOrFold<memref::DimOp>(loc, args[0], dims.seq);
    keyLength = b.createOrFold<memref::DimOp>(loc, args[1], dims.seq);
    return;
  }
  unsigned at = op.getCuSeqlensIndex();
  Value entries = b.createOrFold<memref::DimOp>(loc, args[at], 0);
  Value last = m.sub(entries, m.constant(1));
  auto offsetAt = [&](Value offsets, Value sequence) {
    Value word = memref::LoadOp::create(b, loc, offsets,
                                        ValueRange{m.min(sequence, last)});
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), word);
  };
  auto bounds = [&](Value offsets, Value &start, Value &length) {
    start = offsetAt(offsets, batch);
    Value end = offsetAt(offsets, m.add(batch, m.constant(1)));
    length = m.maxSigned(m.sub(end, start), zero);
  };
  bounds(args[at], queryStart, queryLength);
  bounds(args[at + 1], keyStart, keyLength);
}

/// The scale as score tiles, and (causal) the diagonal shift.
void AttentionProgram::setUpScoreTiles(ValueRange args) {
  RankedTensorType f32Scores = scoresType(b.getF32Type());
  if (std::optional<unsigned> index = op.getScaleArgumentIndex()) {
    Value scale = args[*index];
    Value log2Scale = arith::MulFOp::create(
        b, loc, scale,
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(M_LOG2E)));
    scaleTile = tile::SplatOp::create(b, loc, f32Scores, scale);
    log2ScaleTile = tile::SplatOp::create(b, loc, f32Scores, log2Scale);
  } else {
    double scale = op.getScaleOrDefault();
    scaleTile = floatTile(f32Scores, scale);
    log2ScaleTile = floatTile(f32Scores, scale * M_LOG2E);
    if (scale > 0 && op.getScoreMod().empty())
      foldableLog2Scale = scale * M_LOG2E;
  }
  if (op.getCausal())
    diagonalShift = m.sub(keyLength, queryLength);
}

/// An i32 score tile whose element (i, j) is `start` + i (along 0) or
/// `start` + j (along 1).
Value AttentionProgram::positions(unsigned along, Value start) {
  RankedTensorType i32Scores = scoresType(b.getI32Type());
  Value range = tile::RangeOp::create(
      b, loc, tileOf({i32Scores.getDimSize(along)}, b.getI32Type()));
  Value tile = tile::BroadcastOp::create(b, loc, i32Scores, range,
                                         ArrayRef<int64_t>{1 - int64_t(along)});
  return arith::AddIOp::create(b, loc, tile, splatIndex(start, i32Scores));
}

/// The chunks the runtime launched the key-chunk kernel with (grid z: at
/// most ceil(keys / keysPerProgram) for the grid's keys, n_kv or, packed,
/// max_seqlen_k), and the keys each takes (chunkKeys: the grid's key blocks
/// shared evenly, so the last chunks may be short or empty). `chunk` is
/// the key-chunk program's (grid z; null in the combine); its program 0
/// leaves the count in the scratch buffer's header, as i32 bits, which the
/// combine reads (clamped to the grid's, so that a header no key-chunk
/// program wrote, the grid being empty, is never trusted).
Value AttentionProgram::setUpChunks(ValueRange args, Value chunk) {
  Value header = args.back();
  Value gridKeys = keyLength;
  if (std::optional<unsigned> maxKeys = op.getMaxSeqlenKIndex())
    gridKeys = m.maxSigned(arith::IndexCastOp::create(
                               b, loc, b.getIndexType(), args[*maxKeys]),
                           zero);
  Type i32 = b.getI32Type();
  Value one = m.constant(1);
  Value launched;
  if (chunk) {
    auto z = tile::ProgramDimAttr::get(b.getContext(), tile::ProgramDim::z);
    launched = tile::NumProgramsOp::create(b, loc, b.getIndexType(), z);
    // head and batch are still grid x and y here.
    Value first = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, m.add(m.add(head, batch), chunk),
        zero);
    auto isFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(isFirst.thenBlock());
    Value bits = arith::BitcastOp::create(
        b, loc, b.getF32Type(),
        arith::IndexCastUIOp::create(b, loc, i32, launched));
    memref::StoreOp::create(b, loc, bits, header, ValueRange{zero});
  } else {
    // (One op a statement: C++ leaves the order of arguments open.)
    Value word = memref::LoadOp::create(b, loc, header, ValueRange{zero});
    Value bits = arith::BitcastOp::create(b, loc, i32, word);
    Value count = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), bits);
    Value grid = m.ceilDiv(gridKeys, m.constant(s.keysPerProgram));
    launched = m.min(m.max(count, one), grid);
  }
  Value blockN = m.constant(s.blockN);
  Value blocks = m.ceilDiv(gridKeys, blockN);
  Value perChunk = m.ceilDiv(blocks, m.max(launched, one));
  chunkKeys = m.mul(m.max(perChunk, one), blockN);
  return launched;
}

/// The scratch buffer of the key-chunk and combine kernels holds, after
/// its header (setUpChunks), for each
/// of the P = chunks * slots * batch key-chunk programs, p = chunk +
/// chunks * (slot + slots * batch), partialRows rows of partial results:
/// the f32 accumulators [P * partialRows, d], then the row maxima (log2
/// domain) [P * partialRows], then the row sums [P * partialRows];
/// partialScratchBytes() per program. A program uses the first
/// usedPartialRows of its rows. `chunks` is the launched grid's, of which
/// a sequence uses the first ceil(n_kv / chunkKeys).
void AttentionProgram::setUpPartials(ValueRange args, Value chunks) {
  Value q = args[0];
  // The launch metadata's contract: the scratch buffer is 256-byte aligned
  // (the runtime's cuMemAlloc). Promising 16 bytes lets the combine's
  // vector loads skip the pointer check, and with it a branch a load.
  scratch = memref::AssumeAlignmentOp::create(b, loc, args.back(), 16);
  // Packed sequences: z runs over cu_seqlens_q's entries.
  Value batches =
      op.isRagged()
          ? b.createOrFold<memref::DimOp>(loc, args[op.getCuSeqlensIndex()],
                                          0)
          : b.createOrFold<memref::DimOp>(loc, q, *dims.batch);
  chunkBase = m.mul(chunks, m.add(partialSlot, m.mul(partialSlots, batch)));
  Value programs = m.mul(m.mul(chunks, partialSlots), batches);
  Value rows = m.mul(programs, m.constant(s.partialRows));
  maxWords = m.mul(rows, m.constant(headDim));
  sumWords = m.add(maxWords, rows);
  // Rows past the queries (or the packed heads) pad the block: neither
  // written nor read.
  usedPartialRows = packHeads ? packedRows
                              : m.min(queryLength, m.constant(s.partialRows));
}

/// The first row of chunk `chunk`'s partial results.
Value AttentionProgram::partialRow(Value chunk) {
  Value chunkIndex = m.add(chunkBase, chunk);
  return m.mul(chunkIndex, m.constant(s.partialRows));
}

/// The [rows, d] accumulator rows from `row` on, or, with `statsWords`,
/// the [rows] statistics there (broadcast: viewed [rows, columns] with
/// column stride 0, each row's word in every column), of every
/// `rowStride`-th partial row. A constant `rows` gives a static view, which
/// the loads read without bound checks.
Value AttentionProgram::partialView(Value row, OpFoldResult rows,
                                    Value statsWords, bool broadcast,
                                    int64_t rowStride) {
  MLIRContext *ctx = b.getContext();
  int64_t dynamic = ShapedType::kDynamic;
  Type f32 = b.getF32Type();
  std::optional<int64_t> staticRows = getConstantIntValue(rows);
  int64_t rowsDim = staticRows ? *staticRows : dynamic;
  auto view = [&](ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                  Value offset, ArrayRef<OpFoldResult> sizes) {
    return memref::ReinterpretCastOp::create(
        b, loc,
        MemRefType::get(shape, f32,
                        StridedLayoutAttr::get(ctx, dynamic, strides)),
        scratch, offset, sizes,
        llvm::map_to_vector(strides, [&](int64_t stride) -> OpFoldResult {
          return b.getIndexAttr(stride);
        }));
  };
  Value header = m.constant(kScratchHeaderWords);
  if (!statsWords)
    return view({rowsDim, headDim}, {rowStride * headDim, 1},
                m.add(header, m.mul(row, m.constant(headDim))),
                {rows, b.getIndexAttr(headDim)});
  Value offset = m.add(header, m.add(statsWords, row));
  if (!broadcast)
    return view({rowsDim}, {rowStride}, offset, {rows});
  return view({rowsDim, columns}, {rowStride, 0}, offset,
              {rows, b.getIndexAttr(columns)});
}

/// Leaves this chunk's state, unnormalised, in the scratch buffer.
void AttentionProgram::storePartials(const SoftmaxState &state, Value chunk) {
  Value row = partialRow(chunk);
  Value rows = usedPartialRows;
  tile::StoreOp::create(b, loc, state.acc, partialView(row, rows),
                        ValueRange{zero, zero});
  tile::StoreOp::create(b, loc, state.rowMax,
                        partialView(row, rows, maxWords), ValueRange{zero});
  tile::StoreOp::create(b, loc, state.rowSum,
                        partialView(row, rows, sumWords), ValueRange{zero});
}

/// Merges the chunks' partial states as the online softmax merges key
/// blocks: rescaled to the running maximum (a chunk that saw no key has
/// maximum -inf and adds nothing). The row maxima and sums are read
/// broadcast over the columns, so that every step is elementwise in the
/// accumulator's layout: broadcasting row vectors instead costs a layout
/// conversion, with its barriers, a step. kCombineUnroll chunks a step,
/// whose loads are independent, so that a long chain of chunks is not a
/// chain of load latencies. Every load reads a whole program's rows through
/// a static view, with no bound check and so no branch (a branch a load
/// would make each wait for the one before): a chunk past the last reads
/// the last one's, and rows past usedPartialRows (never written) are read;
/// both are then replaced by rows that saw no key.
SoftmaxState AttentionProgram::combinePartials(Value chunks) {
  constexpr int64_t kCombineUnroll = 8;
  Type f32 = b.getF32Type();
  RankedTensorType accType = tileOf({s.blockM, columns}, f32);
  RankedTensorType flagsType = tileOf({s.blockM, columns}, b.getI1Type());
  Value noKey = floatTile(accType, -std::numeric_limits<double>::infinity());
  Value zeros = floatTile(accType, 0.0);
  RankedTensorType i32Type = tileOf({s.blockM, columns}, b.getI32Type());
  Value rowIndex = tile::BroadcastOp::create(
      b, loc, i32Type,
      tile::RangeOp::create(b, loc, tileOf({s.blockM}, b.getI32Type())),
      ArrayRef<int64_t>{1});
  Value storedRows =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rowIndex,
                            splatIndex(usedPartialRows, i32Type));
  Value lastChunk = m.sub(chunks, m.constant(1));
  OpFoldResult allRows = b.getIndexAttr(s.partialRows);
  auto loop = scf::ForOp::create(
      b, loc, zero, chunks, m.constant(kCombineUnroll),
      ValueRange{zeros, noKey, zeros},
      [&](OpBuilder &, Location, Value first, ValueRange iterArgs) {
        SmallVector<SoftmaxState> parts;
        for (int64_t i = 0; i < kCombineUnroll; ++i) {
          Value chunk = m.add(first, m.constant(i));
          Value row = partialRow(m.min(chunk, lastChunk));
          Value exists = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, chunk, chunks);
          Value valid = arith::AndIOp::create(
              b, loc, storedRows,
              tile::SplatOp::create(b, loc, flagsType, exists));
          auto load = [&](Value view, Value column, Value padding) {
            Value loaded = tile::LoadOp::create(b, loc, accType, view,
                                                ValueRange{zero, column},
                                                TypedAttr());
            return arith::SelectOp::create(b, loc, valid, loaded, padding)
                .getResult();
          };
          parts.push_back(
              {load(partialView(row, allRows), firstColumn, zeros),
               load(partialView(row, allRows, maxWords, /*broadcast=*/true),
                    zero, noKey),
               load(partialView(row, allRows, sumWords, /*broadcast=*/true),
                    zero, zeros)});
        }
        SoftmaxState merged =
            mergePartials({iterArgs[0], iterArgs[1], iterArgs[2]}, parts);
        scf::YieldOp::create(
            b, loc, ValueRange{merged.acc, merged.rowMax, merged.rowSum});
      });
  return {loop.getResult(0), rowStatistic(loop.getResult(1)),
          rowStatistic(loop.getResult(2))};
}

/// `carried` and `parts` (elementwise in one layout: the statistics
/// broadcast over the columns) rescaled to their common maximum and summed,
/// as the online softmax merges key blocks; a part that saw no key has
/// maximum -inf and adds nothing.
SoftmaxState AttentionProgram::mergePartials(const SoftmaxState &carried,
                                             ArrayRef<SoftmaxState> parts) {
  Value rowMax = carried.rowMax;
  for (const SoftmaxState &part : parts)
    rowMax = arith::MaximumFOp::create(b, loc, rowMax, part.rowMax);
  Value shift = finiteOrZero(rowMax);
  auto rescaled = [&](const SoftmaxState &state) {
    Value weight = exp2(arith::SubFOp::create(b, loc, state.rowMax, shift));
    // The sum before the accumulator: the order the measured kernels were
    // built in.
    Value rowSum = arith::MulFOp::create(b, loc, state.rowSum, weight);
    Value acc = arith::MulFOp::create(b, loc, state.acc, weight);
    return std::make_pair(acc, rowSum);
  };
  auto [acc, rowSum] = rescaled(carried);
  for (const SoftmaxState &part : parts) {
    auto [partAcc, partSum] = rescaled(part);
    acc = arith::AddFOp::create(b, loc, acc, partAcc);
    rowSum = arith::AddFOp::create(b, loc, rowSum, partSum);
  }
  return {acc, rowMax, rowSum};
}

/// A row's statistic from a tile that holds it in every column.
Value AttentionProgram::rowStatistic(Value tile) {
  auto type = cast<RankedTensorType>(tile.getType());
  return tile::ReduceOp::create(
             b, loc, tileOf({type.getDimSize(0)}, type.getElementType()),
             tile::ReduceKind::max, tile, 1)
      .getResult();
}

/// The combine of one packed head (a combine program a head): the chunks'
/// partial results of its row are merged combineLanes at a time, chunk
/// `first + i` in row i of the tile, each row an online softmax of its own
/// over the steps; then the rows are merged into one. The chunks past the
/// last in the last step are padding (maximum -inf: they add nothing).
SoftmaxState AttentionProgram::combineChunkLanes(Value chunks) {
  int64_t lanes = s.combineLanes;
  Type f32 = b.getF32Type();
  RankedTensorType lanesType = tileOf({lanes, columns}, f32);
  double minusInf = -std::numeric_limits<double>::infinity();
  Value noKey = floatTile(lanesType, minusInf);
  Value zeros = floatTile(lanesType, 0.0);
  auto load = [&](Value view, Value column, double padding) {
    return tile::LoadOp::create(b, loc, lanesType, view,
                                ValueRange{zero, column},
                                b.getF32FloatAttr(padding))
        .getResult();
  };
  auto loop = scf::ForOp::create(
      b, loc, zero, chunks, m.constant(lanes), ValueRange{zeros, noKey, zeros},
      [&](OpBuilder &, Location, Value first, ValueRange iterArgs) {
        Value row = m.add(partialRow(first), packRow);
        Value left = m.sub(chunks, first);
        Value count = m.min(left, m.constant(lanes));
        auto view = [&](Value statsWords) {
          return partialView(row, count, statsWords,
                             /*broadcast=*/statsWords != nullptr,
                             s.partialRows);
        };
        SoftmaxState part = {load(view(nullptr), firstColumn, 0.0),
                             load(view(maxWords), zero, minusInf),
                             load(view(sumWords), zero, 0.0)};
        SoftmaxState merged =
            mergePartials({iterArgs[0], iterArgs[1], iterArgs[2]}, part);
        scf::YieldOp::create(
            b, loc, ValueRange{merged.acc, merged.rowMax, merged.rowSum});
      });
  RankedTensorType columnsType = tileOf({columns}, f32);
  auto reduce = [&](tile::ReduceKind kind, Value tile) {
    return tile::ReduceOp::create(b, loc, columnsType, kind, tile, 0)
        .getResult();
  };
  Value laneMax = loop.getResult(1);
  Value headMax = reduce(tile::ReduceKind::max, laneMax);
  Value weight = exp2(arith::SubFOp::create(
      b, loc, laneMax,
      finiteOrZero(tile::BroadcastOp::create(b, loc, lanesType, headMax,
                                             ArrayRef<int64_t>{0}))));
  auto weighted = [&](Value tile) {
    return reduce(tile::ReduceKind::add,
                  arith::MulFOp::create(b, loc, tile, weight));
  };
  // One row: the head's, row 0 of its views.
  RankedTensorType rowType = tileOf({1, columns}, f32);
  auto asRow = [&](Value tile) {
    return tile::BroadcastOp::create(b, loc, rowType, tile,
                                     ArrayRef<int64_t>{0})
        .getResult();
  };
  return {asRow(weighted(loop.getResult(0))), rowStatistic(asRow(headMax)),
          rowStatistic(asRow(weighted(loop.getResult(2))))};
}

/// Narrows the key ranges to the keys of chunk `chunk`; every bound stays a
/// block start (chunks are whole blocks) or the end.
KeyRanges AttentionProgram::clampToChunk(const KeyRanges &keys, Value chunk) {
  Value begin = m.mul(chunk, chunkKeys);
  Value end = m.min(m.add(begin, chunkKeys), keyLength);
  auto clamp = [&](Value x) { return m.min(m.max(x, begin), end); };
  return {clamp(keys.first), clamp(keys.wholeBegin), clamp(keys.wholeEnd),
          clamp(keys.end)};
}

/// Packed heads: the `group` query heads of a K/V head are split into
/// ceil(group / R) packs of at most R rows (R the block's query rows; one
/// pack but past 64 query heads a K/V head), of equal size but the last,
/// so that packs never straddle K/V heads. Grid x of the key-chunk kernel
/// has kv_heads * ceil(heads / R) slots: slot x takes pack x / kv_heads of
/// K/V head x % kv_heads, and returns at once past that head's packs (only
/// where some K/V head has fewer query heads than the grid has room for:
/// with more than R query heads). `slot` is grid x in the key-chunk kernel
/// and the query head in the combine; returns whether the program takes a
/// pack, in the key-chunk kernel.
Value AttentionProgram::setUpHeadPacks(ValueRange args, Value slot,
                                       bool combine) {
  Value heads = b.createOrFold<memref::DimOp>(loc, args[0], dims.heads);
  Value kvHeads = b.createOrFold<memref::DimOp>(loc, args[1], dims.heads);
  Value group = m.div(heads, kvHeads);
  Value rows = m.constant(queryRows());
  Value packs = m.ceilDiv(group, rows);
  Value packSize = m.ceilDiv(group, packs);
  partialSlots = m.mul(kvHeads, m.ceilDiv(heads, rows));
  if (combine) {
    // One query head: its pack, and its row in the pack.
    kvHead = m.div(slot, group);
    Value inGroup = m.rem(slot, group);
    Value pack = m.div(inGroup, packSize);
    packRow = m.rem(inGroup, packSize);
    partialSlot = m.add(kvHead, m.mul(kvHeads, pack));
    head = slot;
    packedRows = packSize;
    viewHeads = m.constant(1);
    return nullptr;
  }
  kvHead = m.rem(slot, kvHeads);
  Value pack = m.div(slot, kvHeads);
  Value firstInGroup = m.min(m.mul(pack, packSize), group);
  head = m.add(m.mul(kvHead, group), firstInGroup);
  packedRows = m.min(packSize, m.sub(group, firstInGroup));
  viewHeads = packedRows;
  packRow = zero;
  partialSlot = slot;
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pack, packs);
}

/// The initial online-softmax state: no key seen.
SoftmaxState AttentionProgram::initialState() {
  Type f32 = b.getF32Type();
  RankedTensorType rowsType = tileOf({s.blockM}, f32);
  return {floatTile(tileOf({s.blockM, columns}, f32), 0.0),
          floatTile(rowsType, -std::numeric_limits<double>::infinity()),
          floatTile(rowsType, 0.0)};
}

/// The loops over the key blocks in `keys`, from no key seen.
SoftmaxState AttentionProgram::keyLoops(const KeyRanges &keys,
                                        bool pipelined) {
  SoftmaxState state = initialState();
  if (pipelined)
    state.pending = floatTile(scoresType(element), 0.0);
  if (op.getWindow())
    state = keyLoop(keys.first, keys.wholeBegin, state, /*masked=*/true);
  state = keyLoop(keys.wholeBegin, keys.wholeEnd, state, /*masked=*/false);
  state = keyLoop(keys.wholeEnd, keys.end, state, /*masked=*/true);
  return pipelined ? drainPending(state, keys.end) : state;
}

/// The whole kernel on a persistent grid: each block takes the tiles pid,
/// pid + programs, ... of (query block, head, batch), query blocks fastest
/// (causal: every head's last query block first, then the one before).
/// The producer then copies the next tile's first keys while the
/// warpgroups finish this tile and store it.
void AttentionProgram::buildPersistent(ValueRange args) {
  Type index = b.getIndexType();
  auto x = tile::ProgramDimAttr::get(b.getContext(), tile::ProgramDim::x);
  zero = m.constant(0);
  firstColumn = zero;
  loadSequenceBounds(args);
  Value queryBlocks = m.ceilDiv(queryLength, m.constant(s.blockM));
  Value heads = b.createOrFold<memref::DimOp>(loc, args[0], dims.heads);
  Value batches = b.createOrFold<memref::DimOp>(loc, args[0], *dims.batch);
  Value tiles = m.mul(m.mul(queryBlocks, heads), batches);
  Value first = tile::ProgramIdOp::create(b, loc, index, x);
  Value programs = tile::NumProgramsOp::create(b, loc, index, x);
  auto walk = scf::ForOp::create(b, loc, first, tiles, programs);
  walk->setAttr(kPersistentTilesAttr, b.getUnitAttr());
  // Nothing is hoisted out of the walk: the addresses of the epilogue's
  // staging and of the last P V, invariant across tiles, would then stay
  // in registers through the key loops, which have none to spare (the
  // hoisted kernel spilled in its key loops and ran 0.87-0.91x the
  // launched grid's on the H200).
  MLIRContext *ctx = b.getContext();
  walk->setAttr("loop_annotation",
                LLVM::LoopAnnotationAttr::get(
                    ctx, {}, {}, {}, {}, {},
                    LLVM::LoopLICMAttr::get(ctx, b.getBoolAttr(true), {}), {},
                    {}, {}, {}, {}, {}, {}, {}, {}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(walk.getBody());
  Value tile = walk.getInductionVar();
  Value queryBlock, headAndBatch;
  if (op.getCausal()) {
    // Causal tiles further down see more keys: all of the last query
    // block's first, then the next, so that the blocks' strides over the
    // tiles sum to about the same work (with query blocks fastest, a stride
    // of 132 over 128 blocks a head gave one block 3 times another's).
    Value pairs = m.mul(heads, batches);
    queryBlock = m.sub(m.sub(queryBlocks, m.constant(1)), m.div(tile, pairs));
    headAndBatch = m.rem(tile, pairs);
  } else {
    queryBlock = m.rem(tile, queryBlocks);
    headAndBatch = m.div(tile, queryBlocks);
  }
  head = m.rem(headAndBatch, heads);
  batch = m.div(headAndBatch, heads);
  firstRow = m.mul(queryBlock, m.constant(s.blockM));
  kvHead = nullptr;
  // O's views after the key loops, where the tile stores: in the walk
  // they are values of the tile, not of the kernel's arguments, which the
  // code generator would otherwise keep through the loops.
  setUpViews(args, /*outputs=*/false);
  setUpScoreTiles(args);
  SoftmaxState state = keyLoops(keyRanges(), s.overlapSoftmax);
  setUpOutputViews(args);
  storeResults(state);
}

void AttentionProgram::build(ValueRange args, AttentionPart part) {
  Type index = b.getIndexType();
  auto programId = [&](tile::ProgramDim d) {
    return tile::ProgramIdOp::create(
        b, loc, index, tile::ProgramDimAttr::get(b.getContext(), d));
  };
  auto numPrograms = [&](tile::ProgramDim d) {
    return tile::NumProgramsOp::create(
        b, loc, index, tile::ProgramDimAttr::get(b.getContext(), d));
  };
  zero = m.constant(0);
  firstRow = firstColumn = zero;
  if (part != AttentionPart::whole) {
    head = programId(tile::ProgramDim::x);
    batch = programId(tile::ProgramDim::y);
  } else {
    head = programId(tile::ProgramDim::y);
    batch = programId(tile::ProgramDim::z);
  }
  if (part == AttentionPart::whole) {
    Value queryBlock = programId(tile::ProgramDim::x);
    // Causal blocks further down see more keys: taking them first (program
    // x counts from the last block) leaves the short ones to fill the tail.
    if (op.getCausal())
      queryBlock = m.sub(m.sub(numPrograms(tile::ProgramDim::x),
                               m.constant(1)),
                         queryBlock);
    firstRow = m.mul(queryBlock, m.constant(s.blockM));
  }
  // Packed heads: programs past their K/V head's packs return at once.
  // Packed sequences: programs past their sequence's queries (or,
  // splitting keys, keys) return at once.
  SmallVector<Value> takesPart;
  auto isLess = [&](Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  };
  loadSequenceBounds(args);
  if (op.isRagged())
    takesPart.push_back(isLess(firstRow, queryLength));
  Value chunk, launchedChunks;
  if (part == AttentionPart::keyChunk)
    chunk = programId(tile::ProgramDim::z);
  if (part != AttentionPart::whole)
    launchedChunks = setUpChunks(args, chunk);
  // Chunk 0 runs even without keys: launched alone it writes the rows
  // that saw no key itself.
  if (chunk) {
    Value firstKey = m.mul(chunk, chunkKeys);
    Value someKeys = m.max(keyLength, m.constant(1));
    takesPart.push_back(isLess(firstKey, someKeys));
  }
  if (packHeads) {
    if (Value takesPack = setUpHeadPacks(args, head, s.combineLanes != 0))
      takesPart.push_back(takesPack);
  } else {
    partialSlot = head;
    partialSlots = b.createOrFold<memref::DimOp>(loc, args[0], dims.heads);
  }
  scf::IfOp guard;
  if (!takesPart.empty()) {
    Value condition = takesPart.front();
    for (Value next : ArrayRef<Value>(takesPart).drop_front())
      condition = arith::AndIOp::create(b, loc, condition, next);
    guard = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
    b.setInsertionPointToStart(guard.thenBlock());
  }
  setUpViews(args);
  if (part == AttentionPart::whole) {
    setUpScoreTiles(args);
    storeResults(keyLoops(keyRanges(), s.overlapSoftmax));
    if (guard)
      b.setInsertionPointAfter(guard);
    tile::ReturnOp::create(b, loc);
    return;
  }
  // The combine's chunks this (batch, head)'s keys fill: fewer than
  // launched for a packed sequence shorter than max_seqlen_k, or where the
  // keys do not fill the last chunks.
  Value chunks;
  if (part == AttentionPart::combine)
    chunks = m.min(launchedChunks, m.ceilDiv(keyLength, chunkKeys));
  setUpPartials(args, launchedChunks);
  if (part == AttentionPart::keyChunk) {
    setUpScoreTiles(args);
    SoftmaxState state =
        keyLoops(clampToChunk(keyRanges(), chunk), s.overlapSoftmax);
    // Launched with one chunk, the program has seen every key: it writes
    // O and the log-sum-exp itself, and the runtime skips the combine
    // (`then` after a split kernel launched unsplit).
    Value unsplit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          launchedChunks, m.constant(1));
    auto ifUnsplit = scf::IfOp::create(b, loc, unsplit, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard branch(b);
    b.setInsertionPointToStart(ifUnsplit.thenBlock());
    storeResults(state);
    b.setInsertionPointToStart(ifUnsplit.elseBlock());
    storePartials(state, chunk);
  } else {
    // z: the program's group of columns.
    columns = s.combineColumns;
    firstColumn =
        m.mul(programId(tile::ProgramDim::z), m.constant(columns));
    storeResults(s.combineLanes ? combineChunkLanes(chunks)
                                : combinePartials(chunks));
  }
  if (guard)
    b.setInsertionPointAfter(guard);
  tile::ReturnOp::create(b, loc);
}

} // namespace

/// Bytes of partial results a key-chunk program leaves (see setUpPartials).
static int64_t partialScratchBytes(const AttentionSchedule &s,
                                   int64_t headDim) {
  return s.partialRows * (headDim + 2) * 4;
}

/// Builds the kernel `name` computing `part` of `op` with `s` over `grid`,
/// before `op`.
static tile::KernelOp buildAttentionKernel(RewriterBase &rewriter,
                                           tile::AttentionOp op, StringRef name,
                                           AttentionPart part,
                                           const AttentionSchedule &s,
                                           ArrayRef<Attribute> grid,
                                           bool packHeads = false) {
  Location loc = op.getLoc();
  FunctionType type = op.getFunctionType();
  if (part != AttentionPart::whole)
    type = tile::withScratchArgument(type, rewriter.getF32Type());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto kernel = tile::KernelOp::create(
      rewriter, loc, name, type, /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
      rewriter.getArrayAttr(grid), s.warps);
  if (part != AttentionPart::whole) {
    int64_t headDim = op.getOperandType(0).getShape().back();
    // Every partial result read was written first: no zero-fill.
    kernel->setAttr(tile::kScratchAttrName,
                    rewriter.getDenseI64ArrayAttr(
                        {kScratchHeaderWords * 4,
                         part == AttentionPart::keyChunk
                             ? partialScratchBytes(s, headDim)
                             : 4,
                         0}));
    if (part == AttentionPart::keyChunk)
      kernel->setAttr(tile::kSplitAttrName,
                      rewriter.getI64IntegerAttr(s.splitBlocksPerSm));
  }
  Block *body =
      rewriter.createBlock(&kernel.getBody(), {}, type.getInputs(),
                           SmallVector<Location>(type.getNumInputs(), loc));
  rewriter.setInsertionPointToStart(body);
  AttentionProgram program(rewriter, loc, op, s, packHeads);
  if (part == AttentionPart::whole && s.persistent) {
    kernel->setAttr(tile::kPersistentAttrName, rewriter.getI64IntegerAttr(1));
    program.buildPersistent(body->getArguments());
    tile::ReturnOp::create(rewriter, loc);
    return kernel;
  }
  program.build(body->getArguments(), part);
  return kernel;
}

FailureOr<tile::KernelOp> tilec::tileAttention(RewriterBase &rewriter,
                                               tile::AttentionOp op,
                                               bool producerWarp,
                                               bool warpgroupMma) {
  int64_t headDim = op.getOperandType(0).getShape().back();
  tile::AttentionDimPositions dims =
      tile::attentionDimPositions(op.getLayout());
  MLIRContext *ctx = rewriter.getContext();
  auto nameWith = [&](StringRef suffix) {
    return (op.getSymName() + suffix).str();
  };
  AttentionSchedule s = chooseSchedule(op, headDim, producerWarp);
  std::string names[] = {nameWith("__decode"), nameWith("__decode_combine"),
                         nameWith("__decode_heads"),
                         nameWith("__decode_heads_combine"),
                         nameWith("__short_rows")};
  // The decode names are taken whether or not the kernels are built.
  size_t namesUsed = s.turnsFromRowsAbove ? 5 : 4;
  for (StringRef name : ArrayRef(names).take_front(namesUsed))
    if (SymbolTable::lookupNearestSymbolFrom(op, StringAttr::get(ctx, name)))
      return op.emitOpError("cannot name its kernel '")
             << name << "': the symbol exists";
  auto heads = tile::GridAttr::get(ctx, 0, dims.heads, 1);
  // The whole kernel: x over Q's blocks of rows, y over heads, z over
  // batches. Packed sequences: x over blocks of max_seqlen_q, z over the
  // entries of cu_seqlens_q (one more than the sequences).
  unsigned at = op.getCuSeqlensIndex();
  tile::GridAttr batches =
      op.isRagged() ? tile::GridAttr::get(ctx, at, 0u, 1)
                    : tile::GridAttr::get(ctx, 0, *dims.batch, 1);
  auto buildWhole = [&](StringRef name, const AttentionSchedule &schedule) {
    tile::GridAttr queryBlocks =
        op.isRagged()
            ? tile::GridAttr::get(ctx, at + 2, std::nullopt, schedule.blockM)
            : tile::GridAttr::get(ctx, 0, dims.seq, schedule.blockM);
    return buildAttentionKernel(rewriter, op, name, AttentionPart::whole,
                                schedule, {queryBlocks, heads, batches});
  };
  tile::KernelOp kernel = buildWhole(op.getSymName(), s);
  // The narrow rules read the query rows where the grid does.
  unsigned rowsOperand = op.isRagged() ? at + 2 : 0;
  std::optional<unsigned> rowsDim =
      op.isRagged() ? std::nullopt : std::optional<unsigned>(dims.seq);
  tile::KernelOp wider = kernel;
  if (s.turnsFromRowsAbove) {
    tile::KernelOp shortRows = buildWhole(
        names[4], chooseSchedule(op, headDim, producerWarp, /*shortRows=*/true));
    tile::setNarrowVariant(kernel, shortRows, rowsOperand, rowsDim,
                           s.turnsFromRowsAbove);
    wider = shortRows;
  }
  // Packed sequences without max_seqlen_k have no decode variants: the
  // grid could not be sized by the longest sequence's keys.
  std::optional<unsigned> maxKeys = op.getMaxSeqlenKIndex();
  if (op.isRagged() && !maxKeys) {
    rewriter.eraseOp(op);
    return kernel;
  }
  // At most a block of query rows (max_seqlen_q for packed sequences): x
  // over heads, y over batches, z over chunks of K's rows (of
  // max_seqlen_k), then the combine over (head, batch); a single query row
  // packs the query heads of a K/V head into the rows, so that each K/V
  // head is read once.
  AttentionSchedule decode = chooseDecodeSchedule(headDim, warpgroupMma);
  // Only where asked: level with the barrier a key block on the H200
  // (bench/results/2026-11-29-h200-decode-stages).
  decode.producerWarp = op.getProducerWarp();
  tile::GridAttr keyChunks =
      op.isRagged()
          ? tile::GridAttr::get(ctx, *maxKeys, std::nullopt,
                                decode.keysPerProgram)
          : tile::GridAttr::get(ctx, 1, dims.seq, decode.keysPerProgram);
  // Packed heads: x over kv_heads * ceil(heads / R) slots of R packed
  // rows (AttentionProgram::setUpHeadPacks).
  AttentionSchedule packed = packedHeadsSchedule(decode);
  Attribute headPacks = rewriter.getArrayAttr(
      {tile::GridAttr::get(ctx, 1, dims.heads, 1),
       tile::GridAttr::get(ctx, 0, dims.heads, packed.partialRows)});
  for (int i : {0, 1}) {
    bool packHeads = i == 1;
    const AttentionSchedule &chunkSchedule = packHeads ? packed : decode;
    tile::KernelOp chunks = buildAttentionKernel(
        rewriter, op, names[2 * i], AttentionPart::keyChunk, chunkSchedule,
        {packHeads ? headPacks : Attribute(heads), batches, keyChunks},
        packHeads);
    // z over groups of columns of the head dim (Q's last dimension).
    AttentionSchedule merge = combineSchedule(chunkSchedule, packHeads);
    tile::KernelOp combine = buildAttentionKernel(
        rewriter, op, names[2 * i + 1], AttentionPart::combine, merge,
        {heads, batches,
         tile::GridAttr::get(ctx, 0, dims.rank() - 1, merge.combineColumns)},
        packHeads);
    chunks->setAttr(tile::kThenAttrName,
                    FlatSymbolRefAttr::get(combine.getNameAttr()));
    tile::setNarrowVariant(wider, chunks, rowsOperand, rowsDim,
                           packHeads ? 1 : decode.partialRows);
    wider = chunks;
  }
  rewriter.eraseOp(op);
  return kernel;
}
