// RUN: tilec-opt %s -split-input-file -tile-tiling | FileCheck %s

// d128 without hints: 128 query rows on 8 warps, keys in blocks of 128; the
// first loop (no mask) over the blocks the first row sees whole, the second
// masked to n_kv and to the diagonal aligned to the bottom-right corner.
// CHECK-LABEL: tile.kernel @causal(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 2, per_program = 128>, #tile.grid<arg = 0, dim = 1, per_program = 1>, #tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 8
// Causal blocks are taken from the last (the longest) down.
// CHECK: %[[PID:.*]] = tile.program_id x
// CHECK: %[[NUM:.*]] = tile.num_programs x
// CHECK: %[[LASTPID:.*]] = arith.subi %[[NUM]], %c1
// CHECK: %[[BLOCK:.*]] = arith.subi %[[LASTPID]], %[[PID]]
// CHECK-DAG: %[[NQ:.*]] = memref.dim %arg0, %c2
// CHECK-DAG: %[[NKV:.*]] = memref.dim %arg1, %c2
// CHECK: %[[SHIFT:.*]] = arith.subi %[[NKV]], %[[NQ]] : index
// CHECK: %[[END:.*]] = arith.minui %{{.*}}, %[[NKV]] : index
// CHECK: %[[Q:.*]] = tile.load {{.*}} -> tensor<128x128xbf16>
// CHECK: %[[WHOLE:.*]]:3 = scf.for %{{.*}} = %c0{{.*}} to %[[FULL:[^ ]+]] step %c128{{.*}}
// CHECK:   %[[S:.*]] = tile.dot %[[Q]], %{{.*}} : tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xf32>
// CHECK-NOT: arith.select %{{.*}} : tensor<128x128xi1>
// A constant scale folds into the row maximum and the exponent: one fma a
// score, no multiply; the exponentials may be approximate.
// CHECK-NOT: arith.mulf %[[S]]
// CHECK:   %[[RAWMAX:.*]] = tile.reduce max %[[S]] along 1
// CHECK:   arith.mulf %[[RAWMAX]], %{{.*}} : tensor<128xf32>
// CHECK:   %[[EXPONENT:.*]] = math.fma %[[S]], %{{.*}}, %{{.*}} : tensor<128x128xf32>
// CHECK:   math.exp2 %[[EXPONENT]] fastmath<afn> : tensor<128x128xf32>
// CHECK:   tile.reduce add
// CHECK:   arith.truncf %{{.*}} : tensor<128x128xf32> to tensor<128x128xbf16>
// CHECK:   tile.dot
// CHECK: } {tile.stages = 2 : i64}
// CHECK: scf.for %{{.*}} = %[[FULL]] to %[[END]] step %c128{{.*}} iter_args(%{{.*}} = %[[WHOLE]]#0, %{{.*}} = %[[WHOLE]]#1, %{{.*}} = %[[WHOLE]]#2)
// CHECK:   arith.cmpi slt
// CHECK:   arith.cmpi sle
// CHECK:   arith.andi
// CHECK:   arith.select %{{.*}} : tensor<128x128xi1>, tensor<128x128xf32>
// CHECK: } {tile.stages = 2 : i64}
// One division a row, then a multiply an element.
// CHECK: %[[RECIPROCAL:.*]] = arith.divf %{{.*}} : tensor<128xf32>
// CHECK: %[[RECIPROCALS:.*]] = tile.broadcast %[[RECIPROCAL]] dims [1]
// CHECK: arith.mulf %{{.*}}, %[[RECIPROCALS]] : tensor<128x128xf32>
// CHECK: tile.store %{{.*}} : tensor<128x128xbf16>
tile.attention @causal layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// overlap_softmax: each step issues its block's Q K^T, then the previous
// block's P V (P carried from the last step, zero at first), both
// `overlap`, and computes the softmax after them; the last block's P V
// follows the loops.
// CHECK-LABEL: tile.kernel @overlapped(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 2, per_program = 128>, #tile.grid<arg = 0, dim = 1, per_program = 1>, #tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 8
// Causal blocks are taken from the last (the longest) down.
// CHECK: %[[PID:.*]] = tile.program_id x
// CHECK: %[[NUM:.*]] = tile.num_programs x
// CHECK: %[[LASTPID:.*]] = arith.subi %[[NUM]], %c1
// CHECK: %[[BLOCK:.*]] = arith.subi %[[LASTPID]], %[[PID]]
// CHECK-DAG: %[[NQ:.*]] = memref.dim %arg0, %c2
// CHECK-DAG: %[[NKV:.*]] = memref.dim %arg1, %c2
// CHECK: %[[SHIFT:.*]] = arith.subi %[[NKV]], %[[NQ]] : index
// CHECK: %[[END:.*]] = arith.minui %{{.*}}, %[[NKV]] : index
// CHECK: %[[PZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xbf16>
// CHECK: %[[Q:.*]] = tile.load {{.*}} -> tensor<128x128xbf16>
// CHECK: %[[WHOLE:.*]]:4 = scf.for %[[KB:.*]] = %c0{{.*}} to %[[FULL:[^ ]+]] step %c128{{.*}} iter_args(%[[ACC:[^ ]+]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[P:[^ ]+]] = %[[PZERO]])
// CHECK:   %[[S:.*]] = tile.dot %[[Q]], %{{.*}} overlap : tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xf32>
// CHECK:   %[[PREV:.*]] = arith.subi %[[KB]], %c128
// CHECK:   %[[V:.*]] = tile.load %{{.*}}[%[[PREV]], %c0]
// CHECK:   %[[O:.*]] = tile.dot %[[P]], %[[V]], %[[ACC]] overlap
// CHECK-NOT: arith.select %{{.*}} : tensor<128x128xi1>
// CHECK:   tile.reduce max %[[S]]
// CHECK:   math.fma %[[S]]
// CHECK:   math.exp2
// CHECK:   tile.reduce add
// CHECK:   %[[RESCALED:.*]] = arith.mulf %[[O]], %{{.*}} : tensor<128x128xf32>
// CHECK:   %[[PNEXT:.*]] = arith.truncf %{{.*}} : tensor<128x128xf32> to tensor<128x128xbf16>
// CHECK:   scf.yield %[[RESCALED]], %{{.*}}, %{{.*}}, %[[PNEXT]]
// CHECK: } {tile.stages = 2 : i64}
// CHECK: %[[MASKED:.*]]:4 = scf.for %{{.*}} = %[[FULL]] to %[[END]] step %c128{{.*}} iter_args(%{{.*}} = %[[WHOLE]]#0, %{{.*}} = %[[WHOLE]]#1, %{{.*}} = %[[WHOLE]]#2, %{{.*}} = %[[WHOLE]]#3)
// CHECK:   tile.dot {{.*}} overlap
// CHECK:   tile.dot {{.*}} overlap
// CHECK:   arith.cmpi slt
// CHECK:   arith.cmpi sle
// CHECK:   arith.andi
// CHECK:   arith.select %{{.*}} : tensor<128x128xi1>, tensor<128x128xf32>
// CHECK: } {tile.stages = 2 : i64}
// The last block's P V: the block before END rounded up to a whole block.
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[END]], %c128
// CHECK: %[[AFTER:.*]] = arith.muli %[[BLOCKS]], %c128
// CHECK: %[[LAST:.*]] = arith.subi %[[AFTER]], %c128
// CHECK: %[[VLAST:.*]] = tile.load %{{.*}}[%[[LAST]], %c0]
// CHECK: %[[OUT:.*]] = tile.dot %[[MASKED]]#3, %[[VLAST]], %[[MASKED]]#0 :
// CHECK: arith.divf %{{.*}} : tensor<128xf32>
// CHECK: arith.mulf %[[OUT]]
// CHECK: tile.store %{{.*}} : tensor<128x128xbf16>
tile.attention @overlapped layout(bhsd) causal overlap_softmax
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// pingpong: the overlapped steps, with the two warpgroups taking turns at
// issuing each step's two dots: the turn is taken after the key block's
// load (where tile-promote-shared waits for its slot) and passed after the
// P V dot; each loop opens the turns before it and closes them after.
// CHECK-LABEL: tile.kernel @pingpong(
// CHECK-SAME: num_warps = 8
// CHECK: tilegpu.turn open
// CHECK: %[[WHOLE:.*]]:4 = scf.for
// CHECK:   tile.load
// CHECK:   tile.transpose
// CHECK:   tilegpu.turn take
// CHECK:   %[[S:.*]] = tile.dot {{.*}} overlap
// CHECK:   tile.dot {{.*}} overlap
// CHECK-NEXT: tilegpu.turn pass
// CHECK:   tile.reduce max %[[S]]
// CHECK:   scf.yield
// CHECK: } {tile.stages = 2 : i64}
// CHECK-NEXT: tilegpu.turn close
// CHECK: tilegpu.turn open
// CHECK: scf.for
// CHECK:   tilegpu.turn take
// CHECK:   tilegpu.turn pass
// CHECK: tilegpu.turn close
// CHECK-NOT: tilegpu.turn
// CHECK: tile.store
tile.attention @pingpong layout(bhsd) pingpong
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// pingpong on one warpgroup (d64: 64 rows on 4 warps) overlaps the softmax
// but takes no turns.
// CHECK-LABEL: tile.kernel @pingpong_one_warpgroup(
// CHECK-SAME: num_warps = 4
// CHECK-NOT: tilegpu.turn
// CHECK: tile.dot {{.*}} overlap
// CHECK-NOT: tilegpu.turn
// CHECK: tile.store
tile.attention @pingpong_one_warpgroup layout(bhsd) pingpong
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()

