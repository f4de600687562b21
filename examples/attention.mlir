// Attention described, not written: each tile.attention below is tiled by
// tile-tiling into a flash-attention block program (a block of query rows a
// program, an online softmax over key blocks; causal blocks past the
// diagonal skipped, the mask only on the blocks that need it). Checked by
// tilec-run-examples against float64 references (FlashAttention's
// criterion), AOT and JIT.
//   tilec attention.mlir -o attention.cubin

// [batch, heads, seq, d] bf16, the forms people time.
tile.attention @attn_d64 layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>) -> ()
tile.attention @attn_d64_causal layout(bhsd) causal lse
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?xf32>) -> ()
tile.attention @attn_d128 layout(bhsd) lse
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?xf32>) -> ()
tile.attention @attn_d128_causal layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// [batch, seq, heads, d] f16 views whose rows of heads are strided (as
// slices of a packed QKV tensor are); the output is contiguous.
tile.attention @attn_bshd_f16_d64 layout(bshd) lse
    : (memref<?x?x?x64xf16, strided<[?, ?, 64, 1]>>,
       memref<?x?x?x64xf16, strided<[?, ?, 64, 1]>>,
       memref<?x?x?x64xf16, strided<[?, ?, 64, 1]>>,
       memref<?x?x?x64xf16>, memref<?x?x?xf32>) -> ()
tile.attention @attn_bshd_f16_d128_causal layout(bshd) causal lse
    : (memref<?x?x?x128xf16, strided<[?, ?, 128, 1]>>,
       memref<?x?x?x128xf16, strided<[?, ?, 128, 1]>>,
       memref<?x?x?x128xf16, strided<[?, ?, 128, 1]>>,
       memref<?x?x?x128xf16>, memref<?x?x?xf32>) -> ()

// Head dim 256 (Gemma's), in both orders.
tile.attention @attn_d256 layout(bhsd) lse
    : (memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>,
       memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>,
       memref<?x?x?xf32>) -> ()
tile.attention @attn_bshd_f16_d256_causal layout(bshd) causal
    : (memref<?x?x?x256xf16, strided<[?, ?, 256, 1]>>,
       memref<?x?x?x256xf16, strided<[?, ?, 256, 1]>>,
       memref<?x?x?x256xf16, strided<[?, ?, 256, 1]>>,
       memref<?x?x?x256xf16>) -> ()

// Logit soft-capping at 30 (Gemma 2): 30 * tanh(s / 30).
tile.attention @attn_softcap layout(bhsd) lse
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?xf32>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %cap = arith.constant 30.0 : f32
  %x = arith.divf %s, %cap : f32
  %t = math.tanh %x : f32
  %r = arith.mulf %t, %cap : f32
  tile.yield %r : f32
}

// ALiBi: s + slope_h * (k - q), slope_h = 2^(-(h + 1) / 2).
tile.attention @attn_alibi layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %c1 = arith.constant 1 : index
  %h1 = arith.addi %h, %c1 : index
  %hi = arith.index_cast %h1 : index to i32
  %hf = arith.sitofp %hi : i32 to f32
  %half = arith.constant -0.5 : f32
  %e = arith.mulf %hf, %half : f32
  %slope = math.exp2 %e : f32
  %dist = arith.subi %k, %q : index
  %di = arith.index_cast %dist : index to i32
  %df = arith.sitofp %di : i32 to f32
  %bias = arith.mulf %slope, %df : f32
  %r = arith.addf %s, %bias : f32
  tile.yield %r : f32
}

// A causal sliding window of 256 keys: query q sees keys q-255..q.
tile.attention @attn_window layout(bhsd) causal lse
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?xf32>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %w = arith.constant 256 : index
  %d = arith.subi %q, %k : index
  %in = arith.cmpi slt, %d, %w : index
  %ninf = arith.constant 0xFF800000 : f32
  %r = arith.select %in, %s, %ninf : f32
  tile.yield %r : f32
}

