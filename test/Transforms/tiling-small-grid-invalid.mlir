// RUN: tilec-opt %s -split-input-file -tile-tiling='small-grid-variants=true warpgroup-mma=true' -verify-diagnostics

tile.kernel @mm__small_grid(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'mm__small_grid': the symbol exists}}
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// f32's split-K kernel, the small-grid kernel's own small-grid variant.
tile.kernel @sgemm__split_k(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'sgemm__split_k': the symbol exists}}
tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()

// -----

// 16-bit split-K's sum kernel, the then kernel of the small-grid kernel's
// own small-grid variant.
tile.kernel @mm__split_k_sum(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'mm__split_k_sum': the symbol exists}}
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// The vector-matrix kernel, where B is stored [N, K].
tile.kernel @mm__vecmat(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'mm__vecmat': the symbol exists}}
tile.matmul @mm a(row) b(col) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// Where B is stored [K, N] there is no vector-matrix kernel: the name is
// the user's.
tile.kernel @mm__vecmat(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// The few-rows kernel and its sum kernel, for 16-bit warpgroup MMA.
tile.kernel @mm__few_rows_sum(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'mm__few_rows_sum': the symbol exists}}
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// The wide few-rows kernel too.
tile.kernel @mm__few_rows_wide(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'mm__few_rows_wide': the symbol exists}}
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// The thin few-rows kernel and its sum kernel too.
tile.kernel @mm__few_rows_thin(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'mm__few_rows_thin': the symbol exists}}
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

tile.kernel @mm__few_rows_thin_sum(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

// expected-error @+1 {{cannot name its small-grid kernel 'mm__few_rows_thin_sum': the symbol exists}}
tile.matmul @mm a(row) b(row) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()

// -----

// f32 has no few-rows kernel: the name is the user's.
tile.kernel @sgemm__few_rows(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], num_warps = 1} {
  tile.return
}

tile.matmul @sgemm a(row) b(row) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