// -----

// [batch, seq, heads, d] views, grouped-query: query head h reads K/V head
// h / (heads / kv_heads); the grid's x runs over dimension 1 of Q. O's view
// takes O's own length, so that it is the whole of O's sequence (which
// bulk stores need).
// CHECK-LABEL: tile.kernel @gqa(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 64>, #tile.grid<arg = 0, dim = 2, per_program = 1>, #tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 4
// CHECK: %[[HEAD:.*]] = tile.program_id y
// CHECK: %[[BATCH:.*]] = tile.program_id z
// CHECK: %[[KVHEAD:.*]] = arith.divui %[[HEAD]], %c4{{.*}} : index
// CHECK: memref.subview %arg0[%[[BATCH]], 0, %[[HEAD]], 0] [1, %{{.*}}, 1, 64]
// CHECK: %[[OROWS:.*]] = memref.dim %arg3, %c1
// CHECK: memref.subview %arg3[%[[BATCH]], 0, %[[HEAD]], 0] [1, %[[OROWS]], 1, 64]
// CHECK: memref.subview %arg1[%[[BATCH]], 0, %[[KVHEAD]], 0] [1, %{{.*}}, 1, 64]
// CHECK-SAME: to memref<?x64xf16, strided<[?, 1], offset: ?>>
// CHECK: memref.cast %{{.*}} to memref<?x?xf16, strided<[?, 1], offset: ?>>
// CHECK-NOT: arith.cmpi sle
// CHECK: tile.store %{{.*}} : tensor<64x64xf16>
tile.attention @gqa layout(bshd)
    : (memref<2x?x32x64xf16, strided<[?, ?, 64, 1]>>,
       memref<2x?x8x64xf16, strided<[?, ?, 64, 1]>>,
       memref<2x?x8x64xf16, strided<[?, ?, 64, 1]>>,
       memref<2x?x32x64xf16>) -> ()

