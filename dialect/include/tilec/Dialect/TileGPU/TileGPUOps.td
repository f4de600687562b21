//===- TileGPUOps.td - Operations of the tilegpu dialect ---*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD

include "tilec/Dialect/TileGPU/TileGPUBase.td"
include "tilec/Dialect/TileGPU/TileGPUAttrs.td"
include "tilec/Dialect/TileGPU/TileGPUEnums.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_Tile : RankedTensorOf<[AnySignlessInteger, AnyFloat]>;
def TileGPU_Buffer : MemRefOf<[AnySignlessInteger, AnyFloat]>;

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "Moves a tile's elements into another layout";
  let description = [{
    The same tile, held as `result`'s encoding says (no encoding: the
    blocked layout). `tile-map-warps` lowers it by permuting each thread's
    registers where no element changes thread, by warp shuffles where only
    lanes differ, and through workgroup memory otherwise.
    `tile-assign-layouts` inserts it where an op needs its operands in
    another layout and folds it into producers that can make the tile in any
    layout (splats, ranges, loads, broadcasts of slices).

    ```mlir
    %b = tilegpu.convert_layout %a
        : tensor<128xf32> -> tensor<128xf32, #tilegpu.slice<dim = 0, parent_size = 128,
                                                             parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>
    ```
  }];
  let arguments = (ins TileGPU_Tile:$input);
  let results = (outs TileGPU_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Programs that cooperate across the grid
//===----------------------------------------------------------------------===//

def TileGPU_Scratch : MemRefRankOf<[I32], [1]>;

def TileGPU_TicketOp : TileGPU_Op<"ticket", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Numbers the programs of a launch in the order they start";
  let description = [{
    Returns 0 to the first program of the launch that executes it, 1 to the
    next, and so on, with the launch's epoch: one 64-bit atomic increment of
    words 0 (the count) and 1 (the epoch) of `scratch`. The program that
    takes the last ticket (the number of programs of the grid, less one)
    sets the count back to 0 and advances the epoch, so a buffer
    zero-filled once serves launch after launch, each with an epoch of its
    own (the runtime's scratch buffer, see the kernel attribute
    `tile.scratch`, mode 3). Every program holds both results.
    A program that waits for programs with smaller tickets (`tilegpu.lookback`)
    only waits for programs that have already started, so the kernel cannot
    deadlock whatever order the hardware starts the blocks in.

    ```mlir
    %t, %epoch = tilegpu.ticket %scratch : memref<?xi32>
    ```
  }];
  let arguments = (ins TileGPU_Scratch:$scratch);
  let results = (outs Index:$ticket, I32:$epoch);
  let assemblyFormat = "$scratch attr-dict `:` type($scratch)";
}

def TileGPU_ArriveOp : TileGPU_Op<"arrive", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Counts the programs that reach a counter, in order";
  let description = [{
    Returns how many programs reached counter `counter` (word `counter` of
    `scratch`) before this one, modulo `count`: 0 to the first, `count - 1`
    to the last of `count` programs, after which the counter is zero again
    (one wrapping atomic increment, PTX `atom.inc`). So a kernel whose
    `count` programs meet at each counter leaves its counters as it found
    them, and a scratch buffer zero-filled once stays usable launch after
    launch. The arrival orders memory across programs (release-acquire at
    device scope): what any thread of an earlier program wrote before the
    op is visible to every thread of a later one after it. With `count`
    split-K programs of one tile, the last adds the others' partial results
    (see `tile-tiling`).

    ```mlir
    %before = tilegpu.arrive %scratch[%tile] of %splits : memref<?xf32>
    %last = arith.cmpi eq, %before, %splitsMinusOne : index
    ```
  }];
  let arguments = (ins MemRefRankOf<[I32, F32], [1]>:$scratch, Index:$counter,
                       Index:$count);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $scratch `[` $counter `]` `of` $count attr-dict `:` type($scratch)
  }];
}

