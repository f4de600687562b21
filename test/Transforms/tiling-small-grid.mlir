// RUN: tilec-opt %s -split-input-file -tile-tiling='small-grid-variants=true warpgroup-mma=true' | FileCheck %s

// An unhinted 16-bit matmul gets a second kernel with 128x128 tiles, named
// by the main kernel (128x256 tiles) with the grid share under which the
// runtime launches it, and as its narrow variant for C of at most 128
// columns (dimension 1 of argument 2), which half a 256-wide tile covers.
// Its first narrow line takes C of at most 64 rows (dimension 0) to the
// few-rows kernels (the wide one first), whatever its columns.
// CHECK-LABEL: tile.kernel @mm(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 128>
// CHECK-SAME: tile.narrow = [{at_most = 64 : i64, dim = 0 : i64, kernel = @mm__few_rows_wide, operand = 2 : i64}, {at_most = 128 : i64, dim = 1 : i64, kernel = @mm__small_grid, operand = 2 : i64}]
// CHECK-SAME: tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 0>]
// CHECK-SAME: tile.small_grid = {kernel = @mm__small_grid, percent_of_sms = 50 : i64}
// Its copies of A keep to A's rows too (a C of 65 to 127 rows), B's do
// not.
// CHECK: tile.load %arg0[{{.*}}] {tile.fit_rows} : memref<?x?xbf16> -> tensor<128x64xbf16>
// CHECK-NEXT: tile.load %arg1[{{.*}}] : memref<?x?xbf16> -> tensor<64x256xbf16>
// CHECK-NEXT: tile.dot {{.*}} : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
// Every kernel copies a misaligned A or B from one tile on, and a
// misaligned C at any grid, and back (it is written, axis -1, and not read
// first, 0).
// CHECK-LABEL: tile.kernel @mm__small_grid(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 128>
// CHECK-SAME: num_warps = 8
// The small-grid kernel's own narrow variant, the GEMV kernel, takes C of
// at most 2 columns.
// CHECK-SAME: tile.narrow = {at_most = 2 : i64, dim = 1 : i64, kernel = @mm__gemv, operand = 2 : i64}
// CHECK-SAME: tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 0>]
// CHECK-SAME: tile.small_grid = {kernel = @mm__split_k, percent_of_sms = 7 : i64}
// CHECK: tile.load %arg0[{{.*}}] {tile.fit_rows} : memref<?x?xbf16> -> tensor<128x64xbf16>
// CHECK-NEXT: tile.load %arg1[{{.*}}] : memref<?x?xbf16> -> tensor<64x128xbf16>
// CHECK-NEXT: tile.dot {{.*}} : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
// CHECK: } {tile.stages = 4 : i64}
// The GEMV kernel: x over C's columns, one a program, y over 8 rows; plain
// loads of A's [8, 512] tiles and of B's column n (a view), products summed
// in f32 and reduced once; no tensor map, so nothing to copy; grids under
// half the SMs go down the small-grid kernel's ladder.
// CHECK-LABEL: tile.kernel @mm__gemv(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 1>, #tile.grid<arg = 2, dim = 0, per_program = 8>
// CHECK-SAME: num_warps = 4
// CHECK-NOT: tile.repitch_args
// CHECK-SAME: tile.small_grid = {kernel = @mm__small_grid, percent_of_sms = 50 : i64}
// CHECK: %[[N:.*]] = tile.program_id x
// CHECK: %[[BCOL:.*]] = memref.subview %arg1[0, %[[N]]] [%{{.*}}, 1] [1, 1] : memref<?x?xbf16> to memref<?xbf16, strided<[?], offset: ?>>
// CHECK: %[[CCOL:.*]] = memref.subview %arg2[0, %[[N]]] [%{{.*}}, 1] [1, 1] : memref<?x?xbf16> to memref<?xbf16, strided<[?], offset: ?>>
// CHECK: scf.for
// CHECK: tile.load %arg0{{.*}} -> tensor<8x512xbf16>
// CHECK: tile.load %[[BCOL]]{{.*}} -> tensor<512xbf16>
// CHECK: tile.broadcast %{{.*}} dims [0] : tensor<512xf32> -> tensor<8x512xf32>
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: tile.dot
// CHECK: tile.reduce add %{{.*}} along 1 : tensor<8x512xf32> -> tensor<8xf32>
// CHECK: arith.truncf %{{.*}} : tensor<8xf32> to tensor<8xbf16>
// CHECK: tile.store %{{.*}}, %[[CCOL]]
// The thin few-rows kernel: 64x64 tiles on one warpgroup (m64n64) in 8
// slots, K split, A's boxes fitted to A's rows, with a sum kernel of its
// own over [8, 64] slabs; its own grid, if as small as the split kernel's,
// goes there.
// CHECK-LABEL: tile.kernel @mm__few_rows_thin(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 64>, #tile.grid<arg = 2, dim = 0, per_program = 64>, #tile.grid<arg = 0, dim = 1, per_program = 512>]
// CHECK-SAME: num_warps = 4
// CHECK-NOT: tile.narrow
// CHECK-SAME: tile.scratch = array<i64: 16, 16384, 0>, tile.small_grid = {kernel = @mm__split_k, percent_of_sms = 7 : i64}, tile.split = 1 : i64, tile.split_min_parts = 4 : i64, tile.then = @mm__few_rows_thin_sum}
// CHECK: tile.load %arg0[{{.*}}] {tile.fit_rows} : memref<?x?xbf16> -> tensor<64x64xbf16>
// CHECK-NEXT: tile.load %arg1[{{.*}}] : memref<?x?xbf16> -> tensor<64x64xbf16>
// CHECK-NEXT: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
// CHECK: } {tile.stages = 8 : i64}
// CHECK-LABEL: tile.kernel @mm__few_rows_thin_sum(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 64>, #tile.grid<arg = 2, dim = 0, per_program = 8>]
// CHECK: tile.load {{.*}} -> tensor<8x64xf32>
// CHECK: tile.store {{.*}}, %arg2[{{.*}}] : tensor<8x64xbf16>
// The few-rows kernel: 64x128 tiles on 8 warps (two warpgroups of m64n64)
// in 8 slots, K split as the split kernel's, with a sum kernel of its own
// (a 64x128 f32 partial tile a program, no counters); its own grid, if
// under half the multiprocessors, goes to the thin kernel. Its narrow
// choice was made on the wide rung above it.
// CHECK-LABEL: tile.kernel @mm__few_rows(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 64>, #tile.grid<arg = 0, dim = 1, per_program = 512>]
// CHECK-SAME: num_warps = 8
// CHECK-NOT: tile.narrow
// CHECK-SAME: tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 0>]
// CHECK-SAME: tile.scratch = array<i64: 16, 32768, 0>, tile.small_grid = {kernel = @mm__few_rows_thin, percent_of_sms = 50 : i64}, tile.split = 1 : i64, tile.split_min_parts = 4 : i64, tile.then = @mm__few_rows_sum}
// Its copies of A keep to A's rows (tile.fit_rows): C of 3 rows would
// otherwise have the copy engine write 61 rows of zeros a K step. B's
// rows are K, copied whole.
// CHECK: tile.load %arg0[{{.*}}] {tile.fit_rows} : memref<?x?xbf16> -> tensor<64x64xbf16>
// CHECK-NEXT: tile.load %arg1[{{.*}}] : memref<?x?xbf16> -> tensor<64x128xbf16>
// CHECK-NEXT: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
// CHECK: } {tile.stages = 8 : i64}
// CHECK-NOT: tilegpu.arrive
// CHECK: tile.return
// Its sum kernel adds 8 rows of C a program: the [8, 128] slabs of 4
// splits' partial tiles a step, all loaded before they are added (slots
// past the split count have no rows, so read as zero), the next step's
// loaded before this one's sum is added.
// CHECK-LABEL: tile.kernel @mm__few_rows_sum(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 8>]
// CHECK-SAME: tile.scratch = array<i64: 16, 32768, 0>
// CHECK: %[[Y:.*]] = tile.program_id y
// CHECK: %[[ROW0:.*]] = arith.muli %[[Y]], %c8
// CHECK: %[[SPLITS:.*]] = arith.minui
// CHECK: memref.reinterpret_cast {{.*}} sizes: [64, 128], strides: [128, 1]
// CHECK: tile.load {{.*}} -> tensor<8x128xf32>
// CHECK-COUNT-3: tile.load {{.*}} : memref<?x128xf32, {{.*}} -> tensor<8x128xf32>
// CHECK-NOT: tile.load
// CHECK-COUNT-3: arith.addf {{.*}} : tensor<8x128xf32>
// CHECK: %[[SUM:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[SPLITS]] step %c4
// CHECK:   tile.load {{.*}} -> tensor<8x128xf32>
// CHECK:   arith.addf {{.*}} : tensor<8x128xf32>
// CHECK-NOT: tile.reduce
// CHECK: arith.truncf %[[SUM]]#0 : tensor<8x128xf32> to tensor<8x128xbf16>
// CHECK: tile.store {{.*}}, %arg2[%[[ROW0]], %{{.*}}] : tensor<8x128xbf16>
// The few-rows kernels' top rung: 64x256 tiles (two warpgroups of m64n128)
// in 5 slots, K unsplit, no scratch; a grid under half the SMs goes to the
// 64x128 tiles, and C of at most 2 columns to the GEMV kernel.
// CHECK-LABEL: tile.kernel @mm__few_rows_wide(
// CHECK-SAME: grid = [#tile.grid<arg = 2, dim = 1, per_program = 256>, #tile.grid<arg = 2, dim = 0, per_program = 64>]
// CHECK-SAME: num_warps = 8
// CHECK-SAME: tile.narrow = {at_most = 2 : i64, dim = 1 : i64, kernel = @mm__gemv, operand = 2 : i64}
// CHECK-SAME: tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 0>]
// CHECK-NOT: tile.scratch
// CHECK-SAME: tile.small_grid = {kernel = @mm__few_rows, percent_of_sms = 50 : i64}}
// CHECK: tile.load %arg0[{{.*}}] {tile.fit_rows} : memref<?x?xbf16> -> tensor<64x64xbf16>
// CHECK-NEXT: tile.load %arg1[{{.*}}] : memref<?x?xbf16> -> tensor<64x256xbf16>
// CHECK-NEXT: tile.dot {{.*}} : tensor<64x64xbf16>, tensor<64x256xbf16>, tensor<64x256xf32>
// CHECK: } {tile.stages = 5 : i64}
// CHECK: tile.store {{.*}} : tensor<64x256xbf16>
// B stored [K, N] gets no vector-matrix kernel.
// CHECK-NOT: tile.kernel @mm__vecmat(
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// B stored [N, K] (a linear layer's weight): the few-rows kernel's first
// narrow line takes C of at most 2 rows (dimension 0) to the vector-matrix
// kernel, the GEMV program over B: x over C's rows, one a program, y over
// 8 columns of C, [8, 512] tiles of B as stored, A's row m the vector, C's
// row m stored.
// CHECK-LABEL: tile.kernel @mm_rc(
// CHECK-SAME: tile.narrow = [{at_most = 64 : i64, dim = 0 : i64, kernel = @mm_rc__few_rows_wide, operand = 2 : i64}, {at_most = 128 : i64, dim = 1 : i64, kernel = @mm_rc__small_grid, operand = 2 : i64}]
// CHECK-LABEL: tile.kernel @mm_rc__few_rows_wide(
// CHECK-SAME: tile.narrow = [{at_most = 2 : i64, dim = 0 : i64, kernel = @mm_rc__vecmat, operand = 2 : i64}, {at_most = 2 : i64, dim = 1 : i64, kernel = @mm_rc__gemv, operand = 2 : i64}]
// CHECK-LABEL: tile.kernel @mm_rc__vecmat(
// CHECK-SAME: #tile.grid<arg = 2, dim = 0, per_program = 1>, #tile.grid<arg = 2, dim = 1, per_program = 8>
// CHECK-SAME: num_warps = 4
// CHECK-NOT: tile.repitch_args
// CHECK-SAME: tile.small_grid = {kernel = @mm_rc__small_grid, percent_of_sms = 50 : i64}
// CHECK: %[[M:.*]] = tile.program_id x
// CHECK: %[[AROW:.*]] = memref.subview %arg0[%[[M]], 0] [1, %{{.*}}] [1, 1] : memref<?x?xbf16> to memref<?xbf16, strided<[1], offset: ?>>
// CHECK: %[[CROW:.*]] = memref.subview %arg2[%[[M]], 0] [1, %{{.*}}] [1, 1] : memref<?x?xbf16> to memref<?xbf16, strided<[1], offset: ?>>
// CHECK: scf.for
// CHECK: tile.load %arg1{{.*}} -> tensor<8x512xbf16>
// CHECK: tile.load %[[AROW]]{{.*}} -> tensor<512xbf16>
// CHECK: tile.broadcast %{{.*}} dims [0] : tensor<512xf32> -> tensor<8x512xf32>
// CHECK-NOT: tile.dot
// CHECK: tile.reduce add %{{.*}} along 1 : tensor<8x512xf32> -> tensor<8xf32>
// CHECK: arith.truncf %{{.*}} : tensor<8xf32> to tensor<8xbf16>
// CHECK: tile.store %{{.*}}, %[[CROW]]
tile.matmul @mm_rc a(row) b(col) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// A column-major A (stored [K, M]) and B (stored [N, K]): the GEMV kernel's
// tiles are [128, 32] of A as stored (32 rows of C, 64 contiguous bytes),
// reduced along K (dimension 0); B's column n is row n of B as stored.
// Accumulating into f32, C's column is loaded first and added.
// CHECK-LABEL: tile.kernel @mm_cc__gemv(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 1>, #tile.grid<arg = 2, dim = 0, per_program = 32>
// CHECK: %[[N:.*]] = tile.program_id x
// CHECK: %[[BROW:.*]] = memref.subview %arg1[%[[N]], 0] [1, %{{.*}}] [1, 1] : memref<?x?xf16> to memref<?xf16, strided<[1], offset: ?>>
// CHECK: %[[CCOL:.*]] = memref.subview %arg2[0, %[[N]]]
// CHECK: scf.for
// CHECK: tile.load %arg0{{.*}} -> tensor<128x32xf16>
// CHECK: tile.load %[[BROW]]{{.*}} -> tensor<128xf16>
// CHECK: tile.broadcast %{{.*}} dims [1] : tensor<128xf32> -> tensor<128x32xf32>
// CHECK: tile.reduce add %{{.*}} along 0 : tensor<128x32xf32> -> tensor<32xf32>
// CHECK: %[[OLD:.*]] = tile.load %[[CCOL]]{{.*}} -> tensor<32xf32>
// CHECK: arith.addf %[[OLD]]
// CHECK-NOT: arith.truncf
// CHECK: tile.store %{{.*}}, %[[CCOL]]
// Its vector-matrix kernel reads B as stored ([N, K]: 8 rows of B, 8
// columns of C, [8, 512] tiles) and A's column m (row m of A).
// CHECK-LABEL: tile.kernel @mm_cc__vecmat(
// CHECK-SAME: #tile.grid<arg = 2, dim = 0, per_program = 1>, #tile.grid<arg = 2, dim = 1, per_program = 8>
// CHECK: %[[M:.*]] = tile.program_id x
// CHECK: %[[ACOL:.*]] = memref.subview %arg0[0, %[[M]]] [%{{.*}}, 1] [1, 1] : memref<?x?xf16> to memref<?xf16, strided<[?], offset: ?>>
// CHECK: %[[CROW:.*]] = memref.subview %arg2[%[[M]], 0]
// CHECK: scf.for
// CHECK: tile.load %arg1{{.*}} -> tensor<8x512xf16>
// CHECK: tile.load %[[ACOL]]{{.*}} -> tensor<512xf16>
// CHECK: tile.broadcast %{{.*}} dims [0] : tensor<512xf32> -> tensor<8x512xf32>
// CHECK: tile.reduce add %{{.*}} along 1 : tensor<8x512xf32> -> tensor<8xf32>
// CHECK: %[[OLD:.*]] = tile.load %[[CROW]]{{.*}} -> tensor<8xf32>
// CHECK: arith.addf %[[OLD]]
// CHECK-NOT: arith.truncf
// CHECK: tile.store %{{.*}}, %[[CROW]]
tile.matmul @mm_cc a(col) b(col) accumulate : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()

