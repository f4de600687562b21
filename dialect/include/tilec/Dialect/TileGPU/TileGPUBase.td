//===- TileGPUBase.td - The tilegpu dialect ----------------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::tilec::tilegpu";
  let summary = "Lowering-level tile IR: layouts and the ops of the lowering";
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

    It also holds the ops that the lowering creates, which users do not
    write:

    - grid coordination for single-pass scans: `tilegpu.ticket` numbers the
      programs in the order they start and `tilegpu.lookback` combines the
      totals of the programs before this one (decoupled look-back), both
      through the runtime's scratch buffer (`tile-tiling`);
    - asynchronous copies from global into workgroup memory:
      `tilegpu.copy_async`, closed in groups by `tilegpu.async_commit` and
      awaited by `tilegpu.async_wait` (`tile-promote-shared`);
    - bulk tensor copies (TMA on Hopper), `tilegpu.copy_bulk`, completing
      on transaction barriers that `tilegpu.barrier_init` sets up and
      `tilegpu.barrier_wait` waits on (`tile-promote-shared` with
      `bulk-copies`).

    `tile-map-warps` lowers them all, with the tiles, to threads.

    ```mlir
    %t = tilegpu.ticket %scratch : memref<?xi32>
    %carry = tilegpu.lookback add %total at %t position %t in %scratch
        : memref<?xi32>, f32
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
