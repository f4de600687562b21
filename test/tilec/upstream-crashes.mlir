// Inputs that crash MLIR 22 itself get a located error from tilec instead
// (`not` fails on a crash: it passes only for exit code 1).
// RUN: not tilec %s -o %t.cubin 2>&1 | FileCheck %s
// RUN: echo '' | not tilec - -o %t.cubin 2>&1 | FileCheck %s --check-prefix=EMPTY
// tilec-opt checks its input the same way, from a file or from stdin.
// RUN: not tilec-opt %s 2>&1 | FileCheck %s
// RUN: not tilec-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// Nesting deep enough to overflow the parser's stack:
// RUN: %python -c "print('func.func @f() {' + 'scf.execute_region {' * 10000 + '}' * 10000 + ' return }')" \
// RUN:   | not tilec-opt 2>&1 | FileCheck %s --check-prefix=NEST
// NEST: <stdin>:1:5136: error: nested more than 256 levels deep

// The parser crashes on array<index: ...> (fixed upstream after 22.1).
// CHECK: upstream-crashes.mlir:[[@LINE+3]]:{{[0-9]+}}: error: array<index: ...> attributes are not accepted: the MLIR 22 parser crashes on them; use array<i64: ...>
tile.kernel @k(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                foo = array<index: 1, 2>} {
// STDIN: <stdin>:[[@LINE-1]]:{{[0-9]+}}: error: array<index: ...> attributes are not accepted
  tile.return
}

// EMPTY: error: nothing to compile: expected tile kernels or descriptions (tile.kernel, tile.matmul, tile.scan, tile.attention) or one gpu.module
