// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' \
// RUN:   | FileCheck %s

// A ticket: thread 0 adds 1 to the 64-bit word of the count (words 0 and
// 1 of the scratch buffer: the count below, the epoch above) with a
// device-scope atomic; the program that takes the grid's last ticket sets
// the count back to 0 and advances the epoch. Both reach every thread
// through two workgroup words.
// CHECK-LABEL: gpu.func @ticket
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<2xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK:   %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<?xi32> -> index
// CHECK:   %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK:   %[[OLD:.*]] = llvm.atomicrmw add %[[PTR]], %c1_i64 syncscope("device") monotonic : !llvm.ptr<1>, i64
// CHECK:   %[[TICKET:.*]] = arith.trunci %[[OLD]] : i64 to i32
// CHECK:   %[[HIGH:.*]] = arith.shrui %[[OLD]], %c32_i64 : i64
// CHECK:   %[[EPOCH:.*]] = arith.trunci %[[HIGH]] : i64 to i32
// CHECK:   gpu.grid_dim x
// CHECK:   gpu.grid_dim y
// CHECK:   gpu.grid_dim z
// CHECK:   %[[PROGRAMS:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:   %[[LASTT:.*]] = arith.subi %[[PROGRAMS]], %c1_i32 : i32
// CHECK:   %[[LAST:.*]] = arith.cmpi eq, %[[TICKET]], %[[LASTT]] : i32
// CHECK:   scf.if %[[LAST]] {
// CHECK:     %[[NEXT:.*]] = arith.addi %[[EPOCH]], %{{.*}} : i32
// CHECK:     %[[NEXT64:.*]] = arith.extui %[[NEXT]] : i32 to i64
// CHECK:     %[[RESET:.*]] = arith.shli %[[NEXT64]], %{{.*}} : i64
// CHECK:     llvm.store %[[RESET]], %[[PTR]] atomic syncscope("device") monotonic {alignment = 8 : i64} : i64, !llvm.ptr<1>
// CHECK:   }
// CHECK:   memref.store %[[TICKET]], %[[WG]][%{{.*}}]
// CHECK:   memref.store %[[EPOCH]], %[[WG]][%{{.*}}]
// CHECK: }
// CHECK: gpu.barrier
// CHECK: %[[T:.*]] = memref.load %[[WG]][%{{.*}}]
// CHECK: %[[E:.*]] = memref.load %[[WG]][%{{.*}}]
// CHECK: arith.index_castui %[[T]] : i32 to index
gpu.module @m {
  gpu.func @ticket(%scratch: memref<?xi32>, %out: memref<?xindex>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t, %e = tilegpu.ticket %scratch : memref<?xi32>
    %c0 = arith.constant 0 : index
    memref.store %t, %out[%c0] : memref<?xindex>
    %c1 = arith.constant 1 : index
    %ei = arith.index_castui %e : i32 to index
    memref.store %ei, %out[%c1] : memref<?xindex>
    gpu.return
  }
}

// -----

