// Inputs that crash MLIR 22 itself get a located error from tilec instead
// (`not` fails on a crash: it passes only for exit code 1).
// RUN: not tilec %s -o %t.cubin 2>&1 | FileCheck %s
// RUN: echo '' | not tilec - -o %t.cubin 2>&1 | FileCheck %s --check-prefix=EMPTY

// The parser crashes on array<index: ...> (fixed upstream after 22.1).
// CHECK: upstream-crashes.mlir:[[@LINE+3]]:{{[0-9]+}}: error: array<index: ...> attributes are not accepted: the MLIR 22 parser crashes on them; use array<i64: ...>
tile.kernel @k(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                foo = array<index: 1, 2>} {
  tile.return
}

// EMPTY: error: nothing to compile: expected tile kernels or descriptions (tile.kernel, tile.matmul, tile.scan, tile.attention) or one gpu.module
