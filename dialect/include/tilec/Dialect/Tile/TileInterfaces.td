//===- TileInterfaces.td - Interfaces of the tile dialect --*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_TILEINTERFACES_TD
#define TILEC_DIALECT_TILE_TILEINTERFACES_TD

include "mlir/IR/Interfaces.td"

def Tile_LayoutEncodingAttrInterface
    : AttrInterface<"LayoutEncodingAttrInterface"> {
  let cppNamespace = "::tilec::tile";
  let description = [{
    A tensor encoding that says how a tile is spread over the registers,
    lanes and warps of a block: a linear layout (see
    `tilec/Layout/LinearLayout.h`). Block programs carry no encodings; the
    lowering (`tile-assign-layouts`, `tile-map-warps`) gives tiles the
    encodings of the `tilegpu` dialect, which implement this interface, and
    the tile ops' verifiers accept them.
  }];
  let methods = [
    InterfaceMethod<[{
      The layout of a tile of `shape` on a block of `threads` threads (an
      encoding that fixes its own thread count ignores `threads`).
    }], "::tilec::layout::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "int64_t":$threads)>,
    InterfaceMethod<[{
      Checks that the encoding can lay out a tile of `shape`.
    }], "::mlir::LogicalResult", "verifyShape",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
}

#endif // TILEC_DIALECT_TILE_TILEINTERFACES_TD
