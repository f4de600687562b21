// RUN: tilec %s --emit=ptx -o - | FileCheck %s
// RUN: tilec %s --emit=ptx -o - | FileCheck %s --check-prefix=ONCE

// The 1-D f32 sum's single pass: 4 warps, a cap of 16 programs an SM, a
// 24 KB window (16-byte aligned) that the program's ticket places (one
// 64-bit atomic gives the ticket and the launch's epoch; the last ticket's
// program stores the next epoch with the count at zero); the
// piece comes in by twelve 16-byte cp.async a thread, unrolled and
// unchecked (the aligned path of a piece inside the source; loops copy a
// piece that reaches past the source's end, or narrower vectors of other
// sources), awaited once. The totals' loop
// reads it back twelve times, 16 bytes a thread each (unrolled); the
// look-back warp sleeps before its first read; the scan loop reads 32
// bytes a thread an iteration and stores 32. No global load reads the
// piece a second time.
// CHECK-LABEL: .entry cumsum(
// CHECK: .maxntid 128, 1, 1
// CHECK: .minnctapersm 16
// CHECK: .shared .align 16 .b8 __wg_cumsum_{{[0-9]+}}[24576];
// CHECK: atom.global.add.u64 %rd{{[0-9]+}}, [%rd[[HEADER:[0-9]+]]], 1;
// CHECK: st.relaxed.gpu.global.b64 [%rd[[HEADER]]], %rd{{[0-9]+}};
// CHECK-COUNT-12: cp.async.cg.shared.global [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], 16;
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0;
// CHECK-COUNT-12: ld.shared.v4.b32
// CHECK: nanosleep.u32 2000;
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: ld.shared.v4.b32
// CHECK-DAG: st.global.v4.b32
// CHECK-DAG: st.global.v4.b32
// ONCE-NOT: ld.global.v4
tile.scan @cumsum add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
