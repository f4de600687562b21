// RUN: tilec-opt %s -split-input-file -tile-tiling | FileCheck %s

// A 1-D kind scan is a single pass over one program (4 warps) per 6144
// elements, 16 programs an SM (a register cap for ptxas). The kernel
// gains the runtime's scratch buffer (16 bytes, then 16 a program,
// zero-filled only when allocated: mode 3, epochs): a
// program takes a ticket and reads its piece 1024 elements at a time, twice
// (tile-stage-windows keeps it in workgroup memory in between): first
// combining the sub-pieces for the total that the look-back publishes,
// then scanning each behind the carry, which takes its total. Padding is
// zero: it only follows the elements in scan order.
// CHECK-LABEL: tile.kernel @cumsum(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf32>, %[[Y:[a-z0-9]+]]: memref<?xf32>, %[[SCRATCH:[a-z0-9]+]]: memref<?xi32>)
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 6144>], num_warps = 4
// CHECK-SAME: tile.min_blocks_per_sm = 16 : i64
// CHECK-SAME: tile.scratch = array<i64: 16, 16, 3>
// CHECK: %[[TICKET:.*]], %[[EPOCH:.*]] = tilegpu.ticket %[[SCRATCH]] : memref<?xi32>
// CHECK: %[[START:.*]] = arith.muli %[[TICKET]], %c6144 : index
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf32>
// CHECK: %[[ACC:.*]] = scf.for %[[I:[a-z0-9]+]] = %c0 to %{{.*}} step %c1024 iter_args(%[[A:.*]] = %[[INIT]]) -> (tensor<1024xf32>)
// CHECK:   %[[AT:.*]] = arith.addi %[[START]], %[[I]] : index
// CHECK:   %[[T:.*]] = tile.load %[[X]][%[[AT]]] {padding = 0.000000e+00 : f32} : memref<?xf32> -> tensor<1024xf32>
// CHECK:   %[[SUM:.*]] = arith.addf %[[A]], %[[T]] : tensor<1024xf32>
// CHECK:   scf.yield %[[SUM]]
// CHECK: %[[S:.*]] = tile.reduce add %[[ACC]] along 0 : tensor<1024xf32> -> f32
// CHECK: %[[CARRY:.*]] = tilegpu.lookback add %[[S]] at %[[TICKET]] epoch %[[EPOCH]] position %[[TICKET]] in %[[SCRATCH]] : memref<?xi32>, f32
// CHECK: scf.for %[[J:[a-z0-9]+]] = %c0 to %{{.*}} step %c1024 iter_args(%[[C:.*]] = %[[CARRY]]) -> (f32)
// CHECK:   %[[AT2:.*]] = arith.addi %[[START]], %[[J]] : index
// CHECK:   %[[T2:.*]] = tile.load %[[X]][%[[AT2]]] {padding = 0.000000e+00 : f32} : memref<?xf32> -> tensor<1024xf32>
// CHECK:   %[[P:.*]]:2 = tile.prefix add %[[T2]] along 0 : tensor<1024xf32>
// CHECK:   %[[CS:.*]] = tile.splat %[[C]] : f32 -> tensor<1024xf32>
// CHECK:   %[[R:.*]] = arith.addf %[[CS]], %[[P]]#0 : tensor<1024xf32>
// CHECK:   tile.store %[[R]], %[[Y]][%[[AT2]]]
// CHECK:   %[[NEXT:.*]] = arith.addf %[[C]], %[[P]]#1 : f32
// CHECK:   scf.yield %[[NEXT]] : f32
tile.scan @cumsum add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// A reverse 1-D scan numbers its pieces from the end: ticket t starts at
// length - 6144 (t + 1), before the buffer for the last piece, and walks
// its sub-pieces from the piece's end (base - offset); an exclusive i32
// max starts from the lowest i32 and pads with zeros, which only follow
// the elements in scan order.
// CHECK-LABEL: tile.kernel @suffix_1d
// CHECK-SAME: tile.min_blocks_per_sm = 16
// CHECK: %[[TICKET:.*]], %[[EPOCH:.*]] = tilegpu.ticket
// CHECK: %[[OFF:.*]] = arith.muli %[[TICKET]], %[[STEP:.*]] : index
// CHECK: %[[LEN:.*]] = memref.dim
// CHECK: %[[END:.*]] = arith.addi %[[OFF]], %[[STEP]] : index
// CHECK: %[[START:.*]] = arith.subi %[[LEN]], %[[END]] : index
// CHECK: %[[BASE:.*]] = arith.addi %[[START]], %c5120 : index
// CHECK: dense<-2147483648> : tensor<1024xi32>
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK:   %[[AT:.*]] = arith.subi %[[BASE]], %[[I]] : index
// CHECK:   tile.load %{{.*}}[%[[AT]]] {padding = 0 : i32}
// CHECK: tilegpu.lookback max
// CHECK: scf.for %[[J:[a-z0-9]+]] =
// CHECK:   %[[AT2:.*]] = arith.subi %[[BASE]], %[[J]] : index
// CHECK:   tile.prefix max exclusive reverse
// CHECK:   tile.store %{{.*}}, %{{.*}}[%[[AT2]]]
tile.scan @suffix_1d max exclusive reverse along 0 : (memref<?xi32>, memref<?xi32>) -> ()

