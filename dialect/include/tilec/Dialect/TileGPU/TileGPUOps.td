//===- TileGPUOps.td - Operations of the tilegpu dialect ---*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD

include "tilec/Dialect/TileGPU/TileGPUBase.td"
include "tilec/Dialect/TileGPU/TileGPUAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_Tile : RankedTensorOf<[AnySignlessInteger, AnyFloat]>;

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "Moves a tile's elements into another layout";
  let description = [{
    The same tile, held as `result`'s encoding says (no encoding: the
    blocked layout). `tile-map-warps` lowers it by permuting each thread's
    registers where no element changes thread, by warp shuffles where only
    lanes differ, and through workgroup memory otherwise.
    `tile-assign-layouts` inserts it where an op needs its operands in
    another layout and folds it into producers that can make the tile in any
    layout (splats, ranges, loads, broadcasts of slices).

    ```mlir
    %b = tilegpu.convert_layout %a
        : tensor<128xf32> -> tensor<128xf32, #tilegpu.slice<dim = 0, parent_size = 128,
                                                             parent = #tilegpu.mma<warps_m = 4, warps_n = 1>>>
    ```
  }];
  let arguments = (ins TileGPU_Tile:$input);
  let results = (outs TileGPU_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD
