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
    InterfaceMethod<[{
      The encoding of what remains of a tile laid out by this encoding once
      dimension `dim`, of extent `size`, is combined away (the totals of a
      `tile.prefix` along `dim`): the elements stay in the threads that
      held their rows.
    }], "::mlir::Attribute", "getSlice",
      (ins "unsigned":$dim, "int64_t":$size)>,
  ];
}

def Tile_SharedEncodingAttrInterface
    : AttrInterface<"SharedEncodingAttrInterface"> {
  let cppNamespace = "::tilec::tile";
  let description = [{
    A tensor encoding that says a tile lives in a workgroup buffer, and
    where each of its elements sits there: a placement over GF(2) (see
    `tilec/Layout/SharedLayout.h`). A tile so encoded is not in registers;
    it is read whole from its buffer by an op that takes its operands from
    workgroup memory (a warpgroup `tile.dot`). `tile-promote-shared` gives
    such tiles the encodings of the `tilegpu` dialect, which implement
    this interface.
  }];
  let methods = [
    InterfaceMethod<[{
      Where each element of a tile of `shape` sits in its buffer.
    }], "::tilec::layout::SharedLayout", "toSharedLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{
      The shape of the contiguous buffer that holds a tile of `shape`.
    }], "::llvm::SmallVector<int64_t>", "getBufferShape",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<[{
      The shape of the tile a contiguous buffer of `bufferShape` holds, or
      an empty vector if it holds none.
    }], "::llvm::SmallVector<int64_t>", "getTileShape",
      (ins "::llvm::ArrayRef<int64_t>":$bufferShape)>,
    InterfaceMethod<[{
      The encoding of the transposed tile (same buffer, dimensions swapped).
    }], "::mlir::Attribute", "getTransposed">,
    InterfaceMethod<[{
      Checks that the encoding can place a tile of `shape` and `elementType`.
    }], "::mlir::LogicalResult", "verifyTile",
      (ins "::llvm::function_ref<::mlir::InFlightDiagnostic()>":$emitError,
           "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType)>,
  ];
}

#endif // TILEC_DIALECT_TILE_TILEINTERFACES_TD
