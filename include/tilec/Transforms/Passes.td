//===- Passes.td - tilec transformation passes -------------*- tablegen -*-===//

#ifndef TILEC_TRANSFORMS_PASSES_TD
#define TILEC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileTiling : Pass<"tile-tiling", "::mlir::ModuleOp"> {
  let summary = "Turn descriptions into block programs";
  let description = [{
    Replaces each description op by the `tile.kernel` that computes it, one
    program per output tile:

    - `tile.matmul`: a 2-D grid over C's tiles of `block` [M, N, K] extents,
      renumbered in groups of 8 tile rows so that programs running together
      share A and B tiles in L2; each program loops over K, loading padded A
      and B tiles (zeros past the buffers) into `tile.dot`, and stores its
      masked C tile. The loop carries `tile.stages`, the pipeline depth for
      `tile-promote-shared`. Without hints: 16-bit inputs take 128x256x32
      tiles, 8 warps and 4 stages (128x256x64 with `warpgroup-mma`, whose
      operands are read in 128-byte panels; each warpgroup owns 64 rows in
      one m64n256 instruction, which ran 1-1.5% faster on the H200 than
      cuBLAS's 256x128 with 128 rows a warpgroup); f32 takes 128x128x32, 8 warps,
      3 stages.
      With `producer-warp` (and `warpgroup-mma`, 16-bit inputs), the K loop
      is marked `tile.producer_warp` for `tile-promote-shared`, and the
      main kernel is persistent (`tile.persistent = 1`): program x walks the
      ceil(M / 128) x ceil(N / 256) tiles pid, pid + programs, ... in the
      grouped order (a loop marked `tile.persistent_tiles`), and the runtime
      launches at most one block a multiprocessor, in thread-block clusters
      of two (`tile.cluster = 2`): the two blocks of a cluster take the two
      tiles of a pair of adjacent tile rows (a row past C computes a tile
      nothing stores), so they read the same B tile, whose load is marked
      `tile.cluster_shared` (a hinted tile taller than wide: adjacent tile
      columns, sharing A). Both kernels list A and B in
      `tile.repitch_args`: each element of A is read by a row of tiles
      (grid x), of B by a column (grid y), so where TMA cannot describe one
      (rows not 16-byte aligned) the runtime copies it into 16-byte pitched
      rows and launches the kernel rather than its per-thread-copy twin
      (launch metadata `repitch`), from one tile on: the runtime's copy
      kernels cost less than the twin's per-thread copies even where one
      tile reads each element. They list C too, as
      written (`[2, -1, 0]`, or `[2, -1, 1]` when accumulating reads it
      first): a C whose rows TMA's bulk store cannot describe (odd N in
      bf16, one column) is staged at any grid and copied back after the
      launch (and its sum kernel), in before it when read.
      With the `pingpong` hint (and a producer), the program is one
      warpgroup's (4 warps, 128x128x64, 5 stages) and its K loop also asks
      for two groups of tile threads (`tile.consumer_groups` = 2) and a
      producer warpgroup handing its registers over
      (`tile.producer_registers` = [40, 232]): the two warpgroups take
      alternate tiles of the walk and turns at their MMAs, so that one's
      epilogue runs while the other's MMAs do. Not the default: on the H200
      it ran 0.95x cuBLAS at 4096^3 (the default 0.98x), 0.80x and 0.84x
      at 3000x5000x4000 and 8000x3000x6000 (the default 0.94x and 1.01x);
      at 4096^3 its tensor pipe was as busy (88.8% of elapsed cycles
      against 88.5%) at a lower clock. Only an accumulating f32-output
      matmul at 4096^3 ran faster (0.905x cuBLAS against 0.855x)
      (bench/matmul/results/2026-11-30-h200-pingpong).

    - `tile.scan` (a kind or a combiner region over n operands; inclusive
      or exclusive; forward or reverse; 1-D, or 2-D along its rows or its
      columns):
      - 1-D: a single pass on 4 warps: a program takes a
        `tilegpu.ticket`, and `tilegpu.lookback` over the tickets before it
        gives the carry combined in front of its `tile.prefix`. A kind
        scan of one or two operands without hints takes 6144 / n elements
        a program, read 1024 at a time, twice: combined for the
        `tile.reduce` total that the look-back publishes first, then
        scanned behind the carry (`tile-stage-windows` keeps the piece in
        workgroup memory in between, 24 KB, so 9 programs fit an SM; one
        32-bit operand is capped at 32 registers). Other scans take 4096 / n elements a program in
        registers (a region, whose total must keep the order, publishes its
        block scan's).
      - Rows: one program per row, walking it in pieces of 1024 elements on
        8 warps, carrying the block scans' totals; plus
        `<name>__small_grid`, the single pass over pieces of rows (as
        1-D, but of 3072 / n elements read 512 at a time; the look-back
        stays within a row), which the runtime launches
        with fewer rows than multiprocessors (`tile.small_grid`); plus a
        ladder `<name>__rows_W` (W = 4096, 2048, ..., 4) scanning 4096 / W
        whole rows a program in one tile, each named by the next wider
        kernel's `tile.narrow`: the runtime takes the narrowest that holds
        the rows.
      - Columns: one program per strip of 4 * 32 * warps columns (4 warps
        without hints) walks down them in pieces of 4096 / n elements,
        carrying the strip's column totals; every thread holds whole
        columns of a piece, so its `tile.prefix` along dimension 0 is a
        running combination in each thread; plus `<name>__small_grid`,
        launched with fewer strips than multiprocessors (`tile.small_grid`):
        a single pass whose programs of 2 warps each take 128 rows of a
        strip of 256 columns, combine their pieces' column totals, look
        back over the strip's programs column by column (`tilegpu.lookback`
        over 1-D totals) and scan the pieces again with the carry.
      Reverse scans take their pieces from the end. Kinds scan 16-bit
      floats in f32; regions combine them as they are.

    - `tile.attention`: flash attention, one program per block of query
      rows of one (batch, head) (grid x over n_q, y over heads, z over
      batches; K/V head h / (heads / kv_heads)). Two loops over key blocks
      carry the online softmax (accumulator, row maximum and sum in the
      log2 domain): the first over the blocks every row sees whole, without
      a mask; the second over the rest (the blocks the causal diagonal,
      aligned to the bottom-right corner, crosses and a partial last block),
      which masks keys past the end and past the diagonal. Causal blocks
      past the diagonal are not visited. The score modification is applied
      to whole score tiles (index arguments as i32 tiles) before the mask.
      Rows that see no key store 0, and a log-sum-exp of -inf. Without
      hints: 64 query rows on 4 warps at d64, 128 on 8 at d128; 128 keys a
      block; 2 stages. With `producer-warp`, the key loops of schedules
      with two warpgroups (d128, d256; not d64's one, which loses with it)
      are marked `tile.producer_warp`, and where the tiles need more
      registers than a block with a producer gets (d256, the overlapped
      softmax) `tile.producer_registers = array<i32: 24, 240>`; d128
      without a mask also takes turns (ping-pong). On the H200: 1.05-1.17x
      the schedule without a producer. So does causal d128 (no window, no
      score modification). Such kernels without a score modification
      have a `<name>__short_rows` without turns, which the runtime
      launches for at most 512 query rows (causal: 1024; `tile.narrow` on
      Q's sequence, or on max_seqlen_q): turns ran 0.85-0.94x at 256-512
      rows without a mask (level from 768) and 0.94-0.98x causal at
      512-1024, 1.01-1.10x causal from 2048. With the `persistent` hint the
      whole kernel's body is a walk over its (query block, head, batch)
      tiles from `program_id x` by `num_programs x` (`tile.persistent` 1,
      `tile.persistent_tiles`; causal: the last query blocks first),
      whose loop LLVM may not hoist from (`llvm.licm.disable`: hoisted
      addresses spilled in the key loops); not the default, 0.96-0.99x the
      launched grid at d128 on the H200.
      Decode: `<name>__decode` (`tile.narrow` on Q's sequence, at most 16
      rows) takes the keys in chunks, one program each (grid x over
      heads, y over batches, z over chunks of at least 1024 keys, which
      the runtime caps at one program a multiprocessor in all, two at d64
      with `warpgroup-mma`, `tile.split`; the programs share the key
      blocks evenly among the chunks launched), 64 rows on 4 warps (a
      warpgroup MMA from slots that TMA fills, three stages with
      `warpgroup-mma`, else two; the rows past the queries pad), and
      leaves the used rows of each chunk's
      unnormalised accumulator, row maximum and sum in the runtime's
      scratch buffer (`tile.scratch`, not zero-filled, 16-byte aligned,
      after a header where program 0 leaves the chunk count), or,
      launched with one chunk, stores O and the log-sum-exp itself (the
      runtime then skips the combine);
      its `tile.then` kernel `<name>__decode_combine`, one program per
      (head, batch, 32 columns), merges the chunks eight at a time
      (static views of a program's rows, statistics broadcast over the
      columns, no branch a load) and stores O and the log-sum-exp. With
      one query row, `<name>__decode_heads` packs the query heads of a
      K/V head into the rows (all of them up to 64, else packs of equal
      size), so that every K/V head is read once; grid x runs over K/V
      heads and packs, and programs past their K/V head's packs return
      at once. Its
      combine takes one head a program, 16 chunks a step in the rows of
      its tile, then merges the rows.
      Packed sequences (`layout(thd)`): grid x over blocks of the
      `max_seqlen_q` argument, y over heads, z over the entries of
      `cu_seqlens_q`; a program loads its sequence's token offsets and
      lengths, returns at once past its queries, and runs the same loops
      over views of its sequence. Decode variants only with the
      `max_seqlen_k` argument, which sizes their grid of chunks (y over
      the entries of `cu_seqlens_q`).

    Shapes are known only at launch, so with `small-grid-variants` a matmul
    without hints also gets a kernel `<name>__small_grid` with smaller
    tiles (16-bit: 128x128, 8 warps; f32: 32x128x32, 4 warps), named by the
    main kernel's `tile.small_grid` attribute: the runtime launches it when
    the main grid has fewer blocks than half the multiprocessors. Where its
    tiles are narrower than the main kernel's (16-bit: 128 against 256
    columns), it is also the main kernel's narrow variant (`tile.narrow`)
    for C of at most that many columns, which the wider tiles would compute
    half empty. The
    16-bit small-grid kernel also splits K (split-K): its grid's z
    dimension takes K in parts of at least 512 elements, each program
    leaves its f32 partial tile in the runtime's scratch buffer (after 1024
    arrival counters that the kernel keeps zero, `tile.scratch` mode 2) and
    arrives at its tile's counter (`tilegpu.arrive`); the last to arrive
    adds the partial tiles in split order (the same bits whichever program
    finishes last) and stores C. `tile.split = 1` lets the runtime cap z
    at one block a multiprocessor in all (the kernel holds one): more
    splits would only add waves and partial tiles to add.
    `tile.split_min_parts = 4` runs K of under 4 parts (at most 1536)
    unsplit: adding the partial tiles costs more than such splits save.
    The kernel itself uses at most the least power of two whose square
    is at least its K steps (32 splits for 1024 steps), since the last
    program adds the partial tiles one after another; programs past
    those take no K steps and leave nothing. Each small-grid kernel has a
    small-grid variant of its own, `<name>__split_k` (its
    `tile.small_grid`; the runtime counts a split grid's x * y, its tiles).
    The f32 small-grid kernel does not split; its variant, taken where its
    grid too has fewer blocks than half the multiprocessors, is the same
    tiles with K split as above, compiled for 3 blocks a multiprocessor
    (`tile.min_blocks_per_sm`): the split in the small-grid kernel itself
    slowed its unsplit launches by 10-12%. The 16-bit kernel's variant,
    taken where its tiles are under 7% of the multiprocessors (at most 9
    of 132), is the same tiles and split without the cap and the adder:
    every split of the grid takes K steps and leaves its partial tile
    after a 16-byte header (program (0, 0, 0) leaves the splits there),
    and a sum kernel `<name>__split_k_sum` (`tile.then`: 4 warps, x over
    C's tile columns, y over C's rows) adds them over all the
    multiprocessors, 32 splits a load; 1.1-1.9x faster at 1 to 9 tiles
    with long K on the H200, and slower from 16 tiles on, where the
    adder's splits are as many.

    A matmul whose C is a column or a few (matrix-vector products) also
    gets a GEMV kernel `<name>__gemv`, the narrowest rung of the narrow
    ladder (`tile.narrow` at most 2 columns in 16-bit, on the small-grid
    kernel; 4 in f32, on the main kernel). Tiles of columns would compute
    columns past N and, behind TMA, stage B and C through copies; a GEMV
    program (x: one column of C, y: 8 rows of C; 32 for a column-major A)
    reads A with plain loads checked for alignment at run time, B's column
    as a 1-D view, sums the products in an f32 tile in A's stored
    orientation and reduces it once after the K loop; the programs of one
    row block's columns run together and share A through L2. Grids under
    half the multiprocessors go back down the small-grid kernel's ladder
    (`tile.small_grid`), which splits K. On the H200 it ran 1.5-2.5x as
    fast as the small-grid kernel in 16-bit at one column (4096x1x4096
    1.03-1.14x cuBLAS), 1.07-2.7x at two, and 2.5-13x in f32.

    A 16-bit matmul for warpgroup MMA (sm_90a) whose C has at most 64 rows
    (a batch of decode tokens times a weight) gets few-rows kernels,
    reached by the main kernel's first narrow line (on C's rows, so a
    short C takes them whatever its columns). `<name>__few_rows`: 64x128
    tiles, two warpgroups each m64n64 a 16 of K, 8 slots, where the 128-row tiles
    computed and staged at least half their rows as padding. It splits K
    over the grid like the split kernel, each split storing only C's rows
    of its partial tile, with a sum kernel of its own
    (`<name>__few_rows_sum`) that adds 8 rows of C a program, loading
    the [8, 128] slabs of 4 splits at once. Its small grids go to the split
    kernel. On the H200 it ran 1.3-1.7x as fast as the kernels before at
    1 to 32 rows and 1.2x at 64 (0.77-1.08x cuBLAS). Above it sits a wide
    few-rows kernel `<name>__few_rows_wide`, the main kernel's narrow line
    itself: 64x256 tiles (two warpgroups each m64n128) in 5 slots, K
    unsplit, for C of many columns, whose 64x128 tiles outnumber the
    multiprocessors; its grids under half the multiprocessors go to the
    few-rows kernel, its C of at most 2 columns to the GEMV kernel. On the
    H200 it ran 1.05-1.28x as fast as the 64x128 tiles at 1 to 64 rows of
    16896 to 65536 columns (0.91-1.01x cuBLAS; 8x28672x4096 0.92-0.93x).
    Below it sits a thin few-rows kernel `<name>__few_rows_thin`: 64x64
    tiles on one warpgroup (m64n64) in 8 slots, K split with a sum kernel
    of its own (`<name>__few_rows_thin_sum`), taking the few-rows kernel's
    grids under half the multiprocessors (C of fewer than 8448 columns on
    the H200), where the 64x128 tiles split K; its own small grids go to
    the split kernel. Twice the tiles halve the splits and the partial
    tiles to add: 1.06-1.26x as fast as the 64x128 tiles at N of 6144 to
    8192 (64x8192x4096 1.00-1.02x cuBLAS, was 0.79-0.82x), 1.17-1.20x at
    64x4096x4096, 1.03-1.05x at 16 and 32 rows of 4096x4096; 0.90-0.99x
    at 8x768x8192, which went to the split kernel before.
    The few-rows kernels copy A row-major in boxes fitted to A's rows
    (`tile.fit_rows`, tilegpu.copy_bulk `fit_rows`: rounded up to 8),
    not whole 64-row boxes the copy engine fills with zeros: 1.10-1.20x
    as fast at 3 to 16 rows of 14336x4096 (0.96-0.98x cuBLAS, was
    0.80-0.88x), 1.02-1.05x at 8x28672x4096, level at 48 and 64 rows.
    The main, small-grid and split kernels (16-bit warpgroup MMA) fit
    A's boxes likewise, for C of 65 to 127 rows: 80x28672x4096 1.09-1.10x
    as fast (main kernel), 72x8192x4096 and 100x14336x4096 1.01-1.05x,
    level at 127 and 128 rows and on square shapes.

    Likewise, where B is stored [N, K] (a linear layer's weight), a C of
    one or two rows (a batch of one) gets a vector-matrix kernel
    `<name>__vecmat`: the same program over B, as C's row is B's
    transpose times A's row (x: one row of C, y: 8 columns of C, [8, 512]
    tiles of B as stored). It is the first narrow line of the wide
    few-rows kernel (of the main kernel where there is none), on C's rows; small
    grids go down the same ladder. On the H200 it ran 1.1-1.8x as fast as the tile
    kernels in bf16 at one row (1x4096x4096 0.98-1.12x cuBLAS, 1x32000x4096
    0.96-0.97x) and 1.8-6.2x in f32. Over B stored [K, N] the program's tiles
    are 32 columns wide (64 bytes a row), too few programs without a K
    split: 0.4-0.9x the tile kernels, so that layout has no such kernel.

    ```mlir
    tile.matmul @mm a(row) b(row)
        : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
    // becomes (sketch)
    tile.kernel @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                    %c: memref<?x?xf32>) attributes {grid = [...]} {
      %acc = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
        %ta = tile.load %a[%m0, %k] : memref<?x?xbf16> -> tensor<128x32xbf16>
        %tb = tile.load %b[%k, %n0] : memref<?x?xbf16> -> tensor<32x128xbf16>
        %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      } {tile.stages = 4 : i64}
      tile.store %acc, %c[%m0, %n0] : tensor<128x128xf32>, memref<?x?xf32>
      tile.return
    }
    ```
  }];
  let options = [
    Option<"groupRows", "group-rows", "int64_t", /*default=*/"8",
           "Tile rows per group of the grouped program order">,
    Option<"warpgroupMma", "warpgroup-mma", "bool", /*default=*/"false",
           "Default schedules for Hopper warpgroup MMA (16-bit: 128x256x64, "
           "8 warps, 4 stages)">,
    Option<"smallGridVariants", "small-grid-variants", "bool",
           /*default=*/"false",
           "Also build a smaller-tile kernel for grids that would not fill "
           "the GPU (matmuls without schedule hints)">,
    Option<"producerWarp", "producer-warp", "bool", /*default=*/"false",
           "With warpgroup-mma, mark matmul K loops and the key loops of "
           "attention on two warpgroups "
           "(tile.producer_warp) so that a producer warp issues their bulk "
           "copies">,
  ];
  let statistics = [
    Statistic<"numMatmuls", "num-matmuls", "Matmul descriptions tiled">,
    Statistic<"numSmallGridVariants", "num-small-grid-variants",
              "Small-grid kernels built">,
    Statistic<"numScans", "num-scans", "Scan descriptions tiled">,
    Statistic<"numAttentions", "num-attentions",
              "Attention descriptions tiled">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect", "::tilec::tilegpu::TileGPUDialect",
  ];
}

