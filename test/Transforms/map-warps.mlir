// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))' \
// RUN:   | FileCheck %s

// 1024 elements over 128 threads: 8 a thread, in two chunks of 4.
// Element-wise ops become the same op on the thread's vector.
// CHECK-LABEL: gpu.func @elementwise
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[A:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %{{.*}} : vector<8xf32>
// CHECK: %[[E:.*]] = math.exp %[[M]] : vector<8xf32>
// CHECK: arith.constant dense<1.000000e+00> : vector<8xf32>
// CHECK-NOT: tensor<
gpu.module @m {
  gpu.func @elementwise(%a: f32, %x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<1024xf32>
    %s = tile.splat %a : f32 -> tensor<1024xf32>
    %m = arith.mulf %s, %t : tensor<1024xf32>
    %e = math.exp %m : tensor<1024xf32>
    %one = arith.constant dense<1.0> : tensor<1024xf32>
    %r = arith.addf %e, %one : tensor<1024xf32>
    tile.store %r, %x[%c0] : tensor<1024xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Loads read runs of 4 elements (thread t's first run starts at 4t) as one
// 16-byte vector where the pointer, the offset and the tile origin keep runs
// aligned and the whole run (first and last element) is inside the buffer; otherwise each element is
// checked against the buffer size and the padding is read outside it.
// CHECK-LABEL: gpu.func @load
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>, %[[OFF:.*]]: index)
// CHECK-DAG: %[[PAD:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[SIZE:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf32>
// CHECK: %{{.*}}, %[[OFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[X]]
// CHECK: arith.remui %[[OFFSET]], %c4
// CHECK: arith.remui %[[OFF]], %c4
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: arith.remui %[[PTR]], %c16
// CHECK: arith.andi
// CHECK: %[[ALIGNED:.*]] = arith.andi
// CHECK: %[[L0:.*]] = arith.muli %[[TID]], %c4
// CHECK: %[[I0:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[I0]], %[[SIZE]] : index
// CHECK: %[[LAST:.*]] = arith.addi %[[I0]], %c3
// CHECK: %[[LASTIN:.*]] = arith.cmpi ult, %[[LAST]], %[[SIZE]] : index
// CHECK: %[[INGROUP:.*]] = arith.andi %[[IN0]], %[[LASTIN]] : i1
// CHECK: %[[WHOLE:.*]] = arith.andi %[[ALIGNED]], %[[INGROUP]] : i1
// CHECK: %[[GROUP:.*]] = scf.if %[[WHOLE]] -> (vector<4xf32>) {
// CHECK:   vector.load %[[X]][%[[I0]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: } else {
// CHECK:   %[[V0:.*]] = scf.if %[[IN0]] -> (f32) {
// CHECK:     %[[LD:.*]] = memref.load %[[X]][%[[I0]]] : memref<?xf32>
// CHECK:     scf.yield %[[LD]] : f32
// CHECK:   } else {
// CHECK:     scf.yield %[[PAD]] : f32
// CHECK:   }
// CHECK-COUNT-3: scf.if
// CHECK:   vector.from_elements %[[V0]], {{.*}} : vector<4xf32>
// CHECK: }
// CHECK: scf.if {{.*}} -> (vector<4xf32>)
// CHECK: vector.extract %[[GROUP]][0] : f32 from vector<4xf32>
// CHECK: vector.from_elements {{.*}} : vector<8xf32>
gpu.module @m {
  gpu.func @load(%x: memref<?xf32>, %off: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = tile.load %x[%off] {padding = 0xFF800000 : f32}
        : memref<?xf32> -> tensor<1024xf32>
    %r = arith.negf %t : tensor<1024xf32>
    tile.store %r, %x[%off] : tensor<1024xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Stores write whole aligned runs as one vector and, elsewhere, only the
// elements inside the buffer.
// CHECK-LABEL: gpu.func @store
// CHECK: %[[V:.*]] = vector.from_elements {{.*}} : vector<8xf32>
// CHECK: scf.if %{{.*}} {
// CHECK:   %[[E0:.*]] = vector.extract %[[V]][0] : f32 from vector<8xf32>
// CHECK:   %[[E3:.*]] = vector.extract %[[V]][3] : f32 from vector<8xf32>
// CHECK:   %[[GROUP:.*]] = vector.from_elements %[[E0]], %{{.*}}, %{{.*}}, %[[E3]] : vector<4xf32>
// CHECK:   vector.store %[[GROUP]], %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: } else {
// CHECK:   %[[E:.*]] = vector.extract %[[V]][0] : f32 from vector<8xf32>
// CHECK:   scf.if %{{.*}} {
// CHECK:     memref.store %[[E]], %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-COUNT-3: memref.store
// CHECK: }
// CHECK: vector.store
// CHECK-COUNT-4: memref.store
// CHECK-NOT: memref.store
gpu.module @m {
  gpu.func @store(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<1024xf32>
    tile.store %t, %x[%c0] : tensor<1024xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A 16-element tile on 128 threads is replicated: thread t holds element
// t mod 16, and only threads 0..15 store.
// CHECK-LABEL: gpu.func @replicated
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[C15:.*]] = arith.constant 15 : index
// CHECK: arith.andi %[[TID]], %[[C15]] : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[OWNER:.*]] = arith.cmpi ult, %[[TID]], %[[C16]] : index
// CHECK: %[[W:.*]] = arith.andi %[[OWNER]], %{{.*}} : i1
// CHECK: scf.if %[[W]] {
// CHECK:   memref.store
gpu.module @m {
  gpu.func @replicated(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<16xf32>
    tile.store %t, %x[%c0] : tensor<16xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A row of 1024 over 4 warps: each thread adds its 8 elements, the lanes
// combine with 5 xor shuffles, and the 4 warp partials meet in workgroup
// memory.
// CHECK-LABEL: gpu.func @row_reduce
// CHECK-SAME: workgroup(%[[WG:.*]] : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-COUNT-7: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK:   memref.store %{{.*}}, %[[WG]][%{{.*}}] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-COUNT-4: memref.load %[[WG]]
// CHECK: %[[R:.*]] = vector.from_elements %{{.*}} : vector<1xf32>
gpu.module @m {
  gpu.func @row_reduce(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<1x1024xf32>
    %s = tile.reduce add %t along 1 : tensor<1x1024xf32> -> tensor<1xf32>
    tile.store %s, %y[%c0] : tensor<1xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// 16 rows of 128: a warp holds 4 whole rows at a time, so lanes shuffle
// (4 rows x 5 offsets) and no warp partials are needed.
// CHECK-LABEL: gpu.func @rows_reduce
// CHECK-SAME: workgroup(%{{.*}} : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-COUNT-20: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @rows_reduce(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x128xf32>
    %s = tile.reduce max %t along 1 : tensor<16x128xf32> -> tensor<16xf32>
    tile.store %s, %y[%c0] : tensor<16xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// Reducing the rows of a 32x128 tile: the reduced bits are those of the
// warps and of the thread's own chunks, so no shuffle is needed; 128
// results x 4 warp partials go through workgroup memory.
// CHECK-LABEL: gpu.func @column_reduce
// CHECK-SAME: workgroup(%{{.*}} : memref<512xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-NOT: gpu.shuffle
// CHECK: arith.maxsi
gpu.module @m {
  gpu.func @column_reduce(%x: memref<?x?xi32>, %y: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xi32> -> tensor<32x128xi32>
    %s = tile.reduce max %t along 0 : tensor<32x128xi32> -> tensor<128xi32>
    tile.store %s, %y[%c0] : tensor<128xi32>, memref<?xi32>
    gpu.return
  }
}

// -----

// Reducing a 1-D tile gives a scalar every thread holds.
// CHECK-LABEL: gpu.func @to_scalar
// CHECK: gpu.barrier
// CHECK: %[[P0:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32, #gpu.address_space<workgroup>>
// CHECK: %[[P1:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<2xf32, #gpu.address_space<workgroup>>
// CHECK: %[[S:.*]] = arith.minimumf %[[P0]], %[[P1]] : f32
// CHECK: memref.store %[[S]], %{{.*}}[%{{.*}}] : memref<?xf32>
gpu.module @m {
  gpu.func @to_scalar(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<256xf32>
    %s = tile.reduce min %t along 0 : tensor<256xf32> -> f32
    memref.store %s, %x[%c0] : memref<?xf32>
    gpu.return
  }
}

// -----

// Broadcasts go through workgroup memory: element (r, c) reads entry r.
// CHECK-LABEL: gpu.func @broadcast
// CHECK-SAME: workgroup(%{{.*}} : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[WG:[a-z0-9]+]] : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[WG]][%{{.*}}]
// CHECK: gpu.barrier
// CHECK-COUNT-16: memref.load %[[WG]]
// CHECK: vector.from_elements {{.*}} : vector<16xf32>
gpu.module @m {
  gpu.func @broadcast(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<1x16xf32>
    %r = tile.reduce add %v along 0 : tensor<1x16xf32> -> tensor<16xf32>
    %b = tile.broadcast %r dims [1] : tensor<16xf32> -> tensor<16x128xf32>
    tile.store %b, %x[%c0, %c0] : tensor<16x128xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Broadcasting down the columns of a [4, 512] tile on 128 threads: each
// thread holds the same 4 columns in every row as in the input, so its
// slots repeat its own input slots, with no workgroup memory.
// CHECK-LABEL: gpu.func @broadcast_down_columns
// CHECK-NOT: workgroup(
// CHECK: vector.shuffle %[[IN:.*]], %[[IN]] [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
// CHECK-NOT: gpu.barrier
gpu.module @m {
  gpu.func @broadcast_down_columns(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %v = tile.load %y[%c0] : memref<?xf32> -> tensor<512xf32>
    %b = tile.broadcast %v dims [0] : tensor<512xf32> -> tensor<4x512xf32>
    tile.store %b, %x[%c0, %c0] : tensor<4x512xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// tile.range: each slot holds its own linear index.
// CHECK-LABEL: gpu.func @range
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[L:.*]] = arith.andi %[[TID]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.index_castui %[[L]] : index to i32
// CHECK: vector.from_elements %[[I]] : vector<1xi32>
gpu.module @m {
  gpu.func @range(%x: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %r = tile.range : tensor<64xi32>
    tile.store %r, %x[%c0] : tensor<64xi32>, memref<?xi32>
    gpu.return
  }
}

// -----

// Loops carry the per-thread vectors.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4xf32>)
// CHECK:   %[[S:.*]] = arith.addf %[[ACC]], %{{.*}} : vector<4xf32>
// CHECK:   scf.yield %[[S]] : vector<4xf32>
gpu.module @m {
  gpu.func @loop(%x: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant dense<0.0> : tensor<256xf32>
    %acc = scf.for %i = %c0 to %n step %c256 iter_args(%a = %zero) -> (tensor<256xf32>) {
      %t = tile.load %x[%i] : memref<?xf32> -> tensor<256xf32>
      %s = arith.addf %a, %t : tensor<256xf32>
      scf.yield %s : tensor<256xf32>
    }
    tile.store %acc, %x[%c0] : tensor<256xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// 16-bit elements are combined in 32 bits: extended on the way in, the
// workgroup buffer is f32, the result is truncated back.
// CHECK-LABEL: gpu.func @half_reduce
// CHECK-SAME: workgroup(%{{.*}} : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: vector.load %{{.*}} : memref<?xf16>, vector<4xf16>
// CHECK: vector.extract %{{.*}}[3] : f16 from vector<4xf16>
// CHECK-NEXT: %[[T:.*]] = vector.from_elements {{.*}} : vector<4xf16>
// CHECK-NEXT: %[[E:.*]] = vector.extract %[[T]][0] : f16 from vector<4xf16>
// CHECK-NEXT: arith.extf %[[E]] : f16 to f32
// CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: %[[S:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.store %[[S]], %{{.*}}[%{{.*}}] : memref<?xf16>
gpu.module @m {
  gpu.func @half_reduce(%x: memref<?xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf16> -> tensor<512xf16>
    %s = tile.reduce add %t along 0 : tensor<512xf16> -> f16
    memref.store %s, %x[%c0] : memref<?xf16>
    gpu.return
  }
}

// -----

// Rows that end inside the tile: when the rows are a whole number of runs
// (and the buffer aligned), every run is wholly inside or wholly outside,
// and each is one vector load with no branch: a run outside reads the
// buffer's first run and takes the padding. Otherwise the runs branch as
// for one-row tiles.
// CHECK-LABEL: gpu.func @load_rows
// CHECK: %[[NROWS:.*]] = memref.dim %{{.*}}, %c0
// CHECK: %[[COLS:.*]] = memref.dim %{{.*}}, %c1
// CHECK: arith.andi
// CHECK: %[[ALIGNED:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[REM:.*]] = arith.remui %[[COLS]], %c4{{.*}} : index
// CHECK: %[[MULTIPLE:.*]] = arith.cmpi eq, %[[REM]], %c0{{.*}} : index
// CHECK: %[[WIDE:.*]] = arith.cmpi uge, %[[COLS]], %c4{{.*}} : index
// CHECK: %[[RUNS:.*]] = arith.andi %[[MULTIPLE]], %[[WIDE]] : i1
// CHECK: %[[ROWS:.*]] = arith.cmpi uge, %[[NROWS]], %c1{{.*}} : index
// CHECK: %[[WHOLE:.*]] = arith.andi %[[RUNS]], %[[ROWS]] : i1
// CHECK: %[[DENSE:.*]] = arith.andi %[[ALIGNED]], %[[WHOLE]] : i1
// CHECK: scf.if %[[DENSE]] -> (vector<8xf32>) {
// CHECK-NOT: scf.if
// CHECK:   %[[PAD:.*]] = vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK:   %[[IN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:   %[[R:.*]] = arith.select %[[IN]], %{{.*}}, %c0{{.*}} : index
// CHECK:   %[[C:.*]] = arith.select %[[IN]], %{{.*}}, %c0{{.*}} : index
// CHECK:   %[[V:.*]] = vector.load %{{.*}}[%[[R]], %[[C]]] {alignment = 16 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK:   arith.select %[[IN]], %[[V]], %[[PAD]] : vector<4xf32>
// CHECK: } else {
// CHECK:   scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK:     vector.load
gpu.module @m {
  gpu.func @load_rows(%x: memref<?x?xf32>, %row: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%row, %c0] : memref<?x?xf32> -> tensor<16x64xf32>
    %r = arith.negf %t : tensor<16x64xf32>
    tile.store %r, %x[%row, %c0] : tensor<16x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Runs of one element (here a view broadcast over its columns, column
// stride 0) load without a branch an element: an element outside the
// buffer reads the buffer's first element and takes the padding, so the
// loads issue together. A buffer with no element takes the padding on one
// uniform branch.
// CHECK-LABEL: gpu.func @load_broadcast_view
// CHECK: %[[NROWS:.*]] = memref.dim %{{.*}}, %c0
// CHECK: %[[NCOLS:.*]] = memref.dim %{{.*}}, %c1
// CHECK: %[[R:.*]] = arith.cmpi uge, %[[NROWS]], %c1{{.*}} : index
// CHECK: %[[C:.*]] = arith.cmpi uge, %[[NCOLS]], %c1{{.*}} : index
// CHECK: %[[ANY:.*]] = arith.andi %[[R]], %[[C]] : i1
// CHECK: scf.if %[[ANY]] -> (vector<4xf32>) {
// CHECK-NOT: scf.if
// CHECK:   %[[IN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK:   %[[I:.*]] = arith.select %[[IN]], %{{.*}}, %c0{{.*}} : index
// CHECK:   %[[J:.*]] = arith.select %[[IN]], %{{.*}}, %c0{{.*}} : index
// CHECK:   %[[V:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]] : memref<?x?xf32, strided<[1, 0], offset: ?>>
// CHECK:   arith.select %[[IN]], %[[V]], %{{.*}} : f32
// CHECK-COUNT-3: memref.load
// CHECK:   vector.from_elements {{.*}} : vector<4xf32>
// CHECK: } else {
// CHECK:   vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK: }
gpu.module @m {
  gpu.func @load_broadcast_view(%x: memref<?x?xf32, strided<[1, 0], offset: ?>>,
                                %out: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] {padding = 0xFF800000 : f32}
        : memref<?x?xf32, strided<[1, 0], offset: ?>> -> tensor<16x32xf32>
    tile.store %t, %out[%c0, %c0] : tensor<16x32xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A buffer whose aligned pointer memref.assume_alignment promises (through
// views that keep that pointer) is not checked at run time: only the
// offset and the tile's origin are.
// CHECK-LABEL: gpu.func @load_promised_alignment
// CHECK: memref.extract_strided_metadata
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: vector.load
gpu.module @m {
  gpu.func @load_promised_alignment(%x: memref<?xf32>, %off: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = memref.assume_alignment %x, 16 : memref<?xf32>
    %v = memref.reinterpret_cast %a to offset: [%off], sizes: [16, 128],
        strides: [128, 1] : memref<?xf32> to memref<16x128xf32, strided<[128, 1], offset: ?>>
    %t = tile.load %v[%c0, %c0]
        : memref<16x128xf32, strided<[128, 1], offset: ?>> -> tensor<16x128xf32>
    tile.store %t, %v[%c0, %c0] : tensor<16x128xf32>, memref<16x128xf32, strided<[128, 1], offset: ?>>
    gpu.return
  }
}

// -----

// An alignment promised below a run's size leaves the pointer checked.
// CHECK-LABEL: gpu.func @load_promised_too_little
// CHECK: memref.extract_aligned_pointer_as_index
gpu.module @m {
  gpu.func @load_promised_too_little(%x: memref<?xf32>, %off: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %a = memref.assume_alignment %x, 8 : memref<?xf32>
    %t = tile.load %a[%off] : memref<?xf32> -> tensor<1024xf32>
    tile.store %t, %x[%off] : tensor<1024xf32>, memref<?xf32>
    gpu.return
  }
}
