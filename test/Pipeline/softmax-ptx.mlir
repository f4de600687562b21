// RUN: tilec %s --emit=ptx -o - | FileCheck %s
// RUN: tilec %s --emit=ptx --arch=sm_80 -o - | FileCheck %s --check-prefix=SM80

// The whole pipeline down to PTX: a row-reduction kernel becomes butterfly
// shuffles, barriers around workgroup exchanges, and bounds-checked global
// accesses; the launch metadata is a visible global.
// CHECK: .target sm_90a
// CHECK: .visible .global .align 1 .b8 __tilec_launch_rowmax[
// CHECK-LABEL: .visible .entry rowmax(
// CHECK: .maxntid 128, 1, 1
// Exchange buffers are 16-byte aligned: the back end reads neighbouring
// elements as vectors.
// CHECK: .shared .align 16 .b8
// CHECK-DAG: ld.global.{{[a-z0-9]+}}
// CHECK-DAG: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK-DAG: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK-DAG: max.NaN.f32
// CHECK-DAG: bar.sync 0;
// CHECK-DAG: st.shared.{{[a-z0-9]+}}
// CHECK-DAG: ld.shared.{{[a-z0-9]+}}
// CHECK-DAG: st.global.{{[a-z0-9]+}}
// CHECK: ret;

// SM80: .target sm_80
tile.kernel @rowmax(%x: memref<?x?xf32>, %y: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %row = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%row, %c0] {padding = 0xFF800000 : f32}
      : memref<?x?xf32> -> tensor<1x1024xf32>
  %m = tile.reduce max %t along 1 : tensor<1x1024xf32> -> tensor<1xf32>
  tile.store %m, %y[%row] : tensor<1xf32>, memref<?xf32>
  tile.return
}
