//===- TileGPUAttrs.td - Layout encodings ------------------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUATTRS_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUATTRS_TD

include "tilec/Dialect/TileGPU/TileGPUBase.td"
include "tilec/Dialect/Tile/TileAttrs.td"

defvar TileGPU_LayoutEncoding = DeclareAttrInterfaceMethods<
    Tile_LayoutEncodingAttrInterface,
    ["toLinearLayout", "verifyShape", "getSlice"]>;

def TileGPU_MmaLayoutAttr
    : TileGPU_Attr<"MmaLayout", "mma", [TileGPU_LayoutEncoding]> {
  let summary = "A tile held in mma.sync m16n8 accumulator fragments";
  let description = [{
    The layout of the accumulator of a `tile.dot` lowered to `mma.sync` (or
    to Hopper `wgmma`, whose warps own 16 rows each): the warps of the block
    tile the matrix as `warps_m` x `warps_n` warp tiles (warp w takes warp
    tile (w mod warps_m, w / warps_m)); each warp tile is a grid of 16x8
    fragments, of which lane l holds rows l/4 and l/4+8, columns 2(l mod 4)
    and the next.

    With `strided_rows`, a warp's rows of fragments are not together but
    16 * `warps_m` rows apart: warp w's row of fragments i starts at row
    16 (w mod warps_m) + 16 warps_m i. That is where repeated warpgroup
    MMAs leave a tile of which each warpgroup owns more than 64 rows: the
    m64 instruction i of warpgroup g covers rows 64 g + 16 warps_m i on.

    ```mlir
    tensor<128x128xf32, #tilegpu.mma<warps_m = 2, warps_n = 2>>
    // Two warpgroups, each 128 rows in two m64n128 instructions: warpgroup
    // 0 holds rows 0-63 and 128-191.
    tensor<256x128xf32, #tilegpu.mma<warps_m = 8, warps_n = 1,
                                     strided_rows = true>>
    ```
  }];
  let parameters = (ins "unsigned":$warps_m, "unsigned":$warps_n,
                        DefaultValuedParameter<"bool", "false">:$strided_rows);
  let builders = [
    AttrBuilder<(ins "unsigned":$warps_m, "unsigned":$warps_n), [{
      return $_get($_ctxt, warps_m, warps_n, false);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TileGPU_FmaLayoutAttr
    : TileGPU_Attr<"FmaLayout", "fma", [TileGPU_LayoutEncoding]> {
  let summary = "A tile held as per-thread blocks for a SIMT outer product";
  let description = [{
    The layout of the accumulator of an f32 `tile.dot` lowered to FMAs: the
    threads form a `threads_m` x `threads_n` grid (thread t at
    (t mod threads_m, t / threads_m)); along each dimension a thread holds
    groups of `group_m` (`group_n`) consecutive elements, group g of thread
    i starting at (g * threads + i) * group.

    Groups of 4 suit an operand stored with that dimension contiguous in
    shared memory: each group is one 16-byte access. Groups of 1 suit an
    operand stored K-contiguous: neighbouring threads then read neighbouring
    rows, which padded rows spread over all banks.

    ```mlir
    tensor<128x128xf32, #tilegpu.fma<threads_m = 16, threads_n = 16,
                                     group_m = 1, group_n = 4>>
    ```
  }];
  let parameters = (ins "unsigned":$threads_m, "unsigned":$threads_n,
                        "unsigned":$group_m, "unsigned":$group_n);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TileGPU_SliceLayoutAttr
    : TileGPU_Attr<"SliceLayout", "slice", [TileGPU_LayoutEncoding]> {
  let summary = "What remains of a layout after one dimension is reduced";
  let description = [{
    The layout of `tile.reduce ... along dim` of a tile laid out as
    `parent`: each element sits in the threads that held its row (or
    column) of the parent, so a row statistic of a dot accumulator stays in
    the threads that hold that row, and `tile.broadcast ... dims [dim]`
    back to the parent's layout moves no data. Register slots of the parent
    that differ only along `dim` become one slot; lanes and warps that held
    different positions along `dim` hold copies. `parent_size` is the
    parent's extent along `dim`.

    ```mlir
    tensor<128xf32, #tilegpu.slice<dim = 1, parent_size = 128,
                                     parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "int64_t":$parent_size,
                        "::tilec::tile::LayoutEncodingAttrInterface":$parent);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The parent's shape: `shape` with `parent_size` inserted at `dim`.
    ::llvm::SmallVector<int64_t>
    getParentShape(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_DotOperandLayoutAttr
    : TileGPU_Attr<"DotOperandLayout", "dot_operand", [TileGPU_LayoutEncoding]> {
  let summary = "A dot operand held in registers as mma.sync fragments";
  let description = [{
    The layout in which `mma.sync` m16n8k16 reads operand `operand` (0: the
    M x K lhs, 1: the K x N rhs) of a dot whose accumulator is laid out as
    `parent`: per 16x16 (lhs) or 16x8 (rhs) fragment, lane l holds the
    elements the PTX ISA gives it; the warps of `parent` along the other
    dimension hold copies. A dot's lhs computed in registers (the previous
    dot's result cast to 16 bits, say) is converted to this layout; from
    an accumulator whose warps own whole rows the conversion moves no data.

    ```mlir
    tensor<64x64xbf16, #tilegpu.dot_operand<operand = 0,
                                            parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>
    ```
  }];
  let parameters = (ins "unsigned":$operand, TileGPU_MmaLayoutAttr:$parent);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TileGPU_SharedLayoutAttr
    : TileGPU_Attr<"SharedLayout", "shared", [DeclareAttrInterfaceMethods<
          Tile_SharedEncodingAttrInterface>]> {
  let summary = "A 2-D tile in a workgroup buffer of swizzled panels";
  let description = [{
    Where the elements of a 2-D tile sit in a workgroup buffer. Dimension
    `contiguous_dim` is the contiguous one: call the tile's extent along it
    its columns, along the other its rows. Columns are cut into panels of
    `panel_cols` (the buffer is [panels, rows, panel_cols]); within a panel
    row, columns form vectors of `vec` elements, and vector g of row r sits
    at vector position g xor ((r / per_phase) mod max_phase), so that the
    rows that a warp reads together spread over the 32 banks.

    With 16-byte vectors, per_phase 1, max_phase 8 and 128-byte panels this
    is the 128-byte swizzle of Hopper's tensor-copy engine and warpgroup
    MMA (`tilegpu.copy_bulk`, `tile.dot` on sm_90a), which
    `tile-promote-shared` chooses for their operands. A tile read whole
    from such a buffer, and the same tile transposed (`contiguous_dim = 0`),
    carry the encoding on their type; the copies that fill the buffer carry
    it as their `layout`.

    ```mlir
    // A 64x256 bf16 tile in four 64x64 panels.
    tensor<64x256xbf16, #tilegpu.shared<vec = 8, per_phase = 1, max_phase = 8,
                                        panel_cols = 64, contiguous_dim = 1>>
    ```
  }];
  let parameters = (ins "int64_t":$vec, "int64_t":$per_phase,
                        "int64_t":$max_phase, "int64_t":$panel_cols,
                        "unsigned":$contiguous_dim);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Hopper's 128-byte swizzle for elements of `elementType`, the given
    /// dimension contiguous.
    static SharedLayoutAttr get128ByteSwizzle(::mlir::MLIRContext *context,
                                              ::mlir::Type elementType,
                                              unsigned contiguousDim = 1);
    /// The swizzle width (32, 64 or 128 bytes) of the tensor-copy engine's
    /// and warpgroup MMA's modes this encoding is, for `elementType`; none
    /// if it is none of them.
    std::optional<int64_t> getHardwareSwizzleBytes(::mlir::Type elementType) const;
    /// The parameters as the layout library's swizzle.
    ::tilec::layout::Swizzle getSwizzle() const;
  }];
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUATTRS_TD
