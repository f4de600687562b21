//===- TileDialect.cpp - The tile dialect ---------------------------------===//

#include "tilec/Dialect/Tile/TileDialect.h"
#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;

#include "tilec/Dialect/Tile/TileDialect.cpp.inc"
#include "tilec/Dialect/Tile/TileEnums.cpp.inc"
#include "tilec/Dialect/Tile/TileAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/Tile/TileOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/Tile/TileAttrs.cpp.inc"
      >();
}

LogicalResult GridAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned arg, std::optional<unsigned> dim,
                               int64_t perProgram) {
  if (perProgram <= 0)
    return emitError() << "per_program must be positive, got " << perProgram;
  return success();
}
