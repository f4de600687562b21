#!/usr/bin/env python3
"""Writes examples/attention_block.mlir, or its two kernels with other block sizes.

  python3 variants.py > examples/attention_block.mlir     # the example
  python3 variants.py BM BN WARPS STAGES [BM BN WARPS STAGES] > variant.mlir

Without arguments it writes the example itself; with one configuration both
kernels take it, with two the first is d64's and the second d128's. A tuning
run so changes nothing but the block sizes, warps and stages. The examples runner then checks and times a variant as
it does the example (its cubin stands in for attention_block.cubin).
"""
import sys


def key_loop(bm, bn, d, stages, results, q, lower, upper, init, masked):
    """One scf.for over key blocks of the online softmax (the body is the
    same in both loops but for the mask): `masked` adds the sequence-end
    and causal mask."""
    s = '%s3' if masked else '%s2'
    mask = f'''    %kbi = arith.index_cast %kb : index to i32
    %kbt = tile.splat %kbi : i32 -> tensor<{bm}x{bn}xi32>
    %kpos = arith.addi %colsb, %kbt : tensor<{bm}x{bn}xi32>
    %in_seq = arith.cmpi slt, %kpos, %nt : tensor<{bm}x{bn}xi32>
    %before = arith.cmpi sle, %kpos, %qpos : tensor<{bm}x{bn}xi32>
    %not_causal = arith.xori %causalt, %true : tensor<{bm}x{bn}xi1>
    %seen = arith.ori %before, %not_causal : tensor<{bm}x{bn}xi1>
    %valid = arith.andi %in_seq, %seen : tensor<{bm}x{bn}xi1>
    %s3 = arith.select %valid, %s2, %ninf2 : tensor<{bm}x{bn}xi1>, tensor<{bm}x{bn}xf32>
''' if masked else ''
    return (f'''  %{q} = tile.load %qh[%m0, %c0]
      : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<{bm}x{d}xbf16>
  {results} = scf.for %kb = {lower} to {upper} step %cbn
      iter_args({init})
      -> (tensor<{bm}x{d}xf32>, tensor<{bm}xf32>, tensor<{bm}xf32>) {{
    %kt = tile.load %kh[%kb, %c0]
        : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<{bn}x{d}xbf16>
    %ktt = tile.transpose %kt : tensor<{bn}x{d}xbf16> -> tensor<{d}x{bn}xbf16>
    %s = tile.dot %{q}, %ktt, %zero_s
        : tensor<{bm}x{d}xbf16>, tensor<{d}x{bn}xbf16>, tensor<{bm}x{bn}xf32>
    %s2 = arith.mulf %s, %scalet : tensor<{bm}x{bn}xf32>
''' + mask + f'''    %bmax = tile.reduce max {s} along 1 : tensor<{bm}x{bn}xf32> -> tensor<{bm}xf32>
    %m_new = arith.maximumf %m_i, %bmax : tensor<{bm}xf32>
    %empty = arith.cmpf oeq, %m_new, %ninf : tensor<{bm}xf32>
    %m_use = arith.select %empty, %zero_rows, %m_new : tensor<{bm}xi1>, tensor<{bm}xf32>
    %m_old = arith.subf %m_i, %m_use : tensor<{bm}xf32>
    %alpha = math.exp2 %m_old : tensor<{bm}xf32>
    %m_useb = tile.broadcast %m_use dims [1] : tensor<{bm}xf32> -> tensor<{bm}x{bn}xf32>
    %shifted = arith.subf {s}, %m_useb : tensor<{bm}x{bn}xf32>
    %p = math.exp2 %shifted : tensor<{bm}x{bn}xf32>
    %psum = tile.reduce add %p along 1 : tensor<{bm}x{bn}xf32> -> tensor<{bm}xf32>
    %l_scaled = arith.mulf %l_i, %alpha : tensor<{bm}xf32>
    %l_new = arith.addf %l_scaled, %psum : tensor<{bm}xf32>
    %alphab = tile.broadcast %alpha dims [1] : tensor<{bm}xf32> -> tensor<{bm}x{d}xf32>
    %o_scaled = arith.mulf %o_i, %alphab : tensor<{bm}x{d}xf32>
    %pb = arith.truncf %p : tensor<{bm}x{bn}xf32> to tensor<{bm}x{bn}xbf16>
    %vt = tile.load %vh[%kb, %c0]
        : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<{bn}x{d}xbf16>
    %o_new = tile.dot %pb, %vt, %o_scaled
        : tensor<{bm}x{bn}xbf16>, tensor<{bn}x{d}xbf16>, tensor<{bm}x{d}xf32>
    scf.yield %o_new, %m_new, %l_new
        : tensor<{bm}x{d}xf32>, tensor<{bm}xf32>, tensor<{bm}xf32>
  }} {{tile.stages = {stages} : i64}}
''')


