//===- TileAttrs.td - Attributes of the tile dialect -------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_TILEATTRS_TD
#define TILEC_DIALECT_TILE_TILEATTRS_TD

include "tilec/Dialect/Tile/TileBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_ProgramDim : I32EnumAttr<"ProgramDim", "a dimension of the grid", [
    I32EnumAttrCase<"x", 0>, I32EnumAttrCase<"y", 1>, I32EnumAttrCase<"z", 2>
  ]> {
  let cppNamespace = "::tilec::tile";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "a reduction combiner", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>
  ]> {
  let cppNamespace = "::tilec::tile";
}

def Tile_ScanMode : I32EnumAttr<"ScanMode", "which prefix a scan writes", [
    I32EnumAttrCase<"inclusive", 0>, I32EnumAttrCase<"exclusive", 1>
  ]> {
  let cppNamespace = "::tilec::tile";
}

def Tile_GridAttr : Tile_Attr<"Grid", "grid"> {
  let summary = "How many programs one grid dimension has";
  let description = [{
    One dimension of a kernel's grid: `ceildiv(extent, per_program)`, where
    the extent is dimension `dim` of buffer argument `arg`, or the value of
    integer scalar argument `arg` when `dim` is absent. tilec writes it into
    the launch metadata, so that the runtime computes the grid from the
    actual arguments.

    ```mlir
    // One program per 1024 elements of argument 1.
    #tile.grid<arg = 1, dim = 0, per_program = 1024>
    // One program per unit of the integer argument 2.
    #tile.grid<arg = 2, per_program = 1>
    ```
  }];
  let parameters = (ins "unsigned":$arg,
                        OptionalParameter<"std::optional<unsigned>">:$dim,
                        "int64_t":$per_program);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}


def Tile_MatrixLayout : I32EnumAttr<"MatrixLayout",
    "how a matrix operand is stored", [
    I32EnumAttrCase<"row", 0>, I32EnumAttrCase<"col", 1>
  ]> {
  let cppNamespace = "::tilec::tile";
}

def Tile_MmaLayoutAttr : Tile_Attr<"MmaLayout", "mma"> {
  let summary = "A tile held in mma.sync m16n8 accumulator fragments";
  let description = [{
    A tensor encoding set by `tile-map-warps` on the accumulator of a
    `tile.dot` lowered to `mma.sync`: the warps of the block tile the matrix as
    `warps_m` x `warps_n` warp tiles (warp w takes warp tile
    (w mod warps_m, w / warps_m)); each warp tile is a grid of 16x8 fragments,
    of which lane l holds rows l/4 and l/4+8, columns 2(l mod 4) and the next.

    ```mlir
    tensor<128x128xf32, #tile.mma<warps_m = 2, warps_n = 2>>
    ```
  }];
  let parameters = (ins "unsigned":$warps_m, "unsigned":$warps_n);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Tile_FmaLayoutAttr : Tile_Attr<"FmaLayout", "fma"> {
  let summary = "A tile held as per-thread blocks for a SIMT outer product";
  let description = [{
    A tensor encoding set by `tile-map-warps` on the accumulator of an f32
    `tile.dot` lowered to FMAs: the threads form a `threads_m` x `threads_n`
    grid (thread t at (t mod threads_m, t / threads_m)); along each
    dimension a thread holds groups of `group_m` (`group_n`) consecutive
    elements, group g of thread i starting at (g * threads + i) * group.

    Groups of 4 suit an operand stored with that dimension contiguous in
    shared memory: each group is one 16-byte access. Groups of 1 suit an
    operand stored K-contiguous: neighbouring threads then read neighbouring
    rows, which padded rows spread over all banks.

    ```mlir
    tensor<128x128xf32, #tile.fma<threads_m = 16, threads_n = 16,
                                  group_m = 1, group_n = 4>>
    ```
  }];
  let parameters = (ins "unsigned":$threads_m, "unsigned":$threads_n,
                        "unsigned":$group_m, "unsigned":$group_n);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TILEC_DIALECT_TILE_TILEATTRS_TD
