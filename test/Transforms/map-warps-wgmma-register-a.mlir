// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-promote-shared{swizzle=true},tile-map-warps)))' | FileCheck %s

// Attention's two dots on one warpgroup (4 warps, 64-row blocks):
// - S = Q K^T reads both operands from swizzled panels (Q staged once,
//   K-contiguous, so B is `col`, not transposed): 4 wgmma m64n64k16, the
//   first with scale-d zero, as S starts from zero (no register zeroed);
// - P V takes P from registers, each thread's A fragment as four 32-bit
//   registers, and V (N-contiguous) through a transposed descriptor:
//   wgmma's register-A form, as inline PTX with the 32 accumulator
//   registers tied in and out;
// - its group is waited for at once, by a wait that defines the
//   accumulator its users read.
// CHECK-LABEL: gpu.func @attention_loop(
// CHECK: scf.for
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, 1, 1, 1, 1;", "=f,{{.*}},=f,r,r,r,r,l,0,{{.*}},31" {{.*}} : (i32, i32, i32, i32, i64, f32,
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=f,{{.*}},31"
// CHECK-NOT: nvvm.wgmma.wait.group
// CHECK: scf.yield
gpu.module @m {
  gpu.func @attention_loop(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %k, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %qt = tile.load %q[%m0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %r = scf.for %kb = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
      %kt = tile.load %k[%kb, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %ktt = tile.transpose %kt : tensor<64x64xbf16> -> tensor<64x64xbf16>
      %s = tile.dot %qt, %ktt, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
      %vt = tile.load %v[%kb, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %scaled = arith.mulf %acc, %acc : tensor<64x64xf32>
      %d = tile.dot %p, %vt, %scaled : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    } {tile.stages = 2 : i64}
    tile.store %r, %o[%m0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// The same in f16: A and B typed f16, the A registers pairs of halves.
// CHECK-LABEL: gpu.func @attention_loop_f16(
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-COUNT-4: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, 1, 1, 1, 1;"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;"
gpu.module @m {
  gpu.func @attention_loop_f16(%q: memref<?x?xf16>, %k: memref<?x?xf16>, %v: memref<?x?xf16>, %o: memref<?x?xf32>, %m0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %k, %c0 : memref<?x?xf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %qt = tile.load %q[%m0, %c0] : memref<?x?xf16> -> tensor<64x64xf16>
    %r = scf.for %kb = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
      %kt = tile.load %k[%kb, %c0] : memref<?x?xf16> -> tensor<64x64xf16>
      %ktt = tile.transpose %kt : tensor<64x64xf16> -> tensor<64x64xf16>
      %s = tile.dot %qt, %ktt, %zero : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
      %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xf16>
      %vt = tile.load %v[%kb, %c0] : memref<?x?xf16> -> tensor<64x64xf16>
      %scaled = arith.mulf %acc, %acc : tensor<64x64xf32>
      %d = tile.dot %p, %vt, %scaled : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    } {tile.stages = 2 : i64}
    tile.store %r, %o[%m0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// `overlap` dots: S = Q K^T and P V (P carried from the last iteration, V
// a block behind) are issued back to back, each group committed without a
// wait. The scores are waited for before their first reader with P V left
// in flight (wait_group 1, tied to the scores' 32 registers); P V before
// its own reader, after the exponentials (wait_group 0, tied to its 32
// accumulator registers and reading the 16 A registers, so that they live
// until then).
// CHECK-LABEL: gpu.func @overlapped_loop(
// CHECK: scf.for
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: wait
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.mma_async.sync.aligned.m64n64k16
// CHECK-NOT: wait_group
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;", "=f,{{(=f,)+}}=f,0,
// CHECK: math.exp2
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 0;", "=f,{{(=f,)+}}=f,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,0,
// CHECK: arith.mulf
// CHECK: scf.yield
gpu.module @m {
  gpu.func @overlapped_loop(%q: memref<?x?xbf16>, %k: memref<?x?xbf16>, %v: memref<?x?xbf16>, %o: memref<?x?xf32>, %m0: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %k, %c0 : memref<?x?xbf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %pzero = arith.constant dense<0.0> : tensor<64x64xbf16>
    %qt = tile.load %q[%m0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %r:2 = scf.for %kb = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %pzero) -> (tensor<64x64xf32>, tensor<64x64xbf16>) {
      %kt = tile.load %k[%kb, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %ktt = tile.transpose %kt : tensor<64x64xbf16> -> tensor<64x64xbf16>
      %s = tile.dot %qt, %ktt, %zero overlap : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      %prev = arith.subi %kb, %c64 : index
      %vt = tile.load %v[%prev, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
      %d = tile.dot %p, %vt, %acc overlap : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
      %e = math.exp2 %s : tensor<64x64xf32>
      %pn = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
      %scaled = arith.mulf %d, %d : tensor<64x64xf32>
      scf.yield %scaled, %pn : tensor<64x64xf32>, tensor<64x64xbf16>
    } {tile.stages = 2 : i64}
    tile.store %r#0, %o[%m0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}