// A band of 128 keys in the region alone (no causal attribute): query q
// sees keys q-127..q. The tiling reads both bounds from the mask: key
// blocks left of the band and right of the diagonal are skipped.
tile.attention @attn_band layout(bhsd) lse
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?xf32>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %w = arith.constant 128 : index
  %seen = arith.cmpi sle, %k, %q : index
  %d = arith.subi %q, %k : index
  %near = arith.cmpi slt, %d, %w : index
  %in = arith.andi %seen, %near : i1
  %ninf = arith.constant 0xFF800000 : f32
  %r = arith.select %in, %s, %ninf : f32
  tile.yield %r : f32
}

// Document masking for sequences packed without padding, here documents of
// 1000 tokens each: a query sees only the keys of its own document.
tile.attention @attn_documents layout(bhsd) lse
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?xf32>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %len = arith.constant 1000 : index
  %dq = arith.divui %q, %len : index
  %dk = arith.divui %k, %len : index
  %same = arith.cmpi eq, %dq, %dk : index
  %ninf = arith.constant 0xFF800000 : f32
  %r = arith.select %same, %s, %ninf : f32
  tile.yield %r : f32
}

// The scale given at launch (a last f32 argument), [batch, seq, heads, d]
// bf16, causal, with the log-sum-exp.
tile.attention @attn_scale_argument layout(bshd) causal lse
    : (memref<?x?x?x64xbf16, strided<[?, ?, 64, 1]>>,
       memref<?x?x?x64xbf16, strided<[?, ?, 64, 1]>>,
       memref<?x?x?x64xbf16, strided<[?, ?, 64, 1]>>,
       memref<?x?x?x64xbf16>, memref<?x?x?xf32>, f32) -> ()

// A causal sliding window of 300 keys as an attribute, aligned to the
// bottom-right diagonal like causal; the key blocks left of every row's
// window are skipped.
tile.attention @attn_window_attribute layout(bhsd) causal window 300 lse
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?xf32>) -> ()

// Ragged batches: sequences packed without padding as [tokens, heads, d]
// (Q, K and V strided, as slices of a packed QKV tensor give them), with
// cu_seqlens_q and cu_seqlens_k (batch + 1 offsets), max_seqlen_q, which
// sizes the grid, and max_seqlen_k, which sizes the decode variants' (at
// most 16 queries a sequence: the keys split over programs); causal per
// sequence, the log-sum-exp [heads, tokens].
tile.attention @attn_varlen layout(thd) causal lse
    : (memref<?x?x128xbf16, strided<[?, 128, 1]>>,
       memref<?x?x128xbf16, strided<[?, 128, 1]>>,
       memref<?x?x128xbf16, strided<[?, 128, 1]>>,
       memref<?x?x128xbf16>, memref<?x?xf32>,
       memref<?xi32>, memref<?xi32>, i32, i32) -> ()

// Ragged f16 d64 with the scale at launch and ALiBi over each sequence's
// own positions.
tile.attention @attn_varlen_f16_d64 layout(thd)
    : (memref<?x?x64xf16, strided<[?, 64, 1]>>,
       memref<?x?x64xf16, strided<[?, 64, 1]>>,
       memref<?x?x64xf16, strided<[?, 64, 1]>>,
       memref<?x?x64xf16>, memref<?xi32>, memref<?xi32>, i32, f32) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %c1 = arith.constant 1 : index
  %h1 = arith.addi %h, %c1 : index
  %hi = arith.index_cast %h1 : index to i32
  %hf = arith.sitofp %hi : i32 to f32
  %half = arith.constant -0.5 : f32
  %e = arith.mulf %hf, %half : f32
  %slope = math.exp2 %e : f32
  %dist = arith.subi %k, %q : index
  %di = arith.index_cast %dist : index to i32
  %df = arith.sitofp %di : i32 to f32
  %bias = arith.mulf %slope, %df : f32
  %r = arith.addf %s, %bias : f32
  tile.yield %r : f32
}
