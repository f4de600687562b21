// RUN: tilec-opt %s -split-input-file -verify-diagnostics \
// RUN:   -pass-pipeline='builtin.module(gpu.module(gpu.func(tile-map-warps)))'

gpu.module @m {
  gpu.func @dot_too_small(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32>
    // expected-error @+1 {{'tile.dot' op cannot map a 16x16 f32 dot onto 128 threads: each thread needs a block of at least 4x4}}
    %d = tile.dot %t, %t, %t : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @dot_unstaged(%x: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x64xf32>
    // expected-error @+1 {{'tile.dot' op lhs must be staged in workgroup memory or, for 16-bit mma.sync dots, held in registers}}
    %d = tile.dot %t, %t, %t : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @dot_mma_too_small(%x: memref<?x?xbf16>, %y: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %a = tile.load %x[%c0, %c0] : memref<?x?xbf16> -> tensor<32x32xbf16>
    %c = tile.load %y[%c0, %c0] : memref<?x?xf32> -> tensor<32x32xf32>
    // expected-error @+1 {{'tile.dot' op cannot map a 32x32x32 dot onto 8 warps of mma.sync m16n8k16: each warp needs a tile of at least 16x16 and K must be a multiple of 16}}
    %d = tile.dot %a, %a, %c : tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @non_splat(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'arith.constant' op on tiles must be a splat; use tile.range and arithmetic for varying tiles}}
    %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @odd_shape(%a: f32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'arith.constant' op tile dimension 0 is 3; tile dimensions must be powers of two}}
    %c = arith.constant dense<1.0> : tensor<3xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @bool_reduce(%x: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xi32> -> tensor<128xi32>
    %z = arith.constant dense<0> : tensor<128xi32>
    %b = arith.cmpi sgt, %t, %z : tensor<128xi32>
    // expected-error @+1 {{'tile.reduce' op of i1 elements is not supported; extend to i8 or wider first}}
    %s = tile.reduce max %b along 0 : tensor<128xi1> -> i1
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op needs a known 1-D block size of 32 to 1024 threads, a power of two}}
  gpu.func @no_block_size(%x: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

// A block size given to tilec directly is not trusted.
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op needs a known 1-D block size of 32 to 1024 threads, a power of two}}
  gpu.func @zero_threads(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 0, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<256xf32>
    tile.store %t, %y[%c0] : tensor<256xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A block size given to tilec directly is not trusted.
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op needs a known 1-D block size of 32 to 1024 threads, a power of two}}
  gpu.func @negative_threads(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: -32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<256xf32>
    tile.store %t, %y[%c0] : tensor<256xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A block size given to tilec directly is not trusted.
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op needs a known 1-D block size of 32 to 1024 threads, a power of two}}
  gpu.func @three_warps(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<256xf32>
    tile.store %t, %y[%c0] : tensor<256xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A block size given to tilec directly is not trusted.
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op needs a known 1-D block size of 32 to 1024 threads, a power of two}}
  gpu.func @too_many_threads(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 2048, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<256xf32>
    tile.store %t, %y[%c0] : tensor<256xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A block size given to tilec directly is not trusted.
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op needs a known 1-D block size of 32 to 1024 threads, a power of two}}
  gpu.func @two_d_block(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 2, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<256xf32>
    tile.store %t, %y[%c0] : tensor<256xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

// A block size given to tilec directly is not trusted.
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op needs a known 1-D block size of 32 to 1024 threads, a power of two}}
  gpu.func @overflowing_block(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 65536, 65536, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<256xf32>
    tile.store %t, %y[%c0] : tensor<256xf32>, memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @huge(%x: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.load' op uses a tile of 65536 elements, 2048 for each of the 32 threads; at most 512 a thread are supported: use a smaller tile or more warps}}
    %t = tile.load %x[%c0] : memref<?xf32> -> tensor<65536xf32>
    gpu.return
  }
}

// -----

// Fewer rows (32) than one m64 instruction takes.
gpu.module @m {
  gpu.func @wgmma_rows(%pa: memref<1x32x64xbf16, #gpu.address_space<workgroup>>, %pb: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<32x256xf32>
    %a = tile.load %pa[] : memref<1x32x64xbf16, #gpu.address_space<workgroup>> -> tensor<32x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %b = tile.load %pb[] : memref<4x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    // expected-error @+1 {{'tile.dot' op cannot map a 32x256x64 dot onto 8 warps of warpgroup MMA}}
    %d = tile.dot %a, %b, %zero : tensor<32x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<32x256xf32>
    tile.store %d, %c[%c0, %c0] : tensor<32x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// An lhs in registers (wgmma's register-A form) needs rows of its own in
// every warpgroup: 64 rows cannot be shared by two warpgroups (8 warps).
gpu.module @m {
  gpu.func @wgmma_register_a_rows(%x: memref<?x?xbf16>, %pb: memref<1x64x64xbf16, #gpu.address_space<workgroup>>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %a = tile.load %x[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %b = tile.load %pb[] : memref<1x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    // expected-error @+1 {{'tile.dot' op cannot map a 64x64x64 dot onto 8 warps of warpgroup MMA: the rhs must be swizzled and the lhs swizzled or in registers, each warpgroup needs a multiple of 64 rows (64 of its own with the lhs in registers) and at most 256 columns, panels must not straddle warpgroups}}
    %d = tile.dot %a, %b, %zero : tensor<64x64xbf16>, tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x64xf32>
    tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// The lhs in registers but the rhs in padded rows (not swizzled), on 4
// warps: a dot on a swizzled operand needs the rhs swizzled.
gpu.module @m {
  gpu.func @wgmma_lhs_only_swizzled(%pa: memref<1x64x64xbf16, #gpu.address_space<workgroup>>, %pb: memref<64x72xbf16, #gpu.address_space<workgroup>>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    %a = tile.load %pa[] : memref<1x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %b = tile.load %pb[%c0, %c0] : memref<64x72xbf16, #gpu.address_space<workgroup>> -> tensor<64x64xbf16>
    // expected-error @+1 {{'tile.dot' op cannot map a 64x64x64 dot onto 4 warps of warpgroup MMA: the rhs must be swizzled}}
    %d = tile.dot %a, %b, %zero : tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x64xbf16>, tensor<64x64xf32>
    tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A prefix down the rows of an FMA layout whose warp bit carries a lower
// row bit than a register bit: the warps would have to combine in the
// middle of the scan (tile-assign-layouts converts such a tile first).
#fma = #tilegpu.fma<threads_m = 64, threads_n = 2, group_m = 1, group_n = 4>
gpu.module @m {
  gpu.func @prefix_warp_bits_not_highest(%x: f32, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.splat %x : f32 -> tensor<128x8xf32, #fma>
    // expected-error @+1 {{'tile.prefix' op on a tile with layout #tilegpu.fma<threads_m = 64, threads_n = 2, group_m = 1, group_n = 4> needs combining types of at most 32 bits and every bit of the scanned coordinate carried by one register, lane or warp bit, the warp bits highest}}
    %p:2 = tile.prefix add %t along 0 : tensor<128x8xf32, #fma>
    tile.store %p#0, %c[%c0, %c0] : tensor<128x8xf32, #fma>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// A dot operand placed in workgroup memory by a swizzle that warpgroup MMA
// does not read (64-byte vectors are no hardware mode).
gpu.module @m {
  gpu.func @wgmma_foreign_swizzle(%pa: memref<1x64x64xbf16, #gpu.address_space<workgroup>>, %pb: memref<4x64x64xbf16, #gpu.address_space<workgroup>>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<64x256xf32>
    %a = tile.load %pa[] : memref<1x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %b = tile.load %pb[] : memref<4x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x256xbf16, #tilegpu.shared<vec = 4, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    // expected-error @+1 {{'tile.dot' op reads placed operands as warpgroup MMA does, in 128-byte swizzled panels; got #tilegpu.shared<vec = 4, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>}}
    %d = tile.dot %a, %b, %zero : tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x256xbf16, #tilegpu.shared<vec = 4, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x256xf32>
    tile.store %d, %c[%c0, %c0] : tensor<64x256xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

// Tile ops in a device function (not a kernel): no block to spread over.
gpu.module @m {
  gpu.func @helper(%bars: memref<2xi64, #gpu.address_space<workgroup>>) {
    // expected-error @+1 {{'tilegpu.barrier_init' op is lowered only in a kernel; 'helper' is not one}}
    tilegpu.barrier_init %bars arrivals 1 : memref<2xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Reducing along 1 leaves the rows where the row's threads are: a result
// sliced along 0 needs a convert_layout after the reduce (found by fuzzing).
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
#cols = #tilegpu.slice<dim = 0, parent_size = 64, parent = #mma>
gpu.module @m {
  gpu.func @reduce_to_other_slice(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x64xf32, #mma>
    // expected-error @+1 {{'tile.reduce' op result layout}}
    %r = tile.reduce max %t along 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #cols>
    tile.store %r, %y[%c0] : tensor<64xf32, #cols>, memref<?xf32>
    gpu.return
  }
}

// -----

// The slice of a different parent layout.
#mma = #tilegpu.mma<warps_m = 4, warps_n = 1>
#mma22 = #tilegpu.mma<warps_m = 2, warps_n = 2>
#rows = #tilegpu.slice<dim = 1, parent_size = 64, parent = #mma22>
gpu.module @m {
  gpu.func @reduce_to_slice_of_other_parent(%x: memref<?x?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<64x64xf32, #mma>
    // expected-error @+1 {{is not the input layout}}
    %r = tile.reduce max %t along 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #rows>
    tile.store %r, %y[%c0] : tensor<64xf32, #rows>, memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @multicast_without_cluster(%b: memref<?x?xbf16>, %k: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c99328 = arith.constant 99328 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x64x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c99328][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tilegpu.copy_bulk' op multicast needs a kernel in thread-block clusters (tile.cluster) and panels whose rows split into 8-row parts, one per block; got 64 rows in clusters of 1}}
    tilegpu.copy_bulk %b[%k, %n0], %panels, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, multicast} : memref<?x?xbf16>, memref<4x64x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @multicast_rows(%b: memref<?x?xbf16>, %k: index, %n0: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>, tile.cluster = 4 : i64} {
    %base = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c99328 = arith.constant 99328 : index
    %panels = memref.view %base[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x16x64xbf16, #gpu.address_space<workgroup>>
    %bars = memref.view %base[%c99328][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    // expected-error @+1 {{got 16 rows in clusters of 4}}
    tilegpu.copy_bulk %b[%k, %n0], %panels, %bars[%c0] {layout = #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>, multicast} : memref<?x?xbf16>, memref<4x16x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @turns_of_partial_warpgroups() kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{'tilegpu.turn' op needs whole warpgroups, but the block has 64 threads}}
    tilegpu.turn take
    gpu.return
  }
}

// -----

// 128 rows on one warpgroup (strided rows) whose result becomes the lhs of
// a dot in registers: A fragments follow mma.sync's warp tiles, rows
// together, so such a dot is no warpgroup MMA.
gpu.module @m {
  gpu.func @strided_result_feeds_register_lhs(%pa: memref<1x128x64xbf16, #gpu.address_space<workgroup>>, %pb: memref<1x64x64xbf16, #gpu.address_space<workgroup>>, %v: memref<?x?xbf16>, %c: memref<?x?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %a = tile.load %pa[] : memref<1x128x64xbf16, #gpu.address_space<workgroup>> -> tensor<128x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    %b = tile.load %pb[] : memref<1x64x64xbf16, #gpu.address_space<workgroup>> -> tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>
    // expected-error @+1 {{'tile.dot' op cannot map a 128x64x64 dot onto 4 warps of warpgroup MMA}}
    %s = tile.dot %a, %b, %zero : tensor<128x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<64x64xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8, panel_cols = 64, contiguous_dim = 1>>, tensor<128x64xf32>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %vt = tile.load %v[%c0, %c0] : memref<?x?xbf16> -> tensor<64x64xbf16>
    %d = tile.dot %p, %vt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>
    tile.store %d, %c[%c0, %c0] : tensor<128x64xf32>, memref<?x?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @groups_disagree() kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @+1 {{'tilegpu.warp_roles' op has 2 groups of tile threads, but another tilegpu.warp_roles of the kernel has 3}}
    tilegpu.warp_roles producer {
    } consumers {
    } {groups = 2 : i64}
    tilegpu.warp_roles producer {
    } consumers {
    } {groups = 3 : i64}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @groups_too_many() kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    // expected-error @+1 {{'tilegpu.warp_roles' op runs 4 groups of 256 tile threads and 32 producer threads: more than a block holds (1024 threads, 16 named barriers)}}
    tilegpu.warp_roles producer {
    } consumers {
    } {groups = 4 : i64}
    gpu.return
  }
}

// -----

// Four warpgroups of tile threads cannot take 240 registers each: the
// setmaxnreg.inc would wait for registers that never come free.
gpu.module @m {
  gpu.func @registers_past_the_file() kernel
      attributes {known_block_size = array<i32: 512, 1, 1>} {
    // expected-error @+1 {{'tilegpu.warp_roles' op keeps 24 registers for each of 128 producer threads and gives 240 to each of 512 tile threads: 125952 registers, more than a multiprocessor's 65536}}
    tilegpu.warp_roles producer {
    } consumers {
    } {registers = array<i32: 24, 240>}
    gpu.return
  }
}
