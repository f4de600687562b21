// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-stage-windows)))' | FileCheck %s
// RUN: tilec-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-stage-windows{max-bytes=8192})))' | FileCheck %s --check-prefix=SMALL

// A piece read by two loops, 512 elements an iteration: copied once before
// the first into a workgroup buffer of the whole window (16-byte aligned,
// for 16-byte copies and reads), awaited, and read there at the induction
// variable minus the lower bound.
// CHECK-LABEL: gpu.func @twice(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf32>, %[[Y:[a-z0-9]+]]: memref<?xf32>, %[[START:[a-z0-9]+]]: index
// CHECK-SAME: workgroup(%[[W:.*]] : memref<3072xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: tilegpu.copy_async %[[X]][%[[START]]], %[[W]] : memref<?xf32>, memref<3072xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK:   tile.load %[[W]][%[[I]]] : memref<3072xf32, #gpu.address_space<workgroup>> -> tensor<512xf32>
// CHECK: scf.for %[[J:[a-z0-9]+]] =
// CHECK:   tile.load %[[W]][%[[J]]] : memref<3072xf32, #gpu.address_space<workgroup>> -> tensor<512xf32>
// CHECK-NOT: tile.load %[[X]]
// SMALL-LABEL: gpu.func @twice(
// SMALL-NOT: tilegpu.copy_async
gpu.module @m {
  gpu.func @twice(%x: memref<?xf32>, %y: memref<?xf32>, %start: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c3072 = arith.constant 3072 : index
    %zero = arith.constant dense<0.0> : tensor<512xf32>
    %acc = scf.for %i = %c0 to %c3072 step %c512 iter_args(%a = %zero) -> (tensor<512xf32>) {
      %at = arith.addi %start, %i : index
      %t = tile.load %x[%at] {padding = 0.0 : f32} : memref<?xf32> -> tensor<512xf32>
      %s = arith.addf %a, %t : tensor<512xf32>
      scf.yield %s : tensor<512xf32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %j, %start : index
      %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
      %r = arith.addf %acc, %t : tensor<512xf32>
      tile.store %r, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    gpu.return
  }
}

// -----

// A row's piece (rows 2-D, a tile of one row): the window keeps the row
// index, and starts at the base plus the loops' lower bound.
// CHECK-LABEL: gpu.func @row_piece(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x?xbf16>, %{{.*}}: memref<?x?xbf16>, %[[ROW:[a-z0-9]+]]: index, %[[START:[a-z0-9]+]]: index
// CHECK-SAME: workgroup(%[[W:.*]] : memref<1x1024xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[FROM:.*]] = arith.addi %[[START]], %[[LOWER:.*]] : index
// CHECK: tilegpu.copy_async %[[X]][%[[ROW]], %[[FROM]]], %[[W]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK:   %[[AT:.*]] = arith.subi %[[I]], %[[LOWER]] : index
// CHECK:   tile.load %[[W]][%[[ZERO]], %[[AT]]] : memref<1x1024xbf16, #gpu.address_space<workgroup>> -> tensor<1x256xbf16>
// SMALL-LABEL: gpu.func @row_piece(
// SMALL: tilegpu.copy_async
gpu.module @m {
  gpu.func @row_piece(%x: memref<?x?xbf16>, %y: memref<?x?xbf16>, %row: index, %start: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c256 = arith.constant 256 : index
    %c1280 = arith.constant 1280 : index
    %zero = arith.constant dense<0.0> : tensor<1x256xbf16>
    %acc = scf.for %i = %c256 to %c1280 step %c256 iter_args(%a = %zero) -> (tensor<1x256xbf16>) {
      %at = arith.addi %start, %i : index
      %t = tile.load %x[%row, %at] : memref<?x?xbf16> -> tensor<1x256xbf16>
      %s = arith.addf %a, %t : tensor<1x256xbf16>
      scf.yield %s : tensor<1x256xbf16>
    }
    scf.for %j = %c256 to %c1280 step %c256 {
      %at = arith.addi %start, %j : index
      %t = tile.load %x[%row, %at] : memref<?x?xbf16> -> tensor<1x256xbf16>
      %r = arith.addf %acc, %t : tensor<1x256xbf16>
      tile.store %r, %y[%row, %at] : tensor<1x256xbf16>, memref<?x?xbf16>
    }
    gpu.return
  }
}

// -----

// Read by one loop only: nothing to reuse, nothing staged.
// CHECK-LABEL: gpu.func @once(
// CHECK-NOT: tilegpu.copy_async
// CHECK: tile.load %{{.*}} : memref<?xf32> -> tensor<512xf32>
gpu.module @m {
  gpu.func @once(%x: memref<?xf32>, %y: memref<?xf32>, %start: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c3072 = arith.constant 3072 : index
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %start, %j : index
      %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Windows that differ (another base, other bounds), a padding that is not
// zero (a copy pads with zeros), a tile that does not step with its loop,
// and a buffer the kernel writes: nothing staged.
// CHECK-LABEL: gpu.func @different(
// CHECK-NOT: tilegpu.copy_async
gpu.module @m {
  gpu.func @different(%x: memref<?xf32>, %z: memref<?xf32>, %y: memref<?xf32>, %s0: index, %s1: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    %c3072 = arith.constant 3072 : index
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %s0, %j : index
      %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %s1, %j : index
      %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    scf.for %j = %c0 to %c1024 step %c512 {
      %at = arith.addi %s0, %j : index
      %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %s0, %j : index
      %t = tile.load %x[%at] {padding = 0xFF800000 : f32} : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    scf.for %j = %c0 to %c3072 step %c1024 {
      %at = arith.addi %s0, %j : index
      %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %s0, %j : index
      %t = tile.load %z[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %z[%at] : tensor<512xf32>, memref<?xf32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %s0, %j : index
      %t = tile.load %z[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Walked from its end (base - iv), as a reverse scan reads its piece: the
// window starts at base - 2560 (the last tile's index), and iteration iv
// reads it at 2560 - iv.
// CHECK-LABEL: gpu.func @descending(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xi32>, %{{.*}}: memref<?xi32>, %[[BASE:[a-z0-9]+]]: index
// CHECK-SAME: workgroup(%[[W:.*]] : memref<3072xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[LAST:.*]] = arith.constant 2560 : index
// CHECK: %[[FROM:.*]] = arith.subi %[[BASE]], %[[LAST]] : index
// CHECK: tilegpu.copy_async %[[X]][%[[FROM]]], %[[W]]
// CHECK: scf.for %[[I:[a-z0-9]+]] =
// CHECK:   %[[AT:.*]] = arith.subi %[[LAST]], %[[I]] : index
// CHECK:   tile.load %[[W]][%[[AT]]]
// CHECK: scf.for %[[J:[a-z0-9]+]] =
// CHECK:   %[[AT2:.*]] = arith.subi %[[LAST]], %[[J]] : index
// CHECK:   tile.load %[[W]][%[[AT2]]]
gpu.module @m {
  gpu.func @descending(%x: memref<?xi32>, %y: memref<?xi32>, %base: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c3072 = arith.constant 3072 : index
    %zero = arith.constant dense<0> : tensor<512xi32>
    %acc = scf.for %i = %c0 to %c3072 step %c512 iter_args(%a = %zero) -> (tensor<512xi32>) {
      %at = arith.subi %base, %i : index
      %t = tile.load %x[%at] : memref<?xi32> -> tensor<512xi32>
      %s = arith.addi %a, %t : tensor<512xi32>
      scf.yield %s : tensor<512xi32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.subi %base, %j : index
      %t = tile.load %x[%at] : memref<?xi32> -> tensor<512xi32>
      %r = arith.addi %acc, %t : tensor<512xi32>
      tile.store %r, %y[%at] : tensor<512xi32>, memref<?xi32>
    }
    gpu.return
  }
}

// -----

// An ascending and a descending walk of the same base read different
// windows: nothing staged.
// CHECK-LABEL: gpu.func @both_ways(
// CHECK-NOT: tilegpu.copy_async
gpu.module @m {
  gpu.func @both_ways(%x: memref<?xi32>, %y: memref<?xi32>, %base: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c3072 = arith.constant 3072 : index
    scf.for %i = %c0 to %c3072 step %c512 {
      %at = arith.addi %base, %i : index
      %t = tile.load %x[%at] : memref<?xi32> -> tensor<512xi32>
      tile.store %t, %y[%at] : tensor<512xi32>, memref<?xi32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.subi %base, %j : index
      %t = tile.load %x[%at] : memref<?xi32> -> tensor<512xi32>
      tile.store %t, %y[%at] : tensor<512xi32>, memref<?xi32>
    }
    gpu.return
  }
}

// -----

// Loops inside another loop (the next iteration's copy would overwrite a
// window other threads may still read), and a buffer written through a
// view: nothing staged.
// CHECK-LABEL: gpu.func @nested_or_written(
// CHECK-NOT: tilegpu.copy_async
gpu.module @m {
  gpu.func @nested_or_written(%x: memref<?xf32>, %z: memref<?xf32>, %y: memref<?xf32>, %start: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c512 = arith.constant 512 : index
    %c3072 = arith.constant 3072 : index
    scf.for %k = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c3072 step %c512 {
        %at = arith.addi %start, %j : index
        %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
        tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
      }
      scf.for %j = %c0 to %c3072 step %c512 {
        %at = arith.addi %start, %j : index
        %t = tile.load %x[%at] : memref<?xf32> -> tensor<512xf32>
        tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
      }
    }
    %view = memref.subview %z[0] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1]>>
    %f = arith.constant 1.0 : f32
    memref.store %f, %view[%c0] : memref<4xf32, strided<[1]>>
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %start, %j : index
      %t = tile.load %z[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    scf.for %j = %c0 to %c3072 step %c512 {
      %at = arith.addi %start, %j : index
      %t = tile.load %z[%at] : memref<?xf32> -> tensor<512xf32>
      tile.store %t, %y[%at] : tensor<512xf32>, memref<?xf32>
    }
    gpu.return
  }
}
