// The guard against the MLIR 22 parser's crash on array<index: ...> sees
// through type aliases (found by tilec-fuzz). `not` fails on a crash: it
// passes only for exit code 1.
// RUN: split-file --leading-lines %s %t
// RUN: not tilec %t/alias.mlir -o %t.cubin 2>&1 | FileCheck %s --check-prefix=ALIAS
// RUN: not tilec %t/chain.mlir -o %t.cubin 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: tilec %t/other.mlir --emit=mlir -o - | FileCheck %s --check-prefix=OTHER

//--- alias.mlir
// ALIAS: alias.mlir:[[@LINE+3]]:40: error: array<index: ...> attributes are not accepted
!t = index
gpu.module @m {
  gpu.func @f() kernel attributes {a = array<!t: 1>} { gpu.return }
}

//--- chain.mlir
// CHAIN: chain.mlir:[[@LINE+4]]:40: error: array<index: ...> attributes are not accepted
!i = index
!j = !i
gpu.module @m {
  gpu.func @f() kernel attributes {a = array< !j : 1, 2>} { gpu.return }
}

//--- other.mlir
// An alias of another type is not an index array.
// OTHER: a = array<i64: 1>
!t = i64
!index_like = i64
gpu.module @m {
  gpu.func @f() kernel attributes {a = array<!t: 1>, known_block_size = array<i32: 32, 1, 1>} { gpu.return }
}
