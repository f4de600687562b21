// RUN: tilec-opt %s -split-input-file -verify-diagnostics

!panels = memref<4x64x64xbf16, #gpu.address_space<workgroup>>
!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @arrivals(%bars: !bars) {
    // expected-error @+1 {{'tilegpu.barrier_init' op needs at least one arrival, got 0}}
    tilegpu.barrier_init %bars arrivals 0 : !bars
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @global_barriers(%bars: memref<4xi64>, %i: index, %p: index) {
    // expected-error @+1 {{'tilegpu.barrier_wait' op barriers must be in workgroup memory}}
    tilegpu.barrier_wait %bars[%i], %p : memref<4xi64>
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @strided_barriers(%bars: memref<4xi64, strided<[2]>, #gpu.address_space<workgroup>>) {
    // expected-error @+1 {{'tilegpu.barrier_init' op barriers must be a static contiguous buffer}}
    tilegpu.barrier_init %bars arrivals 1 : memref<4xi64, strided<[2]>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

!panels = memref<4x64x64xbf16, #gpu.address_space<workgroup>>
!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @not_an_argument(%b: memref<?x?xbf16>, %dst: !panels, %bars: !bars, %i: index) {
    %view = memref.subview %b[0, 0] [64, 256] [1, 1] : memref<?x?xbf16> to memref<64x256xbf16, strided<[?, 1]>>
    // expected-error @+1 {{'tilegpu.copy_bulk' op source must be a kernel argument}}
    tilegpu.copy_bulk %view[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<64x256xbf16, strided<[?, 1]>>, !panels, !bars
    gpu.return
  }
}

// -----

!panels = memref<4x64x64xbf16, #gpu.address_space<workgroup>>
!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @shared_source(%b: memref<64x256xbf16, #gpu.address_space<workgroup>>, %dst: !panels, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op source must be in global memory}}
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<64x256xbf16, #gpu.address_space<workgroup>>, !panels, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @element_types(%b: memref<?x?xf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op element types differ: 'f16' vs 'bf16'}}
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @not_panels(%b: memref<?x?xbf16>, %dst: memref<64x256xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op no tile placed by #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1> fills 'memref<64x256xbf16, #gpu.address_space<workgroup>>'}}
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<64x256xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @no_hardware_swizzle(%b: memref<?x?xbf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op the copy engine has no swizzle like #tilegpu.shared<vec = 4, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1> for 'bf16'}}
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 4, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @tall_box(%b: memref<?x?xbf16>, %dst: memref<1x512x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op panels of at most 256 rows can be copied, got 512}}
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?xbf16>, memref<1x512x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @three_d(%b: memref<?x?x?xbf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op needs a source of rank 2 to 5 and one index per dimension, got 2 indices into 'memref<?x?x?xbf16>'}}
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @six_d(%b: memref<?x?x?x?x?x?xbf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op needs a source of rank 2 to 5 and one index per dimension, got 6 indices into 'memref<?x?x?x?x?x?xbf16>'}}
    tilegpu.copy_bulk %b[%i, %i, %i, %i, %i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>} : memref<?x?x?x?x?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @rows_along_columns(%b: memref<?x?x?xbf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op rows_dim must name a dimension before the last, got 2}}
    tilegpu.copy_bulk %b[%i, %i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, rows_dim = 2 : i64} : memref<?x?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @negative_rows_dim(%b: memref<?x?x?xbf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op rows_dim must name a dimension before the last, got -1}}
    tilegpu.copy_bulk %b[%i, %i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, rows_dim = -1 : i64} : memref<?x?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @global_barriers_retired(%bars: memref<4xi64>) {
    // expected-error @+1 {{'tilegpu.barrier_inval' op barriers must be in workgroup memory}}
    tilegpu.barrier_inval %bars : memref<4xi64>
    gpu.return
  }
}

// -----

!bars = memref<4xi64, #gpu.address_space<workgroup>>
gpu.module @m {
  gpu.func @fit_rows_multicast(%b: memref<?x?xbf16>, %dst: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %bars: !bars, %i: index) {
    // expected-error @+1 {{'tilegpu.copy_bulk' op fit_rows and multicast exclude each other}}
    tilegpu.copy_bulk %b[%i, %i], %dst, %bars[%i] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, multicast, fit_rows} : memref<?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, !bars
    gpu.return
  }
}