def TileGPU_LookbackOp : TileGPU_Op<"lookback", [
    MemoryEffects<[MemRead, MemWrite]>, SingleBlock, Tile_HasCombiner,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Combines the totals of the programs before this one";
  let description = [{
    The decoupled look-back of a single-pass scan. The program with ticket
    `ticket` (see `tilegpu.ticket`) is the `position`-th of a segment of
    consecutive tickets (0 for the first); its `totals` are the combinations
    of its own elements: i32, f32, f16 or bf16 scalars, or 1-element tiles
    (the total of a piece of one row), or 1-D tiles of one shape (the
    totals of a piece of a strip of columns, one per column, each looked
    back for on its own by the thread that holds it). Each result is the combination (earlier on the
    left) of the totals of the programs `ticket - position` to
    `ticket - 1`. The first program of a segment has nothing to combine: it
    gets the identity of `kind`; with a combiner region instead of a kind
    (over the tuple of totals, as in `tile.scan`) its results are
    unspecified and the caller must not use them.

    The program publishes its totals in `scratch` at once, so that its
    successors need not wait for its own look-back. One warp then reads the
    status of the 32 programs before it at a time with device-scope atomic
    loads, backs off and reads again while any of them has published
    nothing yet, combines the totals of the
    ones up to the nearest that has published its inclusive prefix, and
    stops there (or goes 32 further back). Finally it publishes its own
    inclusive prefix. Status of ticket t: from byte 16 + 16 * N * E * t (N
    totals of E elements), per total and element one 64-bit word for the
    total and one for the
    inclusive prefix, each holding a tag in its high half (the low 30 bits
    of `epoch`, the launch's epoch from `tilegpu.ticket`, then 2 bits of
    flag) and the value's bits in its low half (16-bit values
    zero-extended), so that one load gives a value with its flag, and a
    status left by an earlier launch reads as not published. The scratch
    buffer must hold 16 + 16 * N * E bytes per program, zero-filled when
    allocated; the runtime fills it again before an epoch would repeat.

    ```mlir
    %carry = tilegpu.lookback add %total at %ticket epoch %epoch
        position %piece in %scratch : memref<?xi32>, f32
    %ca, %cb = tilegpu.lookback %ta, %tb at %ticket epoch %epoch
        position %ticket in %scratch : memref<?xi32>, f32, f32 {
    ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
      %a = arith.mulf %a1, %a0 : f32
      %ab = arith.mulf %a1, %b0 : f32
      %b = arith.addf %ab, %b1 : f32
      tile.yield %a, %b : f32, f32
    }
    ```
  }];
  let arguments = (ins OptionalAttr<Tile_ReduceKind>:$kind,
      Variadic<AnyTypeOf<[I32, F32, F16, BF16, TileGPU_Tile]>>:$totals,
      Index:$ticket, I32:$epoch, Index:$position, TileGPU_Scratch:$scratch);
  let results =
      (outs Variadic<AnyTypeOf<[I32, F32, F16, BF16, TileGPU_Tile]>>:$carries);
  let regions = (region MaxSizedRegion<1>:$combiner);
  let assemblyFormat = [{
    ($kind^)? $totals `at` $ticket `epoch` $epoch `position` $position
    `in` $scratch
    attr-dict `:` type($scratch) `,` type($totals) ($combiner^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Scratch bytes before the first status (words 0 and 1 are the ticket
    /// count and the epoch).
    static constexpr int64_t kHeaderBytes = 16;
    /// Scratch bytes of one program's status with `numTotals` totals of
    /// `elements` elements each.
    static int64_t statusBytes(unsigned numTotals, int64_t elements = 1) {
      return 16 * numTotals * elements;
    }
    /// Whether the totals are tiles of several elements, each looked back
    /// for on its own.
    bool isElementwise() {
      auto tile = llvm::dyn_cast<mlir::RankedTensorType>(
          getTotals().front().getType());
      return tile && tile.getNumElements() > 1;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Asynchronous copies (mapped programs)
//===----------------------------------------------------------------------===//

def TileGPU_CopyAsyncOp : TileGPU_Op<"copy_async", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Starts copying a tile from global into workgroup memory";
  let description = [{
    The threads of the program start copying the tile of `dst`'s shape
    whose first element is at `indices` in `src` into `dst`, a buffer in
    workgroup memory; elements outside `src` arrive as zeros. The copy is
    complete once a `tilegpu.async_wait` has waited for the group that a later
    `tilegpu.async_commit` closed. `vector_bytes` (set by `tile-vectorize`) is
    the width of each thread's accesses when `src` is suitably aligned.
    `tile-promote-shared` and `tile-stage-windows` create these ops; a
    1-D copy (a window of a 1-D buffer) copies one row.

    With a `layout` (a workgroup-memory placement such as
    `#tilegpu.shared`), `dst` is the buffer in which the layout places the
    tile, and each element goes where the layout says: with Hopper's
    128-byte swizzle, `dst` is [P, R, W] for an R x (P * W) tile, W
    elements making 128 bytes, and in row r of a panel the 16-byte group g
    sits at group position g xor (r mod 8). Consecutive rows of 8 thus
    spread a column of 16-byte groups over all 32 banks.

    ```mlir
    tilegpu.copy_async %x[%start], %window {vector_bytes = 16}
        : memref<?xf32>, memref<3072xf32, #gpu.address_space<workgroup>>
    tilegpu.copy_async %a[%m0, %k], %slot {vector_bytes = 16}
        : memref<?x?xbf16>, memref<128x32xbf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
    tilegpu.copy_async %b[%k, %n0], %panels {vector_bytes = 16,
        layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}
        : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins TileGPU_Buffer:$src, Variadic<Index>:$indices,
                       TileGPU_Buffer:$dst, OptionalAttr<I64Attr>:$vector_bytes,
                       OptionalAttr<TileGPU_SharedLayoutAttr>:$layout);
  let builders = [
    OpBuilder<(ins "::mlir::Value":$src, "::mlir::ValueRange":$indices,
                   "::mlir::Value":$dst), [{
      build($_builder, $_state, src, indices, dst, /*vector_bytes=*/nullptr,
            /*layout=*/nullptr);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The logical [rows, cols] of the copied tile.
    ::llvm::SmallVector<int64_t> getTileShape();
  }];
  let assemblyFormat = [{
    $src `[` $indices `]` `,` $dst attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitOp : TileGPU_Op<"async_commit"> {
  let summary = "Closes the group of copies started since the last commit";
  let description = [{
    ```mlir
    tilegpu.async_commit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait"> {
  let summary = "Waits for copy groups, then synchronizes the program";
  let description = [{
    Waits until at most `pending` of the most recently committed copy groups
    are incomplete, then synchronizes the threads of the program, so that
    every thread sees every completed copy.

    ```mlir
    tilegpu.async_wait 2
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
}

//===----------------------------------------------------------------------===//
// Bulk tensor copies completing on transaction barriers
//===----------------------------------------------------------------------===//

def TileGPU_Barriers : MemRefRankOf<[I64], [1]>;

def TileGPU_BarrierInitOp : TileGPU_Op<"barrier_init", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Initializes a row of transaction barriers";
  let description = [{
    Sets up every barrier in `barriers`, an i64 buffer in workgroup memory,
    for phases that complete once `arrivals` arrivals have been made and
    every byte announced with them has landed; then synchronizes the threads
    of the program, so that no barrier is used before it is ready. Each
    phase of a barrier has a parity, 0 for the first, alternating after.
    `tile-promote-shared` creates these ops for bulk copies.

    ```mlir
    tilegpu.barrier_init %bars arrivals 2 : memref<4xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins TileGPU_Barriers:$barriers, I64Attr:$arrivals);
  let assemblyFormat = [{
    $barriers `arrivals` $arrivals attr-dict `:` type($barriers)
  }];
  let hasVerifier = 1;
}

def TileGPU_BarrierInvalOp : TileGPU_Op<"barrier_inval", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Retires a row of transaction barriers";
  let description = [{
    Once every thread of the program is past its last use of the barriers
    in `barriers` (the op synchronizes them first), one thread invalidates
    each, so that their memory may hold other data or new barriers: PTX
    leaves both undefined on a valid barrier. The threads are synchronized
    again after. `tile-promote-shared` creates these ops after a bulk-copy
    pipeline whose memory a later loop or `tile-reuse-staged-memory` takes.

    ```mlir
    tilegpu.barrier_inval %bars : memref<4xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins TileGPU_Barriers:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` type($barriers)";
  let hasVerifier = 1;
}

def TileGPU_CopyBulkOp : TileGPU_Op<"copy_bulk", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Copies a tile into swizzled panels with the tensor-copy engine";
  let description = [{
    Like `tilegpu.copy_async` with a `layout`, copies the tile that the
    layout places in `dst` (R x (P * W) for [P, R, W] panels), first element
    at `indices` in `src`, with zeros for elements outside `src`. The
    layout must be a swizzle the copy engine has (32, 64 or 128 bytes). The copy is not made
    by the threads: one of them announces the tile's bytes on barrier
    `barrier` of `barriers` (one arrival) and hands the copy to the hardware
    (TMA on Hopper), so the barrier's phase completes only once the tile has
    landed. The runtime describes `src` to the hardware, so `src` must be a
    kernel argument.

    A source of higher rank (up to 5) takes one index per dimension: the
    tile's columns run along the last dimension, its rows along `rows_dim`
    (by default the one before), and it is one element thick in every
    other. This is how a tile of one (batch, head) of a 4-D attention
    buffer is copied without a view the runtime could not describe.

    With `multicast`, the blocks of the kernel's thread-block cluster
    (`tile.cluster` = X blocks) share the tile: block r of the cluster
    copies rows [r R / X, (r + 1) R / X) of every panel into the same slot
    of every block of the cluster (TMA multicast), and each block announces
    the whole tile on its own barrier.

    With `fit_rows` (not with `multicast`), the box's rows are fitted to
    `src` when the copy is launched: `src`'s extent along the rows, rounded
    up to 8 (a swizzle atom), where that is fewer than R. The barrier
    expects those rows of each panel, and the slot's rows past them keep
    what they held. This is for a tile whose rows past `src`'s end only
    ever make rows of a result that are not stored (a matmul's A tile along
    M): C of 3 rows then has the copy engine write 8 rows of A's tile, not
    64 of which 61 are zeros (1.10-1.20x faster at 3 to 16 rows of
    14336x4096 on the H200).

    ```mlir
    tilegpu.copy_bulk %b[%k, %n0], %panels, %bars[%slot]
        {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}
        : memref<?x?xbf16>, memref<4x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins TileGPU_Buffer:$src, Variadic<Index>:$indices,
                       TileGPU_Buffer:$dst, TileGPU_Barriers:$barriers,
                       Index:$barrier, TileGPU_SharedLayoutAttr:$layout,
                       OptionalAttr<I64Attr>:$rows_dim,
                       UnitAttr:$multicast, UnitAttr:$fit_rows);
  let extraClassDeclaration = [{
    /// The logical [rows, cols] of the copied tile.
    ::llvm::SmallVector<int64_t> getTileShape();
    /// The source dimension the tile's rows run along.
    unsigned getRowsDimension() {
      return getRowsDim() ? static_cast<unsigned>(*getRowsDim())
                          : getSrc().getType().getRank() - 2;
    }
  }];
  let assemblyFormat = [{
    $src `[` $indices `]` `,` $dst `,` $barriers `[` $barrier `]` attr-dict
    `:` type($src) `,` type($dst) `,` type($barriers)
  }];
  let hasVerifier = 1;
}

def TileGPU_BarrierWaitOp : TileGPU_Op<"barrier_wait", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits for a phase of a transaction barrier";
  let description = [{
    Every thread waits until the phase of barrier `barrier` whose parity is
    the low bit of `phase` has completed; the bytes copied to it are then
    visible to the thread. Threads are not otherwise synchronized.
    With `issuer`, only the thread that issues the program's bulk copies
    waits: before refilling a pipeline slot, for the phase in which every
    warp released it (an "empty" barrier), while the other threads go on.

    ```mlir
    tilegpu.barrier_wait %bars[%slot], %phase : memref<4xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_wait %empty[%slot], %use issuer : memref<4xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins TileGPU_Barriers:$barriers, Index:$barrier,
                       Index:$phase, UnitAttr:$issuer);
  let assemblyFormat = [{
    $barriers `[` $barrier `]` `,` $phase (`issuer` $issuer^)? attr-dict `:` type($barriers)
  }];
  let hasVerifier = 1;
}

def TileGPU_BarrierArriveOp : TileGPU_Op<"barrier_arrive", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Arrives on a barrier: the thread is done with what it guards";
  let description = [{
    Every thread that executes it makes one arrival on barrier `barrier` of
    `barriers`, releasing what it did before (its reads of a pipeline slot,
    say) to the threads that wait for the phase. With warp roles, the tile
    threads arrive on a slot's "empty" barrier once their dots have read it,
    and the producer waits for that phase before refilling the slot.
    With `cluster`, the thread arrives on barrier `barrier` of every block
    of its thread-block cluster (the slot the blocks share by multicast).
    With `warp`, a warp makes one arrival instead of one a thread: its
    lanes meet (they must all reach the op together) and the first arrives
    for them, so a barrier of 8 warps counts 8 arrivals, not 256, and a
    cluster's remote arrivals drop by as much.

    ```mlir
    tilegpu.barrier_arrive %empty[%slot] : memref<4xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_arrive %empty[%slot] warp cluster : memref<4xi64, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins TileGPU_Barriers:$barriers, Index:$barrier,
                       UnitAttr:$warp, UnitAttr:$cluster);
  let assemblyFormat = [{
    $barriers `[` $barrier `]` (`warp` $warp^)? (`cluster` $cluster^)? attr-dict `:` type($barriers)
  }];
  let hasVerifier = 1;
}

def TileGPU_ClusterSyncOp : TileGPU_Op<"cluster_sync"> {
  let summary = "All threads of every block of the thread-block cluster meet";
  let description = [{
    Every thread of every block of the kernel's cluster arrives, then waits
    for all the others (`barrier.cluster.arrive` and `wait`), so that what
    one block did before (initialize its barriers, say) is visible to the
    others, and no block leaves while another may still write to its
    shared memory or arrive on its barriers. Threads may arrive from
    different branches (the producer warp and the tile threads).

    ```mlir
    tilegpu.cluster_sync
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Turns of warpgroups
//===----------------------------------------------------------------------===//

def TileGPU_TurnOp : TileGPU_Op<"turn", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "The block's warpgroups take turns at what follows";
  let description = [{
    The warpgroups of a block (128 threads each) take turns, in the order
    of their thread indices, at the ops between `take` and `pass`, so that
    one warpgroup's warpgroup MMAs are issued while the others compute
    (FlashAttention-3's ping-pong: the tensor cores work on one
    warpgroup's dots while the next computes its softmax).
    - `take` waits until it is this warpgroup's turn;
    - `pass` gives the turn to the next warpgroup (the last to the first);
    - `open`, before a loop that takes turns, gives the first turn to the
      first warpgroup;
    - `close`, after it, has the first warpgroup take back the turn the
      last one passed, so that every turn passed has been taken.
    Every thread of the block executes the four steps equally often (the
    loop's trip count is the same for all), unless `close` names the turns
    taken in all (`close after %n`): then the warpgroup whose turn it is after n
    turns takes it back, so that warpgroups taking alternate tiles of a
    walk may take one turn more or less than another. In the consumers of
    a `tilegpu.warp_roles` with `groups`, the groups take the turns (each
    running the program on its own threads). `tile-map-warps` lowers the
    steps to named barriers, one a warpgroup (group), over two warpgroups'
    (groups') threads; a block of one warpgroup takes no turns.

    ```mlir
    tilegpu.turn open
    %r = scf.for %k = %c0 to %n step %c128 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      tilegpu.turn take
      %s = tile.dot %q, %kt, %zero overlap : ...
      %o = tile.dot %p, %v, %acc overlap : ...
      tilegpu.turn pass
      // softmax of %s while the next warpgroup's dots run
      scf.yield %o : tensor<128x128xf32>
    }
    tilegpu.turn close
    ```
  }];
  let arguments = (ins TileGPU_TurnStep:$step, Optional<Index>:$turns);
  let assemblyFormat = "$step (`after` $turns^)? attr-dict";
  let hasVerifier = 1;
}

def TileGPU_GroupIdOp : TileGPU_Op<"group_id", [Pure]> {
  let summary = "Which group of tile threads runs the program";
  let description = [{
    In the consumers region of a `tilegpu.warp_roles` with `groups = G`,
    the index (0 .. G-1) of the group of tile threads running this copy of
    the program; 0 where the roles have no groups. The groups of a
    ping-pong matmul take the tiles g, g + G, ... of their block's walk.

    ```mlir
    %g = tilegpu.group_id
    %first = arith.addi %tile0, %g : index
    ```
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp roles
//===----------------------------------------------------------------------===//

def TileGPU_WarpRolesOp : TileGPU_Op<"warp_roles", [
    NoTerminator, NoRegionArguments,
    RecursiveMemoryEffects]> {
  let summary = "Splits a program's threads into a producer and the tile threads";
  let description = [{
    The program's tile threads (the block size its tiles are laid out over)
    run the `consumers` region; one extra warp, appended after them, runs
    the `producer` region. The producer issues bulk copies
    (`tilegpu.copy_bulk`, made by its first thread alone) and waits on
    barriers; the consumers compute. Synchronizations of the tile threads
    inside `consumers` (the block barriers that layout conversions and
    reductions use) are over the tile threads only (a named barrier), so
    the producer never takes part in them. `tile-warp-specialize` creates
    this op from a pipelined loop of bulk copies; `tile-map-warps` lowers
    it to two branches on the thread index and adds the producer warp to
    the kernel's block size.

    With `registers = array<i32: P, C>`, the producer is a whole warpgroup
    (of which the first warp runs the region) and the roles move registers
    between them (`setmaxnreg`): the producer keeps P a thread, the tile
    threads, whole warpgroups, take C, so that tiles needing more registers
    than a block of that size gets at launch fit (P and C multiples of 8
    from 24 to 256).

    With `groups = G` (2 or more), G groups of tile threads run the
    `consumers` region side by side, each on its own thread ids 0 ..
    threads-1 and its own workgroup buffers (its block barriers are over
    its own threads); `tilegpu.group_id` tells them apart. The producer
    comes after all of them. A persistent matmul's ping-pong: each group is
    a warpgroup computing whole tiles, the groups taking alternate tiles
    and turns at their MMAs, so that one's epilogue overlaps the other's
    MMAs.

    ```mlir
    tilegpu.warp_roles producer {
      scf.for %k = %c0 to %K step %c64 {
        // wait for the slot's "empty" phase, then refill it
        tilegpu.barrier_wait %empty[%slot], %phase : memref<4xi64, #gpu.address_space<workgroup>>
        tilegpu.copy_bulk %a[%m0, %k], %panels, %full[%slot] {layout = ...} : ...
      }
    } consumers {
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
        tilegpu.barrier_wait %full[%slot], %phase : memref<4xi64, #gpu.address_space<workgroup>>
        %d = tile.dot %ta, %tb, %acc {tile.in_flight = 1 : i64} : ...
        tilegpu.barrier_arrive %empty[%previous] : memref<4xi64, #gpu.address_space<workgroup>>
        scf.yield %d : tensor<128x256xf32>
      }
      tile.store %acc, %c[%m0, %n0] : tensor<128x256xf32>, memref<?x?xf32>
    }
    ```
  }];
  let arguments = (ins OptionalAttr<DenseI32ArrayAttr>:$registers,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$groups);
  let regions = (region MaxSizedRegion<1>:$producer,
                       MaxSizedRegion<1>:$consumers);
  let assemblyFormat = [{
    `producer` $producer `consumers` $consumers attr-dict
  }];
  let hasVerifier = 1;
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD
