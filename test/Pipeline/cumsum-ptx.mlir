// RUN: tilec %S/../../examples/matmul_cumsum.mlir --emit=ptx -o - | FileCheck %s

// Prefix sums of a dot's result, scanned in the mma.sync accumulator's
// layout (16x16 on one warp): the column's bit 0 and bit 3 lie within a
// thread, bits 1 and 2 across lanes 1 and 2, so each thread's 8 values take
// 2 xor-shuffle steps of 4 shuffles (its two slots across column bit 0
// hold the same block total by then); no shuffle up or index shuffle (no
// layout conversion), no workgroup reads (the st.shared are the staged
// operands' misaligned-copy path).
// CHECK-LABEL: .entry matmul_cumsum(
// CHECK-NOT: ld.shared
// CHECK-COUNT-8: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync
// CHECK-NOT: ld.shared

// The exclusive, reverse scan (suffix sums) takes the same steps.
// CHECK-LABEL: .entry matmul_suffixsum(
// CHECK-NOT: ld.shared
// CHECK-COUNT-8: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync
// CHECK-NOT: ld.shared

// Down the columns of a 64x64 accumulator on 4 warps: each thread's 32
// values take 3 xor-shuffle steps (the lane bits of the rows); the 4 column
// totals of each thread's warp go to workgroup memory between barriers (one
// pair of columns a store), and the 4 warps' totals of its 8 columns come
// back as 8 paired loads.
// CHECK-LABEL: .entry matmul_coltail(
// CHECK-COUNT-96: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync
// CHECK: bar.sync
// CHECK-COUNT-4: st.shared.v2.b32
// CHECK: bar.sync
// CHECK-COUNT-8: ld.shared.v2.b32
// CHECK-NOT: ld.shared
// CHECK-NOT: shfl.sync
