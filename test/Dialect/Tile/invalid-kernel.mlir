// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.kernel' op argument #0 has type 'index'; arguments must be buffers (memref) or i1/i8/i16/i32/i64/f16/bf16/f32/f64 scalars}}
tile.kernel @index_arg(%n: index)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid dimension 0 refers to argument #3 but the kernel has 1 arguments}}
tile.kernel @grid_arg_out_of_range(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 3, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid dimension 0 takes dimension 1 of argument #0, which has rank 1}}
tile.kernel @grid_dim_out_of_range(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 1, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid dimension 0 takes dimension 0 of argument #0, which is not a buffer}}
tile.kernel @grid_dim_of_scalar(%n: i32)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid dimension 0 takes the value of argument #0, which is not an integer scalar}}
tile.kernel @grid_value_of_float(%a: f32)
    attributes {grid = [#tile.grid<arg = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid must have 1 to 3 dimensions, got 0}}
tile.kernel @no_grid(%x: memref<?xf32>) attributes {grid = []} {
  tile.return
}

// -----

// -----

// Tiles are spread over the threads bit by bit: 3 warps cannot hold them.
// expected-error @+1 {{'tile.kernel' op num_warps must be a power of two in [1, 32], got 3}}
tile.kernel @three_warps(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 3} {
  tile.return
}

// expected-error @+1 {{'tile.kernel' op num_warps must be a power of two in [1, 32], got 33}}
tile.kernel @too_many_warps(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 33} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op must not return values}}
tile.kernel @returns(%x: memref<?xf32>) -> i32
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #0 must have a strided layout with offset 0 or ?}}
tile.kernel @offset(%x: memref<?xf32, strided<[2], offset: 4>>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #0 must have a strided layout with offset 0 or ?}}
tile.kernel @not_strided(%x: memref<?xf32, affine_map<(d0) -> (d0 floordiv 2)>>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op argument #0 has unsupported element type 'complex<f32>'}}
tile.kernel @complex(%x: memref<?xcomplex<f32>>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

tile.kernel @return_outside(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  scf.execute_region {
    // expected-error @+1 {{'tile.return' op expects parent op 'tile.kernel'}}
    tile.return
  }
  tile.return
}

// -----

// The kernel launched next takes this one's scratch buffer: there must be one.
// expected-error @+1 {{'tile.kernel' op 'tile.then' must be a kernel symbol, on a kernel with 'tile.scratch'}}
tile.kernel @then_without_scratch(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                tile.then = @next} {
  tile.return
}

// -----

// An attribute of the wrong kind is an error, not a null attribute for the
// verifier (found by tilec-fuzz: `num_warps = i642`).
// expected-error @+1 {{Invalid attribute `num_warps` in property conversion: "x"}}
tile.kernel @string_warps(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = "x"} {
  tile.return
}

// -----

// expected-error @+1 {{Invalid attribute `grid` in property conversion: 4}}
tile.kernel @integer_grid(%x: memref<?xf32>) attributes {grid = 4} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid dimension 1 must be a #tile.grid or a non-empty array of them, got []}}
tile.kernel @empty_grid_product(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>, []]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid dimension 0 must be a #tile.grid or a non-empty array of them, got [#tile.grid<arg = 0, dim = 0, per_program = 1>, 4]}}
tile.kernel @grid_product_of_integer(%x: memref<?xf32>)
    attributes {grid = [[#tile.grid<arg = 0, dim = 0, per_program = 1>, 4]]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op grid dimension 0 takes dimension 2 of argument #0, which has rank 1}}
tile.kernel @grid_factor_out_of_range(%x: memref<?xf32>)
    attributes {grid = [[#tile.grid<arg = 0, dim = 0, per_program = 1>,
                         #tile.grid<arg = 0, dim = 2, per_program = 1>]]} {
  tile.return
}
