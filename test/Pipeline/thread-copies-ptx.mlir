// RUN: tilec %s --emit=ptx -o - | FileCheck %s

// A TMA kernel written by hand whose C is written through a view keeps a
// per-thread-copy twin for buffers TMA cannot describe (the runtime copies
// only buffers whose every use it knows). The twin stages the same
// swizzled panels with cp.async (16-byte vectors) fenced for the async
// proxy before wgmma reads them.
// CHECK-LABEL: .entry viewed_c(
// CHECK: cp.async.bulk.tensor.2d
// CHECK-LABEL: .entry viewed_c__thread_copies(
// CHECK-NOT: cp.async.bulk.tensor
// CHECK-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}{{.*}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// CHECK-DAG: cp.async.commit_group;
// CHECK-DAG: fence.proxy.async.shared::cta;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK: ret;
tile.kernel @viewed_c(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                      %c: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 2, dim = 1, per_program = 256>,
                        #tile.grid<arg = 2, dim = 0, per_program = 128>],
                num_warps = 8} {
  %pn = tile.program_id x : index
  %pm = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m0 = arith.muli %pm, %c128 : index
  %n0 = arith.muli %pn, %c256 : index
  %kdim = memref.dim %a, %c1 : memref<?x?xbf16>
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %kk = %c0 to %kdim step %c64 iter_args(%sum = %zero)
      -> (tensor<128x256xf32>) {
    %ta = tile.load %a[%m0, %kk] : memref<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%kk, %n0] : memref<?x?xbf16> -> tensor<64x256xbf16>
    %d = tile.dot %ta, %tb, %sum
        : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  } {tile.stages = 4 : i64}
  %m = memref.dim %c, %c0 : memref<?x?xf32>
  %n = memref.dim %c, %c1 : memref<?x?xf32>
  %view = memref.subview %c[0, 0] [%m, %n] [1, 1]
      : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  tile.store %acc, %view[%m0, %n0]
      : tensor<128x256xf32>, memref<?x?xf32, strided<[?, 1]>>
  tile.return
}