def TilePromoteShared : Pass<"tile-promote-shared", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Stage the operand tiles of tile.dot through shared memory";
  let description = [{
    In every `scf.for` that loads the operands of a `tile.dot` from global
    buffers at loop-invariant positions or at the induction variable (plus
    or minus an invariant: a value block one step behind its key block), the
    loads become a software pipeline of `stages` slots in dynamic workgroup
    memory (the loop's `tile.stages` attribute, else the pass option; at
    least 2): the prologue starts the copies of the first `stages - 1`
    iterations, and each iteration waits for its own slot, starts the copy
    `stages - 1` iterations ahead into the slot freed by the previous
    iteration, and reads its tiles from workgroup memory. Each slot row is
    padded by 16 bytes so that the 8 rows an `ldmatrix` (or a column of
    threads) reads fall into different banks. The kernel records its
    dynamic shared memory in `tile.dynamic_shared_bytes`. Loops that run one
    after the other (neither inside the other) share the same memory, a
    block barrier before the later loop's first copies separating them.

    With `swizzle`, the operands of a 16-bit dot that fits Hopper warpgroup
    MMA (whole warpgroups of 64 rows, at most 256 columns each, K a whole
    number of 128-byte panels where K is contiguous) go into unpadded
    128-byte swizzled panels instead, at a 1024-byte-aligned offset found at
    run time: the copies carry the placement as their `layout`, and the
    tile read back (and any transpose of it) carries it on its type,
    `#tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64,
    contiguous_dim = 1>` for 16-bit elements. An
    lhs not loaded in the loop stays in registers (wgmma's register-A
    form); a tile loaded before the loop and read only by the dot in it (an
    attention kernel's query block) is copied once, before the loop, into a
    single slot. A dot outside any loop whose lhs is in registers and whose
    rhs is a global load (the last P x V after a pipelined key loop) gets
    that rhs copied, awaited and read in place from one slot. A dot
    (without `overlap`) whose result only goes round the loop into its own
    accumulator may stay in flight for one more iteration
    (`tile.in_flight = 1`), so its slot is refilled one iteration later:
    copies run `stages - 2` ahead and are issued after the dot.

    With `bulk-copies` as well, swizzled panels read from kernel arguments
    are filled by `tilegpu.copy_bulk` (TMA on Hopper) instead of the threads,
    and so are those read through a rank-reducing unit-stride subview of one
    that keeps its last dimension and one other whole from 0 (one (batch,
    head) of a 4-D attention buffer: the copy indexes the argument with the
    subview's offsets). Slot s has transaction barrier s
    (`tilegpu.barrier_init`), which each iteration waits on
    (`tilegpu.barrier_wait`, phase parity = use count mod 2); the previous
    iteration's slot is freed after the in-flight dot where one stays in
    flight, else first thing in the iteration, so copies run `stages - 1`
    ahead, and only copies of iterations that exist are issued. With one
    warpgroup of tile threads a block barrier frees it; with more, each
    warp releases it on the slot's "empty" barrier (a second row, one
    arrival a warp, `tilegpu.barrier_arrive warp`) and only the thread
    that issues the copies waits for that phase (`tilegpu.barrier_wait
    issuer`), so one warpgroup does not wait for the other at every
    iteration (attention d128, two warpgroups: 0-5% faster on the H200;
    with one warpgroup the releases cost attention d64 5-11%).
    Loop-invariant tiles are copied once by the threads. Kernels
    marked `tile.no_bulk_copies` (fallbacks made by
    `tile-bulk-copy-fallback`) keep per-thread copies.

    A bulk-copy loop marked `tile.producer_warp` (every tile copied each
    iteration), directly in the kernel's body or in a persistent loop over
    tiles (`tile.persistent_tiles`) that is, gets a producer instead: a
    `tilegpu.warp_roles` whose producer (one thread of an extra warp) walks
    the same iterations and issues the copies, waiting on slot s's "empty"
    barrier (one arrival per tile thread, a second row after the "full"
    ones) before refilling it, and whose tile threads run the loop (and
    everything after it) waiting on the "full" barriers and arriving on the
    "empty" ones once their dots have read a slot (after the next
    iteration's dot where one stays in flight). No block barrier remains in
    the loop; iterations are counted over all of a program's tiles, so the
    producer fills the next tile's slots during this tile's store. In a
    kernel of thread-block clusters (`tile.cluster` = X), tiles marked
    `tile.cluster_shared` are copied by multicast (each block copies its
    share of the rows into every block's slot), every block's tile threads
    release each slot in every block (X times the arrivals,
    `tilegpu.barrier_arrive cluster`), and the blocks meet
    (`tilegpu.cluster_sync`) once their barriers are ready and before they
    leave. Where the loop also carries `tile.consumer_groups` = G in a
    persistent loop over tiles (a ping-pong matmul), the roles run G groups
    of tile threads (`tilegpu.warp_roles` groups): the producer walks every
    tile, group g the tiles g, g + G, ... of the walk (`tilegpu.group_id`),
    counting its iterations over the whole walk so that it reads the slots
    filled for its tiles, and the groups take turns at the loop
    (`tilegpu.turn` take before it, pass after it, close after the walk's
    tile count), so that a group never waits on a slot whose barrier is two
    phases ahead and one group's store overlaps the next one's MMAs.

    When every staged loop of a kernel is in its body, marked
    `tile.producer_warp` (attention's unmasked and masked key loops), and
    their bulk-copied tiles have the same shapes, the loops share one ring
    of slots and one producer: it walks each loop's iterations in turn,
    counting them on from the loops before (each loop's first iteration is
    the sum of their trip counts), so slots and phases go on from one loop
    to the next without a block barrier. Loop-invariant tiles (Q) are
    copied by the tile threads before their loop, once where an earlier
    loop reads the same tile, and published by a barrier over the tile
    threads alone. When the loops are in a persistent loop over tiles
    (`tile.persistent_tiles`, attention's `persistent` hint), the producer
    walks the tiles too, with the tile's index arithmetic cloned, and both
    sides carry the ring position from one tile to the next as a loop
    value (a tile's loops take as many iterations as its keys need); the
    tile threads meet before copying the next tile's Q.

    ```mlir
    // Before
    %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      %a = tile.load %A[%m0, %k] : memref<?x?xbf16> -> tensor<128x32xbf16>
      ...
    } {tile.stages = 3 : i64}
    // After (sketch)
    tilegpu.copy_async %A[%m0, %c0], %slot0 : memref<?x?xbf16>, memref<128x32xbf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
    tilegpu.async_commit
    ...
    %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
      tilegpu.async_wait 1
      tilegpu.copy_async %A[%m0, %k_ahead], %slot_ahead : ...
      tilegpu.async_commit
      %a = tile.load %slot[%c0, %c0] : memref<128x32xbf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>> -> tensor<128x32xbf16>
      ...
    }
    tilegpu.async_wait 0
    ```
  }];
  let options = [
    Option<"defaultStages", "stages", "int64_t", /*default=*/"3",
           "Pipeline depth of loops without a tile.stages attribute">,
    Option<"swizzle", "swizzle", "bool", /*default=*/"false",
           "Stage the operands of dots that fit warpgroup MMA in 128-byte "
           "swizzled panels instead of padded rows">,
    Option<"bulkCopies", "bulk-copies", "bool", /*default=*/"false",
           "Fill swizzled panels of kernel arguments with bulk copies (TMA) "
           "completing on transaction barriers">,
  ];
  let statistics = [
    Statistic<"numPromotedTiles", "num-promoted-tiles",
              "Operand tiles staged through shared memory">,
    Statistic<"numSharedBytes", "shared-bytes",
              "Dynamic shared memory allocated, in bytes">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::gpu::GPUDialect", "::tilec::tilegpu::TileGPUDialect",
  ];
}

def TileBulkCopyFallback
    : Pass<"tile-bulk-copy-fallback", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give kernels that will use bulk copies a per-thread-copy twin";
  let description = [{
    Bulk copies (TMA) need buffers the copy engine can describe: rows that
    start on 16-byte boundaries, which depends on shapes only known at run
    time (a bf16 matrix with 517 columns has 1034-byte rows). So every
    kernel that `tile-promote-shared{swizzle bulk-copies}` would stage with
    bulk copies gets a copy named `<kernel>__thread_copies`, marked
    `tile.no_bulk_copies` so that its operands are staged by the threads,
    and the kernel records it in `tile.fallback`; the launch metadata
    carries it to the runtime, which launches the fallback when a buffer
    cannot be described.

    A kernel whose `tile.repitch_args` list every buffer argument, each
    copied from one program on (a written one always is), gets no twin: the
    runtime copies any buffer TMA rejects into rows it accepts, rows that
    repeat, overlap or run backwards included, with copy kernels of its own,
    so a twin would never run. Its launch is refused with an error only
    where no staged copy is possible (a written buffer whose rows overlap,
    2^32 rows or more, no memory for the copy). Every matmul kernel the
    tiling makes is such a kernel: on a matmul description the twin was
    40% of ptxas's time. (The runtime's scratch buffer, the last argument
    under `tile.scratch`, needs no entry.)

    A kernel written by hand lists none: where every buffer of it is used
    only by `tile.load`, `tile.store` and `memref.dim`, the pass lists
    them itself, each copied from one program on and a written one copied
    in as well as back (the kernel may leave part of it unwritten), so that
    it too goes without a twin. A buffer with any other use (a view of it,
    as attention's per-head slices are) keeps the kernel's twin.

    ```mlir
    // Before
    gpu.func @k(%a: memref<?x?xbf16>, ...) kernel { ... }
    gpu.func @mm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                 %c: memref<?x?xf32>, ...) kernel
        attributes {tile.repitch_args = [array<i64: 0, 0, 1>,
                                         array<i64: 1, 1, 1>,
                                         array<i64: 2, -1, 0>]} { ... }
    // After: @mm is unchanged
    gpu.func @k(%a: memref<?x?xbf16>, ...) kernel
        attributes {tile.fallback = @k__thread_copies} { ... }
    gpu.func @k__thread_copies(%a: memref<?x?xbf16>, ...) kernel
        attributes {tile.no_bulk_copies} { ... }
    ```
  }];
  let options = [
    Option<"defaultStages", "stages", "int64_t", /*default=*/"3",
           "Pipeline depth of loops without a tile.stages attribute (as "
           "tile-promote-shared's option)">,
  ];
  let statistics = [
    Statistic<"numFallbacks", "num-fallbacks", "Fallback kernels made">,
    Statistic<"numCopiedInstead", "num-copied-instead",
              "Kernels left without a twin: the runtime copies their buffers">,
    Statistic<"numDerived", "num-derived",
              "Kernels written by hand given tile.repitch_args">,
  ];
}

def TileSelectKernels
    : Pass<"tile-select-kernels", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Keep only the kernels a launch needs";
  let description = [{
    A description compiles to a main kernel and variants the runtime may
    launch instead (`tile.fallback`, `tile.small_grid`, `tile.narrow`), but
    one launch runs one of them. The JIT compiles the main kernels first
    and each variant on first need, so that a launch pays for the code it
    runs. With `kernels`, this pass keeps those kernels (a located error if
    one is missing); with `main-only`, the kernels no other kernel names as
    a variant. Either way it also keeps the kernels they name by `tile.then`
    (launched right after them), and erases every other kernel. The kept
    kernels still name their variants: the runtime asks for them by name.

    ```mlir
    // tile-select-kernels{main-only}
    gpu.func @mm(...) kernel attributes {tile.fallback = @mm__thread_copies,
        tile.small_grid = {kernel = @mm__small_grid, percent_of_sms = 50}}
    gpu.func @mm__thread_copies(...) kernel   // erased
    gpu.func @mm__small_grid(...) kernel      // erased
    // tile-select-kernels{kernels=mm__small_grid}: only @mm__small_grid
    ```
  }];
  let options = [
    ListOption<"kernels", "kernels", "std::string",
               "Kernels to keep (with the kernels they name by tile.then)">,
    Option<"mainOnly", "main-only", "bool", /*default=*/"false",
           "Keep the kernels that no kernel names as a variant">,
  ];
  let statistics = [
    Statistic<"numErased", "num-erased", "Kernels erased">,
  ];
}

def TileElementCopyFallback
    : Pass<"tile-element-copy-fallback", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give kernels with vectorised thread copies an element-copy twin";
  let description = [{
    A `tilegpu.copy_async` moves vectors of up to 16 bytes with cp.async
    where its source is aligned for them, which is only known at run time (a
    bf16 matrix with K = 4095 has rows 2-byte aligned only, K = 4098 4-byte
    aligned). One kernel holding both the cp.async paths and an unrolled
    element-by-element path runs both slower, so this pass splits them: the
    kernel records in `tile.aligned_args` the buffer arguments its
    vectorised copies read, and `tile-map-warps` gives it every cp.async
    width from `vector_bytes` down to 4 bytes; a twin named
    `<kernel>__element_copies`, marked `tile.element_copies`, keeps the
    widest width and the element path, and the kernel records it in
    `tile.fallback`. The launch metadata carries both to the runtime, which
    launches the twin when one of those arguments does not start, or has a
    row pitch that is not, on a 4-byte boundary. (A copy from a view whose
    offsets or strides break the alignment of an aligned argument still
    finds that at run time and copies element by element, slowly.)

    Copies of elements of 4 bytes or more need no twin: `tile-map-warps`
    gives them every width down to a 4-byte cp.async, which moves one
    element, in any kernel.

    A kernel that has a fallback already (a bulk-copy kernel, see
    `tile-bulk-copy-fallback`) only records its arguments: the runtime then
    goes on to its twin, which gets its own element-copy twin. A kernel
    whose copies read a buffer that is not a view of an argument is left as
    it is.

    Measured on the H200 (bf16 matmul, 128x256x64 tiles, cuBLAS in the same
    process): K = 4100 at 1.30x cuBLAS (0.83x with one kernel for all paths),
    K = 4098 at 1.00x (0.82x), odd K unchanged.

    ```mlir
    // Before (after tile-vectorize)
    gpu.func @mm__thread_copies(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
        %c: memref<?x?xbf16>) kernel {
      ... tilegpu.copy_async %a[...], %slot {vector_bytes = 16} ...
    }
    // After
    gpu.func @mm__thread_copies(...) kernel attributes {
        tile.aligned_args = array<i64: 0, 1>,
        tile.fallback = @mm__thread_copies__element_copies} { ... }
    gpu.func @mm__thread_copies__element_copies(...) kernel
        attributes {tile.element_copies} { ... }
    ```
  }];
  let statistics = [
    Statistic<"numFallbacks", "num-fallbacks", "Element-copy twins made">,
  ];
}

def TileStageWindows
    : Pass<"tile-stage-windows", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Copy a window that several loops read into workgroup memory once";
  let description = [{
    A loop with constant bounds that loads one tile an iteration from a
    global buffer at `base + iv` (the other indices loop-invariant, padding
    zero, tiles of the loop's step along the last dimension) reads the
    window `[base + lower, base + upper)`; at `base - iv` it walks the
    window `[base - last, base - lower + step)` from its end (`last` the
    induction variable's last value). When two or more loops of one
    block read the same window (a single-pass scan reads its piece once
    for the total it publishes and again, after the look-back, to scan
    it), the window is copied into a workgroup buffer once, before the
    first of them (`tilegpu.copy_async`, committed and awaited), and the
    loads read it there. Registers then hold one tile of the window
    instead of all of it, and the second read costs no trip to L2.
    Windows larger than `max-bytes` stay where they are, and so do windows
    of buffers the kernel may write (used by anything but loads and
    `memref.dim`) and windows read by loops inside another loop. Elements
    outside the buffer arrive as zeros, as the loads padded them.

    ```mlir
    scf.for %i = %c0 to %c3072 step %c512 iter_args(...) {
      %at = arith.addi %start, %i : index
      %t = tile.load %in[%at] : memref<?xf32> -> tensor<512xf32>
      ...
    }
    scf.for %i = %c0 to %c3072 step %c512 iter_args(...) {
      %at = arith.addi %start, %i : index
      %t = tile.load %in[%at] : memref<?xf32> -> tensor<512xf32>
      ...
    }
    // becomes (%window a workgroup attribution, memref<3072xf32, 3>)
    tilegpu.copy_async %in[%start], %window : memref<?xf32>, memref<3072xf32, #gpu.address_space<workgroup>>
    tilegpu.async_commit
    tilegpu.async_wait 0
    scf.for %i = %c0 to %c3072 step %c512 iter_args(...) {
      %t = tile.load %window[%i] : memref<3072xf32, #gpu.address_space<workgroup>> -> tensor<512xf32>
      ...
    }
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"32768",
           "The largest window copied, in bytes">,
  ];
  let statistics = [
    Statistic<"numWindows", "num-windows", "Windows copied into workgroup memory">,
    Statistic<"numReads", "num-reads", "Loads that read a copied window">,
  ];
  let dependentDialects = ["::tilec::tilegpu::TileGPUDialect"];
}

def TileVectorize : Pass<"tile-vectorize"> {
  let summary = "Pick the widest access each tile copy allows";
  let description = [{
    Sets `vector_bytes` on each `tilegpu.copy_async`: the widest of 16, 8 and 4
    bytes that divides both the contiguous extent of a destination row and
    the destination row pitch, so that each thread moves whole 16-byte
    vectors and consecutive threads touch consecutive addresses. Whether the
    source is aligned is only known at run time; the mapped copy checks it
    once and falls back to element copies when it is not.

    ```mlir
    tilegpu.copy_async %a[%i, %k], %slot
        : memref<?x?xbf16>, memref<128x32xbf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
    // becomes
    tilegpu.copy_async %a[%i, %k], %slot {vector_bytes = 16 : i64} : ...
    ```
  }];
  let statistics = [
    Statistic<"numVectorized", "num-vectorized", "Copies given a vector width">,
  ];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Give every tile of a kernel its layout over the threads";
  let description = [{
    Block programs carry no layouts; this pass decides, for a kernel with a
    known block size, how each tile is spread over the threads, as layout
    encodings of the `tilegpu` dialect (a tile without one keeps the blocked
    layout). `tile-map-warps` runs it first when it has not run.

    - Anchors: a `tile.dot` keeps its accumulator where the multiply leaves
      it (`#tilegpu.mma` for 16-bit operands, `#tilegpu.fma` for f32).
    - Forward: an element-wise op takes the layout of its operands; a loop
      carries the layout of what enters or is yielded; `tile.reduce` along a
      dimension gives the `#tilegpu.slice` of its input's layout (the row
      statistics of an accumulator stay in the threads holding the rows);
      `tile.broadcast` of such a slice gives the parent layout back; a
      one-tile `tile.prefix` keeps its input's layout where it can scan in
      it (every bit of the scanned coordinate in one register, lane or warp
      bit, the warp bits highest), its totals in the slice of that layout.
    - Placed tiles (`#tilegpu.shared`, in workgroup memory, read whole by
      warpgroup dots) keep their placement.
    - Where an operand arrives in another layout than its user needs, a
      `tilegpu.convert_layout` is inserted; ops that do not take layouts yet
      get the blocked layout.
    - Conversions are then folded: into splats, constants, ranges and
      single-use loads, which can make any layout, through broadcasts (as a
      conversion of their input to the slice) and through element-wise ops
      whose operands fold in turn (a mask from ranges and splats), and into
      each other.

    ```mlir
    // Before (128 threads): bias + relu on a dot's result
    %bias = tile.load %b[%n0] : memref<?xf32> -> tensor<64xf32>
    %bb = tile.broadcast %bias dims [0] : tensor<64xf32> -> tensor<64x64xf32>
    %s = arith.addf %acc, %bb : tensor<64x64xf32>
    // After
    %bias = tile.load %b[%n0] : memref<?xf32>
        -> tensor<64xf32, #tilegpu.slice<dim = 0, parent_size = 64, parent = #mma>>
    %bb = tile.broadcast %bias dims [0] : ... -> tensor<64x64xf32, #mma>
    %s = arith.addf %acc, %bb : tensor<64x64xf32, #mma>
    ```
  }];
  let statistics = [
    Statistic<"numConversions", "num-conversions",
              "Layout conversions left after folding">,
  ];
  let dependentDialects = ["::tilec::tilegpu::TileGPUDialect"];
}

def TileMapWarps : Pass<"tile-map-warps", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Distribute tiles over the warps and lanes of a block";
  let description = [{
    Rewrites the tile values of a `gpu.func` kernel (statically shaped
    tensors) into per-thread vectors. Each tile of N elements is laid out
    row-major and cut into chunks of up to 4 consecutive elements; chunk c
    belongs to thread `c mod T` of the T threads of the block, so a warp
    reads consecutive addresses. Tiles smaller than the block are
    replicated across threads.

    - `arith` / `math` ops on tiles become the same ops on vectors;
      `scf.for` / `scf.if` / `scf.yield` carry the vectors.
    - `tile.load` / `tile.store` become bounds-checked element accesses
      (vectors of up to 16 bytes where runs allow). Where a buffer costs
      no residency (a persistent kernel, or a warpgroup-MMA kernel whose
      slots already hold as few blocks a multiprocessor), the store of an
      MMA-layout tile (4-byte runs: each warp store wrote 8
      rows x 16 bytes, half a sector each) is staged: where the tile lies
      inside the buffer, each warp writes its rows to its part of a
      workgroup buffer, 128 bytes of columns a round, meets with
      `bar.warp.sync`, and stores them 16 bytes a lane; edge tiles keep
      the guarded stores. In a kernel that copies its operands in bulk
      (TMA), the staged store of a 2-D kernel argument, or of a slice of
      one that is whole in its two dimensions (one (batch, head) of
      attention's O), goes out as bulk tensor stores instead, edge tiles
      included (the copy engine leaves out what lies outside the
      argument, which is what lies outside the view): each warp writes half of its
      rows of a round to its half of 1024-byte-aligned, 128-byte-swizzled
      rows, fences them for the async proxy, and its first lane issues
      `cp.async.bulk.tensor` through a tensor map of the argument
      (appended like the copies'), waiting only until the copy engine has
      read the half it is about to overwrite. Before returning, the
      kernel waits until every bulk store has been read.
    - `tile.reduce` reduces each thread's own elements, then the lanes of a
      warp with `gpu.shuffle xor` butterflies, then the warps through
      workgroup memory; `tile.broadcast` exchanges through workgroup memory.
    - `tile.dot` keeps its accumulator where the multiply leaves it
      (`#tilegpu.mma` / `#tilegpu.fma`) and reads its staged operands itself:
      16-bit operands in padded rows by `ldmatrix` into `mma.sync`
      m16n8k16; operands in swizzled panels by warpgroup MMA
      (`wgmma.mma_async` m64nNk16 through shared-memory descriptors, the
      loop's results defined by the wait after it); f32 as an FMA outer
      product.
    - Tiles with a layout encoding go through their linear layouts:
      `tilegpu.convert_layout` permutes registers, shuffles within warps, or
      meets in workgroup memory placed by a swizzle chosen against bank
      conflicts on both sides; `tile.prefix` scans a layout where it is,
      warps that hold different positions along the axis combining their
      block totals in workgroup memory.
    - `tilegpu.copy_async` becomes `cp.async` (zero-filling past the source,
      element copies when the source is misaligned; into the offsets a
      `layout` placement gives), `tilegpu.async_wait` a
      wait, an async-proxy fence where warpgroup MMAs read the copies, and
      a barrier.

    ```mlir
    // Before (128 threads)
    %t = tile.load %x[%off] : memref<?xf32> -> tensor<512xf32>
    %s = tile.reduce add %t along 0 : tensor<512xf32> -> f32
    // After (sketch)
    %v = vector.from_elements ... : vector<4xf32>     // 4 elements a thread
    %e0 = vector.extract %v[0] : f32 from vector<4xf32>
    %p = arith.addf %e0, %e1 : f32                    // ... and %e2, %e3
    %q, %ok = gpu.shuffle xor %p, %c1, %c32 : f32     // ... up to 16
    memref.store %p16, %wg[...] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    ```
  }];
  let options = [
    Option<"registerHandover", "register-handover", "bool", /*default=*/"true",
           "Lower tilegpu.warp_roles registers to a producer warpgroup and "
           "setmaxnreg (sm_90a); without, the producer is one warp and the "
           "registers stay where the launch put them">,
    Option<"bulkCopies", "bulk-copies", "bool", /*default=*/"true",
           "The target has bulk tensor copies and the async proxy (sm_90 "
           "and later); without, a tilegpu.copy_bulk is an error and "
           "barrier initialisation takes no proxy fence">,
  ];
  let statistics = [
    Statistic<"numReductions", "num-reductions", "Reductions distributed">,
    Statistic<"numPrefixes", "num-prefixes", "Prefix scans distributed">,
    Statistic<"numShuffles", "num-shuffles", "Warp shuffles emitted">,
    Statistic<"numWorkgroupBytes", "workgroup-bytes",
              "Workgroup memory used for exchanges, in bytes">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::vector::VectorDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect", "::tilec::tilegpu::TileGPUDialect",
  ];
}

def TileReuseStagedMemory
    : Pass<"tile-reuse-staged-memory", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Put workgroup buffers used after the pipelined loops into their slots";
  let description = [{
    The staged slots of a kernel's pipelined loops live in dynamic shared
    memory (`tile-promote-shared`); the workgroup buffers that
    `tile-map-warps` makes for exchanges are static, and a block needs the
    sum of both. A buffer whose every use comes after the kernel's last use
    of dynamic shared memory (and after the last wait that may still read
    it: warpgroup MMA, cp.async, inline assembly) takes the retired slots'
    bytes instead, as a view at the start of dynamic shared memory; the
    kernel's `tile.dynamic_shared_bytes` grows to cover the buffers if they
    are larger. A block barrier separates the last use of the slots from
    the first of the buffers (unless one does already). Bulk-copy barriers
    in that memory were invalidated after their loop
    (`tilegpu.barrier_inval`).

    Attention's key-chunk kernel (d = 128) stages its partial output
    through a 9 KiB buffer after its key loops; in the slots it costs no
    bytes of its own (so that even three stages of K and V, 113 KiB, would
    leave two blocks a multiprocessor).

    ```mlir
    gpu.func @k(...) workgroup(%x : memref<2304xf32, #gpu.address_space<workgroup>>)
        kernel attributes {tile.dynamic_shared_bytes = 82960 : i64} {
      %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      scf.for ... { ... uses views of %base ... }
      vector.store %v, %x[%i] : memref<2304xf32, #gpu.address_space<workgroup>>, vector<2xf32>
    // becomes
    gpu.func @k(...) kernel attributes {tile.dynamic_shared_bytes = 82960 : i64} {
      %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %x = memref.view %base[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2304xf32, #gpu.address_space<workgroup>>
      scf.for ... { ... }
      gpu.barrier
      vector.store %v, %x[%i] : ...
    ```
  }];
  let statistics = [
    Statistic<"numKernels", "num-kernels",
              "Kernels whose buffers moved into dynamic shared memory">,
    Statistic<"numBytes", "num-bytes", "Bytes of workgroup buffers moved">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def TileVerifyStage : Pass<"tile-verify-stage", "::mlir::ModuleOp"> {
  let summary = "Verify the module at the end of a pipeline stage";
  let description = [{
    Runs the verifier on the whole module and fails the pipeline on an
    invalid one, its diagnostic naming `stage`. `tilec` and the JIT verify
    the IR here, between the stages of the pipeline (descriptions to block
    programs, to per-thread GPU code, to NVVM), instead of after each of
    its passes, which took 4-7% of the examples' compile times.
    `tilec --verify-each` (and `tilec-opt`, always) verifies after every
    pass as well.

    ```mlir
    // -tile-verify-stage="stage=mapped" on an invalid module:
    // error: 'arith.addf' op requires the same type for all operands and results
    // error: the IR is invalid after stage 'mapped'
    ```
  }];
  let options = [
    Option<"stage", "stage", "std::string", /*default=*/"\"\"",
           "The stage that just ended, for the diagnostic">,
  ];
}

#endif // TILEC_TRANSFORMS_PASSES_TD