// -----

// A stored [K, M]: the rows of A's tiles as copied are K, which no copy
// may cut short (a stale value there, a NaN say, times B's zero-filled
// row of K would spoil C), so the few-rows kernels copy A in whole boxes.
// CHECK-LABEL: tile.kernel @mm_cr__few_rows_thin(
// CHECK-NOT: tile.fit_rows
// CHECK: tile.dot
// CHECK-LABEL: tile.kernel @mm_cr__few_rows(
// CHECK-NOT: tile.fit_rows
// CHECK: tile.dot
// CHECK-LABEL: tile.kernel @mm_cr__few_rows_wide(
// CHECK-NOT: tile.fit_rows
// CHECK: tile.dot
tile.matmul @mm_cr a(col) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// f32: 32x128 tiles of K 32 on 4 warps for small grids, as wide as the
// main kernel's 128x128: the main kernel's narrow variant is the GEMV
// kernel itself, for C of at most 4 columns.
// CHECK-LABEL: tile.kernel @sgemm(
// CHECK-SAME: tile.narrow = {at_most = 4 : i64, dim = 1 : i64, kernel = @sgemm__gemv, operand = 2 : i64}
// CHECK-SAME: tile.small_grid = {kernel = @sgemm__small_grid, percent_of_sms = 50 : i64}
// No few-rows kernel (its tiles are warpgroup MMA's).
// CHECK-NOT: @sgemm__few_rows
// CHECK-LABEL: tile.kernel @sgemm__small_grid(
// CHECK-SAME: per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 32>
// CHECK-SAME: num_warps = 4
// CHECK: tile.dot {{.*}} : tensor<32x32xf32>, tensor<32x128xf32>, tensor<32x128xf32>
// CHECK: } {tile.stages = 3 : i64}
tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// A hinted schedule is the user's choice for every shape: no variant.
// CHECK-LABEL: tile.kernel @hinted(
// CHECK-NOT: tile.small_grid
// CHECK-NOT: @hinted__small_grid
// CHECK-NOT: @hinted__few_rows
tile.matmul @hinted a(row) b(row) stages 3 : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()

