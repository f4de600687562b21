// RUN: tilec-opt %s -tile-verify-stage="stage=tiled" | FileCheck %s

// A valid module passes unchanged.
// CHECK-LABEL: func.func @f
// CHECK-NEXT: arith.addf
func.func @f(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  return %0 : f32
}