def kernel(d, bm, bn, warps, stages):
    return f'''
tile.kernel @attention_d{d}(%q: memref<?x?x?x?xbf16>, %k: memref<?x?x?x?xbf16>,
                          %v: memref<?x?x?x?xbf16>, %o: memref<?x?x?x?xbf16>,
                          %scale: f32, %causal: i32)
    attributes {{grid = [#tile.grid<arg = 0, dim = 2, per_program = {bm}>,
                        #tile.grid<arg = 0, dim = 1, per_program = 1>,
                        #tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = {warps}}} {{
  %pm = tile.program_id x : index
  %head = tile.program_id y : index
  %batch = tile.program_id z : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %cbm = arith.constant {bm} : index
  %cbn = arith.constant {bn} : index
  %n = memref.dim %q, %c2 : memref<?x?x?x?xbf16>
  %dim = memref.dim %q, %c3 : memref<?x?x?x?xbf16>
  %qh = memref.subview %q[%batch, %head, 0, 0] [1, 1, %n, %dim] [1, 1, 1, 1]
      : memref<?x?x?x?xbf16> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
  %kh = memref.subview %k[%batch, %head, 0, 0] [1, 1, %n, %dim] [1, 1, 1, 1]
      : memref<?x?x?x?xbf16> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
  %vh = memref.subview %v[%batch, %head, 0, 0] [1, 1, %n, %dim] [1, 1, 1, 1]
      : memref<?x?x?x?xbf16> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
  %oh = memref.subview %o[%batch, %head, 0, 0] [1, 1, %n, %dim] [1, 1, 1, 1]
      : memref<?x?x?x?xbf16> to memref<?x?xbf16, strided<[?, 1], offset: ?>>
  %m0 = arith.muli %pm, %cbm : index
  %log2e = arith.constant 1.44269504088896340736 : f32
  %scale2 = arith.mulf %scale, %log2e : f32
  %scalet = tile.splat %scale2 : f32 -> tensor<{bm}x{bn}xf32>
  %c0_i32 = arith.constant 0 : i32
  %is_causal = arith.cmpi ne, %causal, %c0_i32 : i32
  %true = arith.constant dense<true> : tensor<{bm}x{bn}xi1>
  %diag_end = arith.addi %m0, %cbm : index
  %causal_end = arith.minui %diag_end, %n : index
  %end = arith.select %is_causal, %causal_end, %n : index
  // Key blocks wholly visible to every row of the block need no mask: the
  // blocks inside the sequence, and (causal) the kb + BN <= m0 + 1 ones.
  %c1 = arith.constant 1 : index
  %n_blocks = arith.divui %n, %cbn : index
  %n_full = arith.muli %n_blocks, %cbn : index
  %m0_1 = arith.addi %m0, %c1 : index
  %below_blocks = arith.divui %m0_1, %cbn : index
  %below = arith.muli %below_blocks, %cbn : index
  %causal_full = arith.minui %below, %n_full : index
  %full_end = arith.select %is_causal, %causal_full, %n_full : index
  %rows = tile.range : tensor<{bm}xi32>
  %rowsb = tile.broadcast %rows dims [1] : tensor<{bm}xi32> -> tensor<{bm}x{bn}xi32>
  %m0i = arith.index_cast %m0 : index to i32
  %m0t = tile.splat %m0i : i32 -> tensor<{bm}x{bn}xi32>
  %qpos = arith.addi %rowsb, %m0t : tensor<{bm}x{bn}xi32>
  %cols = tile.range : tensor<{bn}xi32>
  %colsb = tile.broadcast %cols dims [0] : tensor<{bn}xi32> -> tensor<{bm}x{bn}xi32>
  %ni = arith.index_cast %n : index to i32
  %nt = tile.splat %ni : i32 -> tensor<{bm}x{bn}xi32>
  %causalt = tile.splat %is_causal : i1 -> tensor<{bm}x{bn}xi1>
  %ninf = arith.constant dense<0xFF800000> : tensor<{bm}xf32>
  %ninf2 = arith.constant dense<0xFF800000> : tensor<{bm}x{bn}xf32>
  %zero_rows = arith.constant dense<0.0> : tensor<{bm}xf32>
  %zero_s = arith.constant dense<0.0> : tensor<{bm}x{bn}xf32>
  %zero_o = arith.constant dense<0.0> : tensor<{bm}x{d}xf32>
  // Blocks before the first that needs a mask: no mask.
{key_loop(bm, bn, d, stages, '%acc0, %m0_final, %l0_final', 'qt', '%c0', '%full_end', '%o_i = %zero_o, %m_i = %ninf, %l_i = %zero_rows', False)}  // The rest (the diagonal block when causal, a partial last block):
  // keys past the end and (causal) keys after the query masked out.
{key_loop(bm, bn, d, stages, '%acc, %m_final, %l_final', 'qt1', '%full_end', '%end', '%o_i = %acc0, %m_i = %m0_final, %l_i = %l0_final', True)}  %lb = tile.broadcast %l_final dims [1] : tensor<{bm}xf32> -> tensor<{bm}x{d}xf32>
  %out = arith.divf %acc, %lb : tensor<{bm}x{d}xf32>
  %outb = arith.truncf %out : tensor<{bm}x{d}xf32> to tensor<{bm}x{d}xbf16>
  tile.store %outb, %oh[%m0, %c0]
      : tensor<{bm}x{d}xbf16>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
  tile.return
}}
'''


