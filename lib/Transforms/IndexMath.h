//===- IndexMath.h - Folding index arithmetic for block programs -*- C++ -*-===//
//
// The tilings compute tile offsets and loop bounds from program ids and
// buffer sizes; folding as they build keeps the generated programs short.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_INDEXMATH_H
#define TILEC_LIB_TRANSFORMS_INDEXMATH_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace tilec {

/// Index arithmetic with folding. Division, remainder and min/max are
/// unsigned unless named signed.
struct IndexMath {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value constant(int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::AddIOp>(loc, x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::SubIOp>(loc, x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::MulIOp>(loc, x, y);
  }
  mlir::Value div(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::DivUIOp>(loc, x, y);
  }
  mlir::Value ceilDiv(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::CeilDivUIOp>(loc, x, y);
  }
  mlir::Value rem(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::RemUIOp>(loc, x, y);
  }
  mlir::Value min(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::MinUIOp>(loc, x, y);
  }
  mlir::Value max(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::MaxUIOp>(loc, x, y);
  }
  mlir::Value minSigned(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::MinSIOp>(loc, x, y);
  }
  mlir::Value maxSigned(mlir::Value x, mlir::Value y) {
    return b.createOrFold<mlir::arith::MaxSIOp>(loc, x, y);
  }
};

} // namespace tilec

#endif // TILEC_LIB_TRANSFORMS_INDEXMATH_H
