// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{groups must hold a power of two of elements, got 0x4}}
func.func private @zero_group(tensor<8x8xf32, #tilegpu.fma<threads_m = 8, threads_n = 4, group_m = 0, group_n = 4>>)

// -----

// expected-error @+1 {{the thread grid must be powers of two, got 0x2}}
func.func private @empty_grid(tensor<8x8xf32, #tilegpu.fma<threads_m = 0, threads_n = 2, group_m = 1, group_n = 4>>)

// -----

// expected-error @+1 {{the thread grid must fill at least one warp}}
func.func private @small_grid(tensor<8x8xf32, #tilegpu.fma<threads_m = 2, threads_n = 2, group_m = 1, group_n = 4>>)

// -----

// expected-error @+1 {{the warp grid must be powers of two, got 3x1}}
func.func private @odd_warps(tensor<64x64xf32, #tilegpu.mma<warps_m = 3, warps_n = 1>>)

// -----

// A fragments follow mma.sync's warp tiles, whose rows are together.
// expected-error @+1 {{the parent of a dot operand layout must not have strided rows}}
func.func private @strided_operand_parent(tensor<128x64xbf16, #tilegpu.dot_operand<operand = 0, parent = #tilegpu.mma<warps_m = 4, warps_n = 1, strided_rows = true>>>)

// -----

// expected-error @+1 {{parent_size must be a power of two, got 100}}
func.func private @odd_parent(tensor<64xf32, #tilegpu.slice<dim = 1, parent_size = 100, parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>)

// -----

// The encoding must fit the tile it lays out.
func.func @mma_too_small(%x: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op an mma layout over 4x1 warps needs a 2-D tile of whole 16x8 fragments per warp}}
  %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<32x32xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
  return
}

// -----

func.func @fma_rank(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op an fma layout needs a 2-D tile of whole groups for every thread}}
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<64xf32, #tilegpu.fma<threads_m = 8, threads_n = 4, group_m = 1, group_n = 1>>
  return
}

// -----

func.func @slice_out_of_range(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op slice dimension 3 is out of range for a rank-2 parent}}
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<64xf32, #tilegpu.slice<dim = 3, parent_size = 64, parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>
  return
}

// -----

func.func @slice_parent_misfit(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op an mma layout over 4x1 warps needs a 2-D tile of whole 16x8 fragments per warp}}
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<32xf32, #tilegpu.slice<dim = 1, parent_size = 64, parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>
  return
}

// -----

func.func @convert_shape(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op changes only the layout: input 'tensor<64x64xf32>' and result 'tensor<64x32xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>' must have one shape and element type}}
  %y = tilegpu.convert_layout %x : tensor<64x64xf32> -> tensor<64x32xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
  return
}

// -----

func.func @foreign_encoding(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op tile must not carry a tensor encoding}}
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<64xf32, "foo">
  return
}

// -----

// expected-error @+1 {{operand must be 0 (lhs) or 1 (rhs), got 2}}
func.func private @bad_operand(tensor<64x64xbf16, #tilegpu.dot_operand<operand = 2, parent = <warps_m = 4, warps_n = 1>>>)

// -----

func.func @operand_misfit(%x: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op an mma.sync operand 0 layout over 4x1 warps needs a 2-D tile of whole 16x16 fragments per warp}}
  %t = tile.load %x[%c0, %c0] : memref<?x?xbf16> -> tensor<32x64xbf16, #tilegpu.dot_operand<operand = 0, parent = <warps_m = 4, warps_n = 1>>>
  return
}

// -----

// expected-error @+1 {{vec, per_phase, max_phase and panel_cols must be powers of two}}
func.func private @placement_not_pow2(tensor<8x64xbf16, #tilegpu.shared<vec = 6, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>)

// -----

// expected-error @+1 {{vec * max_phase (128) must fit in panel_cols (64)}}
func.func private @placement_phases(tensor<8x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 16, panel_cols = 64, contiguous_dim = 1>>)

// -----

// expected-error @+1 {{contiguous_dim must be 0 or 1, got 2}}
func.func private @placement_dim(tensor<8x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 2>>)

// -----

func.func @placement_rank(%f: bf16) {
  // expected-error @+1 {{'tile.splat' op a tile placed by #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1> must be 2-D, got rank 3}}
  %c = tile.splat %f : bf16 -> tensor<4x8x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
  return
}