// -----

// The 16-bit small-grid kernel splits K: the grid's z dimension takes K in
// parts of 512 (argument 0's columns: A is row-major), and the kernel gains
// a scratch buffer of 1024 arrival counters (kept zero: mode 2) and one
// 128x128 f32 partial tile a program; the runtime launches at most one
// block a multiprocessor in all (tile.split = 1), fewer splits than K / 512
// where the tiles are many, and none where K / 512 is under 4
// (tile.split_min_parts = 4); the kernel uses no more splits than its K
// steps make worthwhile, and programs past them leave nothing. Each split
// runs its own run of K
// steps; with one split program 0 stores C directly, otherwise every split
// stores its partial tile, arrives at its tile's counter, and the last to
// arrive adds the partial tiles in split order and stores C.
// CHECK-LABEL: tile.kernel @split(
// CHECK-LABEL: tile.kernel @split__small_grid(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xbf16>, %{{.*}}: memref<?x?xbf16>, %[[C:[^:]*]]: memref<?x?xf32>, %[[SCRATCH:[^:]*]]: memref<?xf32>)
// CHECK-SAME: #tile.grid<arg = 0, dim = 1, per_program = 512>]
// CHECK-SAME: tile.scratch = array<i64: 4096, 65536, 2>, tile.small_grid = {kernel = @split__split_k, percent_of_sms = 7 : i64}, tile.split = 1 : i64, tile.split_min_parts = 4 : i64
// CHECK: %[[ALIGNED:.*]] = memref.assume_alignment %[[SCRATCH]], 16
// CHECK: %[[SPLIT:.*]] = tile.program_id z
// CHECK: %[[GRID_SPLITS:.*]] = tile.num_programs z
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %c1024
// CHECK: %[[K:.*]] = memref.dim %[[A]], %c1
// CHECK: %[[STEPS:.*]] = arith.ceildivui %[[K]], %c64
// The splits worth their partial tiles: the least power of two whose square
// is at least the K steps (2 above 1 step, 4 above 4, ..., 256 above 16384).
// CHECK: %[[ABOVE_1:.*]] = arith.cmpi ugt, %[[STEPS]], %c1
// CHECK: %[[WORTH_2:.*]] = arith.select %[[ABOVE_1]], %c2, %c1
// CHECK: %[[ABOVE_4:.*]] = arith.cmpi ugt, %[[STEPS]], %c4
// CHECK: %[[WORTH_4:.*]] = arith.select %[[ABOVE_4]], %c4{{.*}}, %[[WORTH_2]]
// CHECK: %[[ABOVE_16384:.*]] = arith.cmpi ugt, %[[STEPS]], %c16384
// CHECK: %[[WORTH:.*]] = arith.select %[[ABOVE_16384]], %c256{{.*}}, %{{.*}}
// CHECK: %[[CAPPED:.*]] = arith.minui %[[GRID_SPLITS]], %[[WORTH]]
// CHECK: %[[SPLITS:.*]] = arith.select %[[FITS]], %[[CAPPED]], %c1
// CHECK: %[[PER_SPLIT_STEPS:.*]] = arith.ceildivui %[[STEPS]], %[[SPLITS]]
// CHECK: %[[PER_SPLIT:.*]] = arith.muli %[[PER_SPLIT_STEPS]], %c64
// CHECK: %[[START:.*]] = arith.muli %[[SPLIT]], %[[PER_SPLIT]]
// CHECK: %[[BEGIN:.*]] = arith.minui %[[START]], %[[K]]
// CHECK: %[[END0:.*]] = arith.addi %[[BEGIN]], %[[PER_SPLIT]]
// CHECK: %[[END:.*]] = arith.minui %[[END0]], %[[K]]
// CHECK: %[[C_ROWS:.*]] = memref.dim %[[C]], %c0
// CHECK: %[[ROWS_LEFT:.*]] = arith.subi %[[C_ROWS]], %{{.*}}
// CHECK: %[[ROWS:.*]] = arith.minui %[[ROWS_LEFT]], %c128
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %c64
// CHECK: tile.dot
// CHECK: %[[UNSPLIT:.*]] = arith.cmpi eq, %[[SPLITS]], %c1
// CHECK: scf.if %[[UNSPLIT]] {
// CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[SPLIT]], %c0
// CHECK:   scf.if %[[FIRST]] {
// CHECK:     tile.store %[[ACC]], %[[C]]
// CHECK:   }
// CHECK: } else {
// CHECK:   %[[TAKING:.*]] = arith.cmpi ult, %[[SPLIT]], %[[SPLITS]]
// CHECK:   scf.if %[[TAKING]] {
// A split stores C's rows of its tile (fewer over C's last rows); the
// last loads whole partial tiles.
// CHECK:   %[[PARTIAL:.*]] = memref.reinterpret_cast %[[ALIGNED]] to offset: [%{{.*}}], sizes: [%[[ROWS]], 128], strides: [128, 1] : memref<?xf32> to memref<?x128xf32
// CHECK:   tile.store %[[ACC]], %[[PARTIAL]][%c0
// CHECK:   %[[BEFORE:.*]] = tilegpu.arrive %[[ALIGNED]][%{{.*}}] of %[[SPLITS]]
// CHECK:   %[[LAST_COUNT:.*]] = arith.subi %[[SPLITS]], %c1
// CHECK:   %[[LAST:.*]] = arith.cmpi eq, %[[BEFORE]], %[[LAST_COUNT]]
// The last loads partial j + 1 before it adds partial j.
// CHECK:   scf.if %[[LAST]] {
// CHECK:     %[[VIEW0:.*]] = memref.reinterpret_cast %[[ALIGNED]] to offset: [%{{.*}}], sizes: [128, 128], strides: [128, 1] : memref<?xf32> to memref<128x128xf32
// CHECK:     %[[P0:.*]] = tile.load %[[VIEW0]]
// CHECK:     %[[SUM:.*]]:2 = scf.for %[[J:.*]] = %c0{{.*}} to %[[SPLITS]] step %c1{{.*}} iter_args(%[[RUNNING:.*]] = %{{.*}}, %[[CURRENT:.*]] = %[[P0]])
// CHECK:       %[[FOLLOWING:.*]] = arith.addi %[[J]], %c1
// CHECK:       %[[MORE:.*]] = arith.cmpi ult, %[[FOLLOWING]], %[[SPLITS]]
// CHECK:       %[[NEXT:.*]] = scf.if %[[MORE]]
// CHECK:         %[[VIEW:.*]] = memref.reinterpret_cast %[[ALIGNED]]
// CHECK:         %[[P:.*]] = tile.load %[[VIEW]]
// CHECK:         scf.yield %[[P]]
// CHECK:       } else {
// CHECK:         scf.yield %[[CURRENT]]
// CHECK:       %[[ADDED:.*]] = arith.addf %[[RUNNING]], %[[CURRENT]] : tensor<128x128xf32>
// CHECK:       scf.yield %[[ADDED]], %[[NEXT]]
// CHECK:     tile.store %[[SUM]]#0, %[[C]]
tile.matmul @split a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()

