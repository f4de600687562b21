//===- TileGPUEnums.td - Enums of the tilegpu dialect ------*- tablegen -*-===//
//
// Apart from the ops and attributes, so that the enum generator sees only
// these (not the tile dialect's, which TileGPUAttrs.td includes).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUENUMS_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUENUMS_TD

include "mlir/IR/EnumAttr.td"

def TileGPU_TurnStep : I32EnumAttr<"TurnStep",
    "a step of the warpgroups' turns", [
    I32EnumAttrCase<"open", 0>, I32EnumAttrCase<"take", 1>,
    I32EnumAttrCase<"pass", 2>, I32EnumAttrCase<"close", 3>
  ]> {
  let cppNamespace = "::tilec::tilegpu";
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUENUMS_TD
