//===- LinearLayoutIR.cpp - Index arithmetic of a linear layout -----------===//

#include "LinearLayoutIR.h"
#include "TileLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using layout::InDim;
using layout::LinearLayout;

namespace {
/// One thread-id bit: its position in the thread id and its basis.
struct ThreadBit {
  unsigned position;
  const LinearLayout::Basis *basis;
};
} // namespace

static SmallVector<ThreadBit> threadBits(const LinearLayout &layout) {
  SmallVector<ThreadBit> bits;
  unsigned laneBits = layout.getNumBits(InDim::Lane);
  for (unsigned i = 0; i < laneBits; ++i)
    bits.push_back({i, &layout.getBasis(InDim::Lane, i)});
  for (unsigned i = 0; i < layout.getNumBits(InDim::Warp); ++i)
    bits.push_back({laneBits + i, &layout.getBasis(InDim::Warp, i)});
  return bits;
}

/// Whether `v` is 2^k; sets `k`.
static bool singleBit(int64_t v, unsigned &k) {
  if (v <= 0 || !llvm::isPowerOf2_64(v))
    return false;
  k = llvm::Log2_64(v);
  return true;
}

/// The thread's part of coordinate `dim`. Thread bits i..i+n whose bases
/// along `dim` are 2^j..2^(j+n) (and nothing along other dims, as in every
/// layout tilec builds) become one shift and mask; any other basis is
/// selected bit by bit.
static Value threadPart(OpBuilder &b, Location loc, ArrayRef<ThreadBit> bits,
                        unsigned dim, Value tid) {
  // Terms of distinct bits are added (as xor, but LLVM folds an add of
  // constants into address and compare immediates); others are xor-ed.
  Value part;
  int64_t covered = 0;
  bool disjoint = true;
  for (const ThreadBit &bit : bits) {
    int64_t along = (*bit.basis)[dim];
    disjoint &= (covered & along) == 0;
    covered |= along;
  }
  auto merge = [&](Value term) {
    if (!part)
      part = term;
    else if (disjoint)
      part = b.createOrFold<arith::AddIOp>(loc, part, term);
    else
      part = b.createOrFold<arith::XOrIOp>(loc, part, term);
  };
  for (size_t i = 0; i < bits.size();) {
    int64_t along = (*bits[i].basis)[dim];
    unsigned j;
    if (along == 0) {
      ++i;
      continue;
    }
    if (!singleBit(along, j)) {
      // (tid >> position & 1) * basis.
      Value bit = extractBits(b, loc, tid, bits[i].position, 1);
      merge(b.createOrFold<arith::MulIOp>(loc, bit,
                                          indexConstant(b, loc, along)));
      ++i;
      continue;
    }
    size_t n = 1;
    unsigned next;
    while (i + n < bits.size() &&
           bits[i + n].position == bits[i].position + n &&
           singleBit((*bits[i + n].basis)[dim], next) && next == j + n)
      ++n;
    Value field = extractBits(b, loc, tid, bits[i].position, n);
    merge(j == 0 ? field
                 : b.createOrFold<arith::ShLIOp>(loc, field,
                                                 indexConstant(b, loc, j)));
    i += n;
  }
  return part;
}

SmallVector<Value> tilec::emitCoordinates(OpBuilder &b, Location loc,
                                          const LinearLayout &layout,
                                          Value tid, int64_t slot) {
  SmallVector<int64_t> fromSlot = layout.apply(slot, 0, 0);
  SmallVector<ThreadBit> bits = threadBits(layout);
  SmallVector<Value> coords;
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    Value part = threadPart(b, loc, bits, d, tid);
    Value constant = indexConstant(b, loc, fromSlot[d]);
    if (!part || fromSlot[d] == 0) {
      coords.push_back(part ? part : constant);
      continue;
    }
    // The slot's bits and the thread's are distinct in every layout tilec
    // builds: an add, which folds into the users' immediates.
    int64_t threadBitsAlong = 0;
    for (const ThreadBit &bit : bits)
      threadBitsAlong |= (*bit.basis)[d];
    coords.push_back((threadBitsAlong & fromSlot[d]) == 0
                         ? b.createOrFold<arith::AddIOp>(loc, part, constant)
                         : b.createOrFold<arith::XOrIOp>(loc, part, constant));
  }
  return coords;
}

