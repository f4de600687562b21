// RUN: tilec %s --emit=ptx -o - | FileCheck %s
// RUN: tilec %s --emit=ptx --arch=sm_80 -o - | FileCheck %s --check-prefix=SM80

// A matmul description down to PTX: operands staged by cp.async (16-byte
// vectors, 4 stages: 3 groups ahead, then one per iteration), read by
// ldmatrix (.trans for the column-major A and the row-major B) into
// mma.sync m16n8k16; the f32 variant is an FMA outer product fed by
// 16-byte shared loads.

// CHECK: .target sm_90a
// CHECK-LABEL: .visible .entry mm_bf16(
// CHECK-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}{{.*}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// CHECK-DAG: cp.async.commit_group;
// CHECK-DAG: cp.async.wait_group 2;
// CHECK-DAG: bar.sync 0;
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-DAG: cp.async.wait_group 0;
// CHECK: ret;
tile.matmul @mm_bf16 a(col) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// CHECK-LABEL: .visible .entry mm_f16(
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
tile.matmul @mm_f16 a(row) b(col) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()

// CHECK-LABEL: .visible .entry sgemm(
// CHECK: cp.async.cg.shared.global
// CHECK: ld.shared.v4.b32
// CHECK: fma.rn.f32
// CHECK-NOT: mma.sync
tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()

// SM80: .target sm_80
// SM80: cp.async.cg.shared.global
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