// -----

// The 16-bit small-grid kernel's own small-grid variant, taken where its
// tiles (the split grid's x * y) are under 7% of the multiprocessors: the
// same tiles and split, but every split of the grid takes K steps and
// leaves its partial tile after a 16-byte header (no counters: nothing is
// kept zero), program (0, 0, 0) leaves the splits in the header, and the
// sum kernel (tile.then) adds the partial tiles. With one split, program 0
// stores C itself.
// CHECK-LABEL: tile.kernel @wide__split_k(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[C:[^:]*]]: memref<?x?xf16>, %[[SCRATCH:[^:]*]]: memref<?xf32>)
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 128>, #tile.grid<arg = 0, dim = 1, per_program = 512>]
// CHECK-SAME: num_warps = 8
// CHECK-SAME: tile.scratch = array<i64: 16, 65536, 0>
// CHECK-NOT: tile.small_grid
// CHECK-SAME: tile.split = 1 : i64, tile.split_min_parts = 4 : i64, tile.then = @wide__split_k_sum}
// CHECK: %[[ALIGNED:.*]] = memref.assume_alignment %[[SCRATCH]], 16
// CHECK: %[[SPLIT:.*]] = tile.program_id z
// CHECK: %[[SPLITS:.*]] = tile.num_programs z
// CHECK: %[[TILE:.*]] = arith.addi
// CHECK-NOT: arith.select
// CHECK: %[[K:.*]] = memref.dim %[[A]], %c1
// CHECK: %[[STEPS:.*]] = arith.ceildivui %[[K]], %c64
// CHECK: %[[PER_SPLIT_STEPS:.*]] = arith.ceildivui %[[STEPS]], %[[SPLITS]]
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: tile.dot
// CHECK: %[[UNSPLIT:.*]] = arith.cmpi eq, %[[SPLITS]], %c1
// CHECK: scf.if %[[UNSPLIT]] {
// CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[SPLIT]], %c0
// CHECK:   scf.if %[[FIRST]] {
// CHECK:     %[[C_TILE:.*]] = arith.truncf %[[ACC]] : tensor<128x128xf32> to tensor<128x128xf16>
// CHECK:     tile.store %[[C_TILE]], %[[C]]
// CHECK:   }
// CHECK: } else {
// CHECK-NOT: tilegpu.arrive
// CHECK:   %[[PARTIAL_INDEX:.*]] = arith.muli %[[TILE]], %[[SPLITS]]
// CHECK:   %[[PARTIAL:.*]] = arith.addi %[[PARTIAL_INDEX]], %[[SPLIT]]
// CHECK:   %[[WORDS:.*]] = arith.muli %[[PARTIAL]], %c16384
// CHECK:   %[[OFFSET:.*]] = arith.addi %[[WORDS]], %c4
// CHECK:   %[[VIEW:.*]] = memref.reinterpret_cast %[[ALIGNED]] to offset: [%[[OFFSET]]], sizes: [%{{.*}}, 128], strides: [128, 1]
// CHECK:   tile.store %[[ACC]], %[[VIEW]][%c0
// CHECK:   %[[FIRST_PROGRAM_SUM:.*]] = arith.addi %[[TILE]], %[[SPLIT]]
// CHECK:   %[[FIRST_PROGRAM:.*]] = arith.cmpi eq, %[[FIRST_PROGRAM_SUM]], %c0
// CHECK:   scf.if %[[FIRST_PROGRAM]] {
// CHECK:     %[[COUNT:.*]] = arith.index_castui %[[SPLITS]] : index to i32
// CHECK:     %[[BITS:.*]] = arith.bitcast %[[COUNT]] : i32 to f32
// CHECK:     memref.store %[[BITS]], %[[ALIGNED]][%c0{{(_[0-9]+)?}}]

