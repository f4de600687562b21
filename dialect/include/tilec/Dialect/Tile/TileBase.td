//===- TileBase.td - The tile dialect ----------------------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_TILEBASE_TD
#define TILEC_DIALECT_TILE_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilec::tile";
  let summary = "Block-level tile programs for GPU kernels";
  let description = [{
    A `tile.kernel` is a program run once per thread block ("program") over a
    grid of programs. Its values are *tiles*: statically shaped `tensor`s with
    power-of-two dimensions that live, distributed, in the registers of the
    block's threads. Tiles are read from and written to global buffers
    (`memref` arguments of the kernel) with `tile.load` / `tile.store`, which
    mask the parts of a tile that fall outside the buffer. Element-wise math
    on tiles is written with the upstream `arith` and `math` dialects, which
    accept tensor operands, and loops with `scf.for`.

    This dialect is what users write: descriptions of whole computations
    (`tile.matmul`, `tile.scan` and its `tile.yield`) and the ops of block
    programs (`tile.kernel`, `tile.return`, `tile.program_id`,
    `tile.num_programs`, `tile.load`, `tile.store`, `tile.splat`,
    `tile.range`, `tile.broadcast`, `tile.reduce`, `tile.prefix`, `tile.dot`,
    `tile.transpose`). What the lowering introduces on the way to the GPU
    (layouts, programs that coordinate over the grid, asynchronous and bulk
    copies, transaction barriers) lives in the `tilegpu` dialect.

    ```mlir
    tile.kernel @scale(%a: f32, %x: memref<?xf32>)
        attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 1024>]} {
      %pid = tile.program_id x : index
      %c1024 = arith.constant 1024 : index
      %off = arith.muli %pid, %c1024 : index
      %t = tile.load %x[%off] : memref<?xf32> -> tensor<1024xf32>
      %s = tile.splat %a : f32 -> tensor<1024xf32>
      %r = arith.mulf %t, %s : tensor<1024xf32>
      tile.store %r, %x[%off] : tensor<1024xf32>, memref<?xf32>
      tile.return
    }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

// Ops whose combiner region `tile.yield` ends: tile.scan, tile.prefix and
// tilegpu.lookback (tilec::tile::HasCombiner in TileOps.h).
def Tile_HasCombiner : NativeOpTrait<"HasCombiner"> {
  let cppNamespace = "::tilec::tile";
}

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // TILEC_DIALECT_TILE_TILEBASE_TD