// An arrival: thread 0 increments the tile's counter (word %tile) with a
// wrapping atomic (atom.inc: count - 1 wraps to 0) between two device-scope
// fences, and hands the old value to every thread through a workgroup word.
// CHECK-LABEL: gpu.func @arrive
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<1xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK:   %[[WORD:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK:   %[[COUNT:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK:   %[[BOUND:.*]] = arith.subi %[[COUNT]], %c1_i32
// CHECK:   llvm.fence syncscope("device") acq_rel
// CHECK:   %[[OLD:.*]] = llvm.atomicrmw uinc_wrap %[[WORD]], %[[BOUND]] syncscope("device") monotonic : !llvm.ptr<1>, i32
// CHECK:   llvm.fence syncscope("device") acq_rel
// CHECK:   memref.store %[[OLD]], %[[WG]][%c0]
// CHECK: }
// CHECK: gpu.barrier
// CHECK: %[[T:.*]] = memref.load %[[WG]][%c0]
// CHECK: arith.index_castui %[[T]] : i32 to index
gpu.module @m {
  gpu.func @arrive(%scratch: memref<?xf32>, %tile: index, %count: index,
                   %out: memref<?xindex>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %before = tilegpu.arrive %scratch[%tile] of %count : memref<?xf32>
    %c0 = arith.constant 0 : index
    memref.store %before, %out[%c0] : memref<?xindex>
    gpu.return
  }
}

// -----

// A look-back of one f32 total. Each status word's high half is a tag: the
// low 30 bits of the launch's epoch, then 2 bits of flag, so that an earlier
// launch's statuses read as unpublished. Thread 0 publishes the total at
// once: as the inclusive prefix (flag 2) for the first program, else as
// the aggregate (flag 1), at 16 bytes + 16 a ticket. Warp 0 of a
// later program then reads the status of the 32 tickets before it (lane i:
// ticket - 1 - i) with device-scope atomic loads, sleeping while any is
// unpublished; the ballot of the lanes holding an inclusive prefix finds
// the nearest; the lanes' values are combined by shuffles down, earlier
// tickets on the left, and lane 0's result goes to every lane. In a launch
// of at least 16 programs a multiprocessor the warp sleeps 2000 ns before
// its first read. The carry extends the inclusive prefix, which thread 0
// publishes, and reaches the block through workgroup memory; the first
// program takes the identity.
// CHECK-LABEL: gpu.func @lookback
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<1xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[E64:.*]] = arith.extui %arg2 : i32 to i64
// CHECK: %[[E30:.*]] = arith.andi %[[E64]], %c1073741823_i64 : i64
// CHECK: %[[EPOCH:.*]] = arith.shli %[[E30]], %c2_i64 : i64
// CHECK: %[[AGGTAG:.*]] = arith.ori %[[EPOCH]], %c1_i64 : i64
// CHECK: %[[INCTAG:.*]] = arith.ori %[[EPOCH]], %c2_i64{{.*}} : i64
// CHECK: %[[ISFIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i64 : i64
// CHECK: scf.if
// CHECK:   %[[AGGHIGH:.*]] = arith.shli %[[AGGTAG]], %c32_i64 : i64
// CHECK:   %[[AGG:.*]] = arith.ori %{{.*}}, %[[AGGHIGH]] : i64
// CHECK:   %[[INCHIGH:.*]] = arith.shli %[[INCTAG]], %c32_i64{{.*}} : i64
// CHECK:   %[[INC:.*]] = arith.ori %{{.*}}, %[[INCHIGH]] : i64
// CHECK:   %[[WORD:.*]] = arith.select %[[ISFIRST]], %[[INC]], %[[AGG]] : i64
// CHECK:   llvm.store %[[WORD]], %{{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : i64, !llvm.ptr<1>
// CHECK: %[[WARP:.*]] = arith.shrui %[[TID]], %c5
// CHECK: %[[LATER:.*]] = arith.xori %[[ISFIRST]], %true
// CHECK: %[[WARP0:.*]] = arith.cmpi eq, %[[WARP]], %c0
// CHECK: %[[LOOKS:.*]] = arith.andi %[[WARP0]], %[[LATER]]
// CHECK: scf.if %[[LOOKS]] {
// CHECK:   %[[GX:.*]] = gpu.grid_dim x
// CHECK:   %[[GY:.*]] = gpu.grid_dim y
// CHECK:   %[[GXY:.*]] = arith.muli %[[GX]], %[[GY]]
// CHECK:   %[[GZ:.*]] = gpu.grid_dim z
// CHECK:   %[[PROGRAMS:.*]] = arith.muli %[[GXY]], %[[GZ]]
// CHECK:   %[[SMS:.*]] = nvvm.read.ptx.sreg.nsmid : i32
// CHECK:   %[[SMSI:.*]] = arith.index_castui %[[SMS]] : i32 to index
// CHECK:   %[[ENOUGH:.*]] = arith.muli %[[SMSI]], %c16
// CHECK:   %[[MANY:.*]] = arith.cmpi uge, %[[PROGRAMS]], %[[ENOUGH]]
// CHECK:   scf.if %[[MANY]] {
// CHECK:     nvvm.nanosleep %c2000_i32
// CHECK:   }
// CHECK:   scf.while
// CHECK:     scf.while
// CHECK:       llvm.load %{{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK:       llvm.load %{{.*}} atomic syncscope("device") monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK:       %[[WAITING:.*]] = nvvm.vote.sync any %c-1_i32{{.*}}, %{{.*}} -> i1
// CHECK:       scf.condition(%[[WAITING]])
// CHECK:       nvvm.nanosleep %c100_i32
// CHECK:     nvvm.vote.sync ballot %c-1_i32{{.*}}, %{{.*}} -> i32
// CHECK:     gpu.shuffle down %{{.*}}, %c1_i32{{.*}}, %c32_i32 : f32
// CHECK:     gpu.shuffle down %{{.*}}, %c2_i32{{.*}}, %c32_i32 : f32
// CHECK:     gpu.shuffle down %{{.*}}, %c4_i32{{.*}}, %c32_i32 : f32
// CHECK:     gpu.shuffle down %{{.*}}, %c8_i32{{.*}}, %c32_i32 : f32
// CHECK:     gpu.shuffle down %{{.*}}, %c16_i32{{.*}}, %c32_i32 : f32
// CHECK:     gpu.shuffle idx %{{.*}}, %c0_i32{{.*}}, %c32_i32 : f32
// CHECK:   scf.if
// CHECK:     %[[INCL:.*]] = arith.addf %[[CARRY:.*]], %{{.*}} : f32
// CHECK:     arith.shli %[[INCTAG]], %c32_i64
// CHECK:     llvm.store %{{.*}} atomic syncscope("device") monotonic
// CHECK:     memref.store %{{.*}}, %[[WG]][%c0{{.*}}]
// CHECK: gpu.barrier
// CHECK: %[[BITS:.*]] = memref.load %[[WG]]
// CHECK: %[[C:.*]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.select %[[ISFIRST]], %[[ZERO]], %[[C]] : f32
gpu.module @m {
  gpu.func @lookback(%x: f32, %t: index, %e: i32, %scratch: memref<?xi32>, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c = tilegpu.lookback add %x at %t epoch %e position %t in %scratch : memref<?xi32>, f32
    %c0 = arith.constant 0 : index
    memref.store %c, %out[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// Two totals (an i32 and an f32) share one status: 32 bytes a ticket, the
// two aggregate words then the two inclusive words; the carries come back
// through two workgroup words.
// CHECK-LABEL: gpu.func @pair
// CHECK-SAME: workgroup(%{{.*}} : memref<2xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: arith.muli %{{.*}}, %c4_i64
// CHECK: nvvm.vote.sync ballot
// CHECK: gpu.shuffle down %{{.*}}, %c1_i32{{.*}}, %c32_i32 : i32
// CHECK: gpu.shuffle down %{{.*}}, %c1_i32{{.*}}, %c32_i32 : f32
// CHECK: arith.maxsi
// CHECK: arith.maximumf
gpu.module @m {
  gpu.func @pair(%x: i32, %y: f32, %t: index, %e: i32, %p: index, %scratch: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c:2 = tilegpu.lookback max %x, %y at %t epoch %e position %p in %scratch : memref<?xi32>, i32, f32
    gpu.return
  }
}

// -----

// A combiner region over 1-element tiles (a row piece's totals): the lanes
// combine with the earlier ticket's tuple (from a higher lane) on the left,
// here a = a_later * a_earlier and b = a_later * b_earlier + b_later; the
// carries come back as tiles, with no identity select (a region has none).
// CHECK-LABEL: gpu.func @lookback_region
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<1xf32>
// CHECK: vector.extract %{{.*}}[0] : f32 from vector<1xf32>
// CHECK: %[[SA:.*]], %{{.*}} = gpu.shuffle down %[[MA:.*]], %c1_i32{{.*}}, %c32_i32 : f32
// CHECK: %[[SB:.*]], %{{.*}} = gpu.shuffle down %[[MB:.*]], %c1_i32{{.*}}, %c32_i32 : f32
// CHECK: arith.mulf %[[MA]], %[[SA]] : f32
// CHECK: %[[AB:.*]] = arith.mulf %[[MA]], %[[SB]] : f32
// CHECK: arith.addf %[[AB]], %[[MB]] : f32
// CHECK: gpu.barrier
// CHECK: memref.load
// CHECK: %[[B:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NOT: arith.select
// CHECK: vector.broadcast %[[B]] : f32 to vector<1xf32>
gpu.module @m {
  gpu.func @lookback_region(%x: f32, %y: f32, %t: index, %e: i32, %scratch: memref<?xi32>, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %a = tile.splat %x : f32 -> tensor<1xf32>
    %b = tile.splat %y : f32 -> tensor<1xf32>
    %c:2 = tilegpu.lookback %a, %b at %t epoch %e position %t in %scratch : memref<?xi32>, tensor<1xf32>, tensor<1xf32> {
    ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
      %an = arith.mulf %a1, %a0 : f32
      %ab = arith.mulf %a1, %b0 : f32
      %bn = arith.addf %ab, %b1 : f32
      tile.yield %an, %bn : f32, f32
    }
    %c0 = arith.constant 0 : index
    tile.store %c#1, %out[%c0] : tensor<1xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A 16-bit total takes the low half of the status word's value bits, moves
// between lanes widened to 32 bits and reaches the block as an i32 word.
// CHECK-LABEL: gpu.func @lookback_half
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : bf16 to i16
// CHECK-NEXT: %[[WORD:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK-NEXT: %[[LOW:.*]] = arith.extui %[[WORD]] : i32 to i64
// CHECK: %[[HIGH:.*]] = arith.shli %{{.*}}, %c32_i64 : i64
// CHECK-NEXT: arith.ori %[[LOW]], %[[HIGH]]
// CHECK: %[[MOVED:.*]], %{{.*}} = gpu.shuffle down %{{.*}}, %c1_i32{{.*}}, %c32_i32 : i32
// CHECK-NEXT: %[[NARROW:.*]] = arith.trunci %[[MOVED]] : i32 to i16
// CHECK-NEXT: %[[HALF:.*]] = arith.bitcast %[[NARROW]] : i16 to bf16
// CHECK: arith.maximumf %[[HALF]], %{{.*}} : bf16
// CHECK: gpu.barrier
// CHECK: %[[CARRY:.*]] = memref.load
// CHECK-NEXT: %[[C16:.*]] = arith.trunci %[[CARRY]] : i32 to i16
// CHECK-NEXT: arith.bitcast %[[C16]] : i16 to bf16
gpu.module @m {
  gpu.func @lookback_half(%x: bf16, %t: index, %e: i32, %scratch: memref<?xi32>, %out: memref<?xbf16>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c = tilegpu.lookback %x at %t epoch %e position %t in %scratch : memref<?xi32>, bf16 {
    ^bb0(%a: bf16, %b: bf16):
      %m = arith.maximumf %a, %b : bf16
      tile.yield %m : bf16
    }
    %c0 = arith.constant 0 : index
    memref.store %c, %out[%c0] : memref<?xbf16>
    gpu.return
  }
}

// -----

// A look-back over 512 column totals on 128 threads: each thread publishes
// and looks back for its own 4 columns (words ticket * 1024 + 2 + column,
// inclusive ones 512 further), without workgroup memory. Per column the
// loop keeps its carry, its validity, whether it is done (the first
// program starts done) and the nearest ticket not combined yet; a round
// reads the 4 tickets from there (a done column, or a ticket before the
// segment, reads the program's own words instead), combines them nearest
// first up to the first unpublished or inclusive one, and sleeps if no
// column got further.
// CHECK-LABEL: gpu.func @lookback_columns
// CHECK-NOT: workgroup(
// CHECK: %[[TICKET:.*]] = arith.index_castui %arg0 : index to i64
// CHECK: %[[PLACE:.*]] = arith.index_castui %arg1 : index to i64
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PLACE]], %c0_i64
// CHECK: %[[COL0:.*]] = arith.index_castui %{{.*}} : index to i64
// CHECK: %[[AT:.*]] = arith.muli %[[TICKET]], %c1024_i64
// CHECK: %[[AGG0:.*]] = arith.addi %[[AT]], %c2_i64
// CHECK: arith.addi %[[AGG0]], %[[COL0]] : i64
// CHECK: %[[IT:.*]] = arith.muli %[[TICKET]], %c1024_i64
// CHECK: %[[INC0:.*]] = arith.addi %[[IT]], %c514_i64
// CHECK: arith.addi %[[INC0]], %[[COL0]] : i64
// CHECK-COUNT-4: llvm.store %{{.*}} atomic syncscope("device") monotonic
// CHECK: %[[START:.*]] = arith.subi %[[TICKET]], %[[PLACE]] : i64
// CHECK: %[[NEXT:.*]] = arith.subi %[[TICKET]], %c1_i64
// CHECK: %[[LOOP:.*]]:16 = scf.while ({{.*}}%{{.*}} = %[[FIRST]], %{{.*}} = %[[NEXT]], {{.*}}) : (f32, i1, i1, i64, f32, i1, i1, i64, f32, i1, i1, i64, f32, i1, i1, i64)
// CHECK: } do {
// CHECK: ^bb0(%{{[a-z0-9]+}}: f32, %{{[a-z0-9]+}}: i1, %[[DONE0:[a-z0-9]+]]: i1, %[[AT0:[a-z0-9]+]]: i64, {{.*}}):
// CHECK:   %[[T0:.*]] = arith.subi %[[AT0]], %c0_i64
// CHECK:   %[[IN0:.*]] = arith.cmpi sge, %[[T0]], %[[START]] : i64
// CHECK:   %[[LOOKING:.*]] = arith.xori %[[DONE0]], %true
// CHECK:   %[[READS:.*]] = arith.andi %[[LOOKING]], %[[IN0]] : i1
// CHECK:   arith.select %[[READS]], %[[T0]], %[[TICKET]] : i64
// CHECK-COUNT-8: llvm.load %{{.*}} atomic syncscope("device") monotonic
// CHECK:   arith.addf
// CHECK:   scf.if %{{.*}} {
// CHECK-NEXT: %{{.*}} = arith.constant
// CHECK-NEXT: nvvm.nanosleep
// CHECK:   }
// CHECK: %[[LATER:.*]] = arith.xori %[[FIRST]], %true
// CHECK: scf.if %[[LATER]] {
// CHECK-COUNT-4: llvm.store %{{.*}} atomic syncscope("device") monotonic
// CHECK: }
// CHECK: %[[C0:.*]] = arith.select %[[FIRST]], %cst{{.*}}, %[[LOOP]]#0 : f32
// CHECK: vector.from_elements %[[C0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
gpu.module @m {
  gpu.func @lookback_columns(%t: index, %p: index, %e: i32, %scratch: memref<?xi32>, %x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %totals = tile.load %x[%c0] : memref<?xf32> -> tensor<512xf32>
    %c = tilegpu.lookback add %totals at %t epoch %e position %p in %scratch : memref<?xi32>, tensor<512xf32>
    tile.store %c, %x[%c0] : tensor<512xf32>, memref<?xf32>
    gpu.return
  }
}
