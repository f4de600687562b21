//===- SharedLayout.h - Tiles in workgroup memory, GF(2) maps ---*- C++ -*-===//
//
// Where each element of a tile sits in a workgroup buffer. Like the
// register layouts of LinearLayout.h, every placement tilec uses is linear
// over GF(2): each bit of the tile's row-major element index has an offset
// (in elements), and the element's offset is the XOR of the offsets of its
// set index bits. Row-major order maps bit i to 2^i; swizzles XOR some row
// bits into the column bits so that the accesses of a warp spread over the
// 32 banks; panels move the high column bits above the rows.
//
// Composing a placement with a register layout gives, for every slot of
// every thread, the offset of its element, again a linear layout: the IR
// that computes register-layout indices computes swizzled offsets as well.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LAYOUT_SHAREDLAYOUT_H
#define TILEC_LAYOUT_SHAREDLAYOUT_H

#include "tilec/Layout/LinearLayout.h"

namespace tilec {
namespace layout {

/// The swizzle of a 2-D tile: columns are cut into panels of `panelCols`
/// (panel p holds columns p * panelCols ..., all its rows, one panel after
/// another); within a panel row, columns form vectors of `vec` elements and
/// vector g of row r sits at vector position g xor ((r / perPhase) mod
/// maxPhase). All four are powers of two, with vec * maxPhase <= panelCols.
/// Hopper's 128-byte swizzle (wgmma operands, TMA) is vec = 16 bytes,
/// perPhase = 1, maxPhase = 8, panelCols = 128 bytes.
struct Swizzle {
  int64_t vec = 1;
  int64_t perPhase = 1;
  int64_t maxPhase = 1;
  int64_t panelCols = 0; ///< 0: the whole row is one panel.

  bool operator==(const Swizzle &other) const {
    return vec == other.vec && perPhase == other.perPhase &&
           maxPhase == other.maxPhase && panelCols == other.panelCols;
  }
};

class SharedLayout {
public:
  /// Row-major placement of a tile of `shape` (every dimension a power of
  /// two).
  static SharedLayout rowMajor(llvm::ArrayRef<int64_t> shape);

  /// A 2-D tile placed by `swizzle`; canSwizzle says whether it applies.
  static SharedLayout swizzled(llvm::ArrayRef<int64_t> shape, Swizzle swizzle);
  static bool canSwizzle(llvm::ArrayRef<int64_t> shape, Swizzle swizzle);

  /// The placement whose index bit i has offset `bitOffsets[i]`; nullopt
  /// unless the offsets are independent and below the tile's size (a
  /// permutation of the buffer).
  static std::optional<SharedLayout>
  tryCreate(llvm::ArrayRef<int64_t> shape,
            llvm::SmallVector<int64_t> bitOffsets);

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  llvm::ArrayRef<int64_t> getBitOffsets() const { return bitOffsets; }
  int64_t getNumElements() const { return int64_t(1) << bitOffsets.size(); }

  /// The offset of the element at `coords` (or at row-major index `index`).
  int64_t offsetOf(llvm::ArrayRef<int64_t> coords) const;
  int64_t offsetOfIndex(int64_t index) const;

  /// The offset of bit `bit` of coordinate `dim`.
  int64_t offsetOfCoordinateBit(unsigned dim, unsigned bit) const;

  /// The layout, over `threads`'s inputs, of the offsets of the elements
  /// `threads` holds: a 1-D layout over the buffer.
  LinearLayout offsets(const LinearLayout &threads) const;

  /// How many times a warp's access serializes when its 32 lanes each
  /// access the element of one slot of `offsets` (any slot: the lanes' part
  /// decides), elements being `elementBits` wide (at most 32): the largest
  /// number of distinct 32-bit words that lanes ask of one bank. 1 is free
  /// of conflicts.
  static int64_t wavefronts(const LinearLayout &offsets, unsigned elementBits);

  /// A placement of the tile that `writer` writes and `reader` then reads
  /// (both layouts of the same shape) with as few wavefronts as this search
  /// finds: row-major, with row bits XOR-ed into the bits that pick a bank,
  /// one row bit at a time, each to where it removes most conflicts.
  static SharedLayout forExchange(const LinearLayout &writer,
                                  const LinearLayout &reader,
                                  unsigned elementBits);

  bool operator==(const SharedLayout &other) const {
    return shape == other.shape && bitOffsets == other.bitOffsets;
  }

  std::string str() const;

private:
  SharedLayout(llvm::ArrayRef<int64_t> shape,
               llvm::SmallVector<int64_t> bitOffsets)
      : shape(shape.begin(), shape.end()), bitOffsets(std::move(bitOffsets)) {}

  llvm::SmallVector<int64_t, 2> shape;
  /// Offset of each row-major index bit, from the lowest.
  llvm::SmallVector<int64_t> bitOffsets;
};

} // namespace layout
} // namespace tilec

#endif // TILEC_LAYOUT_SHAREDLAYOUT_H
