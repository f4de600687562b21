// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.attention' op expects the type (Q, K, V, O[, scale: f32]) -> ()}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op expects the type (Q, K, V, O, LSE[, scale: f32]) -> ()}}
tile.attention @a layout(bhsd) lse
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op K must be a strided 4-D memref, got 'memref<?x?x64xbf16>'}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op Q elements must be f16 or bf16, got 'f32'}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xf32>, memref<?x?x?x64xf32>, memref<?x?x?x64xf32>,
       memref<?x?x?x64xf32>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op element types differ: Q has 'bf16', O has 'f16'}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op V's head dim must be static, got 'memref<?x?x?x?xbf16>'}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x?xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op head dims differ: Q has 64, K has 128}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op head dim 96 is not supported; it must be 64, 128 or 256}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x96xbf16>, memref<?x?x?x96xbf16>, memref<?x?x?x96xbf16>,
       memref<?x?x?x96xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op batch is 2 in Q but 3 in V}}
tile.attention @a layout(bhsd)
    : (memref<2x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<3x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// [batch, seq, heads, d]: the heads are dimension 2.
// expected-error @+1 {{'tile.attention' op heads is 16 in Q but 8 in O}}
tile.attention @a layout(bshd)
    : (memref<?x?x16x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x8x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op K/V heads (3) must divide the query heads (8)}}
tile.attention @a layout(bhsd)
    : (memref<?x8x?x64xbf16>, memref<?x3x?x64xbf16>, memref<?x3x?x64xbf16>,
       memref<?x8x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op n_kv is 100 in K but 99 in V}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x100x64xbf16>, memref<?x?x99x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op n_q is 7 in Q but 5 in LSE}}
tile.attention @a layout(bhsd) lse
    : (memref<?x?x7x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x7x64xbf16>, memref<?x?x5xf32>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op LSE must be a strided 3-D f32 memref [batch, heads, n_q], got 'memref<?x?x?xbf16>'}}
tile.attention @a layout(bhsd) lse
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op scale must be finite and nonzero, got 0}}
tile.attention @a layout(bhsd) scale 0.0
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op score modification takes (score: f32, batch: index, head: index, query: index, key: index)}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
{
^bb0(%s: f32):
  tile.yield %s : f32
}

// -----

// expected-error @+1 {{'tile.attention' op score modification must yield one f32 score}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  tile.yield %s, %s : f32, f32
}

// -----

tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  // expected-error @+1 {{'tile.splat' op cannot be in a score modification: it may hold only element-wise arith and math ops}}
  %t = tile.splat %s : f32 -> tensor<4xf32>
  tile.yield %s : f32
}

// -----

// expected-error @+1 {{'tile.attention' op K's head dim must be contiguous (stride 1), got 'memref<?x?x?x64xbf16, strided<[?, ?, ?, 2]>>'}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16, strided<[?, ?, ?, 2]>>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op block must give [queries, keys] extents, got 3 values}}
tile.attention @a layout(bhsd) block [64, 64, 64]
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op block extents must be powers of two from 16, got 8}}
tile.attention @a layout(bhsd) block [64, 8]
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op block extents must be at most 256, got 512}}
tile.attention @a layout(bhsd) block [512, 64]
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op warps must be a power of two from 1 to 32, got 6}}
tile.attention @a layout(bhsd) warps 6
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op stages must be from 1 to 8, got 0}}
tile.attention @a layout(bhsd) stages 0
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op takes its scale from an attribute or an argument, not both}}
tile.attention @a layout(bhsd) scale 0.5
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, f32) -> ()

// -----

// expected-error @+1 {{'tile.attention' op expects the type (Q, K, V, O[, scale: f32]) -> ()}}
tile.attention @a layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, f16) -> ()

// -----

// expected-error @+1 {{'tile.attention' op window needs causal: it bounds the keys a query sees from the left of the diagonal}}
tile.attention @a layout(bhsd) window 128
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op window must hold at least one key, got 0}}
tile.attention @a layout(bhsd) causal window 0
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op expects the type (Q, K, V, O, cu_seqlens_q, cu_seqlens_k, max_seqlen_q: i32[, max_seqlen_k: i32][, scale: f32]) -> ()}}
tile.attention @a layout(thd)
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>) -> ()

// -----

// expected-error @+1 {{'tile.attention' op Q must be a strided 3-D memref, got 'memref<?x?x?x64xbf16>'}}
tile.attention @a layout(thd)
    : (memref<?x?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<?xi32>, memref<?xi32>, i32) -> ()

// -----

// expected-error @+1 {{'tile.attention' op cu_seqlens_k must be a strided 1-D i32 memref [batch + 1], got 'memref<?xi64>'}}
tile.attention @a layout(thd)
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<?xi32>, memref<?xi64>, i32) -> ()

// -----

// expected-error @+1 {{'tile.attention' op batch + 1 is 5 in cu_seqlens_q but 4 in cu_seqlens_k}}
tile.attention @a layout(thd)
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<5xi32>, memref<4xi32>, i32) -> ()

// -----

// expected-error @+1 {{'tile.attention' op max_seqlen_q must be an i32, got 'i64'}}
tile.attention @a layout(thd)
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<?xi32>, memref<?xi32>, i64) -> ()

// -----

// expected-error @+1 {{'tile.attention' op max_seqlen_k must be an i32, got 'i64'}}
tile.attention @a layout(thd)
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<?xi32>, memref<?xi32>, i32, i64) -> ()

// -----

// expected-error @+1 {{'tile.attention' op expects the type (Q, K, V, O, cu_seqlens_q, cu_seqlens_k, max_seqlen_q: i32[, max_seqlen_k: i32][, scale: f32]) -> ()}}
tile.attention @a layout(thd)
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<?xi32>, memref<?xi32>, i32, i32, i32) -> ()

// -----

// expected-error @+1 {{'tile.attention' op LSE must be a strided 2-D f32 memref [heads, tokens_q], got 'memref<?x?x?xf32>'}}
tile.attention @a layout(thd) lse
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<?x?x?xf32>, memref<?xi32>, memref<?xi32>,
       i32) -> ()

// -----

// expected-error @+1 {{'tile.attention' op tokens_q is 100 in Q but 99 in LSE}}
tile.attention @a layout(thd) lse
    : (memref<100x8x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<100x8x64xbf16>, memref<8x99xf32>, memref<?xi32>, memref<?xi32>,
       i32) -> ()

// -----

// expected-error @+1 {{'tile.attention' op persistent walks tiles of equal sequences; packed sequences take one program a block of each}}
tile.attention @a layout(thd) persistent
    : (memref<?x?x64xbf16>, memref<?x?x64xbf16>, memref<?x?x64xbf16>,
       memref<?x?x64xbf16>, memref<?xi32>, memref<?xi32>, i32) -> ()
