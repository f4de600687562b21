// RUN: tilec-opt %s -split-input-file | tilec-opt -split-input-file | FileCheck %s

// strided_rows is printed where set and left out where false.
// CHECK-LABEL: func.func private @strided(
// CHECK-SAME: #tilegpu.mma<warps_m = 8, warps_n = 1, strided_rows = true>
func.func private @strided(tensor<256x128xf32, #tilegpu.mma<warps_m = 8, warps_n = 1, strided_rows = true>>)

// -----

// CHECK-LABEL: func.func private @together(
// CHECK-SAME: #tilegpu.mma<warps_m = 8, warps_n = 1>>
func.func private @together(tensor<256x128xf32, #tilegpu.mma<warps_m = 8, warps_n = 1, strided_rows = false>>)
