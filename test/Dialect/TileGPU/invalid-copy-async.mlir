// RUN: tilec-opt %s -split-input-file -verify-diagnostics

func.func @global_dst(%src: memref<?x?xf16>, %dst: memref<16x16xf16>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op destination must be in workgroup memory}}
  tilegpu.copy_async %src[%i, %i], %dst : memref<?x?xf16>, memref<16x16xf16>
  return
}

// -----

func.func @types(%src: memref<?x?xf16>, %dst: memref<16x16xf32, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op element types differ: 'f16' vs 'f32'}}
  tilegpu.copy_async %src[%i, %i], %dst : memref<?x?xf16>, memref<16x16xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @indices(%src: memref<?x?xf16>, %dst: memref<16x16xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op expects 2 indices for a rank-2 source, got 1}}
  tilegpu.copy_async %src[%i], %dst : memref<?x?xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @width(%src: memref<?x?xf16>, %dst: memref<16x16xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op vector_bytes must be 4, 8 or 16, got 2}}
  tilegpu.copy_async %src[%i, %i], %dst {vector_bytes = 2 : i64} : memref<?x?xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @dynamic_dst(%src: memref<?x?xf16>, %dst: memref<?x16xf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op destination must be a static buffer of the source's rank, got 'memref<?x16xf16, #gpu.address_space<workgroup>>'}}
  tilegpu.copy_async %src[%i, %i], %dst : memref<?x?xf16>, memref<?x16xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @placed_transposed(%src: memref<?x?xbf16>, %dst: memref<1x8x64xbf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op copies place tiles with their rows contiguous, got #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>}}
  tilegpu.copy_async %src[%i, %i], %dst {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 0>} : memref<?x?xbf16>, memref<1x8x64xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @swizzle_rank(%src: memref<?x?xbf16>, %dst: memref<8x64xbf16, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op no tile placed by #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1> fills 'memref<8x64xbf16, #gpu.address_space<workgroup>>'}}
  tilegpu.copy_async %src[%i, %i], %dst {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<8x64xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @swizzle_width(%src: memref<?x?xf32>, %dst: memref<1x8x64xf32, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op no tile placed by #tilegpu.shared<vec = 4, per_phase = 1, max_phase = 8, panel_cols = 32, contiguous_dim = 1> fills 'memref<1x8x64xf32, #gpu.address_space<workgroup>>'}}
  tilegpu.copy_async %src[%i, %i], %dst {layout = #tilegpu.shared<vec = 4, per_phase = 1, max_phase = 8, panel_cols = 32, contiguous_dim = 1>} : memref<?x?xf32>, memref<1x8x64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @swizzle_strides(%src: memref<?x?xbf16>, %dst: memref<2x8x64xbf16, strided<[1024, 64, 1]>, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tilegpu.copy_async' op a placed tile's buffer must be contiguous}}
  tilegpu.copy_async %src[%i, %i], %dst {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<2x8x64xbf16, strided<[1024, 64, 1]>, #gpu.address_space<workgroup>>
  return
}
