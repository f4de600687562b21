// RUN: tilec-opt %s -split-input-file | FileCheck %s
// Round-trip every op; the second run checks the printed form parses again.
// RUN: tilec-opt %s -split-input-file | tilec-opt -split-input-file | FileCheck %s

// CHECK-LABEL: tile.kernel @program_ids
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: i32)
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 0, per_program = 128>, #tile.grid<arg = 1, per_program = 2>]
// CHECK-SAME: num_warps = 8
// CHECK: tile.program_id x : index
// CHECK: tile.program_id y : index
// CHECK: tile.num_programs z : index
// CHECK: tile.return
tile.kernel @program_ids(%x: memref<?xf32>, %n: i32)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 128>,
                        #tile.grid<arg = 1, per_program = 2>],
                num_warps = 8} {
  %0 = tile.program_id x : index
  %1 = tile.program_id y : index
  %2 = tile.num_programs z : index
  tile.return
}

// -----

// A grid dimension given as a product of factors.
// CHECK-LABEL: tile.kernel @grid_product
// CHECK-SAME: grid = [#tile.grid<arg = 0, dim = 1, per_program = 64>, [#tile.grid<arg = 0, dim = 0, per_program = 1>, #tile.grid<arg = 1, per_program = 16>]]
tile.kernel @grid_product(%x: memref<?x?xf32>, %n: i32)
    attributes {grid = [#tile.grid<arg = 0, dim = 1, per_program = 64>,
                        [#tile.grid<arg = 0, dim = 0, per_program = 1>,
                         #tile.grid<arg = 1, per_program = 16>]]} {
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @load_store
// CHECK: %[[T:.*]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}] {padding = 0xFF800000 : f32} : memref<?x?xf32> -> tensor<2x64xf32>
// CHECK: %[[Z:.*]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32> -> tensor<2x64xf32>
// CHECK: tile.store %[[T]], %{{.*}}[%{{.*}}, %{{.*}}] : tensor<2x64xf32>, memref<?x?xf32>
tile.kernel @load_store(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 2>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] {padding = 0xFF800000 : f32}
      : memref<?x?xf32> -> tensor<2x64xf32>
  %z = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<2x64xf32>
  tile.store %t, %x[%c0, %c0] : tensor<2x64xf32>, memref<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @construct
// CHECK: tile.splat %{{.*}} : f32 -> tensor<4x8xf32>
// CHECK: tile.range : tensor<8xi32>
// CHECK: tile.broadcast %{{.*}} dims [0] : tensor<8xi32> -> tensor<4x8xi32>
// CHECK: tile.broadcast %{{.*}} dims [0, 2] : tensor<8xi32> -> tensor<2x8x4xi32>
tile.kernel @construct(%a: f32, %n: i64)
    attributes {grid = [#tile.grid<arg = 1, per_program = 1>]} {
  %s = tile.splat %a : f32 -> tensor<4x8xf32>
  %r = tile.range : tensor<8xi32>
  %b = tile.broadcast %r dims [0] : tensor<8xi32> -> tensor<4x8xi32>
  %c = tile.broadcast %r dims [0, 2] : tensor<8xi32> -> tensor<2x8x4xi32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @reduce
// CHECK: tile.reduce add %{{.*}} along 1 : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: tile.reduce mul %{{.*}} along 0 : tensor<4x8xf32> -> tensor<8xf32>
// CHECK: tile.reduce max %{{.*}} along 0 : tensor<8xi32> -> i32
// CHECK: tile.reduce min %{{.*}} along 0 : tensor<8xi32> -> i32
tile.kernel @reduce(%x: memref<?x?xf32>, %y: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<4x8xf32>
  %i = tile.load %y[%c0] : memref<?xi32> -> tensor<8xi32>
  %0 = tile.reduce add %t along 1 : tensor<4x8xf32> -> tensor<4xf32>
  %1 = tile.reduce mul %t along 0 : tensor<4x8xf32> -> tensor<8xf32>
  %2 = tile.reduce max %i along 0 : tensor<8xi32> -> i32
  %3 = tile.reduce min %i along 0 : tensor<8xi32> -> i32
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @dot
// CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32>
tile.kernel @dot(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 0, per_program = 64>,
                        #tile.grid<arg = 2, dim = 1, per_program = 128>]} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : memref<?x?xbf16> -> tensor<64x32xbf16>
  %bt = tile.load %b[%c0, %c0] : memref<?x?xbf16> -> tensor<32x128xbf16>
  %ct = tile.load %c[%c0, %c0] : memref<?x?xf32> -> tensor<64x128xf32>
  %d = tile.dot %at, %bt, %ct : tensor<64x32xbf16>, tensor<32x128xbf16>, tensor<64x128xf32>
  tile.return
}

// -----

// Element-wise math and loops are upstream arith, math and scf on tiles.
// CHECK-LABEL: tile.kernel @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<256xf32>)
// CHECK: math.exp %{{.*}} : tensor<256xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<256xf32>
tile.kernel @loop(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>]} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %acc = scf.for %i = %c0 to %n step %c256 iter_args(%a = %zero) -> (tensor<256xf32>) {
    %t = tile.load %x[%i] : memref<?xf32> -> tensor<256xf32>
    %e = math.exp %t : tensor<256xf32>
    %s = arith.addf %a, %e : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  tile.store %acc, %x[%c0] : tensor<256xf32>, memref<?xf32>
  tile.return
}

// -----

// CHECK-LABEL: func.func @swizzled_panels
// CHECK: tilegpu.copy_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, vector_bytes = 16 : i64}
// CHECK: tile.load %{{.*}}[] : memref<2x8x64xbf16, #gpu.address_space<workgroup>> -> tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
// CHECK: tile.transpose %{{.*}} -> tensor<128x8xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>>
func.func @swizzled_panels(%src: memref<?x?xbf16>, %buf: memref<2x8x64xbf16, #gpu.address_space<workgroup>>, %i: index) -> tensor<128x8xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>> {
  tilegpu.copy_async %src[%i, %i], %buf {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, vector_bytes = 16 : i64} : memref<?x?xbf16>, memref<2x8x64xbf16, #gpu.address_space<workgroup>>
  %t = tile.load %buf[] : memref<2x8x64xbf16, #gpu.address_space<workgroup>> -> tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  %tt = tile.transpose %t : tensor<8x128xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>> -> tensor<128x8xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>>
  return %tt : tensor<128x8xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>>
}

// -----

// CHECK-LABEL: gpu.func @bulk_copies
// CHECK: tilegpu.barrier_init %{{.*}} arrivals 2 : memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: tilegpu.copy_bulk %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}}[%{{.*}}] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: tilegpu.barrier_wait %{{.*}}[%{{.*}}], %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: tilegpu.barrier_inval %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @bulk_copies(%b: memref<?x?xbf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: memref<4xi64, #gpu.address_space<workgroup>>, %i: index) {
    tilegpu.barrier_init %bars arrivals 2 : memref<4xi64, #gpu.address_space<workgroup>>
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, memref<4xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_wait %bars[%i], %i : memref<4xi64, #gpu.address_space<workgroup>>
    tilegpu.barrier_inval %bars : memref<4xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: tile.scan @cumsum add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @cumsum add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
// CHECK: tile.scan @running_max max exclusive reverse along 1 : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()
tile.scan @running_max max exclusive reverse along 1 : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()
// CHECK: tile.scan @counts add exclusive along 0 : (memref<?xi32>, memref<?xf16>, memref<?xi32>, memref<?xf16>) -> ()
tile.scan @counts add exclusive along 0 : (memref<?xi32>, memref<?xf16>, memref<?xi32>, memref<?xf16>) -> ()

// -----

// The linear recurrence h[t] = a[t] * h[t-1] + b[t] over (a, b) pairs.
// CHECK-LABEL: tile.scan @recurrence inclusive along 0 : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> () {
// CHECK: ^bb0(%[[A0:.*]]: f32, %[[B0:.*]]: f32, %[[A1:.*]]: f32, %[[B1:.*]]: f32):
// CHECK:   %[[A:.*]] = arith.mulf %[[A1]], %[[A0]] : f32
// CHECK:   %[[AB:.*]] = arith.mulf %[[A1]], %[[B0]] : f32
// CHECK:   %[[B:.*]] = arith.addf %[[AB]], %[[B1]] : f32
// CHECK:   tile.yield %[[A]], %[[B]] : f32, f32
tile.scan @recurrence inclusive along 0
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}

// -----

// CHECK-LABEL: tile.scan @rows_exclusive exclusive reverse along 1 identity [1.000000e+00 : f32, 0.000000e+00 : f32]
tile.scan @rows_exclusive exclusive reverse along 1 identity [1.0 : f32, 0.0 : f32]
    : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}

// -----

// CHECK-LABEL: tile.kernel @prefix
// CHECK: %[[P:.*]]:2 = tile.prefix add %{{.*}} along 1 : tensor<4x1024xf32>
// CHECK: tile.prefix max %[[P]]#0 along 0 : tensor<4x1024xf32>
tile.kernel @prefix(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>],
                num_warps = 8} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<4x1024xf32>
  %p:2 = tile.prefix add %t along 1 : tensor<4x1024xf32>
  %q:2 = tile.prefix max %p#0 along 0 : tensor<4x1024xf32>
  tile.store %q#0, %x[%c0, %c0] : tensor<4x1024xf32>, memref<?x?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @single_pass
// CHECK: %[[T:.*]], %[[E:.*]] = tilegpu.ticket %{{.*}} : memref<?xi32>
// CHECK: tilegpu.lookback add %{{.*}} at %[[T]] epoch %[[E]] position %[[T]] in %{{.*}} : memref<?xi32>, f32
// CHECK: tilegpu.lookback max %{{.*}}, %{{.*}} at %[[T]] epoch %[[E]] position %{{.*}} in %{{.*}} : memref<?xi32>, i32, f32
tile.kernel @single_pass(%x: f32, %y: i32, %s: memref<?xi32>) attributes {grid = [#tile.grid<arg = 2, dim = 0, per_program = 1>], tile.scratch = array<i64: 16, 16>} {
  %t, %e = tilegpu.ticket %s : memref<?xi32>
  %p = arith.constant 3 : index
  %c = tilegpu.lookback add %x at %t epoch %e position %t in %s : memref<?xi32>, f32
  %d:2 = tilegpu.lookback max %y, %x at %t epoch %e position %p in %s : memref<?xi32>, i32, f32
  tile.return
}

// -----

// CHECK-LABEL: tile.scan @hinted add inclusive along 0 block 8192 warps 16
tile.scan @hinted add inclusive along 0 block 8192 warps 16 : (memref<?xf32>, memref<?xf32>) -> ()

// -----

// The totals drop the scanned dimension; a region scans tuples.
// CHECK-LABEL: tile.kernel @prefix_region
// CHECK: %{{.*}}:4 = tile.prefix exclusive %{{.*}}, %{{.*}} along 1 identity [1 : i32, 0.000000e+00 : f32] : tensor<4x1024xi32>, tensor<4x1024xf32> {
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32):
// CHECK: tile.yield %{{.*}}, %{{.*}} : i32, f32
// CHECK: tile.store %{{.*}} : tensor<4xf32>, memref<?xf32>
tile.kernel @prefix_region(%a: memref<?x?xi32>, %b: memref<?x?xf32>,
                           %sums: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4>],
                num_warps = 8} {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<?x?xi32> -> tensor<4x1024xi32>
  %tb = tile.load %b[%c0, %c0] : memref<?x?xf32> -> tensor<4x1024xf32>
  %p:4 = tile.prefix exclusive %ta, %tb along 1 identity [1 : i32, 0.0 : f32]
      : tensor<4x1024xi32>, tensor<4x1024xf32> {
  ^bb0(%a0: i32, %b0: f32, %a1: i32, %b1: f32):
    %a2 = arith.muli %a1, %a0 : i32
    %s = arith.sitofp %a1 : i32 to f32
    %sb = arith.mulf %s, %b0 : f32
    %b2 = arith.addf %sb, %b1 : f32
    tile.yield %a2, %b2 : i32, f32
  }
  tile.store %p#3, %sums[%c0] : tensor<4xf32>, memref<?xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @lookback_region
// CHECK: tilegpu.lookback %{{.*}}, %{{.*}} at %{{.*}} epoch %{{.*}} position %{{.*}} in %{{.*}} : memref<?xi32>, f32, f32 {
// CHECK: tile.yield %{{.*}}, %{{.*}} : f32, f32
tile.kernel @lookback_region(%s: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 4096>],
                num_warps = 4} {
  %t, %e = tilegpu.ticket %s : memref<?xi32>
  %one = arith.constant 1.0 : f32
  %c:2 = tilegpu.lookback %one, %one at %t epoch %e position %t in %s
      : memref<?xi32>, f32, f32 {
  ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
    %a = arith.mulf %a1, %a0 : f32
    %ab = arith.mulf %a1, %b0 : f32
    %b = arith.addf %ab, %b1 : f32
    tile.yield %a, %b : f32, f32
  }
  tile.return
}

// -----

// The steps of the warpgroups' turns.
// CHECK-LABEL: func.func @turns
// CHECK: tilegpu.turn open
// CHECK: tilegpu.turn take
// CHECK: tilegpu.turn pass
// CHECK: tilegpu.turn close
func.func @turns() {
  tilegpu.turn open
  tilegpu.turn take
  tilegpu.turn pass
  tilegpu.turn close
  return
}