// The sum kernel: x over C's tile columns, y over C's rows, 4 warps; the
// same scratch declaration. Its splits come from the header, clamped to
// [1, K / 512]; it adds row y of the tile in each split's partial result,
// 32 splits a load (reduced along the splits, the next load issued first),
// and stores that row of C.
// CHECK-LABEL: tile.kernel @wide__split_k_sum(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf16>, %{{.*}}: memref<?x?xf16>, %[[C:[^:]*]]: memref<?x?xf16>, %[[SCRATCH:[^:]*]]: memref<?xf32>)
// CHECK-SAME: grid = [#tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 1>]
// CHECK-SAME: num_warps = 4
// CHECK-SAME: tile.scratch = array<i64: 16, 65536, 0>}
// CHECK: %[[ALIGNED:.*]] = memref.assume_alignment %[[SCRATCH]], 16
// CHECK: %[[COLUMN:.*]] = tile.program_id x
// CHECK: %[[ROW:.*]] = tile.program_id y
// CHECK: %[[HEADER:.*]] = memref.load %[[ALIGNED]][%c0]
// CHECK: %[[HEADER_BITS:.*]] = arith.bitcast %[[HEADER]] : f32 to i32
// CHECK: %[[COUNT:.*]] = arith.index_castui %[[HEADER_BITS]]
// CHECK: %[[K:.*]] = memref.dim %[[A]], %c1
// CHECK: %[[GRID_SPLITS:.*]] = arith.ceildivui %[[K]], %c512
// CHECK: %[[AT_LEAST_ONE:.*]] = arith.maxui %[[COUNT]], %c1
// CHECK: %[[SPLITS:.*]] = arith.minui %[[AT_LEAST_ONE]], %[[GRID_SPLITS]]
// CHECK: %[[ROWS:.*]] = memref.reinterpret_cast %[[ALIGNED]] to offset: [%{{.*}}], sizes: [%[[SPLITS]], 128], strides: [16384, 1]
// CHECK: %[[FIRST:.*]] = tile.load %[[ROWS]][%c0{{.*}}, %c0{{.*}}] : {{.*}} -> tensor<32x128xf32>
// CHECK: %[[SUM:.*]]:2 = scf.for %[[J:.*]] = %c0{{.*}} to %[[SPLITS]] step %c32 iter_args(%[[RUNNING:.*]] = %{{.*}}, %[[CURRENT:.*]] = %[[FIRST]])
// CHECK:   %[[FOLLOWING:.*]] = arith.addi %[[J]], %c32
// CHECK:   scf.if
// CHECK:     tile.load %[[ROWS]][%[[FOLLOWING]], %{{.*}}] : {{.*}} -> tensor<32x128xf32>
// CHECK:   %[[GROUP:.*]] = tile.reduce add %[[CURRENT]] along 0 : tensor<32x128xf32> -> tensor<128xf32>
// CHECK:   arith.addf %[[RUNNING]], %[[GROUP]] : tensor<128xf32>
// CHECK: %[[ROW_TILE:.*]] = tile.broadcast %[[SUM]]#0 dims [0] : tensor<128xf32> -> tensor<1x128xf32>
// CHECK: %[[N0:.*]] = arith.muli %[[COLUMN]], %c128
// CHECK: %[[C_ROW:.*]] = arith.truncf %[[ROW_TILE]] : tensor<1x128xf32> to tensor<1x128xf16>
// CHECK: tile.store %[[C_ROW]], %[[C]][%[[ROW]], %[[N0]]]
tile.matmul @wide a(row) b(row) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>) -> ()

// -----

// An accumulating matmul reads C before writing it: a misaligned C is
// copied in as well as back (1 after the written axis, -1).
// CHECK-LABEL: tile.kernel @split_acc(
// CHECK-SAME: tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 1>]
// An accumulating split adds C once: the sum of the partial tiles starts
// from it (C is not loaded again after the loop).
// CHECK-LABEL: tile.kernel @split_acc__small_grid(
// CHECK-SAME: tile.repitch_args = [array<i64: 0, 0, 1>, array<i64: 1, 1, 1>, array<i64: 2, -1, 1>]
// CHECK: tilegpu.arrive
// CHECK: %[[OLD:.*]] = tile.load %arg2
// CHECK: %[[SUM:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[OLD]], %{{.*}} = %{{.*}})
// CHECK-NOT: tile.load %arg2
// CHECK: tile.store %[[SUM]]#0, %arg2
// The sum kernel adds C's row to the splits' sum.
// CHECK-LABEL: tile.kernel @split_acc__split_k_sum(
// CHECK: %[[SUM:.*]]:2 = scf.for
// CHECK: %[[ROW_TILE:.*]] = tile.broadcast %[[SUM]]#0
// CHECK: %[[OLD:.*]] = tile.load %arg2[%{{.*}}, %{{.*}}] : memref<?x?xf32> -> tensor<1x128xf32>
// CHECK: %[[NEW:.*]] = arith.addf %[[ROW_TILE]], %[[OLD]] : tensor<1x128xf32>
// CHECK: tile.store %[[NEW]], %arg2
tile.matmul @split_acc a(col) b(row) accumulate : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()

