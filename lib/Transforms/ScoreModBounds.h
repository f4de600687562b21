//===- ScoreModBounds.h - Keys a score modification masks out ---*- C++ -*-===//
//
// A score modification that masks with `select(cond, score, -inf)` on the
// query and key indices decides, before any score exists, which keys a
// query can see. Knowing it, the attention tiling skips key blocks the
// region would mask whole, as it does for the `window` attribute.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TRANSFORMS_SCOREMODBOUNDS_H
#define TILEC_TRANSFORMS_SCOREMODBOUNDS_H

#include "mlir/IR/Region.h"

#include <cstdint>
#include <optional>

namespace tilec {

/// Bounds on query - key outside which a score modification yields -inf
/// for every score: query q sees key k only when
/// min <= q - k <= max. An absent bound is none proven.
struct KeyDistanceBounds {
  std::optional<int64_t> min, max;

  /// Both bounds hold (the tighter of each side).
  KeyDistanceBounds intersect(const KeyDistanceBounds &other) const;
  /// One of the bounds holds (the looser of each side, where both have it).
  KeyDistanceBounds unite(const KeyDistanceBounds &other) const;
};

/// The bounds `scoreMod` (the region of a tile.attention: score, batch,
/// head, query, key) provably imposes. Recognises a yielded
/// `arith.select` with a -inf constant on one side, whose condition is an
/// `arith.cmpi` (signed, or eq) of two index expressions that are sums of
/// the query, the key and constants with query - key as their difference,
/// or `arith.andi`/`arith.ori` of such conditions; nested selects narrow
/// further. Anything else proves nothing.
KeyDistanceBounds analyzeScoreModMask(mlir::Region &scoreMod);

} // namespace tilec

#endif // TILEC_TRANSFORMS_SCOREMODBOUNDS_H