// -----

// Rows: one program per row; bf16 is scanned in f32 and rounded once; an
// exclusive max starts from -inf, which also pads; the block scan's total
// extends the carry.
// CHECK-LABEL: tile.kernel @rows_max(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]
// CHECK: %[[INIT:.*]] = arith.constant dense<0xFF800000> : tensor<1xf32>
// CHECK: %[[ROW:.*]] = tile.program_id x : index
// CHECK: scf.for %[[COL:.*]] = {{.*}} iter_args(%[[CARRY:.*]] = %[[INIT]]) -> (tensor<1xf32>)
// CHECK:   %[[T:.*]] = tile.load %{{.*}}[%[[ROW]], %[[COL]]] {padding = 0xFF80 : bf16} : memref<?x?xbf16> -> tensor<1x1024xbf16>
// CHECK:   %[[E:.*]] = arith.extf %[[T]] : tensor<1x1024xbf16> to tensor<1x1024xf32>
// CHECK:   %[[P:.*]]:2 = tile.prefix max exclusive %[[E]] along 1 : tensor<1x1024xf32>
// CHECK:   %[[C:.*]] = tile.broadcast %[[CARRY]] dims [1] : tensor<1xf32> -> tensor<1x1024xf32>
// CHECK:   %[[R:.*]] = arith.maximumf %[[C]], %[[P]]#0 : tensor<1x1024xf32>
// CHECK:   arith.truncf %[[R]] : tensor<1x1024xf32> to tensor<1x1024xbf16>
// CHECK:   %[[NEXT:.*]] = arith.maximumf %[[CARRY]], %[[P]]#1 : tensor<1xf32>
// CHECK:   scf.yield %[[NEXT]] : tensor<1xf32>
tile.scan @rows_max max exclusive along 1 : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// Several operands with a kind: each is combined on its own, one
// look-back carries both totals (32 bytes of status a program), and one
// block scan scans both, 3072 elements a program (half of 6144 each),
// 1024 of each at a time.
// CHECK-LABEL: tile.kernel @pair
// CHECK-SAME: per_program = 3072
// CHECK-NOT: tile.min_blocks_per_sm
// CHECK-SAME: tile.scratch = array<i64: 16, 32, 3>
// CHECK: %[[S0:.*]] = tile.reduce mul
// CHECK: %[[S1:.*]] = tile.reduce mul
// CHECK: tilegpu.lookback mul %[[S0]], %[[S1]] at {{.*}} : memref<?xi32>, i32, i32
// CHECK: tile.prefix mul %{{.*}}, %{{.*}} along 0 : tensor<1024xi32>, tensor<1024xi32>
tile.scan @pair mul inclusive along 0 : (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) -> ()

// -----

// Reverse: the pieces are taken from the end (the first starts before the
// buffer when the length is not a multiple of 1024: padding, not stored).
// CHECK-LABEL: tile.kernel @suffix
// CHECK: %[[LEN:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xf32>
// CHECK: scf.for %[[OFF:.*]] = %{{.*}} to %[[LEN]] step %[[STEP:.*]] iter_args
// CHECK:   %[[END:.*]] = arith.addi %[[OFF]], %[[STEP]] : index
// CHECK:   %[[COL:.*]] = arith.subi %[[LEN]], %[[END]] : index
// CHECK:   %[[T:.*]] = tile.load %{{.*}}[%{{.*}}, %[[COL]]]
// CHECK:   tile.prefix add exclusive reverse %[[T]] along 1 : tensor<1x1024xf32>
// CHECK:   tile.store %{{.*}}, %{{.*}}[%{{.*}}, %[[COL]]]
tile.scan @suffix add exclusive reverse along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// Schedule hints: the piece and the warps of a program, held in
// registers (no staged piece).
// CHECK-LABEL: tile.kernel @hinted
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 8192>], num_warps = 16
// CHECK: tile.load {{.*}} -> tensor<8192xf32>
tile.scan @hinted add inclusive along 0 block 8192 warps 16 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// A combiner region: the totals must combine the elements in order, so
// they come from the block scan, which runs first; the look-back and the
// carry apply the same region (earlier tuple first). The first program has
// no carry and keeps its scan. Padding is zero: it only follows the
// elements in scan order.
// CHECK-LABEL: tile.kernel @recurrence
// CHECK-SAME: tile.scratch = array<i64: 16, 32, 3>
// CHECK: %[[TICKET:.*]], %[[EPOCH:.*]] = tilegpu.ticket
// CHECK: %[[A:.*]] = tile.load %{{.*}} {padding = 0.000000e+00 : f32} : memref<?xf32> -> tensor<2048xf32>
// CHECK: %[[B:.*]] = tile.load
// CHECK: %[[P:.*]]:4 = tile.prefix %[[A]], %[[B]] along 0 : tensor<2048xf32>, tensor<2048xf32> {
// CHECK: ^bb0(%[[A0:.*]]: f32, %[[B0:.*]]: f32, %[[A1:.*]]: f32, %[[B1:.*]]: f32):
// CHECK:   arith.mulf %[[A1]], %[[A0]] : f32
// CHECK: }
// CHECK: %[[C:.*]]:2 = tilegpu.lookback %[[P]]#2, %[[P]]#3 at %[[TICKET]] epoch %[[EPOCH]] position %[[TICKET]] in %{{.*}} : memref<?xi32>, f32, f32 {
// CHECK: }
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TICKET]], %c0
// CHECK: %[[CA:.*]] = tile.splat %[[C]]#0 : f32 -> tensor<2048xf32>
// CHECK: %[[CB:.*]] = tile.splat %[[C]]#1 : f32 -> tensor<2048xf32>
// CHECK: %[[RA:.*]] = arith.mulf %[[P]]#0, %[[CA]] : tensor<2048xf32>
// CHECK: %[[AB:.*]] = arith.mulf %[[P]]#0, %[[CB]] : tensor<2048xf32>
// CHECK: %[[RB:.*]] = arith.addf %[[AB]], %[[P]]#1 : tensor<2048xf32>
// CHECK: %[[SA:.*]] = arith.select %[[FIRST]], %[[P]]#0, %[[RA]] : tensor<2048xf32>
// CHECK: %[[SB:.*]] = arith.select %[[FIRST]], %[[P]]#1, %[[RB]] : tensor<2048xf32>
// CHECK: tile.store %[[SA]]
// CHECK: tile.store %[[SB]]
tile.scan @recurrence inclusive along 0
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> () {
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}

// -----

// A region over 16-bit elements combines them as they are (it is typed
// so): no widening to f32 around the prefix, the look-back or the store.
// CHECK-LABEL: tile.kernel @half_region
// CHECK-NOT: arith.extf
// CHECK: %[[X:.*]] = tile.load %{{.*}} {padding = 0.000000e+00 : f16} : memref<?xf16> -> tensor<4096xf16>
// CHECK: %[[P:.*]]:2 = tile.prefix %[[X]] along 0 : tensor<4096xf16> {
// CHECK: ^bb0(%{{.*}}: f16, %{{.*}}: f16):
// CHECK: tilegpu.lookback %[[P]]#1 at %{{.*}} : memref<?xi32>, f16 {
// CHECK-NOT: arith.truncf
// CHECK: tile.store %{{.*}} : tensor<4096xf16>, memref<?xf16>
tile.scan @half_region inclusive along 0 : (memref<?xf16>, memref<?xf16>) -> () {
^bb0(%x: f16, %y: f16):
  %m = arith.maximumf %x, %y : f16
  tile.yield %m : f16
}

// -----

// Columns: one program per strip of 512 columns (4 a thread on 4 warps)
// walks down them 8 rows at a time, carrying the strip's column totals; a
// reverse scan takes its pieces from the bottom. With fewer strips than
// multiprocessors, the runtime launches the single pass down the strips.
// CHECK-LABEL: tile.kernel @columns
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 512>], num_warps = 4
// CHECK-SAME: tile.small_grid = {kernel = @columns__small_grid, percent_of_sms = 100 : i64}
// CHECK: %[[INIT:.*]] = arith.constant dense<0> : tensor<512xi32>
// CHECK: %[[STRIP:.*]] = tile.program_id x
// CHECK: %[[COL:.*]] = arith.muli %[[STRIP]], %c512
// CHECK: %[[ROWS:.*]] = memref.dim %{{.*}}, %c0{{.*}} : memref<?x?xi32>
// CHECK: scf.for %[[OFF:.*]] = %c0{{.*}} to %[[ROWS]] step %c8 iter_args(%[[CARRY:.*]] = %[[INIT]]) -> (tensor<512xi32>)
// CHECK:   %[[END:.*]] = arith.addi %[[OFF]], %c8
// CHECK:   %[[ROW:.*]] = arith.subi %[[ROWS]], %[[END]]
// CHECK:   %[[T:.*]] = tile.load %{{.*}}[%[[ROW]], %[[COL]]] {padding = 0 : i32} : memref<?x?xi32> -> tensor<8x512xi32>
// CHECK:   %[[P:.*]]:2 = tile.prefix add exclusive reverse %[[T]] along 0 : tensor<8x512xi32>
// CHECK:   %[[B:.*]] = tile.broadcast %[[CARRY]] dims [0] : tensor<512xi32> -> tensor<8x512xi32>
// CHECK:   %[[R:.*]] = arith.addi %[[B]], %[[P]]#0 : tensor<8x512xi32>
// CHECK:   tile.store %[[R]], %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK:   %[[NEXT:.*]] = arith.addi %[[CARRY]], %[[P]]#1 : tensor<512xi32>
// CHECK:   scf.yield %[[NEXT]]
// The single pass: programs of 2 warps take 128 rows (x) of a strip of 256
// columns (y); the ticket gives the strip and the place down it. A program
// combines its 16 [8, 256] pieces' column totals, looks back over its
// strip's programs column by column (1-D totals: 16 bytes of status per
// column, twice), then scans the pieces again, each with everything before
// it.
// CHECK-LABEL: tile.kernel @columns__small_grid
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 128>, #tile.grid<arg = 0, dim = 1, per_program = 256>], num_warps = 2
// CHECK-SAME: tile.scratch = array<i64: 16, 4096, 3>
// CHECK: %[[TICKET:.*]], %[[EPOCH:.*]] = tilegpu.ticket
// CHECK: %[[DOWN:.*]] = tile.num_programs x
// CHECK: %[[STRIP:.*]] = arith.divui %[[TICKET]], %[[DOWN]]
// CHECK: %[[PLACE:.*]] = arith.remui %[[TICKET]], %[[DOWN]]
// CHECK: %[[COL:.*]] = arith.muli %[[STRIP]], %c256
// CHECK: %[[FIRST:.*]] = arith.muli %[[PLACE]], %c128
// CHECK: %[[LAST:.*]] = arith.addi %[[FIRST]], %c128
// CHECK: %[[TOTALS:.*]] = scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %c8 iter_args(%[[SUM:.*]] = %{{.*}}) -> (tensor<256xi32>)
// CHECK:   %[[P:.*]]:2 = tile.prefix add exclusive reverse %{{.*}} along 0 : tensor<8x256xi32>
// CHECK:   %[[MORE:.*]] = arith.addi %[[SUM]], %[[P]]#1 : tensor<256xi32>
// CHECK:   scf.yield %[[MORE]]
// CHECK: %[[CARRY:.*]] = tilegpu.lookback add %[[TOTALS]] at %[[TICKET]] epoch %[[EPOCH]] position %[[PLACE]] in %{{.*}} : memref<?xi32>, tensor<256xi32>
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %c8 iter_args(%[[C:.*]] = %[[CARRY]]) -> (tensor<256xi32>)
// CHECK:   %[[Q:.*]]:2 = tile.prefix add exclusive reverse
// CHECK:   %[[B:.*]] = tile.broadcast %[[C]] dims [0]
// CHECK:   %[[R:.*]] = arith.addi %[[B]], %[[Q]]#0
// CHECK:   tile.store %[[R]], %{{.*}}[%{{.*}}, %[[COL]]]
tile.scan @columns add exclusive reverse along 0 : (memref<?x?xi32>, memref<?x?xi32>) -> ()

