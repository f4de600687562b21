//===- DotLayout.h - How a tile.dot accumulator is spread over threads ----===//
//
// The blocked layout of TileLayout.h suits element-wise work and coalesced
// memory access; a dot's accumulator must instead sit where the multiply
// instruction leaves it: in mma.sync fragments (#tilegpu.mma) or in
// per-thread 4x4-grouped blocks of an outer product (#tilegpu.fma).
// tile-assign-layouts gives the accumulators these encodings.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_DOTLAYOUT_H
#define TILEC_LIB_TRANSFORMS_DOTLAYOUT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tilec {

namespace tile {
class DotOp;
} // namespace tile

/// One accumulator layout, read from a tensor type's encoding.
class DotLayout {
public:
  enum class Kind { Mma, Fma };

  /// The layout of `type`, or nullopt if it carries no dot encoding.
  static std::optional<DotLayout> get(mlir::RankedTensorType type);

  Kind getKind() const { return kind; }
  int64_t getRows() const { return rows; }
  int64_t getCols() const { return cols; }
  /// Elements each thread holds.
  int64_t getPerThread() const;

  /// mma: the warp grid and each warp's tile.
  int64_t getWarpsM() const { return gridM; }
  int64_t getWarpsN() const { return gridN; }
  int64_t getWarpTileM() const { return rows / gridM; }
  int64_t getWarpTileN() const { return cols / gridN; }
  /// mma: warp w's first row is (w % warps_m) times this; its rows of
  /// fragments follow each other this many rows apart (strided_rows).
  int64_t getWarpRowStep() const { return stridedRows ? 16 : rows / gridM; }
  int64_t getFragmentRowStep() const { return stridedRows ? 16 * gridM : 16; }
  /// fma: the thread grid and each thread's block.
  int64_t getThreadsM() const { return gridM; }
  int64_t getThreadsN() const { return gridN; }
  int64_t getThreadRows() const { return rows / gridM; }
  int64_t getThreadCols() const { return cols / gridN; }
  /// fma: consecutive elements per group along M and N.
  int64_t getGroupM() const { return groupM; }
  int64_t getGroupN() const { return groupN; }
  /// fma: the position along M (N) of element i of thread coordinate t.
  mlir::Value rowOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value t,
                    int64_t i) const;
  mlir::Value colOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value t,
                    int64_t j) const;

  /// mma: slot of (fragment row fm, fragment column fn, half h, column c).
  int64_t mmaSlot(int64_t fm, int64_t fn, int64_t h, int64_t c) const {
    return ((fm * (getWarpTileN() / 8) + fn) * 2 + h) * 2 + c;
  }

private:
  Kind kind = Kind::Mma;
  int64_t rows = 0, cols = 0;
  int64_t gridM = 1, gridN = 1;
  int64_t groupM = 1, groupN = 1;
  bool stridedRows = false;
};

/// Picks the accumulator encoding of `dot` for a block of `threads`
/// threads: mma.sync fragments for 16-bit operands, an outer product for
/// f32 (grouping 4 consecutive elements along a dimension only where the
/// staged operand is contiguous along it). Emits an error and fails if the
/// tile does not divide evenly.
/// Warpgroup dots (operands in swizzled panels) take a #tilegpu.mma grid
/// whose warps own 16 rows of each m64nN instruction's result: one
/// instruction a warpgroup where the warps split the columns, several
/// (strided_rows) where a warpgroup owns more than 64 rows.
/// mma.sync dots split only the rows over the warps where their lhs comes
/// from registers or `feedsRegisterLhs` (their result becomes another
/// dot's lhs): A fragments hold whole rows of K.
mlir::FailureOr<mlir::Attribute> chooseDotLayout(tile::DotOp dot,
                                                 int64_t threads,
                                                 bool feedsRegisterLhs = false);

/// Whether `dot` can run as Hopper warpgroup MMAs on `threads` threads,
/// its operands read from 128-byte swizzled panels: 16-bit operands, whole
/// warpgroups each owning 64 rows (or all warps along the rows, each
/// warpgroup owning a multiple of 64) and at most 256 columns, K a whole number
/// of panels where an operand is K-contiguous (else of 16), and operands
/// stored with M or N contiguous split at panel boundaries. An operand made
/// by tile.transpose is read as stored (the other way round). With
/// `lhsInRegisters` (wgmma's register-A form) the lhs is A fragments in
/// registers and the warps split the rows only.
bool fitsWarpgroupMma(tile::DotOp dot, int64_t threads,
                      bool lhsInRegisters = false);

/// Whether `dot`'s result reaches, through element-wise ops (casts, scales)
/// and loop-carried values (into later iterations and later loops), the lhs
/// of a dot that takes it from registers.
bool feedsRegisterLhs(tile::DotOp dot);

/// Whether `operand` of a dot is read from workgroup memory (a tile.load of a
/// workgroup buffer, possibly transposed), where tile-promote-shared staged
/// it; otherwise the dot takes it from registers.
bool isWorkgroupOperand(mlir::Value operand);

} // namespace tilec

#endif // TILEC_LIB_TRANSFORMS_DOTLAYOUT_H
