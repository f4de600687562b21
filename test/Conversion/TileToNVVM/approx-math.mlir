// RUN: tilec-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(tile-approx-math-to-nvvm))' | FileCheck %s

// An f32 exp2 that allows approximation is the flushing ex2 alone.
// CHECK-LABEL: func.func @scalar
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%arg0) : (f32) -> f32
// CHECK: return %[[E]]
gpu.module @m {
  func.func @scalar(%x: f32) -> f32 {
    %e = math.exp2 %x fastmath<afn> : f32
    return %e : f32
  }
}

// -----

// Vectors element by element.
// CHECK-LABEL: func.func @vector
// CHECK: %[[X0:.*]] = vector.extract %arg0[0] : f32 from vector<2xf32>
// CHECK: %[[E0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X0]])
// CHECK: %[[X1:.*]] = vector.extract %arg0[1] : f32 from vector<2xf32>
// CHECK: %[[E1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[X1]])
// CHECK: vector.from_elements %[[E0]], %[[E1]] : vector<2xf32>
gpu.module @m {
  func.func @vector(%x: vector<2xf32>) -> vector<2xf32> {
    %e = math.exp2 %x fastmath<afn> : vector<2xf32>
    return %e : vector<2xf32>
  }
}

// -----

// Without afn, or not f32, libdevice keeps it.
// CHECK-LABEL: func.func @exact
// CHECK: math.exp2 %arg0 : f32
// CHECK: math.exp2 %arg1 fastmath<afn> : f64
// CHECK-NOT: llvm.call_intrinsic
gpu.module @m {
  func.func @exact(%x: f32, %y: f64) -> (f32, f64) {
    %e = math.exp2 %x : f32
    %f = math.exp2 %y fastmath<afn> : f64
    return %e, %f : f32, f64
  }
}