EXAMPLE_HEADER = """\
// Flash attention forward, written by hand as a block program:
// O = softmax(scale * Q K^T [+ causal mask]) V per batch and head, over
// [batch, heads, seq, dim] bf16 buffers (any strides along batch and heads,
// rows contiguous). A program owns BM query rows of one head (64 at d64,
// 128 at d128); it walks the keys in blocks of 128 with an online softmax:
// S = Q K^T stays in the registers where the MMA leaves it, its row maximum
// and sum are reduced in the threads that hold the rows, exp2 takes the
// scale folded with log2(e), P = bf16(exp2(S - m)) is the lhs of P V as it
// is, and the f32 accumulator is rescaled by a broadcast row vector. The
// key blocks every row sees in full run in a first loop without a mask;
// the rest (the diagonal block when causal, a partial last block) in a
// second loop with one. With `causal` != 0, query row i sees keys up to i
// (the second loop stops after the diagonal block).
// Generated by bench/attention/tuning/variants.py (its defaults), which
// writes the same program with other block sizes for tuning.
//   tilec attention_block.mlir -o attention_block.cubin
"""

# The example's block sizes (BM, BN, warps, stages) per head dim, the best
# of the variants measured on the H200 (bench/results/2026-11-24-h200-wgmma).
EXAMPLE_CONFIGS = {64: (64, 128, 4, 2), 128: (128, 128, 8, 2)}


if __name__ == '__main__':
    args = [int(a) for a in sys.argv[1:]]
    if not args:
        sys.stdout.write(EXAMPLE_HEADER)
        configs = EXAMPLE_CONFIGS
    elif len(args) in (4, 8):
        configs = {64: tuple(args[:4]), 128: tuple(args[-4:])}
        print('// attention_block variant: BM BN warps stages = '
              f'{configs[64]} (d64), {configs[128]} (d128)')
    else:
        sys.exit('usage: variants.py [BM BN WARPS STAGES [BM BN WARPS STAGES]]')
    for d in (64, 128):
        sys.stdout.write(kernel(d, *configs[d]))
