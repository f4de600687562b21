// REQUIRES: ptxas
// A grid dimension given as a product of factors reaches the cubin's
// launch metadata as one term per factor: tilec-cubin-info joins a
// dimension's factors by '*', and the wrappers tilec_add_kernels generates
// describe it as a product.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tilec %s -o %t/k.cubin
// RUN: tilec-cubin-info %t/k.cubin | FileCheck %s
// RUN: tilec-cubin-info --emit-wrappers --name k --header %t/k.h \
// RUN:   --source %t/k.cpp --mlir %s sm_90a=%t/k.cubin
// RUN: FileCheck %s --check-prefix=HEADER < %t/k.h

// CHECK: packs {{.*}} 128 threads / ceil(dim1(arg1)/1024) ceil(dim0(arg1)/1)*ceil(dim0(arg0)/64)
// HEADER: grid ceil(dim 1 of k / 1024) x dim 0 of k * ceil(dim 0 of q / 64) x 1, block 128x1x1
tile.kernel @packs(%q: memref<?x?xf32>, %k: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 1, per_program = 1024>,
                        [#tile.grid<arg = 1, dim = 0, per_program = 1>,
                         #tile.grid<arg = 0, dim = 0, per_program = 64>]]} {
  tile.return
}