Value tilec::emitLinearIndex(OpBuilder &b, Location loc,
                             const LinearLayout &layout, Value tid,
                             int64_t slot) {
  SmallVector<Value> coords = emitCoordinates(b, loc, layout, tid, slot);
  ArrayRef<int64_t> shape = layout.getShape();
  Value linear = coords[0];
  for (unsigned d = 1; d < coords.size(); ++d) {
    Value scaled = b.createOrFold<arith::MulIOp>(
        loc, linear, indexConstant(b, loc, shape[d]));
    linear = b.createOrFold<arith::AddIOp>(loc, scaled, coords[d]);
  }
  return linear;
}

Value tilec::emitSharedOffset(OpBuilder &b, Location loc,
                              const layout::SharedLayout &placement,
                              ValueRange coords) {
  // Coordinate bit `from` + i of `dim` lands on offset bit `to` + i.
  struct Run {
    unsigned dim, from, to, length;
  };
  SmallVector<Run> moves;
  ArrayRef<int64_t> shape = placement.getShape();
  for (unsigned d = 0; d < shape.size(); ++d)
    for (unsigned j = 0, e = llvm::Log2_64(shape[d]); j < e; ++j) {
      int64_t offset = placement.offsetOfCoordinateBit(d, j);
      for (unsigned t = 0; offset >> t; ++t)
        if (offset >> t & 1)
          moves.push_back({d, j, t, 1});
    }
  llvm::sort(moves, [](const Run &x, const Run &y) {
    auto key = [](const Run &r) {
      return std::make_tuple(r.dim, int64_t(r.to) - r.from, r.from);
    };
    return key(x) < key(y);
  });
  SmallVector<Run> runs;
  for (const Run &move : moves) {
    if (!runs.empty()) {
      Run &last = runs.back();
      if (last.dim == move.dim && last.to + last.length == move.to &&
          last.from + last.length == move.from) {
        ++last.length;
        continue;
      }
    }
    runs.push_back(move);
  }
  int64_t covered = 0;
  bool disjoint = true;
  for (const Run &run : runs) {
    int64_t bits = ((int64_t(1) << run.length) - 1) << run.to;
    disjoint &= (covered & bits) == 0;
    covered |= bits;
  }
  Value offset;
  for (const Run &run : runs) {
    Value field = extractBits(b, loc, coords[run.dim], run.from, run.length);
    if (run.to)
      field = b.createOrFold<arith::ShLIOp>(loc, field,
                                            indexConstant(b, loc, run.to));
    if (!offset)
      offset = field;
    else if (disjoint)
      offset = b.createOrFold<arith::AddIOp>(loc, offset, field);
    else
      offset = b.createOrFold<arith::XOrIOp>(loc, offset, field);
  }
  return offset ? offset : indexConstant(b, loc, 0);
}

int64_t tilec::copyingThreadBits(const LinearLayout &layout) {
  int64_t copies = 0;
  for (ThreadBit bit : threadBits(layout))
    if (llvm::all_of(*bit.basis, [](int64_t v) { return v == 0; }))
      copies |= int64_t(1) << bit.position;
  return copies;
}

Value tilec::emitOwnsElements(OpBuilder &b, Location loc,
                              const LinearLayout &layout, Value tid) {
  int64_t copies = copyingThreadBits(layout);
  if (copies == 0)
    return Value();
  Value copyBits =
      b.createOrFold<arith::AndIOp>(loc, tid, indexConstant(b, loc, copies));
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, copyBits,
                                       indexConstant(b, loc, 0));
}

int64_t tilec::innermostRun(const LinearLayout &layout) {
  unsigned inner = layout.getRank() - 1;
  int64_t run = 1;
  for (unsigned i = 0; i < layout.getNumBits(InDim::Register); ++i) {
    const LinearLayout::Basis &basis = layout.getBasis(InDim::Register, i);
    for (unsigned d = 0; d < layout.getRank(); ++d)
      if (basis[d] != (d == inner ? run : 0))
        return run;
    run *= 2;
  }
  return run;
}
