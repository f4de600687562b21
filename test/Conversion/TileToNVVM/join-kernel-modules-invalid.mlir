// RUN: tilec-opt %s -split-input-file -tile-join-kernel-modules -verify-diagnostics

// Two parts that define one symbol differently cannot be joined.
gpu.module @m attributes {tilec.part_of = "m"} {
  llvm.mlir.global internal @table(1 : i32) {addr_space = 1 : i32} : i32
}
gpu.module @m_0 attributes {tilec.part_of = "m"} {
  // expected-error @below {{parts of gpu.module @m define @table differently}}
  llvm.mlir.global internal @table(2 : i32) {addr_space = 1 : i32} : i32
}

// -----

// The first part carries the module's name.
// expected-error @below {{the first part of gpu.module @m lost its name}}
gpu.module @renamed attributes {tilec.part_of = "m"} {
}
