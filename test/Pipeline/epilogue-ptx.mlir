// RUN: tilec %S/../../examples/matmul_epilogue.mlir --emit=ptx -o - | FileCheck %s
// RUN: tilec %S/../../examples/matmul_epilogue.mlir --emit=ptx -o - | FileCheck %s --check-prefix=NOTWIN

// The fused epilogues of examples/matmul_epilogue.mlir on sm_90a: the
// accumulator stays in the wgmma registers (128 a thread for 128x256 on 8
// warps). The bias is read once a program straight into the accumulator's
// column slice (64 columns a thread, in pairs: 2 x 4-byte loads), added and
// clamped in place: 128 max.NaN.f32, no workgroup exchange. The only
// workgroup buffer is the staged store's (8 warps x 16 rows x 128 bytes,
// swizzled), which bulk tensor stores read; it takes the operand slots'
// memory after the K loop (tile-reuse-staged-memory), so the kernel
// declares none.
// CHECK-LABEL: .entry matmul_bias_relu(
// CHECK-NOT: .shared .align
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned
// CHECK: ld.global.v2.b32
// CHECK-COUNT-128: max.NaN.f32
// CHECK-NOT: max.NaN.f32
// CHECK-NOT: ld.shared.{{[bfu]}}
// CHECK: bar.warp.sync
// CHECK: st.shared.b32
// CHECK: fence.proxy.async.shared::cta
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-NOT: st.global
// CHECK: cp.async.bulk.wait_group.read 0

// The softmax of A x B rows (64 rows x 256 columns on 4 warps, one
// warpgroup: 16 rows a warp, 2 a thread): row max and sum by xor shuffles
// over lanes 1 and 2 only (8 in all), exp2 of 128 elements a thread, no
// workgroup memory beyond the operand panels (which the staged store's
// buffer reuses).
// CHECK-LABEL: .entry matmul_softmax(
// CHECK-NOT: .shared .align
// CHECK-COUNT-8: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync

// The runtime copies what TMA rejects of these kernels' buffers (which
// tile-bulk-copy-fallback lists): no twins.
// NOTWIN-NOT: __thread_copies
