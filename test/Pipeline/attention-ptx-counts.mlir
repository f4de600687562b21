// RUN: tilec %S/../../examples/attention_block.mlir --emit=ptx -o - \
// RUN:   | FileCheck %s --check-prefix=SHFL
// RUN: tilec %S/../../examples/attention_block.mlir --emit=ptx -o - \
// RUN:   | FileCheck %s --check-prefix=EXP

// Per kernel and key loop (two loops: unmasked blocks, then masked ones):
// 8 xor shuffles (the row max and sum of S: 2 rows a thread, lanes 1 and
// 2) and 66 exp2 (64x128 or 128x128 scores over 128 or 256 threads: 64 for
// P, 2 for the rescale); nothing else.
// SHFL-LABEL: .entry attention_d64(
// SHFL-COUNT-16: shfl.sync.bfly.b32
// SHFL-NOT: shfl.sync
// SHFL-LABEL: .entry attention_d128(
// SHFL-COUNT-16: shfl.sync.bfly.b32
// SHFL-NOT: shfl.sync

// EXP-LABEL: .entry attention_d64(
// EXP-COUNT-132: ex2.approx
// EXP-NOT: ex2.approx
// EXP-LABEL: .entry attention_d128(
// EXP-COUNT-132: ex2.approx
// EXP-NOT: ex2.approx
