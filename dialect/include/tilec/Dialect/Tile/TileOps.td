//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_TILEOPS_TD
#define TILEC_DIALECT_TILE_TILEOPS_TD

include "tilec/Dialect/Tile/TileBase.td"
include "tilec/Dialect/Tile/TileAttrs.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

// A tile: a statically shaped tensor with power-of-two dimensions of integers
// or floats. The shape rule is checked by the ops' verifiers, which can say
// which dimension is wrong.
def Tile_Tile : RankedTensorOf<[AnySignlessInteger, AnyFloat]>;
def Tile_Buffer : MemRefOf<[AnySignlessInteger, AnyFloat]>;

//===----------------------------------------------------------------------===//
// Descriptions
//===----------------------------------------------------------------------===//

def Tile_MatmulOp : Tile_Op<"matmul", [Symbol]> {
  let summary = "A whole matrix product over global buffers";
  let description = [{
    Describes the kernel `@name(A, B, C)` computing `C = A x B` (or
    `C = A x B + C` with `accumulate`) for A of MxK and B of KxN, with any
    M, N, K >= 1 known only at run time. A and B hold f32, f16 or bf16
    (the same type); the products are accumulated in f32 and rounded once to
    C's element type (f32, f16 or bf16). A row-major operand is passed as
    its matrix (A as MxK); a column-major one as the row-major buffer of
    its transpose (A as KxM, B as NxK). C is row-major MxN.

    `block` (the M, N and K extents of a program's tile), `warps` and
    `stages` (shared-memory pipeline depth) are optional schedule hints;
    `tile-tiling` picks them by element type when absent. `pingpong` asks,
    where a producer warp feeds warpgroup MMAs (16-bit A and B on sm_90a),
    for two groups of `warps` warps (a warpgroup each, 128x128 tiles by
    default) that take alternate tiles of a persistent walk and turns at
    their MMAs, so that one's epilogue overlaps the other's MMAs; it is
    ignored elsewhere.

    ```mlir
    tile.matmul @mm a(row) b(col) accumulate
        : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
    tile.matmul @sgemm a(row) b(row) block [128, 128, 8] warps 8 stages 2
        : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
    tile.matmul @hgemm a(row) b(row) stages 6 pingpong
        : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       Tile_MatrixLayout:$a_layout,
                       Tile_MatrixLayout:$b_layout,
                       UnitAttr:$accumulate,
                       OptionalAttr<DenseI64ArrayAttr>:$block,
                       OptionalAttr<I64Attr>:$warps,
                       OptionalAttr<I64Attr>:$stages,
                       UnitAttr:$pingpong);
  let assemblyFormat = [{
    $sym_name `a` `(` $a_layout `)` `b` `(` $b_layout `)`
    (`accumulate` $accumulate^)? (`block` $block^)? (`warps` $warps^)?
    (`stages` $stages^)? (`pingpong` $pingpong^)? attr-dict `:` $function_type
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MemRefType getAType() {
      return ::llvm::cast<::mlir::MemRefType>(getFunctionType().getInput(0));
    }
    ::mlir::MemRefType getBType() {
      return ::llvm::cast<::mlir::MemRefType>(getFunctionType().getInput(1));
    }
    ::mlir::MemRefType getCType() {
      return ::llvm::cast<::mlir::MemRefType>(getFunctionType().getInput(2));
    }
  }];
}

def Tile_AttentionOp : Tile_Op<"attention", [Symbol, SingleBlock,
                                             IsolatedFromAbove,
                                             Tile_HasCombiner]> {
  let summary = "Scaled dot-product attention over global buffers";
  let description = [{
    Describes the kernel `@name(Q, K, V, O)` (with `lse`, `@name(Q, K, V,
    O, LSE)`) computing, for every batch and head,
    `O = softmax(scale * Q K^T + mask) V`. Q and O hold
    [batch, heads, n_q, d], K and V [batch, kv_heads, n_kv, d], in that
    order with `layout(bhsd)` or as [batch, seq, heads, d] with
    `layout(bshd)`; strided views are accepted. Ragged batches pack their
    sequences without padding, as [tokens, heads, d] with `layout(thd)`:
    then the kernel is `@name(Q, K, V, O[, LSE], cu_seqlens_q,
    cu_seqlens_k, max_seqlen_q[, max_seqlen_k][, scale])`, where
    `cu_seqlens_q` and `cu_seqlens_k` (memref<?xi32>, batch + 1 each) hold
    the cumulative offsets of the sequences' first tokens (sequence b has
    queries cu_seqlens_q[b] .. cu_seqlens_q[b+1] - 1), `max_seqlen_q` (i32)
    bounds every query length (the grid is sized by it, as FlashAttention's
    varlen API does; longer sequences are not computed past it) and the LSE
    is [heads, tokens_q]; masks, the window and the score modification's
    indices are per sequence. The optional `max_seqlen_k` (i32) bounds
    every key length: with it, batches whose queries are few (decode)
    split each sequence's keys over programs as padded layouts do (keys
    past it are not seen). Elements are f16 or bf16
    (all four alike), accumulated in f32. The head dim d is static: 64, 128
    or 256; n_q, n_kv (any sizes >= 1), batch and heads may be dynamic.
    `kv_heads` divides `heads` (grouped-query attention; 1 for multi-query):
    query head h reads K/V head h / (heads / kv_heads).

    `window W` (with `causal`) narrows each query to the last W keys it
    sees: key j from query i when i + n_kv - n_q - W < j <= i + n_kv - n_q;
    the tiling skips the key blocks left of every row's window.

    `scale` is an attribute, or an f32 argument after the buffers
    (`@name(Q, K, V, O[, LSE], scale)`), and defaults to 1/sqrt(d).
    `causal` masks key j from query i when
    j > i + n_kv - n_q (the diagonal aligned to the bottom-right corner, as
    FlashAttention-2 defines it). `lse` adds an f32 [batch, heads, n_q]
    output: the log-sum-exp of each row's scaled, masked scores (-inf for
    a row with no key left).

    The optional region modifies each score before the softmax: it takes
    the scaled score and its (batch, head, query, key) indices and yields
    the new score (-inf masks the key). Where it masks with
    `arith.select` against -inf on comparisons of query - key with a
    constant (a sliding window, a band), the tiling skips the key blocks
    outside that band, as it does for `window`.

    `block` ([rows of queries, keys] a program takes at a time, powers of
    two from 16 to 256), `warps` and `stages` are optional schedule hints;
    `tile-tiling` picks them by head dim when absent. The `overlap_softmax`
    hint asks, on blocks of 64 rows or more (warpgroup MMA), for each key
    block's softmax to be issued while the tensor cores compute the previous
    block's P x V; by default the softmax sits between its block's two dots.
    `pingpong` (which implies `overlap_softmax`) has a block of two or more
    warpgroups take turns at issuing their dots (`tilegpu.turn`), so that
    the tensor cores work on one warpgroup's dots while another computes
    its softmax (FlashAttention-3's ping-pong); the default at d128
    where a producer feeds the warpgroups, without a mask or causal
    (without a window or score modification). Without a score
    modification, such a kernel has a variant without turns
    (`name__short_rows`) that the runtime launches for at most 512 query
    rows (causal: 1024), where a tile's few key blocks cost the turns more
    than they hide.
    `producer_warp` has a warp of its own issue the key loops' K and V
    copies (TMA) into a ring of slots that the loops share, so that the
    warpgroups meet on no barrier a key block; Q is staged by the
    warpgroups. Only where the copies are bulk copies (sm_90a). The default
    for two warpgroups (`tilec --producer-warp`, on by default; the
    producer is then a warpgroup that hands its registers to the others,
    24 kept and 240 given a thread, except in the `__short_rows` variant,
    whose tiles fit the 168 registers of a block with a producer warp: on
    the H200 a score modification (ALiBi) ran 1.20-1.51x, a causal window
    1.13-1.19x the producer warp, which spilled). The decode kernels
    (a few query rows split over programs along the keys) take a producer
    warp only with the hint: on the H200 it ran level with the block
    barrier there (-1.0% to +0.4%).
    `persistent` launches at most one block a multiprocessor, each walking
    the (query block, head, batch) tiles of the whole kernel (causal: the
    last query block of every head first), so that a producer warp copies
    the next tile's first keys while the warpgroups finish this one and
    store it. Not for packed sequences. Not the default: on the H200 it ran
    0.96-0.99x the launched grid at d128, 0.88-0.95x causal.
    The head dim must be contiguous (stride 1) in all four buffers.

    ```mlir
    tile.attention @fwd layout(bhsd) causal
        : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
           memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
    // Logit soft-capping at 30.
    tile.attention @capped layout(bshd) scale 0.125 lse
        : (memref<?x?x?x64xf16>, memref<?x?x?x64xf16>, memref<?x?x?x64xf16>,
           memref<?x?x?x64xf16>, memref<?x?x?xf32>) -> ()
    {
    ^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
      %c = arith.constant 30.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %r = arith.mulf %t, %c : f32
      tile.yield %r : f32
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       Tile_AttentionLayout:$layout,
                       UnitAttr:$causal,
                       OptionalAttr<I64Attr>:$window,
                       OptionalAttr<F64Attr>:$scale,
                       UnitAttr:$lse,
                       OptionalAttr<DenseI64ArrayAttr>:$block,
                       OptionalAttr<I64Attr>:$warps,
                       OptionalAttr<I64Attr>:$stages,
                       UnitAttr:$overlap_softmax,
                       UnitAttr:$pingpong,
                       UnitAttr:$producer_warp,
                       UnitAttr:$persistent);
  let regions = (region MaxSizedRegion<1>:$score_mod);
  let assemblyFormat = [{
    $sym_name `layout` `(` $layout `)` (`causal` $causal^)?
    (`window` $window^)? (`scale` $scale^)? (`lse` $lse^)? (`block` $block^)? (`warps` $warps^)?
    (`stages` $stages^)? (`overlap_softmax` $overlap_softmax^)? (`pingpong` $pingpong^)?
    (`producer_warp` $producer_warp^)? (`persistent` $persistent^)? attr-dict `:`
    $function_type
    ($score_mod^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MemRefType getOperandType(unsigned i) {
      return ::llvm::cast<::mlir::MemRefType>(getFunctionType().getInput(i));
    }
    /// The scale of the scores: `scale`, or 1/sqrt(d) (see also
    /// getScaleArgumentIndex()).
    double getScaleOrDefault();
    /// The input that holds the scale when it is given at launch: a last
    /// f32 after the buffers (and, ragged, max_seqlen_q and max_seqlen_k).
    std::optional<unsigned> getScaleArgumentIndex();
    /// The input that holds max_seqlen_k, if given: an integer after
    /// max_seqlen_q (ragged only).
    std::optional<unsigned> getMaxSeqlenKIndex();
    /// Packed sequences (`layout(thd)`), with cu_seqlens_q, cu_seqlens_k
    /// and max_seqlen_q after the other buffers.
    bool isRagged() { return getLayout() == AttentionLayout::thd; }
    /// The index of cu_seqlens_q (ragged only; cu_seqlens_k and
    /// max_seqlen_q follow it).
    unsigned getCuSeqlensIndex() { return getLse() ? 5 : 4; }
  }];
}

def Tile_ScanOp : Tile_Op<"scan", [Symbol, SingleBlock, IsolatedFromAbove,
                                   Tile_HasCombiner]> {
  let summary = "A whole prefix scan over global buffers";
  let description = [{
    Describes the kernel `@name(X1..Xn, Y1..Yn)` writing to each Yi the
    prefix combination of Xi along dimension `along` of 1-D or 2-D buffers
    (2-D: every row, or every column, is its own scan), with sizes known
    only at run time. `inclusive`: Y[t] = X[0] . X[1] . ... . X[t];
    `exclusive`: Y[t] = identity . X[0] . ... . X[t-1]; `reverse` runs from
    the last element backwards. Elements are f32, i32, f16 or bf16; Yi has
    Xi's element type and shape.

    The combiner is `add`, `mul`, `max` or `min` (signed for integers;
    16-bit floats combine in f32 and round once per output), applied to each
    operand on its own; or a region that combines n-tuples: its arguments
    are the earlier tuple then the later one, and it yields the combined
    tuple. The region must be associative; it need not be commutative (the
    earlier tuple always comes first). An exclusive scan with a region needs
    the identity tuple in `identity`.

    `block` (the elements a program scans at a time, a power of two) and
    `warps` are optional schedule hints; `tile-tiling` picks them when
    absent.

    ```mlir
    tile.scan @cumsum add inclusive along 0
        : (memref<?xf32>, memref<?xf32>) -> ()
    tile.scan @running_max max exclusive reverse along 1
        : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()
    tile.scan @wide add inclusive along 0 block 8192 warps 8
        : (memref<?xf32>, memref<?xf32>) -> ()
    // h[t] = a[t] * h[t-1] + b[t] as a scan over (a, b) pairs.
    tile.scan @recurrence inclusive along 0
        : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
    {
    ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
      %a = arith.mulf %a1, %a0 : f32
      %ab = arith.mulf %a1, %b0 : f32
      %b = arith.addf %ab, %b1 : f32
      tile.yield %a, %b : f32, f32
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<Tile_ReduceKind>:$kind,
                       Tile_ScanMode:$mode,
                       UnitAttr:$reverse,
                       I64Attr:$along,
                       OptionalAttr<ArrayAttr>:$identity,
                       OptionalAttr<I64Attr>:$block,
                       OptionalAttr<I64Attr>:$warps);
  let regions = (region MaxSizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $sym_name ($kind^)? $mode (`reverse` $reverse^)?
    `along` $along (`identity` $identity^)? (`block` $block^)?
    (`warps` $warps^)? attr-dict `:` $function_type
    ($combiner^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Checks the `block` and `warps` hints.
    ::mlir::LogicalResult verifySchedule();
    /// Operands scanned together (n): inputs X1..Xn, outputs Y1..Yn.
    unsigned getNumScanned() {
      return getFunctionType().getNumInputs() / 2;
    }
    ::mlir::MemRefType getInputType(unsigned i) {
      return ::llvm::cast<::mlir::MemRefType>(getFunctionType().getInput(i));
    }
    ::mlir::MemRefType getOutputType(unsigned i) {
      return ::llvm::cast<::mlir::MemRefType>(
          getFunctionType().getInput(getNumScanned() + i));
    }
  }];
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike]> {
  let summary = "The combined tuple of a scan combiner";
  let description = [{
    Ends the combiner region of `tile.scan` or `tile.prefix` (or of the
    lowering's `tilegpu.lookback`) with the combined values, one per
    operand, in operand order.

    ```mlir
    tile.yield %a, %b : f32, f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, Symbol,
    AutomaticAllocationScope]> {
  let summary = "A block-level program launched over a grid";
  let description = [{
    The body runs once per program (thread block) of the grid; the grid is
    given per dimension by a `#tile.grid` attribute over the kernel's
    arguments, or by an array of them whose product it is, and the block has
    `num_warps` warps. Arguments are global
    buffers (`memref`, any rank, integer or float elements; strided, with
    offset 0 or dynamic: the runtime passes each view's own strides, which
    must agree with the static strides of the type) and scalars
    (`i1`..`i64`, `f16`, `bf16`, `f32`, `f64`); kernels return nothing.

    ```mlir
    tile.kernel @rows(%x: memref<?x?xf32>)
        attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                    num_warps = 8} {
      tile.return
    }
    // y: ceildiv(dim 0 of %x, 1) * ceildiv(dim 1 of %x, 64) programs.
    tile.kernel @product(%x: memref<?x?xf32>)
        attributes {grid = [#tile.grid<arg = 0, dim = 1, per_program = 64>,
                            [#tile.grid<arg = 0, dim = 0, per_program = 1>,
                             #tile.grid<arg = 0, dim = 1, per_program = 64>]],
                    num_warps = 4} {
      tile.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       ArrayAttr:$grid,
                       DefaultValuedAttr<I64Attr, "4">:$num_warps);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// Threads per program.
    int64_t getNumThreads() { return getNumWarps() * 32; }
    /// Checks the `tile.scratch` attribute against the arguments.
    ::mlir::LogicalResult verifyScratch();
    /// Checks factor `grid` of grid dimension `i` against the arguments.
    ::mlir::LogicalResult verifyGridFactor(unsigned i, GridAttr grid);
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, HasParent<"KernelOp">,
                                       ReturnLike, Terminator]> {
  let summary = "Ends a tile kernel";
  let description = [{
    ```mlir
    tile.return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of this program in the grid";
  let description = [{
    ```mlir
    %pid = tile.program_id x : index
    ```
  }];
  let arguments = (ins Tile_ProgramDim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "Number of programs along a grid dimension";
  let description = [{
    ```mlir
    %n = tile.num_programs x : index
    ```
  }];
  let arguments = (ins Tile_ProgramDim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [
    MemoryEffects<[MemRead]>]> {
  let summary = "Reads a tile from a buffer, padding what lies outside it";
  let description = [{
    Reads the tile whose first element is at `indices` in `buffer`. Elements
    outside the buffer (an index past the buffer's size in any dimension)
    read as `padding` (zero when absent). The tile has the buffer's rank.

    A tile whose type carries a workgroup-memory placement (an encoding
    such as `#tilegpu.shared`, given by `tile-promote-shared`) is read
    whole from the buffer in which the encoding places it: no indices. It
    stays there; only an op that reads its operands from workgroup memory
    (a warpgroup `tile.dot`) takes it.

    ```mlir
    %t = tile.load %x[%row, %col] {padding = 0xFF800000 : f32}
        : memref<?x?xf32> -> tensor<1x1024xf32>
    %b = tile.load %panels[]
        : memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        -> tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    ```
  }];
  let arguments = (ins Tile_Buffer:$buffer, Variadic<Index>:$indices,
                       OptionalAttr<TypedAttrInterface>:$padding);
  let results = (outs Tile_Tile:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$buffer,
                   "::mlir::ValueRange":$indices), [{
      build($_builder, $_state, result, buffer, indices, /*padding=*/nullptr);
    }]>
  ];
  let assemblyFormat = [{
    $buffer `[` $indices `]` attr-dict `:` type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The padding value, or zero of the element type.
    ::mlir::TypedAttr getPaddingOrZero();
    /// The workgroup-memory placement of the tile read whole, if any.
    SharedEncodingAttrInterface getPlacement() {
      return ::llvm::dyn_cast_or_null<SharedEncodingAttrInterface>(
          getType().getEncoding());
    }
  }];
}

def Tile_StoreOp : Tile_Op<"store", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Writes the part of a tile that lies inside a buffer";
  let description = [{
    Writes `value` with its first element at `indices`; elements that would
    fall outside `buffer` are not written.

    ```mlir
    tile.store %t, %y[%row, %col] : tensor<1x1024xf32>, memref<?x?xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$value, Tile_Buffer:$buffer,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` attr-dict `:` type($value) `,`
    type($buffer)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tile construction and data movement
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"element type matches the scalar", "result", "value",
                   "::llvm::cast<::mlir::TensorType>($_self).getElementType()">]> {
  let summary = "A tile with every element equal to a scalar";
  let description = [{
    ```mlir
    %t = tile.splat %alpha : f32 -> tensor<1024xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$value);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_RangeOp : Tile_Op<"range", [Pure]> {
  let summary = "The 1-D tile 0, 1, ..., n-1";
  let description = [{
    Useful to build masks and index arithmetic.

    ```mlir
    %r = tile.range : tensor<128xi32>
    ```
  }];
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Repeats a tile along new dimensions";
  let description = [{
    Inserts the dimensions `dims` of the result, over which the input is
    repeated; the remaining dimensions of the result are the input's.

    ```mlir
    %b = tile.broadcast %rowmax dims [1] : tensor<16xf32> -> tensor<16x128xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$input, DenseI64ArrayAttr:$dims);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $input `dims` $dims attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "Combines a tile along one dimension";
  let description = [{
    Reduces `input` along dimension `axis` with `add`, `mul`, `max` or `min`
    (signed for integers; `max`/`min` of floats propagate NaN). The result
    drops that dimension; reducing a 1-D tile gives a scalar that every
    thread of the program holds. Elements narrower than 32 bits are combined
    in f32 or i32 and the result is rounded back once.

    ```mlir
    %m = tile.reduce max %t along 1 : tensor<16x128xf32> -> tensor<16xf32>
    %s = tile.reduce add %v along 0 : tensor<1024xf32> -> f32
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Tile:$input,
                       I64Attr:$axis);
  let results = (outs AnyTypeOf<[Tile_Tile, AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    $kind $input `along` $axis attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_PrefixOp : Tile_Op<"prefix", [Pure, SingleBlock, Tile_HasCombiner,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Prefix combinations of tiles along one dimension, and totals";
  let description = [{
    Scans n tiles of one shape together along dimension `axis`. Element i
    of scan k combines elements 0..i of input k along that dimension
    (earlier elements on the left); with `exclusive`, elements 0..i-1, and
    element 0 of each row is the identity. `reverse` scans from the last
    element: element i combines elements n-1 down to i (or i+1). The
    results are the n scans, then the n totals: the combination of each
    whole row (the input's shape without `axis`; a scalar for 1-D tiles).

    The combiner is `add`, `mul`, `max` or `min` (signed for integers),
    applied to each input on its own, whose identity is 0, 1, the lowest or
    the highest value; elements narrower than 32 bits are combined in f32 or
    i32 and each result is rounded back once. Or it is a region that
    combines n-tuples, as in `tile.scan`: the earlier tuple then the later
    one; it must be associative, need not be commutative, and holds only
    element-wise arith and math ops. An exclusive scan with a region takes
    the identity tuple in `identity`.

    The block scan of a `tile.scan` description: each thread combines its
    own consecutive elements, the warps scan with `shfl.sync.up`, and the
    warp totals meet in workgroup memory.

    ```mlir
    %p:2 = tile.prefix add %t along 1 : tensor<4x1024xf32>
    %e:2 = tile.prefix max exclusive %t along 1 : tensor<4x1024xf32>
    %r:2 = tile.prefix add reverse %t along 1 : tensor<4x1024xf32>
    // h[t] = a[t] * h[t-1] + b[t]; %h#3 is h[1023].
    %h:4 = tile.prefix %a, %b along 0 : tensor<1024xf32>, tensor<1024xf32> {
    ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
      %an = arith.mulf %a1, %a0 : f32
      %ab = arith.mulf %a1, %b0 : f32
      %bn = arith.addf %ab, %b1 : f32
      tile.yield %an, %bn : f32, f32
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Tile_ReduceKind>:$kind,
                       Variadic<Tile_Tile>:$inputs, I64Attr:$axis,
                       UnitAttr:$exclusive, UnitAttr:$reverse,
                       OptionalAttr<ArrayAttr>:$identity);
  let results = (outs Variadic<AnyTypeOf<[Tile_Tile, AnySignlessInteger,
                                          AnyFloat]>>:$scansAndTotals);
  let regions = (region MaxSizedRegion<1>:$combiner);
  let assemblyFormat = [{
    ($kind^)? (`exclusive` $exclusive^)? (`reverse` $reverse^)? $inputs
    `along` $axis (`identity` $identity^)? attr-dict `:` type($inputs)
    ($combiner^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The scans, one per input, of the inputs' types.
    ::mlir::ResultRange getScans() {
      return getScansAndTotals().take_front(getInputs().size());
    }
    /// The totals of the rows, one per input.
    ::mlir::ResultRange getTotals() {
      return getScansAndTotals().drop_front(getInputs().size());
    }
    ::mlir::RankedTensorType getType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getInputs()[0].getType());
    }
  }];
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "Tile matrix product with accumulation";
  let description = [{
    `result = lhs x rhs + acc` for an MxK and a KxN tile of f16, bf16 or f32,
    accumulated in an f32 MxN tile.

    ```mlir
    %d = tile.dot %a, %b, %c
        : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    ```

    With `overlap`, the ops between the dot and the first op of its block
    that reads its result run while it computes. On warpgroup MMA the dot
    is issued there and waited for just before that reader, leaving in
    flight the `overlap` dots issued after it; other lowerings complete it
    at once. The order of the block is the schedule: attention with the
    `overlap_softmax` hint issues the next key block's scores, then the
    previous block's P x V, and computes the softmax of the scores while
    P x V runs.

    ```mlir
    %s = tile.dot %q, %kt, %zero overlap
        : tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xf32>
    %o = tile.dot %p, %v, %acc overlap
        : tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xf32>
    // Waits for %s; %o stays in flight.
    %m = tile.reduce max %s along 1 : tensor<128x128xf32> -> tensor<128xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$lhs, Tile_Tile:$rhs, Tile_Tile:$acc,
                       UnitAttr:$overlap);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc (`overlap` $overlap^)? attr-dict `:` type($lhs)
    `,` type($rhs) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Tile_TransposeOp : Tile_Op<"transpose", [Pure]> {
  let summary = "Swaps the two dimensions of a 2-D tile";
  let description = [{
    ```mlir
    %at = tile.transpose %a : tensor<32x128xbf16> -> tensor<128x32xbf16>
    ```
  }];
  let arguments = (ins Tile_Tile:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // TILEC_DIALECT_TILE_TILEOPS_TD
