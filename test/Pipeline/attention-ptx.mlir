// RUN: tilec %S/../../examples/attention_block.mlir --emit=ptx -o - | FileCheck %s

// The hand-written flash attention (examples/attention_block.mlir) down to
// PTX. Its layouts come from the dots: both dots split only rows over the 4
// warps (16 rows each), so the row maximum and sum of S are 2 rows a thread
// reduced by xor shuffles over lanes 1 and 2 (2 reductions x 2 rows x 2 = 8
// shuffles), never through workgroup memory (no static shared buffer, no
// ld.shared but ldmatrix), and P = bf16(exp2(S - m)) is the lhs of P V
// as it is: ldmatrix only for the staged K (non-transposed, read as K^T) and
// V (.trans). exp2: 16 x 64 / 32 = 32 a thread for P, 2 for the rescale.
// d64: (64 / 8) x (64 / 16) mma.sync for S, (64 / 8) x (64 / 16) for P V.

// CHECK-LABEL: .entry attention_d64(
// CHECK-NOT: .shared .align
// CHECK-NOT: ld.shared
// CHECK-COUNT-64: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
// CHECK-NOT: ld.shared
// CHECK: }

// d128: (64 / 8) x (128 / 16) for S, (128 / 8) x (64 / 16) for P V.
// CHECK-LABEL: .entry attention_d128(
// CHECK-NOT: .shared .align
// CHECK-NOT: ld.shared
// CHECK-COUNT-128: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
// CHECK-NOT: ld.shared
// CHECK: }
