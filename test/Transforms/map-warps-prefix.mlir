// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' \
// RUN:   -verify-diagnostics | FileCheck %s

// A 1x1024 prefix on 256 threads: each thread holds one chunk of 4
// consecutive columns and scans it; the lanes scan the chunk totals with
// shuffles up by 1, 2, 4, 8, 16 (a lane without a neighbour that far keeps
// its total) and take their left neighbour's total; lane 31 of each of the
// 8 warps publishes the warp total; each thread combines the totals of the
// warps before its own, then its lane prefix, then its own prefix.
// CHECK-LABEL: gpu.func @row
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.andi %[[TID]], %c31
// CHECK: %[[WARP:.*]] = arith.shrui %[[TID]], %c5
// CHECK: %[[X1:.*]] = arith.addf %[[X0:.*]], %{{.*}} : f32
// CHECK: %[[X2:.*]] = arith.addf %[[X1]], %{{.*}} : f32
// CHECK: %[[X3:.*]] = arith.addf %[[X2]], %{{.*}} : f32
// CHECK: %[[UP1:.*]], %[[OK1:.*]] = gpu.shuffle up %[[X3]], %c1_i32, %c32_i32 : f32
// CHECK: %[[S1:.*]] = arith.addf %[[UP1]], %[[X3]] : f32
// CHECK: %[[T1:.*]] = arith.select %[[OK1]], %[[S1]], %[[X3]] : f32
// CHECK: gpu.shuffle up %[[T1]], %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle up %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle up %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle up %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: %[[TOTAL:.*]] = arith.select
// CHECK: %[[LEFT:.*]], %[[HASLEFT:.*]] = gpu.shuffle up %[[TOTAL]], %c1_i32{{.*}}, %c32_i32 : f32
// CHECK: gpu.barrier
// CHECK: %[[IS31:.*]] = arith.cmpi eq, %[[LANE]], %c31
// CHECK: scf.if %[[IS31]] {
// CHECK:   memref.store %[[TOTAL]], %[[WG]][%[[WARP]]]
// CHECK: }
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.load %[[WG]]
// CHECK: vector.from_elements {{.*}} : vector<4xf32>
gpu.module @m {
  gpu.func @row(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<1x1024xf32>
    %p:2 = tile.prefix add %t along 1 : tensor<1x1024xf32>
    tile.store %p#0, %x[%c0, %c0] : tensor<1x1024xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// 16-bit elements are combined in f32 and rounded back once per element;
// max keeps signed order and NaN (arith.maximumf).
// CHECK-LABEL: gpu.func @half_max
// CHECK-SAME: workgroup(%{{.*}} : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.maximumf
// CHECK: gpu.shuffle up %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
gpu.module @m {
  gpu.func @half_max(%x: memref<?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf16> -> tensor<512xf16>
    %p:2 = tile.prefix max %t along 0 : tensor<512xf16>
    tile.store %p#0, %x[%c0] : tensor<512xf16>, memref<?xf16>
    gpu.return
  }
}

// -----

// Rows shorter than 32 chunks: 64 columns are 16 lanes of 4. The lanes
// scan in aligned groups of 16 (shuffles by 1, 2, 4, 8 only), and a lane
// takes a neighbour only from its own row; the rows never meet across
// warps, so there is no workgroup buffer and no barrier.
// CHECK-LABEL: gpu.func @short_rows
// CHECK-NOT: workgroup(
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LANE:.*]] = arith.andi %[[TID]], %c31
// CHECK: %[[X1:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: %[[X2:.*]] = arith.addf %[[X1]], %{{.*}} : f32
// CHECK: %[[X3:.*]] = arith.addf %[[X2]], %{{.*}} : f32
// CHECK: %[[UP1:.*]], %{{.*}} = gpu.shuffle up %[[X3]], %c1_i32, %c32_i32 : f32
// CHECK: %[[IN1:.*]] = arith.andi %[[LANE]], %c15
// CHECK: %[[OK1:.*]] = arith.cmpi uge, %[[IN1]], %c1
// CHECK: %[[S1:.*]] = arith.addf %[[UP1]], %[[X3]] : f32
// CHECK: arith.select %[[OK1]], %[[S1]], %[[X3]] : f32
// CHECK: gpu.shuffle up %{{.*}}, %c2_i32, %c32_i32
// CHECK: arith.cmpi uge, %{{.*}}, %c2
// CHECK: gpu.shuffle up %{{.*}}, %c4_i32, %c32_i32
// CHECK: arith.cmpi uge, %{{.*}}, %c4
// CHECK: gpu.shuffle up %{{.*}}, %c8_i32, %c32_i32
// CHECK: arith.cmpi uge, %{{.*}}, %c8
// CHECK-NOT: gpu.shuffle up %{{.*}}, %c16_i32
// CHECK: gpu.shuffle up %{{.*}}, %c1_i32{{.*}}, %c32_i32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
gpu.module @m {
  gpu.func @short_rows(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x64xf32>
    %p:2 = tile.prefix add %t along 1 : tensor<16x64xf32>
    tile.store %p#0, %x[%c0, %c0] : tensor<16x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A reverse scan of short rows takes its neighbour from the lane after it,
// within the row: lane-in-row < 16 - offset.
// CHECK-LABEL: gpu.func @short_rows_reverse
// CHECK: %[[DOWN:.*]], %{{.*}} = gpu.shuffle down %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: %[[IN:.*]] = arith.andi %{{.*}}, %c15
// CHECK: arith.cmpi ult, %[[IN]], %c15
// CHECK: gpu.shuffle down %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: arith.cmpi ult, %{{.*}}, %c8
// CHECK-NOT: gpu.shuffle down %{{.*}}, %c16_i32
gpu.module @m {
  gpu.func @short_rows_reverse(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x64xf32>
    %p:2 = tile.prefix add reverse %t along 1 : tensor<16x64xf32>
    tile.store %p#0, %x[%c0, %c0] : tensor<16x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Rows shorter than a chunk: a thread's chunk of 4 holds two rows of 2, and
// scans each on its own, with no shuffles. Reverse exclusive: the last
// element of each row takes the identity, the first the last.
// CHECK-LABEL: gpu.func @rows_within_a_chunk
// CHECK-NOT: gpu.shuffle
// CHECK: arith.andi %{{.*}}, %c31
// CHECK: %[[E3:.*]] = vector.extract %[[V:.*]][3] : f32 from vector<4xf32>
// CHECK: %[[E1:.*]] = vector.extract %[[V]][1] : f32 from vector<4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: vector.from_elements %[[E1]], %[[ZERO]], %[[E3]], %[[ZERO]] : vector<4xf32>
gpu.module @m {
  gpu.func @rows_within_a_chunk(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<256x2xf32>
    %p:2 = tile.prefix add exclusive reverse %t along 1 : tensor<256x2xf32>
    tile.store %p#0, %x[%c0, %c0] : tensor<256x2xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Columns spread over the threads of a row (a [16, 64] tile on 128
// threads) are not lowered yet.
gpu.module @m {
  gpu.func @columns(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{'tile.prefix' op is supported along the innermost dimension of tiles of at least 32 x 4 elements, on at least one warp, or along dimension 0 of a 2-D tile whose rows each cover every thread's chunk}}
    %p:2 = tile.prefix add %t along 0 : tensor<16x64xf32>
    tile.store %p#0, %x[%c0, %c0] : tensor<16x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Exclusive: an element takes everything before it (the prefix, then the
// chunk's elements before it); the first element of the row, with nothing
// before it, takes the identity (here 0).
// CHECK-LABEL: gpu.func @exclusive
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[ZERO]] : f32
gpu.module @m {
  gpu.func @exclusive(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<512xf32>
    %p:2 = tile.prefix add exclusive %t along 0 : tensor<512xf32>
    tile.store %p#0, %x[%c0] : tensor<512xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Reverse: each chunk is scanned from its last element, the lanes take
// totals from higher lanes (shuffles down), lane 0 publishes the warp's
// total, and a warp takes the totals of the warps after it.
// CHECK-LABEL: gpu.func @reverse
// CHECK: %[[LANE:.*]] = arith.andi %{{.*}}, %c31
// CHECK: %[[X2:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle down %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle down %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.barrier
// CHECK: arith.cmpi eq, %[[LANE]], %c0
// CHECK: gpu.barrier
// The 4 warps of the row are read from the last: warp 3 is before warp w
// in scan order when w < 3.
// CHECK: arith.cmpi ult, %{{.*}}, %c3
gpu.module @m {
  gpu.func @reverse(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<512xf32>
    %p:2 = tile.prefix add reverse %t along 0 : tensor<512xf32>
    tile.store %p#0, %x[%c0] : tensor<512xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A combiner region scans the (a, b) tuple together: every combination
// keeps the earlier tuple on the left (a = a_later * a_earlier, b =
// a_later * b_earlier + b_later), within a chunk and across the lanes
// (shuffles up bring the earlier lane's tuple). The warp totals of both
// inputs share one buffer (2 inputs x 2 chunks x 4 warps), and the total
// of the whole tile is a scalar every thread holds.
// CHECK-LABEL: gpu.func @recurrence
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[A1:.*]] = vector.extract %{{.*}}[1] : f32 from vector<8xf32>
// CHECK: %[[B1:.*]] = vector.extract %{{.*}}[1] : f32 from vector<8xf32>
// CHECK: arith.mulf %[[A1]], %[[A0:.*]] : f32
// CHECK: %[[AB:.*]] = arith.mulf %[[A1]], %[[B0:.*]] : f32
// CHECK: arith.addf %[[AB]], %[[B1]] : f32
// CHECK: %[[UA:.*]], %{{.*}} = gpu.shuffle up %[[MA:.*]], %c1_i32, %c32_i32 : f32
// CHECK: %[[UB:.*]], %{{.*}} = gpu.shuffle up %[[MB:.*]], %c1_i32{{.*}}, %c32_i32 : f32
// CHECK: arith.mulf %[[MA]], %[[UA]] : f32
// CHECK: %[[UAB:.*]] = arith.mulf %[[MA]], %[[UB]] : f32
// CHECK: arith.addf %[[UAB]], %[[MB]] : f32
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[WG]]
// CHECK: memref.store %{{.*}}, %[[WG]]
// CHECK: gpu.barrier
// CHECK: vector.from_elements {{.*}} : vector<8xf32>
// CHECK: vector.from_elements {{.*}} : vector<8xf32>
// CHECK: memref.store %{{.*}} : memref<?xf32>
gpu.module @m {
  gpu.func @recurrence(%a: memref<?xf32>, %b: memref<?xf32>, %h: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %ta = tile.load %a[%c0] : memref<?xf32> -> tensor<1024xf32>
    %tb = tile.load %b[%c0] : memref<?xf32> -> tensor<1024xf32>
    %p:4 = tile.prefix %ta, %tb along 0 : tensor<1024xf32>, tensor<1024xf32> {
    ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
      %an = arith.mulf %a1, %a0 : f32
      %ab = arith.mulf %a1, %b0 : f32
      %bn = arith.addf %ab, %b1 : f32
      tile.yield %an, %bn : f32, f32
    }
    tile.store %p#1, %h[%c0] : tensor<1024xf32>, memref<?xf32>
    memref.store %p#3, %h[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// Tuples of different types meet in workgroup memory as i32 bits.
// CHECK-LABEL: gpu.func @segmented
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<16xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: memref.store %{{.*}}, %[[WG]]
// CHECK: arith.bitcast %{{.*}} : i32 to f32
gpu.module @m {
  gpu.func @segmented(%f: memref<?xi32>, %v: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tf = tile.load %f[%c0] : memref<?xi32> -> tensor<1024xi32>
    %tv = tile.load %v[%c0] : memref<?xf32> -> tensor<1024xf32>
    %p:4 = tile.prefix %tf, %tv along 0 : tensor<1024xi32>, tensor<1024xf32> {
    ^bb0(%f0: i32, %v0: f32, %f1: i32, %v1: f32):
      %fn = arith.ori %f0, %f1 : i32
      %zero = arith.constant 0 : i32
      %restart = arith.cmpi ne, %f1, %zero : i32
      %sum = arith.addf %v0, %v1 : f32
      %vn = arith.select %restart, %v1, %sum : f32
      tile.yield %fn, %vn : i32, f32
    }
    tile.store %p#1, %v[%c0] : tensor<1024xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Totals of a tile of several rows are not lowered yet.
gpu.module @m {
  gpu.func @row_totals(%x: memref<?x?xf32>, %s: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<2x512xf32>
    // expected-error @+1 {{'tile.prefix' op gives totals only for tiles of one row, got 'tensor<2x512xf32>'}}
    %p:2 = tile.prefix add %t along 1 : tensor<2x512xf32>
    tile.store %p#1, %s[%c0] : tensor<2xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A region combines in its own types: 16-bit values cross lanes as the
// low half of a 32-bit shuffle, and the combiner sees f16.
// CHECK-LABEL: gpu.func @half_region
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f16 to i16
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK: %[[MOVED:.*]], %{{.*}} = gpu.shuffle up %[[WIDE]], %c1_i32, %c32_i32 : i32
// CHECK: %[[NARROW:.*]] = arith.trunci %[[MOVED]] : i32 to i16
// CHECK: %[[HALF:.*]] = arith.bitcast %[[NARROW]] : i16 to f16
// CHECK: arith.addf %[[HALF]], %{{.*}} : f16
gpu.module @m {
  gpu.func @half_region(%x: memref<?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf16> -> tensor<512xf16>
    %p:2 = tile.prefix %t along 0 : tensor<512xf16> {
    ^bb0(%a: f16, %b: f16):
      %c = arith.addf %a, %b : f16
      tile.yield %c : f16
    }
    tile.store %p#0, %x[%c0] : tensor<512xf16>, memref<?xf16>
    gpu.return
  }
}

// -----

// Warp totals of mixed widths meet in workgroup memory as 32-bit words.
// CHECK-LABEL: gpu.func @mixed_region
// CHECK-SAME: workgroup(%[[WORDS:.*]] : memref<{{[0-9]+}}xi32
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : bf16 to i16
// CHECK-NEXT: %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// CHECK-NEXT: memref.store %[[WIDE]], %[[WORDS]]
// CHECK: %[[FLOAT:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT: memref.store %[[FLOAT]], %[[WORDS]]
// CHECK: gpu.barrier
// CHECK: %[[WORD:.*]] = memref.load %[[WORDS]]
// CHECK-NEXT: %[[NARROW:.*]] = arith.trunci %[[WORD]] : i32 to i16
// CHECK-NEXT: arith.bitcast %[[NARROW]] : i16 to bf16
gpu.module @m {
  gpu.func @mixed_region(%x: memref<?xbf16>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = tile.load %x[%c0] : memref<?xbf16> -> tensor<512xbf16>
    %b = tile.load %y[%c0] : memref<?xf32> -> tensor<512xf32>
    %p:4 = tile.prefix %a, %b along 0 : tensor<512xbf16>, tensor<512xf32> {
    ^bb0(%a0: bf16, %b0: f32, %a1: bf16, %b1: f32):
      %m = arith.maximumf %a0, %a1 : bf16
      %s = arith.addf %b0, %b1 : f32
      tile.yield %m, %s : bf16, f32
    }
    tile.store %p#0, %x[%c0] : tensor<512xbf16>, memref<?xbf16>
    tile.store %p#1, %y[%c0] : tensor<512xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Columns of a [2, 512] tile on 128 threads: each thread holds 4 whole
// columns (slots 0-3 in row 0, 4-7 in row 1), so the prefix is a running
// combination per column in the thread, with no shuffle and no workgroup
// memory. A reverse exclusive scan gives row 1 the identity and row 0 the
// element below; the totals are the column sums, in the slots of row 0.
// CHECK-LABEL: gpu.func @columns
// CHECK-NOT: workgroup(
// CHECK-NOT: gpu.shuffle
// CHECK: %[[S0:.*]] = arith.addf %[[B0:.*]], %[[T0:.*]] : f32
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: %[[S3:.*]] = arith.addf %[[B3:.*]], %{{.*}} : f32
// CHECK-NEXT: vector.from_elements %[[B0]], %{{.*}}, %{{.*}}, %[[B3]], %[[ID:.*]], %[[ID]], %[[ID]], %[[ID]] : vector<8xf32>
// CHECK-NEXT: vector.from_elements %[[S0]], %{{.*}}, %{{.*}}, %[[S3]] : vector<4xf32>
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @columns(%x: memref<?x?xf32>, %s: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<2x512xf32>
    %p:2 = tile.prefix add exclusive reverse %t along 0 : tensor<2x512xf32>
    tile.store %p#0, %x[%c0, %c0] : tensor<2x512xf32>, memref<?x?xf32>
    tile.store %p#1, %s[%c0] : tensor<512xf32>, memref<?xf32>
    gpu.return
  }
}
