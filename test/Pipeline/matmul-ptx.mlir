// RUN: tilec %s --emit=ptx --producer-warp=false -o - | FileCheck %s
// RUN: tilec %s --emit=ptx --arch=sm_90 -o - | FileCheck %s --check-prefix=SM90
// RUN: tilec %s --emit=ptx --arch=sm_80 -o - | FileCheck %s --check-prefix=SM80

// A matmul description down to PTX, one tile a block (--producer-warp=false;
// the default's warp roles, persistent tiles and clusters are in
// test/tilec/producer-warp.mlir). On sm_90a the 16-bit operands are
// staged by TMA into 128-byte swizzled panels: thread 0 initializes one
// mbarrier per stage (4), announces each tile's bytes and issues
// cp.async.bulk.tensor through the tensor maps the kernel takes as 128-byte
// grid-constant parameters; every thread waits on the stage's phase parity.
// wgmma.mma_async m64n256k16 (4 per 64 of K) reads the panels, transposing
// those of the column-major A and the row-major B (the trailing imm-trans
// flags); one MMA group stays in flight and after the loop a wait 0 defines
// the results. The two warpgroups do not meet at a block barrier each step:
// after its MMAs each warp releases the previous step's stage on that
// stage's "empty" mbarrier (4 more), and thread 0 waits for all of them
// before refilling it.
// On sm_90 and sm_80 they are padded rows read by ldmatrix (.trans for the
// same two operands) into mma.sync m16n8k16; the f32 variant is an FMA
// outer product fed by 16-byte shared loads everywhere.

// CHECK: .target sm_90a
// CHECK-LABEL: .visible .entry mm_bf16(
// CHECK: .param .align 64 .b8 mm_bf16_param_21[128],
// CHECK-NEXT: .param .align 64 .b8 mm_bf16_param_22[128]
// CHECK-COUNT-4: mbarrier.init.shared.b64
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, %r{{[0-9]+}};
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [{{.*}}];
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 1;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: bar.sync
// CHECK: mbarrier.arrive.shared.b64
// CHECK-NOT: bar.sync
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK-NOT: bar.sync
// CHECK: cp.async.bulk.tensor.2d
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: cp.async.cg
// CHECK-NOT: ldmatrix
// CHECK-NOT: mma.sync
// CHECK: ret;
// No twin: the runtime copies any operand TMA rejects into rows it takes.
// CHECK-NOT: __thread_copies
tile.matmul @mm_bf16 a(col) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// CHECK-LABEL: .visible .entry mm_f16(
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
// CHECK-NOT: wgmma.mma_async
// CHECK: ret;
tile.matmul @mm_f16 a(row) b(col) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()

// CHECK-LABEL: .visible .entry sgemm(
// CHECK-NOT: mbarrier
// CHECK: cp.async.cg.shared.global
// CHECK: ld.shared.v4.b32
// CHECK: fma.rn.f32
// CHECK-NOT: mma
tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()

// SM90: .target sm_90
// SM90-LABEL: .visible .entry mm_bf16(
// SM90-DAG: cp.async.wait_group 2;
// SM90-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SM90-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM90-NOT: wgmma
// SM90-NOT: fence.proxy
// SM90-NOT: mbarrier
// SM90-NOT: __thread_copies
// SM90-LABEL: .visible .entry mm_f16(
// SM90: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// SM80: .target sm_80
// SM80: cp.async.cg.shared.global
// SM80: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
