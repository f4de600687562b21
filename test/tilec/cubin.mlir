// REQUIRES: ptxas
// RUN: tilec %s -o %t.cubin
// RUN: od -A n -t x1 -N 4 %t.cubin | FileCheck %s --check-prefix=ELF
// RUN: tilec %s --arch=sm_80 -O0 -o %t.sm80.cubin
// RUN: od -A n -t x1 -N 4 %t.sm80.cubin | FileCheck %s --check-prefix=ELF
// The launch metadata survives ptxas as a symbol of the cubin.
// RUN: grep -c __tilec_launch_copy %t.cubin | FileCheck %s --check-prefix=SYM
// RUN: tilec %s --lineinfo -o %t.lines.cubin
// --Xptxas reaches ptxas, which reports what it does not know.
// RUN: not tilec %s --Xptxas=--no-such-flag -o %t.cubin 2>&1 | FileCheck %s --check-prefix=XPTXAS

// XPTXAS: cubin.mlir:{{[0-9]+}}:{{[0-9]+}}: error: `ptxas` invocation failed
// XPTXAS: Unknown option '-no-such-flag'

// ELF: 7f 45 4c 46
// SYM: 1

tile.kernel @copy(%x: memref<?xf32>, %y: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                num_warps = 2} {
  %pid = tile.program_id x : index
  %c256 = arith.constant 256 : index
  %off = arith.muli %pid, %c256 : index
  %t = tile.load %x[%off] : memref<?xf32> -> tensor<256xf32>
  tile.store %t, %y[%off] : tensor<256xf32>, memref<?xf32>
  tile.return
}
