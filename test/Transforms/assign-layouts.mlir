// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared,tile-assign-layouts)))' \
// RUN:   | FileCheck %s

// A bias broadcast along the rows of a dot's accumulator: the bias is loaded
// straight into the accumulator's column slice and broadcast in its layout;
// the epilogue keeps the accumulator's layout, with no conversion.
// CHECK-LABEL: gpu.func @bias_relu(
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[SUM:.*]] = %[[ZERO]]) -> (tensor<64x64xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>)
// CHECK:   tile.dot %{{.*}}, %{{.*}}, %[[SUM]] {{.*}}: tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>
// CHECK: %[[BIAS:.*]] = tile.load %{{.*}} : memref<?xf32> -> tensor<64xf32, #tilegpu.slice<dim = 0, parent_size = 64, parent = #tilegpu.mma<warps_m = 2, warps_n = 2>>>
// CHECK: %[[BB:.*]] = tile.broadcast %[[BIAS]] dims [0] : {{.*}} -> tensor<64x64xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[BB]] : tensor<64x64xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>
// CHECK: %[[Z2:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>
// CHECK: %[[R:.*]] = arith.maximumf %[[S]], %[[Z2]]
// CHECK: tile.store %[[R]], {{.*}} : tensor<64x64xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>, memref<?x?xf32>
// CHECK-NOT: tilegpu.convert_layout
gpu.module @m {
  gpu.func @bias_relu(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %bias: memref<?xf32>, %c: memref<?x?xf32>, %m0: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %k = memref.dim %a, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %r = scf.for %kk = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
      %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<64x32xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<32x64xbf16>
      %d = tile.dot %ta, %tb, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %bt = tile.load %bias[%n0] : memref<?xf32> -> tensor<64xf32>
    %bb = tile.broadcast %bt dims [0] : tensor<64xf32> -> tensor<64x64xf32>
    %s = arith.addf %r, %bb : tensor<64x64xf32>
    %relu = arith.maximumf %s, %zero : tensor<64x64xf32>
    tile.store %relu, %c[%m0, %n0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Row statistics of an accumulator are its row slice; broadcasting them
// back gives the accumulator's layout; a column mask made of a range and a
// splat is built in that layout (no conversion).
// The dot is outside a loop, so its lhs is not staged: it is read from
// global memory straight into A fragments, and the warps split the rows.
// CHECK-LABEL: gpu.func @masked_row_softmax(
// CHECK: tile.load %{{.*}} : memref<?x?xbf16> -> tensor<64x32xbf16, #tilegpu.dot_operand<operand = 0, parent = <warps_m = 4, warps_n = 1>>>
// CHECK: %[[ACC:.*]] = tile.dot {{.*}}, tensor<64x64xf32, #[[MMA:tilegpu.mma<warps_m = 4, warps_n = 1>]]>
// CHECK-DAG: %[[RANGE:.*]] = tile.range : tensor<64xi32, #tilegpu.slice<dim = 0, parent_size = 64, parent = #[[MMA]]>>
// CHECK-DAG: %[[COLS:.*]] = tile.broadcast %[[RANGE]] dims [0] : {{.*}} -> tensor<64x64xi32, #[[MMA]]>
// CHECK-DAG: %[[N:.*]] = tile.splat %{{.*}} : i32 -> tensor<64x64xi32, #[[MMA]]>
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[COLS]], %[[N]] : tensor<64x64xi32, #[[MMA]]>
// CHECK: %[[S:.*]] = arith.select %[[IN]], %[[ACC]], %{{.*}} : tensor<64x64xi1, #[[MMA]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[MAX:.*]] = tile.reduce max %[[S]] along 1 : tensor<64x64xf32, #[[MMA]]> -> tensor<64xf32, #tilegpu.slice<dim = 1, parent_size = 64, parent = #[[MMA]]>>
// CHECK: %[[MAXB:.*]] = tile.broadcast %[[MAX]] dims [1] : {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK: arith.subf %[[S]], %[[MAXB]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tilegpu.convert_layout
gpu.module @m {
  gpu.func @masked_row_softmax(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %ta = tile.load %a[%c0, %c0] : memref<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16>
    %d = tile.dot %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    %cols = tile.range : tensor<64xi32>
    %colsb = tile.broadcast %cols dims [0] : tensor<64xi32> -> tensor<64x64xi32>
    %nt = tile.splat %n : i32 -> tensor<64x64xi32>
    %inside = arith.cmpi slt, %colsb, %nt : tensor<64x64xi32>
    %ninf = arith.constant dense<0xFF800000> : tensor<64x64xf32>
    %s = arith.select %inside, %d, %ninf : tensor<64x64xi1>, tensor<64x64xf32>
    %m = tile.reduce max %s along 1 : tensor<64x64xf32> -> tensor<64xf32>
    %mb = tile.broadcast %m dims [1] : tensor<64xf32> -> tensor<64x64xf32>
    %x = arith.subf %s, %mb : tensor<64x64xf32>
    tile.store %x, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A prefix along the rows of an accumulator whose warps each own whole
// rows scans in the accumulator's layout: no conversion.
// CHECK-LABEL: gpu.func @prefix_of_acc(
// CHECK: %[[ACC:.*]] = tile.dot {{.*}}, tensor<64x64xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[P:.*]]:2 = tile.prefix add %[[ACC]] along 1 : tensor<64x64xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
// CHECK: tile.store %[[P]]#0, {{.*}} : tensor<64x64xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
// CHECK: tile.store %[[ACC]], {{.*}} : tensor<64x64xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
gpu.module @m {
  gpu.func @prefix_of_acc(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %ta = tile.load %a[%c0, %c0] : memref<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16>
    %d = tile.dot %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    %p:2 = tile.prefix add %d along 1 : tensor<64x64xf32>
    tile.store %p#0, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Along the columns the 4 warps hold different rows (the highest row
// bits): the prefix still scans the accumulator where it is, the warps
// meeting in workgroup memory; no conversion.
// CHECK-LABEL: gpu.func @prefix_across_warps(
// CHECK: %[[ACC:.*]] = tile.dot {{.*}}, tensor<64x64xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.prefix add %[[ACC]] along 0 : tensor<64x64xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
// CHECK: tile.store %[[ACC]], {{.*}} : tensor<64x64xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
gpu.module @m {
  gpu.func @prefix_across_warps(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %ta = tile.load %a[%c0, %c0] : memref<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16>
    %d = tile.dot %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    %p:2 = tile.prefix add %d along 0 : tensor<64x64xf32>
    tile.store %p#0, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Totals in use: they come out in the slice of the accumulator's layout,
// in the threads that hold their rows, and are stored from there.
// CHECK-LABEL: gpu.func @prefix_totals(
// CHECK: %[[ACC:.*]] = tile.dot {{.*}}, tensor<16x16xf32, #tilegpu.mma<warps_m = 1, warps_n = 1>>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[P:.*]]:2 = tile.prefix add %[[ACC]] along 1 : tensor<16x16xf32, #tilegpu.mma<warps_m = 1, warps_n = 1>>
// CHECK: tile.store %[[P]]#1, {{.*}} : tensor<16xf32, #tilegpu.slice<dim = 1, parent_size = 16, parent = #tilegpu.mma<warps_m = 1, warps_n = 1>>>
gpu.module @m {
  gpu.func @prefix_totals(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>, %t: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<16x16xf32>
    %ta = tile.load %a[%c0, %c0] : memref<?x?xbf16> -> tensor<16x16xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<?x?xbf16> -> tensor<16x16xbf16>
    %d = tile.dot %ta, %tb, %zero : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
    %p:2 = tile.prefix add %d along 1 : tensor<16x16xf32>
    tile.store %p#0, %c[%c0, %c0] : tensor<16x16xf32>, memref<?x?xf32>
    tile.store %p#1, %t[%c0] : tensor<16xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A loaded tile added to an accumulator is read in the accumulator's
// layout where it has one use, and converted where it has several.
// CHECK-LABEL: gpu.func @shared_operand(
// CHECK: %[[ACC:.*]] = tile.dot {{.*}}, tensor<64x64xf32, #[[MMA:tilegpu.mma<warps_m = 4, warps_n = 1>]]>
// CHECK: %[[T:.*]] = tile.load %{{.*}} : memref<?x?xf32> -> tensor<64x64xf32>
// CHECK: %[[TC:.*]] = tilegpu.convert_layout %[[T]] : tensor<64x64xf32> -> tensor<64x64xf32, #[[MMA]]>
// CHECK: arith.addf %[[ACC]], %[[TC]] : tensor<64x64xf32, #[[MMA]]>
// CHECK: tile.store %[[T]]
gpu.module @m {
  gpu.func @shared_operand(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %ta = tile.load %a[%c0, %c0] : memref<?x?xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16>
    %d = tile.dot %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    %t = tile.load %c[%c0, %c0] : memref<?x?xf32> -> tensor<64x64xf32>
    %s = arith.addf %d, %t : tensor<64x64xf32>
    tile.store %s, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    tile.store %t, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}