// -----

// The log-sum-exp: ln(2) * (row max + log2(row sum)), stored per row.
// CHECK-LABEL: tile.kernel @lse(
// CHECK: %[[LSE:.*]] = memref.subview %arg4[%{{.*}}, %{{.*}}, 0] [1, 1, %{{.*}}] [1, 1, 1] : memref<?x?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: %[[LOG:.*]] = math.log2 %{{.*}} : tensor<64xf32>
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %[[LOG]] : tensor<64xf32>
// CHECK: %[[LN:.*]] = arith.mulf %[[SUM]], %{{.*}} : tensor<64xf32>
// CHECK: tile.store %[[LN]], %[[LSE]][%{{.*}}] : tensor<64xf32>
tile.attention @lse layout(bhsd) lse
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?xf32>) -> ()

// -----

// The score modification runs on whole score tiles, after the scale and
// before the mask; its index arguments are i32 tiles (the query and key
// positions, splats of the batch and head), index casts to i32 fold away.
// Its mask keeps keys with query - key <= 255, so the loop starts at the
// block holding the first row's first key, first row - 255.
// CHECK-LABEL: tile.kernel @window(
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK: %[[W:.*]] = arith.constant 255 : index
// CHECK: %[[FIRSTKEY:.*]] = arith.subi %[[ROW]], %[[W]] : index
// CHECK: arith.maxsi %[[FIRSTKEY]], %c0 : index
// CHECK: scf.for
// CHECK:   %[[SCORES:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<64x128xf32>
// CHECK:   %[[QUERIES:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64x128xi32>
// CHECK:   %[[KEYS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64x128xi32>
// CHECK:   %[[D:.*]] = arith.subi %[[QUERIES]], %[[KEYS]] : tensor<64x128xi32>
// CHECK:   %[[IN:.*]] = arith.cmpi slt, %[[D]], %{{.*}} : tensor<64x128xi32>
// CHECK:   %[[MOD:.*]] = arith.select %[[IN]], %[[SCORES]], %{{.*}} : tensor<64x128xi1>, tensor<64x128xf32>
// CHECK:   arith.mulf %[[MOD]], %{{.*}} : tensor<64x128xf32>
// CHECK:   tile.reduce max
tile.attention @window layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %w = arith.constant 256 : index
  %d = arith.subi %q, %k : index
  %in = arith.cmpi slt, %d, %w : index
  %ninf = arith.constant 0xFF800000 : f32
  %r = arith.select %in, %s, %ninf : f32
  tile.yield %r : f32
}

// -----

// A band in the region alone (keys q-127..q): the loops start at the block
// holding the first row's first key (row - 127) and end after the last
// row's diagonal (row + 63 + 1), clamped to the keys there are.
// CHECK-LABEL: tile.kernel @band(
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK: %[[LAST:.*]] = arith.addi %[[ROW]], %c63 : index
// CHECK: %[[PAST:.*]] = arith.subi %[[LAST]], %c-1 : index
// CHECK: %[[CLAMPED:.*]] = arith.maxsi %[[PAST]], %c0 : index
// CHECK: %[[END:.*]] = arith.minui %{{.*}}, %[[CLAMPED]] : index
// CHECK: arith.subi %[[ROW]], %c127 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[END]] step
tile.attention @band layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %w = arith.constant 128 : index
  %seen = arith.cmpi sle, %k, %q : index
  %d = arith.subi %q, %k : index
  %near = arith.cmpi slt, %d, %w : index
  %in = arith.andi %seen, %near : i1
  %ninf = arith.constant 0xFF800000 : f32
  %r = arith.select %in, %s, %ninf : f32
  tile.yield %r : f32
}

