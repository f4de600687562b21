// RUN: tilec-opt %s -split-input-file -mlir-very-unsafe-disable-verifier-on-parsing -tile-verify-stage="stage=mapped" -verify-diagnostics

// An invalid module fails the stage's check, located at the invalid op,
// and the module says which stage it was.
// expected-error @below {{the IR is invalid after stage 'mapped'}}
module {
  func.func @f(%a: f32, %b: f64) -> f32 {
    // expected-error @below {{'arith.addf' op requires the same type for all operands and results}}
    %0 = "arith.addf"(%a, %b) : (f32, f64) -> f32
    return %0 : f32
  }
}