// -----

// Column-major A: K is its rows, so the split's grid rule reads dimension 0.
// CHECK-LABEL: tile.kernel @split_col__small_grid(
// CHECK-SAME: #tile.grid<arg = 0, dim = 0, per_program = 512>]
tile.matmul @split_col a(col) b(col) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// The f32 small-grid kernel does not split K (the split slowed its unsplit
// launches); its own small-grid variant, taken on its grid of 32x128
// tiles, is the same tiles with K split as the 16-bit kernel's, compiled
// for 3 blocks a multiprocessor.
// CHECK-LABEL: tile.kernel @sgemm_unsplit__small_grid(
// CHECK-NOT: tile.scratch
// CHECK-NOT: tile.split
// CHECK-SAME: tile.small_grid = {kernel = @sgemm_unsplit__split_k, percent_of_sms = 50 : i64}
// CHECK-NOT: tilegpu.arrive
// CHECK: tile.return
// CHECK-LABEL: tile.kernel @sgemm_unsplit__split_k(
// CHECK-SAME: #tile.grid<arg = 2, dim = 1, per_program = 128>, #tile.grid<arg = 2, dim = 0, per_program = 32>, #tile.grid<arg = 0, dim = 1, per_program = 512>
// CHECK-SAME: num_warps = 4
// CHECK-SAME: tile.min_blocks_per_sm = 3 : i64
// CHECK-SAME: tile.scratch = array<i64: 4096, 16384, 2>
// CHECK-NOT: tile.small_grid
// CHECK-SAME: tile.split = 1 : i64
// CHECK-SAME: tile.split_min_parts = 4 : i64
// CHECK: tile.dot {{.*}} : tensor<32x32xf32>, tensor<32x128xf32>, tensor<32x128xf32>
// CHECK: tilegpu.arrive
tile.matmul @sgemm_unsplit a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