// -----

// d256 without hints: 128 query rows on 8 warps, keys in blocks of 64.
// CHECK-LABEL: tile.kernel @d256(
// CHECK-SAME: per_program = 128>
// CHECK-SAME: num_warps = 8
// CHECK: tile.load {{.*}} -> tensor<128x256xbf16>
// CHECK: scf.for %{{.*}} step %c64{{.*}}
// CHECK: tile.load {{.*}} -> tensor<64x256xbf16>
// CHECK: tile.dot {{.*}} : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
// CHECK: } {tile.stages = 2 : i64}
tile.attention @d256 layout(bhsd)
    : (memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>,
       memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>) -> ()

// -----

// Schedule hints replace the defaults.
// CHECK-LABEL: tile.kernel @hinted(
// CHECK-SAME: per_program = 32>
// CHECK-SAME: num_warps = 2
// CHECK: tile.load {{.*}} -> tensor<32x128xbf16>
// CHECK: scf.for %{{.*}} step %c64{{.*}}
// CHECK: tile.load {{.*}} -> tensor<64x128xbf16>
// CHECK: } {tile.stages = 3 : i64}
tile.attention @hinted layout(bhsd) block [32, 64] warps 2 stages 3
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// The scale given at launch, as a last f32 argument: splat, and folded with
// log2(e) once per program.
// CHECK-LABEL: tile.kernel @scale_argument(
// CHECK-SAME: %[[SCALE:[a-z0-9]+]]: f32)
// CHECK: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK: %[[LOG2SCALE:.*]] = arith.mulf %[[SCALE]], %[[LOG2E]] : f32
// CHECK: %[[TILE:.*]] = tile.splat %[[LOG2SCALE]] : f32 -> tensor<64x128xf32>
// CHECK: scf.for
// CHECK:   %[[S:.*]] = tile.dot
// CHECK:   arith.mulf %[[S]], %[[TILE]] : tensor<64x128xf32>
tile.attention @scale_argument layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, f32) -> ()

// -----

