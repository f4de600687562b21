// Flash attention forward, written by hand as a block program:
// O = softmax(scale * Q K^T [+ causal mask]) V per batch and head, over
// [batch, heads, seq, dim] bf16 buffers (any strides along batch and heads,
// rows contiguous). A program owns 64 query rows of one head; it walks the
// keys in blocks of 64 with an online softmax: S = Q K^T stays in the
// registers where mma.sync leaves it, its row maximum and sum are reduced
// in the threads that hold the rows, exp2 takes the scale folded with
// log2(e), P = bf16(exp2(S - m)) is the lhs of P V as it is, and the f32
// accumulator is rescaled by a broadcast row vector. With `causal` != 0,
// query row i sees keys up to i (the loop stops after the diagonal block).
//   tilec attention_block.mlir -o attention_block.cubin

tile.kernel @attention_d64(%q: memref<?x?x?x?xbf16>, %k: memref<?x?x?x?xbf16>,
                          %v: memref<?x?x?x?xbf16>, %o: memref<?x?x?x?xbf16>,
                          %scale: f32, %causal: i32)
    attributes {grid = [#tile.grid<arg = 0, dim = 2, per_program = 64>,
                        #tile.grid<arg = 0, dim = 1, per_program = 1>,
                        #tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 4} {
  %pm = tile.program_id x : index
  %head = tile.program_id y : index
  %batch = tile.program_id z : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
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
  %m0 = arith.muli %pm, %c64 : index

  // exp(x * scale) = exp2(x * scale * log2(e)).
  %log2e = arith.constant 1.44269504088896340736 : f32
  %scale2 = arith.mulf %scale, %log2e : f32
  %scalet = tile.splat %scale2 : f32 -> tensor<64x64xf32>
  %c0_i32 = arith.constant 0 : i32
  %is_causal = arith.cmpi ne, %causal, %c0_i32 : i32
  %true = arith.constant dense<true> : tensor<64x64xi1>

  // Keys past the diagonal block are never seen when causal.
  %diag_end = arith.addi %m0, %c64 : index
  %causal_end = arith.minui %diag_end, %n : index
  %end = arith.select %is_causal, %causal_end, %n : index

  // Row and column positions of the score tile, for the masks.
  %rows = tile.range : tensor<64xi32>
  %rowsb = tile.broadcast %rows dims [1] : tensor<64xi32> -> tensor<64x64xi32>
  %m0i = arith.index_cast %m0 : index to i32
  %m0t = tile.splat %m0i : i32 -> tensor<64x64xi32>
  %qpos = arith.addi %rowsb, %m0t : tensor<64x64xi32>
  %cols = tile.range : tensor<64xi32>
  %colsb = tile.broadcast %cols dims [0] : tensor<64xi32> -> tensor<64x64xi32>
  %ni = arith.index_cast %n : index to i32
  %nt = tile.splat %ni : i32 -> tensor<64x64xi32>
  %causalt = tile.splat %is_causal : i1 -> tensor<64x64xi1>

  %qt = tile.load %qh[%m0, %c0]
      : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x64xbf16>
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %ninf2 = arith.constant dense<0xFF800000> : tensor<64x64xf32>
  %zero_rows = arith.constant dense<0.0> : tensor<64xf32>
  %zero_s = arith.constant dense<0.0> : tensor<64x64xf32>
  %zero_o = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc, %m_final, %l_final = scf.for %kb = %c0 to %end step %c64
      iter_args(%o_i = %zero_o, %m_i = %ninf, %l_i = %zero_rows)
      -> (tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>) {
    %kt = tile.load %kh[%kb, %c0]
        : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x64xbf16>
    %ktt = tile.transpose %kt : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tile.dot %qt, %ktt, %zero_s
        : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %s2 = arith.mulf %s, %scalet : tensor<64x64xf32>
    // Keys past the end, and (causal) keys after the query.
    %kbi = arith.index_cast %kb : index to i32
    %kbt = tile.splat %kbi : i32 -> tensor<64x64xi32>
    %kpos = arith.addi %colsb, %kbt : tensor<64x64xi32>
    %in_seq = arith.cmpi slt, %kpos, %nt : tensor<64x64xi32>
    %before = arith.cmpi sle, %kpos, %qpos : tensor<64x64xi32>
    %not_causal = arith.xori %causalt, %true : tensor<64x64xi1>
    %seen = arith.ori %before, %not_causal : tensor<64x64xi1>
    %valid = arith.andi %in_seq, %seen : tensor<64x64xi1>
    %s3 = arith.select %valid, %s2, %ninf2 : tensor<64x64xi1>, tensor<64x64xf32>
    // Online softmax: the new row maximum (0 where a row has seen no key
    // yet, so that exp2 gives 0, not NaN), the rescale of what came before.
    %bmax = tile.reduce max %s3 along 1 : tensor<64x64xf32> -> tensor<64xf32>
    %m_new = arith.maximumf %m_i, %bmax : tensor<64xf32>
    %empty = arith.cmpf oeq, %m_new, %ninf : tensor<64xf32>
    %m_use = arith.select %empty, %zero_rows, %m_new : tensor<64xi1>, tensor<64xf32>
    %m_old = arith.subf %m_i, %m_use : tensor<64xf32>
    %alpha = math.exp2 %m_old : tensor<64xf32>
    %m_useb = tile.broadcast %m_use dims [1] : tensor<64xf32> -> tensor<64x64xf32>
    %shifted = arith.subf %s3, %m_useb : tensor<64x64xf32>
    %p = math.exp2 %shifted : tensor<64x64xf32>
    %psum = tile.reduce add %p along 1 : tensor<64x64xf32> -> tensor<64xf32>
    %l_scaled = arith.mulf %l_i, %alpha : tensor<64xf32>
    %l_new = arith.addf %l_scaled, %psum : tensor<64xf32>
    %alphab = tile.broadcast %alpha dims [1] : tensor<64xf32> -> tensor<64x64xf32>
    %o_scaled = arith.mulf %o_i, %alphab : tensor<64x64xf32>
    %pb = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xbf16>
    %vt = tile.load %vh[%kb, %c0]
        : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x64xbf16>
    %o_new = tile.dot %pb, %vt, %o_scaled
        : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %o_new, %m_new, %l_new
        : tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>
  } {tile.stages = 2 : i64}
  // Rows that saw no key (none here: every row sees itself) would be 0/0.
  %lb = tile.broadcast %l_final dims [1] : tensor<64xf32> -> tensor<64x64xf32>
  %out = arith.divf %acc, %lb : tensor<64x64xf32>
  %outb = arith.truncf %out : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %outb, %oh[%m0, %c0]
      : tensor<64x64xbf16>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
  tile.return
}

tile.kernel @attention_d128(%q: memref<?x?x?x?xbf16>, %k: memref<?x?x?x?xbf16>,
                          %v: memref<?x?x?x?xbf16>, %o: memref<?x?x?x?xbf16>,
                          %scale: f32, %causal: i32)
    attributes {grid = [#tile.grid<arg = 0, dim = 2, per_program = 64>,
                        #tile.grid<arg = 0, dim = 1, per_program = 1>,
                        #tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 4} {
  %pm = tile.program_id x : index
  %head = tile.program_id y : index
  %batch = tile.program_id z : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
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
  %m0 = arith.muli %pm, %c64 : index

  // exp(x * scale) = exp2(x * scale * log2(e)).
  %log2e = arith.constant 1.44269504088896340736 : f32
  %scale2 = arith.mulf %scale, %log2e : f32
  %scalet = tile.splat %scale2 : f32 -> tensor<64x64xf32>
  %c0_i32 = arith.constant 0 : i32
  %is_causal = arith.cmpi ne, %causal, %c0_i32 : i32
  %true = arith.constant dense<true> : tensor<64x64xi1>

  // Keys past the diagonal block are never seen when causal.
  %diag_end = arith.addi %m0, %c64 : index
  %causal_end = arith.minui %diag_end, %n : index
  %end = arith.select %is_causal, %causal_end, %n : index

  // Row and column positions of the score tile, for the masks.
  %rows = tile.range : tensor<64xi32>
  %rowsb = tile.broadcast %rows dims [1] : tensor<64xi32> -> tensor<64x64xi32>
  %m0i = arith.index_cast %m0 : index to i32
  %m0t = tile.splat %m0i : i32 -> tensor<64x64xi32>
  %qpos = arith.addi %rowsb, %m0t : tensor<64x64xi32>
  %cols = tile.range : tensor<64xi32>
  %colsb = tile.broadcast %cols dims [0] : tensor<64xi32> -> tensor<64x64xi32>
  %ni = arith.index_cast %n : index to i32
  %nt = tile.splat %ni : i32 -> tensor<64x64xi32>
  %causalt = tile.splat %is_causal : i1 -> tensor<64x64xi1>

  %qt = tile.load %qh[%m0, %c0]
      : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x128xbf16>
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %ninf2 = arith.constant dense<0xFF800000> : tensor<64x64xf32>
  %zero_rows = arith.constant dense<0.0> : tensor<64xf32>
  %zero_s = arith.constant dense<0.0> : tensor<64x64xf32>
  %zero_o = arith.constant dense<0.0> : tensor<64x128xf32>
  %acc, %m_final, %l_final = scf.for %kb = %c0 to %end step %c64
      iter_args(%o_i = %zero_o, %m_i = %ninf, %l_i = %zero_rows)
      -> (tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>) {
    %kt = tile.load %kh[%kb, %c0]
        : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x128xbf16>
    %ktt = tile.transpose %kt : tensor<64x128xbf16> -> tensor<128x64xbf16>
    %s = tile.dot %qt, %ktt, %zero_s
        : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
    %s2 = arith.mulf %s, %scalet : tensor<64x64xf32>
    // Keys past the end, and (causal) keys after the query.
    %kbi = arith.index_cast %kb : index to i32
    %kbt = tile.splat %kbi : i32 -> tensor<64x64xi32>
    %kpos = arith.addi %colsb, %kbt : tensor<64x64xi32>
    %in_seq = arith.cmpi slt, %kpos, %nt : tensor<64x64xi32>
    %before = arith.cmpi sle, %kpos, %qpos : tensor<64x64xi32>
    %not_causal = arith.xori %causalt, %true : tensor<64x64xi1>
    %seen = arith.ori %before, %not_causal : tensor<64x64xi1>
    %valid = arith.andi %in_seq, %seen : tensor<64x64xi1>
    %s3 = arith.select %valid, %s2, %ninf2 : tensor<64x64xi1>, tensor<64x64xf32>
    // Online softmax: the new row maximum (0 where a row has seen no key
    // yet, so that exp2 gives 0, not NaN), the rescale of what came before.
    %bmax = tile.reduce max %s3 along 1 : tensor<64x64xf32> -> tensor<64xf32>
    %m_new = arith.maximumf %m_i, %bmax : tensor<64xf32>
    %empty = arith.cmpf oeq, %m_new, %ninf : tensor<64xf32>
    %m_use = arith.select %empty, %zero_rows, %m_new : tensor<64xi1>, tensor<64xf32>
    %m_old = arith.subf %m_i, %m_use : tensor<64xf32>
    %alpha = math.exp2 %m_old : tensor<64xf32>
    %m_useb = tile.broadcast %m_use dims [1] : tensor<64xf32> -> tensor<64x64xf32>
    %shifted = arith.subf %s3, %m_useb : tensor<64x64xf32>
    %p = math.exp2 %shifted : tensor<64x64xf32>
    %psum = tile.reduce add %p along 1 : tensor<64x64xf32> -> tensor<64xf32>
    %l_scaled = arith.mulf %l_i, %alpha : tensor<64xf32>
    %l_new = arith.addf %l_scaled, %psum : tensor<64xf32>
    %alphab = tile.broadcast %alpha dims [1] : tensor<64xf32> -> tensor<64x128xf32>
    %o_scaled = arith.mulf %o_i, %alphab : tensor<64x128xf32>
    %pb = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xbf16>
    %vt = tile.load %vh[%kb, %c0]
        : memref<?x?xbf16, strided<[?, 1], offset: ?>> -> tensor<64x128xbf16>
    %o_new = tile.dot %pb, %vt, %o_scaled
        : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
    scf.yield %o_new, %m_new, %l_new
        : tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>
  } {tile.stages = 2 : i64}
  // Rows that saw no key (none here: every row sees itself) would be 0/0.
  %lb = tile.broadcast %l_final dims [1] : tensor<64xf32> -> tensor<64x128xf32>
  %out = arith.divf %acc, %lb : tensor<64x128xf32>
  %outb = arith.truncf %out : tensor<64x128xf32> to tensor<64x128xbf16>
  tile.store %outb, %oh[%m0, %c0]
      : tensor<64x128xbf16>, memref<?x?xbf16, strided<[?, 1], offset: ?>>
  tile.return
}