// -----

// A region down the columns: the first piece of a strip takes no carry,
// whatever the look-back gave the strip's first program.
// CHECK-LABEL: tile.kernel @columns_region__small_grid
// CHECK: scf.for %{{.*}} = %[[FIRST:.*]] to %{{.*}} iter_args
// CHECK:   %[[START:.*]] = arith.cmpi eq, %{{.*}}, %[[FIRST]] : index
// CHECK:   arith.select %[[START]]
// CHECK: tilegpu.lookback %{{.*}} : memref<?xi32>, tensor<256xf32> {
// CHECK: scf.for %[[OFF:.*]] = %[[FIRST]] to
// CHECK:   %[[STRIPSTART:.*]] = arith.cmpi eq, %[[OFF]], %c0
// CHECK:   arith.select %[[STRIPSTART]]
tile.scan @columns_region inclusive along 0 : (memref<?x?xf32>, memref<?x?xf32>) -> () {
^bb0(%x: f32, %y: f32):
  %m = arith.maximumf %x, %y : f32
  tile.yield %m : f32
}

// -----

// A region's row loop: the first piece takes no carry, and a region's
// constants become splats when it combines tiles.
// CHECK-LABEL: tile.kernel @segmented_rows
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to {{.*}} iter_args(%[[F:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}) -> (tensor<1xi32>, tensor<1xf32>)
// CHECK:   %[[P:.*]]:4 = tile.prefix exclusive reverse %{{.*}}, %{{.*}} along 1 identity [0 : i32, 0.000000e+00 : f32] : tensor<1x1024xi32>, tensor<1x1024xf32> {
// CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[COL]], %c0{{.*}} : index
// CHECK:   arith.constant dense<0> : tensor<1x1024xi32>
// CHECK:   arith.cmpi ne, %{{.*}} : tensor<1x1024xi32>
// CHECK:   arith.select %[[FIRST]], %[[P]]#0, %{{.*}} : tensor<1x1024xi32>
// CHECK:   arith.select %[[FIRST]], %[[P]]#1, %{{.*}} : tensor<1x1024xf32>
// CHECK:   %[[NF:.*]] = arith.select %[[FIRST]], %[[P]]#2, %{{.*}} : tensor<1xi32>
// CHECK:   %[[NV:.*]] = arith.select %[[FIRST]], %[[P]]#3, %{{.*}} : tensor<1xf32>
// CHECK:   scf.yield %[[NF]], %[[NV]] : tensor<1xi32>, tensor<1xf32>
tile.scan @segmented_rows exclusive reverse along 1 identity [0 : i32, 0.0 : f32]
    : (memref<?x?xi32>, memref<?x?xf32>, memref<?x?xi32>, memref<?x?xf32>) -> () {
^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
  %f = arith.ori %f0, %f1 : i32
  %zero = arith.constant 0 : i32
  %restart = arith.cmpi ne, %f1, %zero : i32
  %sum = arith.addf %v0, %v1 : f32
  %v = arith.select %restart, %v1, %sum : f32
  tile.yield %f, %v : i32, f32
}

// -----

// Fewer rows than multiprocessors: the runtime launches the split-row
// kernel instead (tile.small_grid), a single pass over pieces of rows (x:
// the pieces of a row, y: the rows). A ticket gives the row and the piece's
// position in it; the look-back stays within the row's tickets and carries
// 1-element tiles.
// CHECK-LABEL: tile.kernel @few_rows(
// CHECK-SAME: tile.small_grid = {kernel = @few_rows__small_grid, percent_of_sms = 100 : i64}
// CHECK: scf.for
// CHECK-LABEL: tile.kernel @few_rows__small_grid(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x?xf32>, %[[Y:[a-z0-9]+]]: memref<?x?xf32>, %[[SCRATCH:[a-z0-9]+]]: memref<?xi32>)
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 3072>, #tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 4
// CHECK-SAME: tile.scratch = array<i64: 16, 16, 3>
// CHECK: %[[TICKET:.*]], %[[EPOCH:.*]] = tilegpu.ticket %[[SCRATCH]]
// CHECK: %[[PIECES:.*]] = tile.num_programs x : index
// CHECK: %[[ROW:.*]] = arith.divui %[[TICKET]], %[[PIECES]] : index
// CHECK: %[[POS:.*]] = arith.remui %[[TICKET]], %[[PIECES]] : index
// CHECK: %[[START:.*]] = arith.muli %[[POS]], %c3072 : index
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK:   %[[COL:.*]] = arith.addi %[[START]], %[[I]] : index
// CHECK:   tile.load %[[X]][%[[ROW]], %[[COL]]] {{.*}} -> tensor<1x512xf32>
// CHECK: %[[S:.*]] = tile.reduce add %{{.*}} along 1 : tensor<1x512xf32> -> tensor<1xf32>
// CHECK: %[[C:.*]] = tilegpu.lookback add %[[S]] at %[[TICKET]] epoch %[[EPOCH]] position %[[POS]] in %[[SCRATCH]] : memref<?xi32>, tensor<1xf32>
// CHECK: scf.for %[[J:[a-z0-9]+]] = {{.*}} iter_args(%[[CARRY:.*]] = %[[C]]) -> (tensor<1xf32>)
// CHECK:   %[[COL2:.*]] = arith.addi %[[START]], %[[J]] : index
// CHECK:   tile.broadcast %[[CARRY]] dims [1] : tensor<1xf32> -> tensor<1x512xf32>
// CHECK:   tile.store %{{.*}}, %[[Y]][%[[ROW]], %[[COL2]]]
tile.scan @few_rows add inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// Rows of at most 4096 elements: a ladder of kernels for rows of at most
// 4096, 2048, ..., 4 elements, each linked to the next narrower by
// tile.narrow (the runtime follows it to the narrowest that holds the
// rows). Each program of a rung scans 4096 / w whole rows of w elements at
// once in one [4096 / w, w] tile on 4 warps: no carries, no look-back.
// CHECK-LABEL: tile.kernel @short_rows(
// CHECK-SAME: tile.narrow = {at_most = 4096 : i64, dim = 1 : i64, kernel = @short_rows__rows_4096, operand = 0 : i64}
// CHECK-LABEL: tile.kernel @short_rows__rows_4096(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 4
// CHECK-SAME: kernel = @short_rows__rows_2048
// CHECK: tile.prefix add %{{.*}} along 1 : tensor<1x4096xf32>
// CHECK-LABEL: tile.kernel @short_rows__rows_2048(
// CHECK-SAME: kernel = @short_rows__rows_1024
// CHECK-LABEL: tile.kernel @short_rows__rows_1024(
// CHECK-SAME: kernel = @short_rows__rows_512
// CHECK-LABEL: tile.kernel @short_rows__rows_512(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 8>], num_warps = 4
// CHECK-SAME: tile.narrow = {at_most = 256 : i64, dim = 1 : i64, kernel = @short_rows__rows_256, operand = 0 : i64}
// CHECK: tile.prefix add %{{.*}} along 1 : tensor<8x512xf32>
// CHECK-LABEL: tile.kernel @short_rows__rows_256(
// CHECK-SAME: per_program = 16
// CHECK-SAME: kernel = @short_rows__rows_128
// CHECK-LABEL: tile.kernel @short_rows__rows_128(
// CHECK-SAME: kernel = @short_rows__rows_64
// CHECK-LABEL: tile.kernel @short_rows__rows_64(
// CHECK-SAME: kernel = @short_rows__rows_32
// CHECK-LABEL: tile.kernel @short_rows__rows_32(
// CHECK-SAME: kernel = @short_rows__rows_16
// CHECK-LABEL: tile.kernel @short_rows__rows_16(
// CHECK-SAME: kernel = @short_rows__rows_8
// CHECK-LABEL: tile.kernel @short_rows__rows_8(
// CHECK-SAME: kernel = @short_rows__rows_4
// CHECK-LABEL: tile.kernel @short_rows__rows_4(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x?xf32>, %[[Y:[a-z0-9]+]]: memref<?x?xf32>)
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 1024>], num_warps = 4
// CHECK-NOT: tile.narrow
// CHECK: %[[PROGRAM:.*]] = tile.program_id x : index
// CHECK: %[[ROW:.*]] = arith.muli %[[PROGRAM]], %c1024 : index
// CHECK: %[[T:.*]] = tile.load %[[X]][%[[ROW]], %c0] {padding = 0.000000e+00 : f32} : memref<?x?xf32> -> tensor<1024x4xf32>
// CHECK: %[[P:.*]]:2 = tile.prefix add %[[T]] along 1 : tensor<1024x4xf32>
// CHECK: tile.store %[[P]]#0, %[[Y]][%[[ROW]], %c0] : tensor<1024x4xf32>, memref<?x?xf32>
// CHECK-NEXT: tile.return
tile.scan @short_rows add inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// A reverse scan of short rows aligns the rows' ends with the tile's
// (column length - w, before the buffer when the rows are narrower), so
// that the padding comes last in scan order: a region has no identity.
// Two operands halve the rows a program scans.
// CHECK-LABEL: tile.kernel @short_rows_reverse__rows_16(
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 128>]
// CHECK: %[[LEN:.*]] = memref.dim %{{.*}}, %c1 : memref<?x?xf32>
// CHECK: %[[COL:.*]] = arith.subi %[[LEN]], %c16{{.*}} : index
// CHECK: %[[A:.*]] = tile.load %{{.*}}[%{{.*}}, %[[COL]]] {padding = 0.000000e+00 : f32} : memref<?x?xf32> -> tensor<128x16xf32>
// CHECK: %[[B:.*]] = tile.load %{{.*}}[%{{.*}}, %[[COL]]] {padding = 0.000000e+00 : f32} : memref<?x?xf32> -> tensor<128x16xf32>
// CHECK: tile.prefix reverse %[[A]], %[[B]] along 1 : tensor<128x16xf32>, tensor<128x16xf32> {
// CHECK: tile.store %{{.*}}#0, %{{.*}}[%{{.*}}, %[[COL]]]
// CHECK: tile.store %{{.*}}#1, %{{.*}}[%{{.*}}, %[[COL]]]
tile.scan @short_rows_reverse inclusive reverse along 1
    : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> () {
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %m = arith.mulf %a1, %b0 : f32
  %b = arith.addf %m, %b1 : f32
  tile.yield %a, %b : f32, f32
}
