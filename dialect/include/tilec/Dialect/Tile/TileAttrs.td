//===- TileAttrs.td - Attributes of the tile dialect -------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_TILEATTRS_TD
#define TILEC_DIALECT_TILE_TILEATTRS_TD

include "tilec/Dialect/Tile/TileBase.td"
include "mlir/IR/EnumAttr.td"
include "tilec/Dialect/Tile/TileInterfaces.td"

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


def Tile_AttentionLayout : I32EnumAttr<"AttentionLayout",
    "the order of an attention operand's dimensions", [
    I32EnumAttrCase<"bhsd", 0>, I32EnumAttrCase<"bshd", 1>,
    I32EnumAttrCase<"thd", 2>
  ]> {
  let cppNamespace = "::tilec::tile";
}

def Tile_MatrixLayout : I32EnumAttr<"MatrixLayout",
    "how a matrix operand is stored", [
    I32EnumAttrCase<"row", 0>, I32EnumAttrCase<"col", 1>
  ]> {
  let cppNamespace = "::tilec::tile";
}

#endif // TILEC_DIALECT_TILE_TILEATTRS_TD