// A causal window of 300 keys: a first masked loop over the blocks that
// start left of the last row's window, from the block holding the first
// row's first key; the whole blocks after it; the masked rest. The mask
// also hides keys before a row's window.
// CHECK-LABEL: tile.kernel @window_attribute(
// CHECK: %[[W:.*]] = arith.constant 299 : index
// CHECK: scf.for %{{.*}} = %[[FIRST:[^ ]+]] to %[[BEGIN:[^ ]+]] step
// CHECK:   arith.cmpi sle
// CHECK:   arith.cmpi sge
// CHECK: } {tile.stages = 2 : i64}
// CHECK: scf.for %{{.*}} = %[[BEGIN]] to %[[WHOLE:[^ ]+]] step
// CHECK-NOT: arith.cmpi
// CHECK: } {tile.stages = 2 : i64}
// CHECK: scf.for %{{.*}} = %[[WHOLE]] to %{{[^ ]+}} step
// CHECK:   arith.cmpi sge
// CHECK: } {tile.stages = 2 : i64}
tile.attention @window_attribute layout(bhsd) causal window 300
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// At most 16 query rows: the narrow variant splits the keys into chunks,
// one program each (z: at most one a 1024 keys, capped by the runtime at
// one program a multiprocessor, `tile.split`, the keys shared evenly among
// the chunks launched), 64 rows on 4 warps (a warpgroup MMA; the
// rows past the queries pad it), and leaves the first 16 rows of its
// unnormalised partial results in the scratch buffer (after a 4-word
// header where program 0 leaves the chunk count; 16 rows of d + 2
// words, no zero-fill; rows past the queries neither written nor read) for
// its then kernel, which reads the count back (clamped to the grid's) and
// merges the partial results per (head, batch, 32 columns) eight
// chunks a step: static views of a program's 16 rows, the row statistics
// broadcast over the columns (column stride 0), read without padding; a
// chunk past the last reads the last one's, and it and the rows past the
// queries are replaced by rows that saw no key. One query row packs the
// query heads of a K/V head into the 64 rows: x over kv_heads *
// ceil(heads / 64) slots, slot x taking pack x / kv_heads of K/V head
// x % kv_heads (a slot past its K/V head's packs returns at once); its
// combine takes one head a program, finds the head's slot and row, and
// merges 16 chunks a step (one a row of the tile, chunk stride 64 rows),
// then the rows.
// CHECK-LABEL: tile.kernel @decode(
// CHECK-SAME: tile.narrow = {at_most = 16 : i64, dim = 2 : i64, kernel = @decode__decode, operand = 0 : i64}
// CHECK-LABEL: tile.kernel @decode__decode(
// CHECK-SAME: %{{.*}}: memref<?xf32>)
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 1>, #tile.grid<arg = 0, dim = 0, per_program = 1>, #tile.grid<arg = 1, dim = 2, per_program = 1024>], num_warps = 4
// CHECK-SAME: tile.narrow = {at_most = 1 : i64, dim = 2 : i64, kernel = @decode__decode_heads, operand = 0 : i64}
// CHECK-SAME: tile.scratch = array<i64: 16, 8320, 0>, tile.split = 1 : i64, tile.then = @decode__decode_combine
// CHECK: %[[HEAD:.*]] = tile.program_id x
// CHECK: %[[BATCH:.*]] = tile.program_id y
// CHECK: %[[KEYS:.*]] = memref.dim %arg1, %c2
// CHECK: %[[CHUNK:.*]] = tile.program_id z
// CHECK: %[[LAUNCHED:.*]] = tile.num_programs z
// CHECK: %[[HEAD_BATCH:.*]] = arith.addi %[[HEAD]], %[[BATCH]]
// CHECK: %[[IDS:.*]] = arith.addi %[[HEAD_BATCH]], %[[CHUNK]]
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[IDS]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[COUNT:.*]] = arith.index_castui %[[LAUNCHED]] : index to i32
// CHECK: %[[BITS:.*]] = arith.bitcast %[[COUNT]] : i32 to f32
// CHECK: memref.store %[[BITS]], %arg4[%c0] : memref<?xf32>
// CHECK: }
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[KEYS]], %c64
// CHECK: %[[AT_LEAST_ONE:.*]] = arith.maxui %[[LAUNCHED]], %c1
// CHECK: %[[PER_CHUNK:.*]] = arith.ceildivui %[[BLOCKS]], %[[AT_LEAST_ONE]]
// CHECK: %[[NOT_EMPTY:.*]] = arith.maxui %[[PER_CHUNK]], %c1
// CHECK: %[[CHUNK_KEYS:.*]] = arith.muli %[[NOT_EMPTY]], %c64
// CHECK: %[[BEGIN:.*]] = arith.muli %[[CHUNK]], %[[CHUNK_KEYS]]
// CHECK: %[[SOME_KEYS:.*]] = arith.maxui %[[KEYS]], %c1
// CHECK: %[[HAS_KEYS:.*]] = arith.cmpi ult, %[[BEGIN]], %[[SOME_KEYS]]
// CHECK: scf.if %[[HAS_KEYS]] {
// CHECK: %[[SCRATCH:.*]] = memref.assume_alignment %arg4, 16 : memref<?xf32>
// CHECK: scf.for
// CHECK: tile.dot %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
// CHECK: } {tile.stages = 2 : i64}
// Launched with one chunk, the program normalises and stores O itself.
// CHECK: %[[UNSPLIT:.*]] = arith.cmpi eq, %[[LAUNCHED]], %c1
// CHECK: scf.if %[[UNSPLIT]] {
// CHECK: arith.divf
// CHECK: tile.store %{{.*}} : tensor<64x128xbf16>
// CHECK: } else {
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c16
// CHECK: %[[ROW_WORD:.*]] = arith.muli %[[ROW]], %c128
// CHECK: %[[ACC_WORD:.*]] = arith.addi %[[ROW_WORD]], %c4
// CHECK: %[[ACC:.*]] = memref.reinterpret_cast %[[SCRATCH]] to offset: [%[[ACC_WORD]]], sizes: [%[[USED:.*]], 128], strides: [128, 1]
// CHECK: tile.store %{{.*}}, %[[ACC]][%c0, %c0] : tensor<64x128xf32>, memref<?x128xf32, strided<[128, 1], offset: ?>>
// CHECK: memref.reinterpret_cast %[[SCRATCH]] to offset: [%{{.*}}], sizes: [%[[USED]]], strides: [1]
// CHECK: tile.store %{{.*}} : tensor<64xf32>, memref<?xf32, strided<[1], offset: ?>>
// CHECK: memref.reinterpret_cast %[[SCRATCH]] to offset: [%{{.*}}], sizes: [%[[USED]]], strides: [1]
// CHECK: tile.store %{{.*}} : tensor<64xf32>, memref<?xf32, strided<[1], offset: ?>>
// CHECK-NOT: arith.divf
// CHECK: tile.return
// CHECK-LABEL: tile.kernel @decode__decode_combine(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 1>, #tile.grid<arg = 0, dim = 0, per_program = 1>, #tile.grid<arg = 0, dim = 3, per_program = 32>]
// CHECK-SAME: tile.scratch = array<i64: 16, 4, 0>
// CHECK: %[[HEADER:.*]] = memref.load %arg4[%c0] : memref<?xf32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[HEADER]] : f32 to i32
// CHECK: %[[COUNT:.*]] = arith.index_castui %[[BITS]] : i32 to index
// CHECK: %[[GRID:.*]] = arith.ceildivui %[[KEYS:.*]], %c1024
// CHECK: %[[AT_LEAST_ONE:.*]] = arith.maxui %[[COUNT]], %c1
// CHECK: %[[LAUNCHED:.*]] = arith.minui %[[AT_LEAST_ONE]], %[[GRID]]
// CHECK: %[[CHUNK_KEYS:.*]] = arith.muli %{{.*}}, %c64
// CHECK: %[[FILLED:.*]] = arith.ceildivui %[[KEYS]], %[[CHUNK_KEYS]]
// CHECK: %[[CHUNKS:.*]] = arith.minui %[[LAUNCHED]], %[[FILLED]]
// CHECK: %[[SCRATCH:.*]] = memref.assume_alignment %arg4, 16 : memref<?xf32>
// CHECK: %[[GROUP:.*]] = tile.program_id z
// CHECK: %[[COLUMN:.*]] = arith.muli %[[GROUP]], %c32
// CHECK: %[[ROW:.*]] = tile.range : tensor<16xi32>
// CHECK: %[[ROWS:.*]] = tile.broadcast %[[ROW]]
// CHECK: %[[STORED:.*]] = arith.cmpi ult, %[[ROWS]], %{{.*}} : tensor<16x32xi32>
// CHECK: %[[LAST:.*]] = arith.subi %[[CHUNKS]], %c1
// CHECK: scf.for %[[FIRST:.*]] = %c0{{.*}} to %[[CHUNKS]] step %c8
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[FIRST]], %[[LAST]]
// CHECK: %[[EXISTS:.*]] = arith.cmpi ult, %[[FIRST]], %[[CHUNKS]]
// CHECK: %[[FLAGS:.*]] = tile.splat %[[EXISTS]] : i1 -> tensor<16x32xi1>
// CHECK: %[[VALID:.*]] = arith.andi %[[STORED]], %[[FLAGS]]
// CHECK: memref.reinterpret_cast %[[SCRATCH]] to offset: [%{{.*}}], sizes: [16, 128], strides: [128, 1]
// CHECK: %[[ACC:.*]] = tile.load %{{.*}}[%c0{{.*}}, %[[COLUMN]]] : memref<16x128xf32, {{.*}}> -> tensor<16x32xf32>
// CHECK: arith.select %[[VALID]], %[[ACC]], %{{.*}} : tensor<16x32xi1>, tensor<16x32xf32>
// CHECK: memref.reinterpret_cast %[[SCRATCH]] to offset: [%{{.*}}], sizes: [16, 32], strides: [1, 0]
// CHECK: %[[MAX:.*]] = tile.load {{.*}} : memref<16x32xf32, strided<[1, 0], offset: ?>> -> tensor<16x32xf32>
// CHECK: arith.select %[[VALID]], %[[MAX]], %{{.*}} : tensor<16x32xi1>, tensor<16x32xf32>
// CHECK: memref.reinterpret_cast %[[SCRATCH]] to offset: [%{{.*}}], sizes: [16, 32], strides: [1, 0]
// CHECK: tile.load
// CHECK-COUNT-7: tile.load %{{.*}}[%c0{{.*}}, %[[COLUMN]]] {{.*}} -> tensor<16x32xf32>
// CHECK: scf.yield
// CHECK: tile.reduce max %{{.*}} along 1 : tensor<16x32xf32> -> tensor<16xf32>
// CHECK: arith.divf
// CHECK: tile.store %{{.*}}[%{{.*}}, %[[COLUMN]]] : tensor<16x32xbf16>
// CHECK-LABEL: tile.kernel @decode__decode_heads(
// CHECK-SAME: grid = {{\[}}[#tile.grid<arg = 1, dim = 1, per_program = 1>, #tile.grid<arg = 0, dim = 1, per_program = 64>], #tile.grid<arg = 0, dim = 0, per_program = 1>, #tile.grid<arg = 1, dim = 2, per_program = 1024>]
// CHECK-SAME: tile.scratch = array<i64: 16, 33280, 0>, tile.split = 1 : i64, tile.then = @decode__decode_heads_combine
// CHECK: %[[SLOT:.*]] = tile.program_id x
// CHECK: %[[HEADS:.*]] = memref.dim %arg0, %c1
// CHECK: %[[KV_HEADS:.*]] = memref.dim %arg1, %c1
// CHECK: %[[GROUP:.*]] = arith.divui %[[HEADS]], %[[KV_HEADS]]
// CHECK: %[[PACKS:.*]] = arith.ceildivui %[[GROUP]], %c64
// CHECK: %[[SIZE:.*]] = arith.ceildivui %[[GROUP]], %[[PACKS]]
// CHECK: %[[KV_HEAD:.*]] = arith.remui %[[SLOT]], %[[KV_HEADS]]
// CHECK: %[[PACK:.*]] = arith.divui %[[SLOT]], %[[KV_HEADS]]
// CHECK: %[[SKIPPED:.*]] = arith.muli %[[PACK]], %[[SIZE]]
// CHECK: %[[IN_GROUP:.*]] = arith.minui %[[SKIPPED]], %[[GROUP]]
// CHECK: %[[GROUP_START:.*]] = arith.muli %[[KV_HEAD]], %[[GROUP]]
// CHECK: %[[HEAD:.*]] = arith.addi %[[GROUP_START]], %[[IN_GROUP]]
// CHECK: %[[LEFT:.*]] = arith.subi %[[GROUP]], %[[IN_GROUP]]
// CHECK: %[[ROWS:.*]] = arith.minui %[[SIZE]], %[[LEFT]]
// CHECK: %[[TAKES:.*]] = arith.cmpi ult, %[[PACK]], %[[PACKS]]
// CHECK: %[[HAS_KEYS_AND_PACK:.*]] = arith.andi %{{.*}}, %[[TAKES]]
// CHECK: scf.if %[[HAS_KEYS_AND_PACK]] {
// CHECK: memref.subview %arg0[%{{.*}}, %[[HEAD]], 0, 0] [1, %[[ROWS]], 1, 128]
// CHECK: tile.dot
// CHECK: tile.store %{{.*}} : tensor<64x128xf32>
// CHECK: tile.store %{{.*}} : tensor<64xf32>
// CHECK: tile.store %{{.*}} : tensor<64xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: tile.return
// CHECK-LABEL: tile.kernel @decode__decode_heads_combine(
// CHECK: %[[HEAD:.*]] = tile.program_id x
// CHECK: %[[GROUP:.*]] = arith.divui
// CHECK: %[[PACKS:.*]] = arith.ceildivui %[[GROUP]], %c64
// CHECK: %[[SIZE:.*]] = arith.ceildivui %[[GROUP]], %[[PACKS]]
// CHECK: %[[KV_HEAD:.*]] = arith.divui %[[HEAD]], %[[GROUP]]
// CHECK: %[[IN_GROUP:.*]] = arith.remui %[[HEAD]], %[[GROUP]]
// CHECK: %[[PACK:.*]] = arith.divui %[[IN_GROUP]], %[[SIZE]]
// CHECK: %[[PACK_ROW:.*]] = arith.remui %[[IN_GROUP]], %[[SIZE]]
// CHECK: %[[PACK_SLOTS:.*]] = arith.muli %{{.*}}, %[[PACK]]
// CHECK: %[[SLOT:.*]] = arith.addi %[[KV_HEAD]], %[[PACK_SLOTS]]
// CHECK-NOT: scf.if
// CHECK: arith.addi %[[SLOT]],
// CHECK: scf.for %[[FIRST:.*]] = %c0 to %[[CHUNKS:.*]] step %c16
// CHECK: %[[LANES:.*]] = arith.minui %{{.*}}, %c16
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [%[[LANES]], 128], strides: [8192, 1]
// CHECK: tile.load %{{.*}} {padding = 0.000000e+00 : f32} {{.*}} -> tensor<16x32xf32>
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [%[[LANES]], 32], strides: [64, 0]
// CHECK: tile.load %{{.*}} {padding = 0xFF800000 : f32} {{.*}} -> tensor<16x32xf32>
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [%[[LANES]], 32], strides: [64, 0]
// CHECK: tile.load %{{.*}} {padding = 0.000000e+00 : f32} {{.*}} -> tensor<16x32xf32>
// CHECK: scf.yield
// CHECK: tile.reduce max %{{.*}} along 0 : tensor<16x32xf32> -> tensor<32xf32>
// CHECK: tile.reduce add %{{.*}} along 0 : tensor<16x32xf32> -> tensor<32xf32>
// CHECK: tile.store %{{.*}} : tensor<1x32xbf16>
tile.attention @decode layout(bhsd)
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// Packed sequences: x over blocks of max_seqlen_q (argument 7), y over
// heads, z over cu_seqlens_q's entries; each program reads its sequence's
// bounds and returns at once past its queries. No decode variants without
// max_seqlen_k.
// CHECK-LABEL: tile.kernel @ragged(
// CHECK-SAME: grid = [#tile.grid<arg = 7, per_program = 128>, #tile.grid<arg = 0, dim = 1, per_program = 1>, #tile.grid<arg = 5, dim = 0, per_program = 1>]
// CHECK-NOT: tile.narrow
// CHECK: %[[BATCH:.*]] = tile.program_id z
// CHECK: %[[Q0:.*]] = memref.load %arg5[%{{.*}}] : memref<?xi32>
// CHECK: %[[Q1:.*]] = memref.load %arg5[%{{.*}}] : memref<?xi32>
// CHECK: %[[K0:.*]] = memref.load %arg6[%{{.*}}] : memref<?xi32>
// CHECK: %[[K1:.*]] = memref.load %arg6[%{{.*}}] : memref<?xi32>
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult
// CHECK: scf.if %[[INSIDE]] {
// CHECK: memref.subview %arg0[%{{.*}}, %{{.*}}, 0] [%{{.*}}, 1, 128]
// CHECK: memref.subview %arg4[%{{.*}}, %{{.*}}] [1, %{{.*}}] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK: tile.store %{{.*}} : tensor<128xf32>
// CHECK-NEXT: }
// CHECK-NEXT: tile.return
// CHECK-NOT: tile.kernel @ragged__decode
tile.attention @ragged layout(thd) causal lse
    : (memref<?x?x128xbf16>, memref<?x?x128xbf16>, memref<?x?x128xbf16>,
       memref<?x?x128xbf16>, memref<?x?xf32>, memref<?xi32>, memref<?xi32>,
       i32) -> ()

