//===- TileGPUBase.td - The tilegpu dialect ----------------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::tilec::tilegpu";
  let summary = "Lowering-level tile IR: how tiles are laid out over threads";
  let description = [{
    Users write the `tile` dialect; tilec's lowering speaks this one. Its
    attributes are *layout encodings* of tile types: each says which
    register slot of which lane of which warp holds which element of a tile,
    as a linear map over bits (`tilec/Layout/LinearLayout.h`). A tile
    without an encoding has the blocked layout of `tile-map-warps` (chunks of
    up to 4 consecutive elements dealt round-robin to the threads).

    Layouts are assigned by `tile-assign-layouts`, anchored on dots, and
    change only through `tilegpu.convert_layout`:

    ```mlir
    %acc = tile.dot %a, %b, %c : ... -> tensor<128x128xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
    %m = tile.reduce max %acc along 1
        : tensor<128x128xf32, #tilegpu.mma<warps_m = 4, warps_n = 1>>
       -> tensor<128xf32, #tilegpu.slice<dim = 1, parent_size = 128,
                                          parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD
