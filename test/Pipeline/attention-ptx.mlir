// RUN: tilec %S/../../examples/attention_block.mlir --arch=sm_80 --emit=ptx -o - | FileCheck %s --check-prefix=SM80
// RUN: tilec %S/../../examples/attention_block.mlir --emit=ptx -o - | FileCheck %s --check-prefix=SM90A

// The hand-written flash attention (examples/attention_block.mlir) down to
// PTX. Its layouts come from the dots: both dots split only rows over the
// warps (16 rows each), so the row maximum and sum of S are 2 rows a thread
// reduced by xor shuffles (attention-ptx-counts.mlir), never through
// workgroup memory, and P = bf16(exp2(S - m)) is the lhs of P V as it is.
// Each kernel has two key loops (unmasked blocks, then masked ones) with
// the same dots.

// sm_80: mma.sync. Q is loaded into registers as A fragments, K and V
// are staged in padded slots read with ldmatrix (K non-transposed, read as
// K^T; V .trans); no other workgroup reads.
// d64 (64x128 blocks, 4 warps): per warp, S is (128 / 8) x (64 / 16)
// mma.sync, P V (64 / 8) x (128 / 16): 128 a loop.
// SM80-LABEL: .entry attention_d64(
// SM80-NOT: .shared .align
// SM80-NOT: ld.shared
// SM80-COUNT-256: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM80-NOT: mma.sync
// SM80-NOT: ld.shared
// SM80: }

// d128 (128x128 blocks, 8 warps): (128 / 8) x (128 / 16) for S, the same
// for P V: 256 a loop.
// SM80-LABEL: .entry attention_d128(
// SM80-NOT: .shared .align
// SM80-NOT: ld.shared
// SM80-COUNT-512: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM80-NOT: mma.sync
// SM80-NOT: ld.shared
// SM80: }

// sm_90a: warpgroup MMAs. The loop-invariant Q block is staged once into
// swizzled panels before each loop, K and V in every stage, so S = Q K^T
// reads both operands through descriptors (K-contiguous: no transpose),
// and P V takes P from registers (wgmma's register-A form: four 32-bit
// registers a thread) and V through a transposed descriptor. No
// ldmatrix, no ld.shared, no mma.sync. d128's slots hold it to one block a
// multiprocessor, so its output is staged (each warp's rows through
// workgroup memory, stored 16 bytes a lane); d64's would lose a block.
// d64: S is 4 m64n128k16 (K = 64), P V 8 m64n64k16 (K = 128 keys).
// SM90A-LABEL: .entry attention_d64(
// SM90A-NOT: ld.shared
// SM90A-NOT: ldmatrix
// SM90A-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{[^}]*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1, 1;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{[^}]*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1, 1;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-NOT: wgmma.mma_async
// SM90A-NOT: mma.sync
// SM90A-NOT: ld.shared

// d128: per warpgroup, S is 8 m64n128k16 (K = 128), P V 8 m64n128k16.
// SM90A-LABEL: .entry attention_d128(
// SM90A-NOT: ld.shared
// SM90A-NOT: ldmatrix
// SM90A-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{[^}]*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1, 1;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{[^}]*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{[^}]*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, 1, 1, 1, 1;
// SM90A: wgmma.wait_group.sync.aligned 0;
// SM90A-NOT: wgmma.mma_async
// SM90A-NOT: mma.sync
// SM90A-NOT: ld.shared
// SM90A: bar.warp.sync
// SM90A: ld.shared.v4.b32
// SM90A: st.global.v4.b32
// SM90A-NOT: mma.sync