// -----

// Packed sequences with max_seqlen_k (argument 8): decode variants chosen
// on max_seqlen_q (at most 16, then 1), y over cu_seqlens_q's entries, z
// over chunks of max_seqlen_k. A key-chunk program returns at once past its
// sequence's queries or keys; the combine merges the chunks the sequence's
// keys fill (at most those launched), its packed heads starting at the
// sequence's query.
// CHECK-LABEL: tile.kernel @ragged_decode(
// CHECK-SAME: tile.narrow = {at_most = 16 : i64, kernel = @ragged_decode__decode, operand = 7 : i64}
// CHECK-LABEL: tile.kernel @ragged_decode__decode(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 1>, #tile.grid<arg = 5, dim = 0, per_program = 1>, #tile.grid<arg = 8, per_program = 1024>]
// CHECK-SAME: tile.narrow = {at_most = 1 : i64, kernel = @ragged_decode__decode_heads, operand = 7 : i64}
// CHECK-SAME: tile.split = 1 : i64, tile.then = @ragged_decode__decode_combine
// CHECK: %[[CHUNK:.*]] = tile.program_id z
// CHECK: %[[MAX_KEYS:.*]] = arith.index_cast %arg8 : i32 to index
// CHECK: %[[GRID_KEYS:.*]] = arith.maxsi %[[MAX_KEYS]], %c0
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[GRID_KEYS]], %c64
// CHECK: %[[CHUNK_KEYS:.*]] = arith.muli %{{.*}}, %c64
// CHECK: %[[FIRST_KEY:.*]] = arith.muli %[[CHUNK]], %[[CHUNK_KEYS]]
// CHECK: %[[HAS_KEYS:.*]] = arith.cmpi ult, %[[FIRST_KEY]], %{{.*}}
// CHECK: %[[TAKES:.*]] = arith.andi %{{.*}}, %[[HAS_KEYS]]
// CHECK: scf.if %[[TAKES]] {
// CHECK: tile.dot %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
// CHECK: tile.store
// CHECK-LABEL: tile.kernel @ragged_decode__decode_combine(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 1>, #tile.grid<arg = 5, dim = 0, per_program = 1>, #tile.grid<arg = 0, dim = 2, per_program = 32>]
// CHECK: %[[MAX_KEYS:.*]] = arith.index_cast %arg8 : i32 to index
// CHECK: %[[GRID_KEYS:.*]] = arith.maxsi %[[MAX_KEYS]], %c0
// CHECK: memref.load %arg9[%c0] : memref<?xf32>
// CHECK: %[[GRID_CHUNKS:.*]] = arith.ceildivui %[[GRID_KEYS]], %c1024
// CHECK: %[[LAUNCHED:.*]] = arith.minui %{{.*}}, %[[GRID_CHUNKS]]
// CHECK: %[[CHUNK_KEYS:.*]] = arith.muli %{{.*}}, %c64
// CHECK: %[[SEQUENCE_CHUNKS:.*]] = arith.ceildivui %{{.*}}, %[[CHUNK_KEYS]]
// CHECK: %[[CHUNKS:.*]] = arith.minui %[[LAUNCHED]], %[[SEQUENCE_CHUNKS]]
// CHECK: scf.for %{{.*}} = %c0 to %[[CHUNKS]] step %c8
// CHECK-LABEL: tile.kernel @ragged_decode__decode_heads(
// CHECK: scf.if
// CHECK: memref.subview %arg0[%{{.*}}, %{{.*}}, 0] [1, %{{.*}}, 128]
// CHECK-LABEL: tile.kernel @ragged_decode__decode_heads_combine(
// CHECK: memref.subview %arg4[%{{.*}}, %{{.*}}] [%{{.*}}, 1] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[?], offset: ?>>
tile.attention @ragged_decode layout(thd) causal lse
    : (memref<?x?x128xbf16>, memref<?x?x128xbf16>, memref<?x?x128xbf16>,
       memref<?x?x128xbf16>, memref<?x?xf32>, memref<?xi32>, memref<?xi32>,
       i32, i32) -> ()

// -----

// Causal d64 without hints: 64 query rows on 4 warps, keys in blocks of 64
// (non-causal d64 takes blocks of 128).
// CHECK-LABEL: tile.kernel @causal_d64(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 2, per_program = 64>, {{.*}}], num_warps = 4
// CHECK: scf.for %{{.*}} step %c64
// CHECK:   tile.dot %{{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
tile.attention @causal_d64 layout(bhsd) causal
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
