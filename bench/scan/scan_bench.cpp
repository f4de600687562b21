//===- scan_bench.cpp - Check and time tilec scans ------------------------===//
//
// tilec-scan-bench --cubin FILE [--json FILE] [--only KERNEL,...]
//                  [--shapes SHAPE,...] [--max-elements N] [--no-time]
//                  [--seed N] [--sweep K,...] [--time-rows RxC,...]
//                  [--time-cols RxC,...] [--time-lengths N,...]
//                  [--roofs bench/roofs/roofs.ptx]
// tilec-scan-bench --self-test
//
// Runs the scans of bench/scan/kernels.mlir on issue 4's shapes and checks
// each against a host reference on fresh random inputs, with the output
// poisoned before every launch: floats against a float64 scan (relative L2
// error), integers (wrapping like the GPU's), float max/min and f32
// products of powers of two exactly, on three runs whose outputs must also
// be identical (a changing result is a race). The f32 sums the issue times
// (1-D 2^20, 2^24, 2^28; rows 4096x4096, 65536x1024, 1024x65536,
// 3x1000003, and short rows 1048576x32, 262144x100, 65536x500) are then
// timed, and so are the f32 sum of every column (along 0: 4096x4096,
// 65536x1024, 1024x65536) and a reverse f32 and a bf16 1-D sum (2^24 and
// 2^28, GB/s of their own bytes): median of back-to-back launches between CUDA
// events, after warm-up; GB/s counts the input read and the output written
// once. The peers run in the same device call (bench/scan-gpu.sh:
// tilec-cub-scan, torch_cumsum.py). With --roofs, the run first measures
// the copy bandwidth (bench/roofs/Roofs.h: a 16-byte-a-thread copy, bytes
// read plus written), the roof of every scan (each reads and writes its
// bytes once), and each timed row gives the fraction of it reached
// (roof%; the JSON's copy_gbs and roof_fraction). Each timed row also
// gives the wave quantisation of the kernel launched (waves: programs over
// the blocks resident on the GPU at once; the JSON's launched, programs,
// blocks, resident_blocks_per_sm and waves, from Kernel::quantisationFor).
//
// Column scans (cols_*: along 0 of a RxC buffer; the k-th element in scan
// order of column c is k*C + c, from the bottom for reverse) are checked
// like the rows, on ragged shapes (1x1 to 3x1000003 and 2053x2050); their
// shapes print as the rows' ("RxC", the JSON's "along" is 0), so --only
// tells them apart.
//
// The scans with a combiner region (the end of kernels.mlir: linear
// recurrences, segmented sums and segmented maxima over pairs, f32, i32,
// f16 and bf16, not commutative) are checked the same way on both outputs:
// f32 sums and recurrences against float64 (relative L2 error below 1e-5
// at any length), i32 ones (the flags too) and the segmented maxima (f32,
// f16, bf16 values: a max is exact in any association) exactly, three
// runs, identical. The f32 recurrences @scan_rec_inc_f32
// (2^20, 2^24, 2^28) and @rows_rec_inc_f32 (65536x1024, 1024x65536) are
// timed like the sums; their GB/s counts two inputs and two outputs of 4
// bytes an element, 16 * n bytes.
//
//   --only     kernels to run (names in kernels.mlir)
//   --sweep    instead of the table: these kernels, each a 1-D f32 inclusive
//              sum (schedule variants), checked and timed at 2^20, 2^24, 2^28
//   --shapes   shapes to run, as printed: "1048583", "1000x1003"
//              (--lengths is the same option)
//   --max-elements  skip shapes of more elements (e.g. 2^28 for a quick run)
//   --time-rows  instead of the table: rows_f32 (or the --only row kernels)
//              checked and timed on these shapes, e.g. "262144x100,65536x500"
//   --time-cols  the same for columns: cols_f32 (or the --only column
//              kernels), e.g. "4096x4096,65536x1024"
//   --time-lengths  the same for 1-D scans: scan_f32 (or the --only 1-D
//              kernels, sums or regions), e.g. "16777216,268435456"
//   --no-time  checks only (for compute-sanitizer)
//   --self-test  no GPU: checks the region scans' host references against
//              plain loops and against a blocked evaluation, and that the
//              check catches a combine the wrong way round or a lost carry;
//              and that every column reference (kinds and regions) is the
//              row reference of the transposed buffer
//
// Exit status 0 when every case ran passed, 1 otherwise (also when no case
// ran), 2 on bad usage. The JSON is rewritten after every case, so that a
// crash or a timeout keeps what ran.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"

#include "Roofs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

using namespace tilec;
using namespace tilec::rt;

namespace {

enum class Element { F32, I32, BF16, F16 };
/// Recurrence, SegmentedSum and SegmentedMax are combiner regions over
/// pairs (below).
enum class Op { Add, Mul, Max, Min, Recurrence, SegmentedSum, SegmentedMax };

const char *elementName(Element e) {
  switch (e) {
  case Element::F32: return "f32";
  case Element::I32: return "i32";
  case Element::BF16: return "bf16";
  case Element::F16: return "f16";
  }
  return "?";
}
const char *opName(Op op) {
  switch (op) {
  case Op::Add: return "add";
  case Op::Mul: return "mul";
  case Op::Max: return "max";
  case Op::Min: return "min";
  case Op::Recurrence: return "recurrence";
  case Op::SegmentedSum: return "segsum";
  case Op::SegmentedMax: return "segmax";
  }
  return "?";
}

/// One scan of kernels.mlir: what it computes. `rank` 1 scans a vector,
/// rank 2 every row (along 1), or with `columns` every column (along 0). A
/// region scan's `element` is that of its second operand (pairElements).
struct Spec {
  const char *kernel;
  int rank;
  Element element;
  Op op;
  bool exclusive;
  bool reverse;
  bool columns = false;
};

/// The dimension a spec scans along, as kernels.mlir says it.
int alongOf(const Spec &s) { return s.rank == 2 && !s.columns ? 1 : 0; }

/// The scans of one buffer of rows x cols, row-major (rows 1 for a 1-D
/// scan): `count` independent scans of `length` elements each, the k-th
/// element in scan order of the j-th at index(j, k). Rows: scan j is row j,
/// its k-th element j*cols + k. Columns: scan j is column j, its k-th
/// element k*cols + j. Reverse counts k from the end (a column's bottom).
struct Layout {
  int64_t count, length, scanStride, step;
  bool reverse;
  int64_t index(int64_t j, int64_t k) const {
    return j * scanStride + (reverse ? length - 1 - k : k) * step;
  }
};
Layout layoutOf(const Spec &s, int64_t rows, int64_t cols) {
  return s.columns ? Layout{cols, rows, 1, cols, s.reverse}
                   : Layout{rows, cols, cols, 1, s.reverse};
}

struct Case {
  Spec spec;
  int64_t rows, cols; // rows = 0: a 1-D scan of `cols` elements
  bool timed;
};

struct Row {
  std::string kernel, shape, error;
  Spec spec{};
  int64_t rows = 0, cols = 0;
  int runs = 0, timingRuns = 0;
  bool timed = false, exact = false, identical = true, pass = false;
  double relError = NAN, tolerance = NAN, us = NAN, gbPerS = NAN;
  int64_t mismatches = 0;
  /// Timed rows: the wave quantisation of the kernel launched (a narrow or
  /// small-grid variant where the runtime picked one).
  Kernel::Quantisation schedule;
};

// --- 16-bit floats on the host ------------------------------------------

uint16_t toBf16(float v) { // round to nearest even (no NaN inputs here)
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}
double fromBf16(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}
/// IEEE half, round to nearest even, for finite inputs of magnitude below
/// 65520 (subnormals included) and infinities.
uint16_t toF16(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  float a = std::fabs(v);
  if (std::isinf(a))
    return uint16_t(sign | 0x7c00);
  if (a < 6.103515625e-05f) { // subnormal half: multiples of 2^-24
    uint32_t m = uint32_t(std::nearbyint(double(a) * 16777216.0));
    return uint16_t(sign | m);
  }
  uint32_t abits = bits & 0x7fffffff;
  uint32_t exponent = (abits >> 23) - 127 + 15;
  uint32_t mantissa = abits & 0x7fffff;
  uint32_t h = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // a carry into the exponent is right too
  return uint16_t(sign | h);
}
double fromF16(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double v;
  if (exponent == 0)
    v = std::ldexp(double(mantissa), -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = std::ldexp(double(mantissa | 0x400), exponent - 25);
  return (h & 0x8000) ? -v : v;
}

// --- inputs, reference, comparison ----------------------------------------

template <typename T> double decode(Element e, T v) {
  if constexpr (std::is_same_v<T, uint16_t>)
    return e == Element::BF16 ? fromBf16(v) : fromF16(v);
  else
    return double(v);
}

/// Whether the case is checked exactly (and run three times): integers;
/// float max and min (they pick an input); f32 products of the powers of
/// two that mulInput draws.
bool isExact(const Spec &s) {
  return s.element == Element::I32 || s.op == Op::Max || s.op == Op::Min ||
         s.op == Op::Mul;
}

/// f32 sums: relative L2 error below 1e-5 up to 2^24 elements a scan;
/// beyond, the rounding of any blocked scan's carry chain grows about as
/// the square root of the length, and so does the bound (4e-5 at 2^28; the
/// same rule as tilec-cub-scan's). 16-bit outputs: 1e-2.
double tolerance(const Spec &s, int64_t length) {
  if (isExact(s))
    return 0;
  if (s.element == Element::BF16 || s.element == Element::F16)
    return 1e-2;
  const double knee = double(1 << 24);
  return length <= knee ? 1e-5 : 1e-5 * std::sqrt(double(length) / knee);
}

/// Fresh inputs of one case, in the stored type.
///  add: floats uniform in [-1, 1]; i32 in [-2^30, 2^30] (the sums
///       overflow: wrapping is checked too)
///  mul: f32 +-1, and with probability p (64 / length, at most 1/4) +-2 or
///       +-0.5, so that every product is exact and stays far inside the
///       f32 range whatever the length; i32 odd (the wrapped products
///       never become 0)
///  max/min: floats uniform in [-1, 1], i32 over the whole range
template <typename T>
std::vector<T> makeInput(const Spec &s, int64_t n, int64_t length,
                         std::mt19937 &rng) {
  std::vector<T> x(n);
  std::uniform_real_distribution<float> unit(-1, 1);
  std::uniform_int_distribution<int32_t> ints(-(1 << 30), 1 << 30);
  std::uniform_int_distribution<int32_t> all(INT32_MIN, INT32_MAX);
  double p = std::min(0.25, 64.0 / double(std::max<int64_t>(length, 1)));
  std::uniform_real_distribution<double> coin(0, 1);
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, int32_t>) {
      if (s.op == Op::Add)
        x[i] = ints(rng);
      else if (s.op == Op::Mul)
        x[i] = all(rng) | 1;
      else
        x[i] = all(rng);
    } else {
      float v = unit(rng);
      if (s.op == Op::Mul) {
        float magnitude = 1;
        if (coin(rng) < p)
          magnitude = coin(rng) < 0.5 ? 2.0f : 0.5f;
        v = v < 0 ? -magnitude : magnitude;
      }
      if constexpr (std::is_same_v<T, uint16_t>)
        x[i] = s.element == Element::BF16 ? toBf16(v) : toF16(v);
      else
        x[i] = v;
    }
  }
  return x;
}

/// The scan of every row (or column) of `x` (as doubles): float64 for
/// floats (16-bit ones as their exact values), wrapping 32-bit arithmetic
/// for i32; the identity of an exclusive scan is 0, 1, -inf/+inf (f32
/// max/min) or INT32_MIN/INT32_MAX (i32 max/min), as tilec's.
template <typename T>
std::vector<double> reference(const Spec &s, int64_t rows, int64_t cols,
                              const std::vector<T> &x) {
  std::vector<double> ref(x.size());
  Layout l = layoutOf(s, rows, cols);
  for (int64_t j = 0; j < l.count; ++j) {
    if (s.element == Element::I32) {
      uint32_t acc = s.op == Op::Add   ? 0u
                     : s.op == Op::Mul ? 1u
                     : s.op == Op::Max ? uint32_t(INT32_MIN)
                                       : uint32_t(INT32_MAX);
      for (int64_t k = 0; k < l.length; ++k) {
        int64_t i = l.index(j, k);
        uint32_t before = acc, v = uint32_t(int32_t(decode(s.element, x[i])));
        switch (s.op) {
        case Op::Add: acc += v; break;
        case Op::Mul: acc *= v; break;
        case Op::Max: acc = uint32_t(std::max(int32_t(acc), int32_t(v))); break;
        case Op::Min: acc = uint32_t(std::min(int32_t(acc), int32_t(v))); break;
        case Op::Recurrence: case Op::SegmentedSum: case Op::SegmentedMax:
          break; // pairs: runRegion
        }
        ref[i] = double(int32_t(s.exclusive ? before : acc));
      }
    } else {
      double acc = s.op == Op::Add   ? 0.0
                   : s.op == Op::Mul ? 1.0
                   : s.op == Op::Max ? -INFINITY
                                     : INFINITY;
      for (int64_t k = 0; k < l.length; ++k) {
        int64_t i = l.index(j, k);
        double before = acc, v = decode(s.element, x[i]);
        switch (s.op) {
        case Op::Add: acc += v; break;
        case Op::Mul: acc *= v; break;
        case Op::Max: acc = std::max(acc, v); break;
        case Op::Min: acc = std::min(acc, v); break;
        case Op::Recurrence: case Op::SegmentedSum: case Op::SegmentedMax:
          break; // pairs: runRegion
        }
        ref[i] = s.exclusive ? before : acc;
      }
    }
  }
  return ref;
}

/// FNV-1a over 8-byte words: tells whether two runs wrote the same bytes.
template <typename T> uint64_t hashOf(const std::vector<T> &v) {
  const unsigned char *p = reinterpret_cast<const unsigned char *>(v.data());
  size_t bytes = v.size() * sizeof(T), i = 0;
  uint64_t h = 0xcbf29ce484222325ull;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
  }
  for (; i < bytes; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

ScalarType scalarTypeFor(Element e) {
  switch (e) {
  case Element::F32: return ScalarType::F32;
  case Element::I32: return ScalarType::I32;
  case Element::BF16: return ScalarType::BF16;
  case Element::F16: return ScalarType::F16;
  }
  return ScalarType::F32;
}

int timingRunsFor(int64_t n) {
  return n > (int64_t(1) << 26) ? 10 : n > (int64_t(1) << 22) ? 50 : 200;
}

double medianUs(const Context &ctx, const Stream &stream, const Kernel &kernel,
                const std::vector<KernelArg> &args, int runs) {
  for (int i = 0; i < 3; ++i)
    kernel.launchArgs(stream, args);
  Event start(ctx), end(ctx);
  std::vector<double> us;
  for (int i = 0; i < runs; ++i) {
    start.record(stream);
    kernel.launchArgs(stream, args);
    end.record(stream);
    us.push_back(1000.0 * Event::elapsedMs(start, end));
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

template <typename T>
void runTyped(const Context &ctx, const Module &module, const Case &c,
              bool time, std::mt19937 &rng, Row &row) {
  const Spec &s = c.spec;
  int64_t rows = c.rows ? c.rows : 1, n = rows * c.cols;
  int64_t length = layoutOf(s, rows, c.cols).length; // of one scan
  Kernel kernel(module, s.kernel);
  std::vector<T> x = makeInput<T>(s, n, length, rng);
  std::vector<double> ref = reference(s, rows, c.cols, x);
  ScalarType type = scalarTypeFor(s.element);
  DeviceBuffer in = DeviceBuffer::fromHost(ctx, x);
  x = std::vector<T>(); // the reference holds what the checks need
  DeviceBuffer out(ctx, n * sizeof(T));
  std::vector<int64_t> shape = c.rows ? std::vector<int64_t>{c.rows, c.cols}
                                      : std::vector<int64_t>{c.cols};
  std::vector<KernelArg> args = {in.view(type, shape), out.view(type, shape)};
  Stream stream(ctx);
  row.exact = isExact(s);
  row.tolerance = tolerance(s, length);
  row.runs = row.exact ? 3 : 1;
  row.pass = true;
  uint64_t firstHash = 0;
  // A different poison every run (NaN / 0xFF.., then finite patterns), so
  // that no element can pass unwritten by equalling the poison twice.
  const uint8_t poison[3] = {0xff, 0x7f, 0xa5};
  for (int run = 0; run < row.runs; ++run) {
    out.memset(poison[run]);
    kernel.launchArgs(stream, args);
    stream.synchronize();
    std::vector<T> got = out.template download<T>();
    uint64_t h = hashOf(got);
    if (run == 0)
      firstHash = h;
    else if (h != firstHash)
      row.identical = false;
    double diff2 = 0, ref2 = 0;
    int64_t bad = 0, firstBad = -1;
    for (int64_t i = 0; i < n; ++i) {
      double y = decode(s.element, got[i]), want = ref[i];
      bool wrong = row.exact ? !(y == want)
                             : !std::isfinite(y) && !(y == want);
      if (wrong) {
        if (firstBad < 0)
          firstBad = i;
        ++bad;
        continue;
      }
      if (!row.exact && std::isfinite(want)) {
        diff2 += (y - want) * (y - want);
        ref2 += want * want;
      }
    }
    double rel = bad ? NAN : std::sqrt(diff2 / std::max(ref2, 1e-300));
    row.relError = std::isnan(row.relError) ? rel : std::max(row.relError, rel);
    row.mismatches = std::max(row.mismatches, bad);
    if (bad && row.error.empty()) {
      std::ostringstream msg;
      msg.precision(17);
      msg << "run " << run << ": " << bad << " wrong, first at " << firstBad
          << ": got " << decode(s.element, got[firstBad]) << ", want "
          << ref[firstBad];
      row.error = msg.str();
    }
    row.pass = row.pass && bad == 0 && std::isfinite(rel) &&
               rel <= row.tolerance;
  }
  if (!row.identical) {
    row.pass = false;
    if (row.error.empty())
      row.error = "outputs differ between runs (a race)";
  }
  if (time && c.timed) {
    row.timingRuns = timingRunsFor(n);
    row.us = medianUs(ctx, stream, kernel, args, row.timingRuns);
    row.gbPerS = 2.0 * n * sizeof(T) / (row.us * 1e3);
    row.schedule = kernel.quantisationFor(args);
  }
}

// --- combiner regions: scans of pairs -------------------------------------
//
// A region scan of kernels.mlir reads (X1, X2) and writes (Y1, Y2). On the
// host every lane is a vector of 32-bit words: an i32 lane as a wrapping
// uint32_t, a float lane as the f32 word of its value (a 16-bit lane's
// values are exact in f32: they are converted to and from 2-byte elements
// only on the way to and from the GPU), read as a floating type F (double
// for the reference; float to evaluate as the GPU does, in --self-test).
// The earlier pair always comes first, in scan order: a reverse scan's
// earlier pair is the one of higher index.

bool isRegion(Op op) {
  return op == Op::Recurrence || op == Op::SegmentedSum ||
         op == Op::SegmentedMax;
}

/// The element types of (X1, X2), and of (Y1, Y2): a recurrence's (a, b)
/// both of the spec's type; a segmented sum's or max's i32 flag and a value
/// of the spec's type.
std::array<Element, 2> pairElements(const Spec &s) {
  return {s.op == Op::Recurrence ? s.element : Element::I32, s.element};
}

/// Whether output `o` of a region scan is checked exactly (and its bytes
/// must repeat over the runs): i32 lanes, and the values of a segmented max
/// (a max picks an input, whatever the association).
bool exactLane(const Spec &s, int o) {
  return pairElements(s)[o] == Element::I32 || s.op == Op::SegmentedMax;
}

bool isHalf(Element e) { return e == Element::BF16 || e == Element::F16; }
size_t elementBytes(Element e) { return isHalf(e) ? 2 : 4; }

/// A 16-bit float's bits, and back (to the nearest: exact for the values
/// the region inputs hold, which are 16-bit values already).
uint16_t toHalfBits(Element e, float v) {
  return e == Element::BF16 ? toBf16(v) : toF16(v);
}
float fromHalfBits(Element e, uint16_t h) { return float(decode(e, h)); }

/// `v` rounded to a lane of type `e` (f32: as it is).
float roundTo(Element e, float v) {
  return isHalf(e) ? fromHalfBits(e, toHalfBits(e, v)) : v;
}

/// "f32,f32", "i32,f32": the JSON's dtype of a region scan.
std::string dtypeName(const Spec &s) {
  if (!isRegion(s.op))
    return elementName(s.element);
  std::array<Element, 2> e = pairElements(s);
  return std::string(elementName(e[0])) + "," + elementName(e[1]);
}

template <typename A, typename B> struct Pair {
  A first;
  B second;
};

/// The affine map h -> a*h + b of the later pair after that of the earlier:
/// (a0, b0) . (a1, b1) = (a1 * a0, a1 * b0 + b1); identity (1, 0). Y1 is
/// the running product of a, Y2 is h[t] = a[t] * h[t-1] + b[t].
struct Recurrence {
  template <typename A, typename B>
  static Pair<A, B> combine(const Pair<A, B> &e, const Pair<A, B> &l) {
    return {A(l.first * e.first), B(l.first * e.second + l.second)};
  }
  template <typename A, typename B> static Pair<A, B> identity() {
    return {A(1), B(0)};
  }
};

/// A non-zero flag starts a segment: (f0, v0) . (f1, v1) =
/// (f0 | f1, f1 != 0 ? v1 : v0 + v1); identity (0, 0). Y1 is the OR of the
/// flags so far, Y2 the sum since the last flag.
struct SegmentedSum {
  template <typename A, typename B>
  static Pair<A, B> combine(const Pair<A, B> &e, const Pair<A, B> &l) {
    return {A(e.first | l.first),
            l.first != 0 ? l.second : B(e.second + l.second)};
  }
  template <typename A, typename B> static Pair<A, B> identity() {
    return {A(0), B(0)};
  }
};

/// The same with max: (f0, v0) . (f1, v1) = (f0 | f1, f1 != 0 ? v1 :
/// max(v0, v1)); identity (0, -inf). Y2 is the max since the last flag.
/// Float values only (B a floating type).
struct SegmentedMax {
  template <typename A, typename B>
  static Pair<A, B> combine(const Pair<A, B> &e, const Pair<A, B> &l) {
    return {A(e.first | l.first),
            l.first != 0 ? l.second : std::max(e.second, l.second)};
  }
  template <typename A, typename B> static Pair<A, B> identity() {
    return {A(0), B(-INFINITY)};
  }
};

/// Calls fn(C{}, Pair<A, B>{}) with the combine of the spec and its host
/// lane types, float lanes (f32, f16, bf16) as F.
template <typename F, typename Fn> void withPairTypes(const Spec &s, Fn &&fn) {
  bool floats = s.element != Element::I32;
  if (s.op == Op::Recurrence) {
    if (floats)
      fn(Recurrence{}, Pair<F, F>{});
    else
      fn(Recurrence{}, Pair<uint32_t, uint32_t>{});
  } else if (s.op == Op::SegmentedMax) {
    fn(SegmentedMax{}, Pair<uint32_t, F>{}); // no i32 segmax in the table
  } else {
    if (floats)
      fn(SegmentedSum{}, Pair<uint32_t, F>{});
    else
      fn(SegmentedSum{}, Pair<uint32_t, uint32_t>{});
  }
}

template <typename T> T fromWord(uint32_t w) {
  if constexpr (std::is_same_v<T, uint32_t>) {
    return w;
  } else {
    float f;
    std::memcpy(&f, &w, 4);
    return T(f);
  }
}
template <typename T> uint32_t toWord(T v) {
  if constexpr (std::is_same_v<T, uint32_t>) {
    return v;
  } else {
    float f = float(v);
    uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
  }
}
template <typename T> double toDouble(T v) {
  if constexpr (std::is_same_v<T, uint32_t>)
    return double(int32_t(v));
  else
    return double(v);
}

using Words = std::array<std::vector<uint32_t>, 2>;
using Doubles = std::array<std::vector<double>, 2>;

/// Fresh inputs of a region scan, as words; `length` is that of one scan
/// (a row's, or a column's):
///  recurrence f32: a = +-[0.9, 1) (random sign), b in [-1, 1]: h stays
///    bounded (rms about 1.8, so the relative error is not a ratio of
///    near-zeros) and a carry still counts a few hundred elements later
///    (0.95^300 is about f32's epsilon), so that a lost or misordered carry
///    shows far above the tolerance (--self-test: 1e-2 and more);
///  recurrence i32: a odd (the running product never becomes 0, so every
///    output depends on every element before it), b over the whole range;
///  segmented sum and max: the flag one random bit with probability
///    8 / length, kept in [1/2048, 1/4] (a few segments in a short scan; in
///    a long one segments of about 2048, across pieces and programs), else
///    0; sums: values i32 over the whole range (the sums wrap), f32 in
///    [-1, 1]; maxima: values in [-1, 1] rounded to the lane's type (f32,
///    f16 or bf16), so that the host holds them exactly.
Words makePairInput(const Spec &s, int64_t n, int64_t length,
                    std::mt19937 &rng) {
  Words x = {std::vector<uint32_t>(n), std::vector<uint32_t>(n)};
  std::uniform_real_distribution<float> unit(-1, 1), magnitude(0.9f, 1.0f);
  std::uniform_int_distribution<uint32_t> word(0, UINT32_MAX), bit(0, 31);
  std::bernoulli_distribution coin(0.5);
  double p = std::clamp(8.0 / double(std::max<int64_t>(length, 1)),
                        1.0 / 2048, 0.25);
  std::bernoulli_distribution flag(p);
  bool f32 = s.element == Element::F32;
  for (int64_t i = 0; i < n; ++i) {
    if (s.op == Op::Recurrence && f32) {
      float a = magnitude(rng);
      x[0][i] = toWord(coin(rng) ? -a : a);
      x[1][i] = toWord(unit(rng));
    } else if (s.op == Op::Recurrence) {
      x[0][i] = word(rng) | 1u;
      x[1][i] = word(rng);
    } else if (s.op == Op::SegmentedMax) {
      x[0][i] = flag(rng) ? 1u << bit(rng) : 0u;
      x[1][i] = toWord(roundTo(s.element, unit(rng)));
    } else {
      x[0][i] = flag(rng) ? 1u << bit(rng) : 0u;
      x[1][i] = f32 ? toWord(unit(rng)) : word(rng);
    }
  }
  return x;
}

/// The sequential scan of every row (or column) from the identity, lanes of
/// P: the reference (P of doubles and wrapping integers) writes each output
/// as a double.
template <typename C, typename P>
Doubles scanPairs(const Spec &s, int64_t rows, int64_t cols, const Words &x) {
  using A = decltype(P::first);
  using B = decltype(P::second);
  Doubles out = {std::vector<double>(x[0].size()),
                 std::vector<double>(x[0].size())};
  Layout l = layoutOf(s, rows, cols);
  for (int64_t j = 0; j < l.count; ++j) {
    P acc = C::template identity<A, B>();
    for (int64_t k = 0; k < l.length; ++k) {
      int64_t i = l.index(j, k);
      P before = acc;
      acc = C::combine(acc, P{fromWord<A>(x[0][i]), fromWord<B>(x[1][i])});
      const P &y = s.exclusive ? before : acc;
      out[0][i] = toDouble(y.first);
      out[1][i] = toDouble(y.second);
    }
  }
  return out;
}

/// Y1 and Y2 of a region scan: float64 for float lanes, wrapping 32-bit
/// integers for i32 ones (exact whatever order a correct scan evaluates
/// in); the exclusive identity (1, 0), (0, 0) or (0, -inf) first, as
/// kernels.mlir's.
Doubles pairReference(const Spec &s, int64_t rows, int64_t cols,
                      const Words &x) {
  Doubles out;
  withPairTypes<double>(s, [&](auto combine, auto pair) {
    out = scanPairs<decltype(combine), decltype(pair)>(s, rows, cols, x);
  });
  return out;
}

/// f32 region outputs that are not exact (sums, recurrences): relative L2
/// error below 1e-5 at any length (the recurrence contracts, |a| < 1, so
/// rounding does not pile up along the scan; segments are short sums).
constexpr double kRegionTolerance = 1e-5;

double decodeWord(Element e, uint32_t w) {
  return e == Element::I32 ? double(int32_t(w)) : double(fromWord<float>(w));
}

struct OutputCheck {
  int64_t bad = 0, firstBad = -1;
  double rel = NAN;
};

/// Compares one output's words against its reference: `exact` ones by
/// equality (a float -inf equals -inf; -0 equals +0; NaN equals nothing);
/// others by relative L2 error, where a non-finite value (the NaN poison
/// left) is wrong.
OutputCheck checkWords(Element e, bool exact,
                       const std::vector<uint32_t> &got,
                       const std::vector<double> &ref) {
  OutputCheck c;
  double diff2 = 0, ref2 = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double y = decodeWord(e, got[i]);
    bool wrong = exact ? !(y == ref[i]) : !std::isfinite(y) && !(y == ref[i]);
    if (wrong) {
      if (c.firstBad < 0)
        c.firstBad = int64_t(i);
      ++c.bad;
      continue;
    }
    if (!exact && std::isfinite(ref[i])) {
      diff2 += (y - ref[i]) * (y - ref[i]);
      ref2 += ref[i] * ref[i];
    }
  }
  c.rel = c.bad ? NAN : std::sqrt(diff2 / std::max(ref2, 1e-300));
  return c;
}

/// Whether one output passes: no wrong element, and inexact ones within
/// the bound.
bool passes(bool exact, const OutputCheck &c) {
  return c.bad == 0 && std::isfinite(c.rel) &&
         c.rel <= (exact ? 0.0 : kRegionTolerance);
}

/// A lane's words on the GPU: 4-byte elements as they are, 16-bit floats
/// as 2-byte elements.
DeviceBuffer uploadLane(const Context &ctx, Element e,
                        const std::vector<uint32_t> &words) {
  if (!isHalf(e))
    return DeviceBuffer::fromHost(ctx, words);
  std::vector<uint16_t> half(words.size());
  for (size_t i = 0; i < words.size(); ++i)
    half[i] = toHalfBits(e, fromWord<float>(words[i]));
  return DeviceBuffer::fromHost(ctx, half);
}

/// An output lane back as words (16-bit elements widened to f32 words:
/// exact, NaN stays NaN); `hash` of the bytes the GPU wrote.
std::vector<uint32_t> downloadLane(const DeviceBuffer &buffer, Element e,
                                   uint64_t &hash) {
  if (!isHalf(e)) {
    std::vector<uint32_t> got = buffer.download<uint32_t>();
    hash = hashOf(got);
    return got;
  }
  std::vector<uint16_t> half = buffer.download<uint16_t>();
  hash = hashOf(half);
  std::vector<uint32_t> got(half.size());
  for (size_t i = 0; i < half.size(); ++i)
    got[i] = toWord(fromHalfBits(e, half[i]));
  return got;
}

void runRegion(const Context &ctx, const Module &module, const Case &c,
               bool time, std::mt19937 &rng, Row &row) {
  const Spec &s = c.spec;
  int64_t rows = c.rows ? c.rows : 1, n = rows * c.cols;
  std::array<Element, 2> elements = pairElements(s);
  Kernel kernel(module, s.kernel);
  Words x = makePairInput(s, n, layoutOf(s, rows, c.cols).length, rng);
  Doubles ref = pairReference(s, rows, c.cols, x);
  std::vector<int64_t> shape = c.rows ? std::vector<int64_t>{c.rows, c.cols}
                                      : std::vector<int64_t>{c.cols};
  // X1, X2, Y1, Y2 in the kernel's order.
  std::vector<DeviceBuffer> buffers;
  for (int o = 0; o < 2; ++o) {
    buffers.push_back(uploadLane(ctx, elements[o], x[o]));
    x[o] = std::vector<uint32_t>(); // the reference holds what the checks need
  }
  for (int o = 0; o < 2; ++o)
    buffers.emplace_back(ctx, n * elementBytes(elements[o]));
  std::vector<KernelArg> args;
  for (int j = 0; j < 4; ++j)
    args.push_back(buffers[j].view(scalarTypeFor(elements[j % 2]), shape));
  Stream stream(ctx);
  std::array<bool, 2> exact = {exactLane(s, 0), exactLane(s, 1)};
  row.exact = exact[0] && exact[1];
  row.tolerance = row.exact ? 0 : kRegionTolerance;
  // Three runs where an output is exact: its bytes must repeat (f32 sums
  // may not: a look-back may combine the same carry in another order).
  row.runs = exact[0] || exact[1] ? 3 : 1;
  row.pass = true;
  std::array<uint64_t, 2> firstHash = {0, 0};
  const uint8_t poison[3] = {0xff, 0x7f, 0xa5};
  for (int run = 0; run < row.runs; ++run) {
    buffers[2].memset(poison[run]);
    buffers[3].memset(poison[run]);
    kernel.launchArgs(stream, args);
    stream.synchronize();
    int64_t bad = 0;
    for (int o = 0; o < 2; ++o) {
      uint64_t h = 0;
      std::vector<uint32_t> got = downloadLane(buffers[2 + o], elements[o], h);
      if (exact[o]) {
        if (run == 0)
          firstHash[o] = h;
        else if (h != firstHash[o])
          row.identical = false;
      }
      OutputCheck k = checkWords(elements[o], exact[o], got, ref[o]);
      bad += k.bad;
      row.relError = std::isnan(row.relError) ? k.rel
                                              : std::max(row.relError, k.rel);
      if (k.bad && row.error.empty()) {
        std::ostringstream msg;
        msg.precision(17);
        msg << "run " << run << ", Y" << o + 1 << ": " << k.bad
            << " wrong, first at " << k.firstBad << ": got "
            << decodeWord(elements[o], got[k.firstBad]) << ", want "
            << ref[o][k.firstBad];
        row.error = msg.str();
      }
      row.pass = row.pass && passes(exact[o], k);
    }
    row.mismatches = std::max(row.mismatches, bad);
  }
  if (!row.identical) {
    row.pass = false;
    if (row.error.empty())
      row.error = "outputs differ between runs (a race)";
  }
  if (time && c.timed) {
    row.timingRuns = timingRunsFor(n);
    row.us = medianUs(ctx, stream, kernel, args, row.timingRuns);
    // Two inputs read and two outputs written once (f32: 4 bytes each).
    double bytes =
        2.0 * n * double(elementBytes(elements[0]) + elementBytes(elements[1]));
    row.gbPerS = bytes / (row.us * 1e3);
    row.schedule = kernel.quantisationFor(args);
  }
}

// --- --self-test: the region references on the host ----------------------

/// The reference written out as plain loops, without the combine functions
/// above: pairReference must agree with it bit for bit.
Doubles naiveReference(const Spec &s, int64_t rows, int64_t cols,
                       const Words &x) {
  Doubles out = {std::vector<double>(x[0].size()),
                 std::vector<double>(x[0].size())};
  bool f32 = s.element == Element::F32;
  auto put = [&](int64_t i, double y1, double y2) {
    out[0][i] = y1;
    out[1][i] = y2;
  };
  Layout l = layoutOf(s, rows, cols);
  for (int64_t j = 0; j < l.count; ++j) {
    // Floats in double, integers wrapping; the state before and after.
    double fa = 1, fh = 0, fsum = 0, runningMax = -INFINITY;
    uint32_t ia = 1, ih = 0, isum = 0, flags = 0;
    for (int64_t k = 0; k < l.length; ++k) {
      int64_t i = l.index(j, k);
      uint32_t w0 = x[0][i], w1 = x[1][i];
      if (s.op == Op::Recurrence && f32) {
        double a = fromWord<float>(w0), b = fromWord<float>(w1);
        double pa = fa, ph = fh;
        fa = fa * a;
        fh = a * fh + b;
        s.exclusive ? put(i, pa, ph) : put(i, fa, fh);
      } else if (s.op == Op::Recurrence) {
        uint32_t pa = ia, ph = ih;
        ia = ia * w0;
        ih = w0 * ih + w1;
        s.exclusive ? put(i, int32_t(pa), int32_t(ph))
                    : put(i, int32_t(ia), int32_t(ih));
      } else if (s.op == Op::SegmentedMax) { // float values of any width
        uint32_t pf = flags;
        double pm = runningMax, v = fromWord<float>(w1);
        flags |= w0;
        if (w0 != 0 || v > runningMax)
          runningMax = v;
        s.exclusive ? put(i, int32_t(pf), pm)
                    : put(i, int32_t(flags), runningMax);
      } else {
        uint32_t pf = flags;
        double pv = f32 ? fsum : double(int32_t(isum));
        flags |= w0;
        if (f32)
          fsum = w0 ? double(fromWord<float>(w1)) : fsum + fromWord<float>(w1);
        else
          isum = w0 ? w1 : isum + w1;
        double v = f32 ? fsum : double(int32_t(isum));
        s.exclusive ? put(i, int32_t(pf), pv) : put(i, int32_t(flags), v);
      }
    }
  }
  return out;
}

/// The same scans by another association, as a blocked GPU scan evaluates
/// them, with float lanes in float: every row (or column) cut into pieces
/// of random sizes (1 to 700), each scanned by doubling (Hillis-Steele),
/// the totals of the pieces before combined in front as a carry; exclusive
/// outputs shifted by one behind the identity. Returns the words a GPU
/// would write. `swapped` combines every pair the wrong way round and
/// `dropCarry` forgets the carries: mistakes a scan could make, which the
/// check must catch.
template <typename C, typename P>
Words scanPairsBlocked(const Spec &s, int64_t rows, int64_t cols,
                       const Words &x, std::mt19937 &rng, bool swapped,
                       bool dropCarry) {
  using A = decltype(P::first);
  using B = decltype(P::second);
  auto combine = [&](const P &e, const P &l) {
    return swapped ? C::combine(l, e) : C::combine(e, l);
  };
  std::uniform_int_distribution<int64_t> pieceSize(1, 700);
  Words out = {std::vector<uint32_t>(x[0].size()),
               std::vector<uint32_t>(x[0].size())};
  Layout l = layoutOf(s, rows, cols);
  std::vector<P> inclusive(l.length);
  for (int64_t j = 0; j < l.count; ++j) {
    P carry{};
    bool hasCarry = false;
    for (int64_t start = 0; start < l.length;) {
      int64_t len = std::min(pieceSize(rng), l.length - start);
      std::vector<P> t(len), next;
      for (int64_t m = 0; m < len; ++m) {
        int64_t i = l.index(j, start + m);
        t[m] = P{fromWord<A>(x[0][i]), fromWord<B>(x[1][i])};
      }
      for (int64_t d = 1; d < len; d *= 2) {
        next = t;
        for (int64_t m = d; m < len; ++m)
          next[m] = combine(t[m - d], t[m]);
        t.swap(next);
      }
      for (int64_t m = 0; m < len; ++m)
        inclusive[start + m] =
            hasCarry && !dropCarry ? combine(carry, t[m]) : t[m];
      carry = hasCarry ? combine(carry, t[len - 1]) : t[len - 1];
      hasCarry = true;
      start += len;
    }
    for (int64_t k = 0; k < l.length; ++k) {
      P y = !s.exclusive ? inclusive[k]
            : k == 0     ? C::template identity<A, B>()
                         : inclusive[k - 1];
      int64_t i = l.index(j, k);
      out[0][i] = toWord(y.first);
      out[1][i] = toWord(y.second);
    }
  }
  return out;
}

const std::vector<Spec> &regionVectorSpecs();
const std::vector<Spec> &regionRowSpecs();
const std::vector<Spec> &regionColumnSpecs();
const std::vector<Spec> &columnSpecs();

/// The cols x rows transpose of a rows x cols buffer.
template <typename T>
std::vector<T> transposed(const std::vector<T> &x, int64_t rows, int64_t cols) {
  std::vector<T> t(x.size());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      t[c * rows + r] = x[r * cols + c];
  return t;
}

/// Whether the reference of column spec `s` over a rows x cols buffer is,
/// element for element, that of the same scan over the rows of the
/// transposed buffer (kinds: reference; regions: pairReference and
/// naiveReference): the column indexing, checked against plain
/// transposition. `rowsDiffer`: whether scanning the rows of the buffer
/// instead (the mistake) gives another result, which it must where both
/// dimensions exceed 1.
bool columnsMatchTransposedRows(const Spec &s, int64_t rows, int64_t cols,
                                std::mt19937 &rng, bool &rowsDiffer) {
  Spec asRows = s;
  asRows.columns = false;
  int64_t n = rows * cols;
  auto equal = [&](const std::vector<double> &a,
                   const std::vector<double> &b) {
    for (int64_t i = 0; i < n; ++i)
      if (!(a[i] == b[i]) && !(std::isnan(a[i]) && std::isnan(b[i])))
        return false;
    return true;
  };
  auto same = [&](const std::vector<double> &colRef,
                  const std::vector<double> &rowRefOfT) {
    return equal(colRef, transposed(rowRefOfT, cols, rows));
  };
  if (isRegion(s.op)) {
    Words x = makePairInput(s, n, rows, rng);
    Words t = {transposed(x[0], rows, cols), transposed(x[1], rows, cols)};
    Doubles col = pairReference(s, rows, cols, x);
    Doubles row = pairReference(asRows, cols, rows, t);
    Doubles naive = naiveReference(s, rows, cols, x);
    Doubles wrong = pairReference(asRows, rows, cols, x);
    rowsDiffer = !equal(col[0], wrong[0]) || !equal(col[1], wrong[1]);
    return same(col[0], row[0]) && same(col[1], row[1]) &&
           same(naive[0], row[0]) && same(naive[1], row[1]);
  }
  auto check = [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> x = makeInput<T>(s, n, rows, rng);
    std::vector<double> col = reference(s, rows, cols, x);
    rowsDiffer = !equal(col, reference(asRows, rows, cols, x));
    return same(col, reference(asRows, cols, rows, transposed(x, rows, cols)));
  };
  switch (s.element) {
  case Element::F32: return check(float());
  case Element::I32: return check(int32_t());
  case Element::BF16:
  case Element::F16: return check(uint16_t());
  }
  return false;
}

/// --self-test: for every region kernel of the table on short, ragged and
/// long shapes: pairReference equals naiveReference; the blocked
/// evaluation passes the bench's check (checkWords, passes); swapped or
/// with carries dropped, it fails it (where the scan is long enough to
/// have several pieces). Then every column kernel (kinds and regions): its
/// reference is the row reference of the transposed buffer. Prints a line
/// a case; returns the failures.
int selfTest(std::mt19937 &rng) {
  using Shapes = std::vector<std::pair<int64_t, int64_t>>;
  Shapes vectorShapes = {{0, 1},    {0, 2},    {0, 31},    {0, 33},
                         {0, 1000}, {0, 4097}, {0, 100003}};
  Shapes rowShapes = {{1, 1}, {7, 31}, {3, 5000}, {2, 100003}};
  // Columns: the scan runs down a column, so the long ones are tall.
  Shapes columnShapes = {{1, 1}, {31, 7}, {5000, 3}, {100003, 2}};
  int failures = 0;
  std::printf("%-27s %-9s %10s %10s %10s %10s  %s\n", "kernel", "shape",
              "ref=loops", "blocked", "swapped", "no_carry", "status");
  for (const auto *table :
       {&regionVectorSpecs(), &regionRowSpecs(), &regionColumnSpecs()}) {
    for (const Spec &s : *table) {
      const Shapes &shapes = s.rank == 1 ? vectorShapes
                             : s.columns ? columnShapes
                                         : rowShapes;
      for (auto [r, shapeCols] : shapes) {
        // A copy: lambdas below capture it (C++17 cannot capture bindings).
        int64_t cols = shapeCols;
        int64_t rows = r ? r : 1, n = rows * cols;
        int64_t length = layoutOf(s, rows, cols).length;
        std::array<Element, 2> e = pairElements(s);
        Words x = makePairInput(s, n, length, rng);
        Doubles ref = pairReference(s, rows, cols, x);
        Doubles naive = naiveReference(s, rows, cols, x);
        bool same = true;
        for (int o = 0; o < 2; ++o)
          for (int64_t i = 0; i < n; ++i)
            same = same && ref[o][i] == naive[o][i];
        // Worst relative error over the two outputs (NaN: a wrong element),
        // and whether both outputs pass.
        auto evaluate = [&](bool swapped, bool dropCarry, double &rel) {
          Words got;
          withPairTypes<float>(s, [&](auto combine, auto pair) {
            got = scanPairsBlocked<decltype(combine), decltype(pair)>(
                s, rows, cols, x, rng, swapped, dropCarry);
          });
          bool pass = true;
          rel = 0;
          for (int o = 0; o < 2; ++o) {
            // A 16-bit lane goes through its 2-byte elements, as from a GPU.
            if (isHalf(e[o]))
              for (uint32_t &w : got[o])
                w = toWord(fromHalfBits(e[o],
                                        toHalfBits(e[o], fromWord<float>(w))));
            OutputCheck c = checkWords(e[o], exactLane(s, o), got[o], ref[o]);
            rel = std::isnan(c.rel) || std::isnan(rel) ? NAN
                                                       : std::max(rel, c.rel);
            pass = pass && passes(exactLane(s, o), c);
          }
          return pass;
        };
        double relBlocked, relSwapped, relDropped;
        bool blocked = evaluate(false, false, relBlocked);
        bool swapped = evaluate(true, false, relSwapped);
        bool dropped = evaluate(false, true, relDropped);
        // Long enough for the mistakes to show: several pieces, and a few
        // segment starts.
        bool controls = length < 1000 || (!swapped && !dropped);
        bool ok = same && blocked && controls;
        failures += !ok;
        std::string shape = r ? std::to_string(r) + "x" + std::to_string(cols)
                              : std::to_string(cols);
        auto cell = [](double rel, bool pass) {
          char buf[32];
          if (std::isnan(rel)) // elements wrong outright
            std::snprintf(buf, sizeof buf, "wrong%s", pass ? "" : "*");
          else
            std::snprintf(buf, sizeof buf, "%.1e%s", rel, pass ? "" : "*");
          return std::string(buf);
        };
        std::printf("%-27s %-9s %10s %10s %10s %10s  %s\n", s.kernel,
                    shape.c_str(), same ? "yes" : "NO",
                    cell(relBlocked, blocked).c_str(),
                    cell(relSwapped, swapped).c_str(),
                    cell(relDropped, dropped).c_str(), ok ? "PASS" : "FAIL");
      }
    }
  }
  std::printf("(* = fails the bench's check: wanted for swapped and "
              "no_carry from 1000 elements a scan)\n");
  // The column indexing of every reference, against transposition.
  const Shapes transposeShapes = {{1, 1},    {1, 7},   {33, 5},
                                  {1001, 17}, {257, 300}, {3, 1003}};
  std::printf("\n%-27s %s\n", "column kernel",
              "reference = row reference of the transpose, and differs from "
              "the rows' scan (1x1 to 3x1003)");
  int columnFailures = 0;
  for (const auto *table : {&columnSpecs(), &regionColumnSpecs()})
    for (const Spec &s : *table) {
      std::string bad;
      for (auto [r, c] : transposeShapes) {
        bool rowsDiffer = false;
        bool match = columnsMatchTransposedRows(s, r, c, rng, rowsDiffer);
        if (!match || (r > 1 && c > 1 && !rowsDiffer))
          bad += " " + std::to_string(r) + "x" + std::to_string(c) +
                 (match ? "(rows scan not caught)" : "");
      }
      columnFailures += !bad.empty();
      std::printf("%-27s %s\n", s.kernel,
                  bad.empty() ? "PASS" : ("FAIL at" + bad).c_str());
    }
  failures += columnFailures;
  std::printf("%s\n", failures ? "SELF-TEST FAILED" : "self-test passed");
  return failures;
}

Row runCase(const Context &ctx, const Module &module, const Case &c,
            bool time, std::mt19937 &rng) {
  Row row;
  row.kernel = c.spec.kernel;
  row.spec = c.spec;
  row.rows = c.rows;
  row.cols = c.cols;
  row.timed = c.timed && time;
  row.shape = c.rows ? std::to_string(c.rows) + "x" + std::to_string(c.cols)
                     : std::to_string(c.cols);
  try {
    if (isRegion(c.spec.op))
      runRegion(ctx, module, c, time, rng, row);
    else
      switch (c.spec.element) {
      case Element::F32:
        runTyped<float>(ctx, module, c, time, rng, row);
        break;
      case Element::I32:
        runTyped<int32_t>(ctx, module, c, time, rng, row);
        break;
      case Element::BF16:
      case Element::F16:
        runTyped<uint16_t>(ctx, module, c, time, rng, row);
        break;
      }
  } catch (const Error &e) {
    row.pass = false;
    row.error = e.what();
  } catch (const std::bad_alloc &) {
    row.pass = false;
    row.error = "out of host memory";
  }
  return row;
}

/// JSON has no NaN: null for what was not measured.
std::string jsonNumber(double v) {
  if (!std::isfinite(v))
    return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      out += ' ';
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

/// The issue-era schema (kernel, shape, us, gb_per_s, rel_error, status)
/// plus what a reader needs to tell the cases apart.
void writeJson(const std::string &path, const std::vector<Row> &results,
               double copyGBs) {
  std::ofstream out(path);
  out << "[\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const Row &r = results[i];
    int64_t n = (r.rows ? r.rows : 1) * r.cols;
    out << "  {\"kernel\": " << jsonString(r.kernel)
        << ", \"shape\": " << jsonString(r.shape)
        << ", \"us\": " << jsonNumber(r.us)
        << ", \"gb_per_s\": " << jsonNumber(r.gbPerS)
        << ", \"copy_gbs\": " << jsonNumber(copyGBs)
        << ", \"roof_fraction\": " << jsonNumber(r.gbPerS / copyGBs)
        << ", \"rel_error\": " << jsonNumber(r.relError)
        << ", \"status\": \"" << (r.pass ? "PASS" : "FAIL") << "\""
        << ", \"rows\": " << r.rows << ", \"cols\": " << r.cols
        << ", \"n\": " << n << ", \"dtype\": \"" << dtypeName(r.spec)
        << "\", \"op\": \"" << opName(r.spec.op) << "\", \"exclusive\": "
        << (r.spec.exclusive ? "true" : "false")
        << ", \"reverse\": " << (r.spec.reverse ? "true" : "false")
        << ", \"along\": " << alongOf(r.spec)
        << ", \"timed\": " << (r.timed ? "true" : "false")
        << ", \"exact\": " << (r.exact ? "true" : "false")
        << ", \"runs\": " << r.runs << ", \"identical\": "
        << (r.identical ? "true" : "false")
        << ", \"mismatches\": " << r.mismatches
        << ", \"tolerance\": " << jsonNumber(r.tolerance)
        << ", \"timing_runs\": " << r.timingRuns
        << ", \"launched\": " << jsonString(r.schedule.kernel)
        << ", \"programs\": " << r.schedule.programs
        << ", \"blocks\": " << r.schedule.blocks
        << ", \"resident_blocks_per_sm\": " << r.schedule.residentPerSm
        << ", \"waves\": " << jsonNumber(r.schedule.waves)
        << ", \"error\": " << jsonString(r.error) << "}"
        << (i + 1 < results.size() ? ",\n" : "\n");
  }
  out << "]\n";
}

// --- the table ----------------------------------------------------------

constexpr bool kInc = false, kExc = true, kFwd = false, kRev = true;
constexpr bool kCols = true; // Spec::columns: along 0 of a 2-D memref
constexpr Element F32 = Element::F32, I32 = Element::I32,
                  BF16 = Element::BF16, F16 = Element::F16;

/// Must match bench/scan/kernels.mlir.
const std::vector<Spec> &vectorSpecs() {
  static const std::vector<Spec> specs = {
      {"scan_f32", 1, F32, Op::Add, kInc, kFwd},
      {"scan_add_exc_f32", 1, F32, Op::Add, kExc, kFwd},
      {"scan_add_inc_rev_f32", 1, F32, Op::Add, kInc, kRev},
      {"scan_add_exc_rev_f32", 1, F32, Op::Add, kExc, kRev},
      {"scan_i32", 1, I32, Op::Add, kInc, kFwd},
      {"scan_add_exc_i32", 1, I32, Op::Add, kExc, kFwd},
      {"scan_rev_i32", 1, I32, Op::Add, kInc, kRev},
      {"scan_add_exc_rev_i32", 1, I32, Op::Add, kExc, kRev},
      {"scan_mul_inc_f32", 1, F32, Op::Mul, kInc, kFwd},
      {"scan_mul_exc_rev_f32", 1, F32, Op::Mul, kExc, kRev},
      {"scan_mul_exc_i32", 1, I32, Op::Mul, kExc, kFwd},
      {"scan_mul_inc_rev_i32", 1, I32, Op::Mul, kInc, kRev},
      {"scan_max_exc_f32", 1, F32, Op::Max, kExc, kFwd},
      {"scan_max_inc_rev_f32", 1, F32, Op::Max, kInc, kRev},
      {"scan_max_inc_i32", 1, I32, Op::Max, kInc, kFwd},
      {"scan_max_exc_rev_i32", 1, I32, Op::Max, kExc, kRev},
      {"scan_min_inc_f32", 1, F32, Op::Min, kInc, kFwd},
      {"scan_min_exc_rev_f32", 1, F32, Op::Min, kExc, kRev},
      {"scan_min_exc_i32", 1, I32, Op::Min, kExc, kFwd},
      {"scan_min_inc_rev_i32", 1, I32, Op::Min, kInc, kRev},
      {"scan_add_inc_f16", 1, F16, Op::Add, kInc, kFwd},
      {"scan_add_exc_rev_f16", 1, F16, Op::Add, kExc, kRev},
      {"scan_add_inc_bf16", 1, BF16, Op::Add, kInc, kFwd},
      {"scan_add_exc_bf16", 1, BF16, Op::Add, kExc, kFwd},
  };
  return specs;
}

const std::vector<Spec> &rowSpecs() {
  static const std::vector<Spec> specs = {
      {"rows_f32", 2, F32, Op::Add, kInc, kFwd},
      {"rows_i32", 2, I32, Op::Add, kExc, kFwd},
      {"rows_rev_f32", 2, F32, Op::Add, kExc, kRev},
      {"rows_max_f32", 2, F32, Op::Max, kExc, kFwd},
      {"rows_min_exc_i32", 2, I32, Op::Min, kExc, kFwd},
      {"rows_mul_inc_f32", 2, F32, Op::Mul, kInc, kFwd},
      {"rows_bf16", 2, BF16, Op::Add, kInc, kFwd},
      // Small shapes only:
      {"rows_add_inc_rev_i32", 2, I32, Op::Add, kInc, kRev},
      {"rows_mul_exc_rev_i32", 2, I32, Op::Mul, kExc, kRev},
      {"rows_max_inc_rev_i32", 2, I32, Op::Max, kInc, kRev},
      {"rows_min_inc_rev_f32", 2, F32, Op::Min, kInc, kRev},
      {"rows_add_exc_f16", 2, F16, Op::Add, kExc, kFwd},
  };
  return specs;
}

/// Column scans (along 0); the first is the timed f32 sum.
const std::vector<Spec> &columnSpecs() {
  static const std::vector<Spec> specs = {
      {"cols_f32", 2, F32, Op::Add, kInc, kFwd, kCols},
      {"cols_add_exc_rev_i32", 2, I32, Op::Add, kExc, kRev, kCols},
      {"cols_max_exc_f32", 2, F32, Op::Max, kExc, kFwd, kCols},
      {"cols_mul_inc_rev_i32", 2, I32, Op::Mul, kInc, kRev, kCols},
      {"cols_min_exc_rev_f32", 2, F32, Op::Min, kExc, kRev, kCols},
      {"cols_bf16", 2, BF16, Op::Add, kInc, kFwd, kCols},
      {"cols_add_exc_f16", 2, F16, Op::Add, kExc, kFwd, kCols},
  };
  return specs;
}

/// The scans with a combiner region, at the end of kernels.mlir; the
/// first of each table is the timed f32 recurrence. Must match
/// kernels.mlir.
const std::vector<Spec> &regionVectorSpecs() {
  static const std::vector<Spec> specs = {
      {"scan_rec_inc_f32", 1, F32, Op::Recurrence, kInc, kFwd},
      {"scan_rec_exc_f32", 1, F32, Op::Recurrence, kExc, kFwd},
      {"scan_rec_inc_rev_f32", 1, F32, Op::Recurrence, kInc, kRev},
      {"scan_rec_exc_rev_f32", 1, F32, Op::Recurrence, kExc, kRev},
      {"scan_rec_inc_i32", 1, I32, Op::Recurrence, kInc, kFwd},
      {"scan_rec_exc_i32", 1, I32, Op::Recurrence, kExc, kFwd},
      {"scan_rec_inc_rev_i32", 1, I32, Op::Recurrence, kInc, kRev},
      {"scan_rec_exc_rev_i32", 1, I32, Op::Recurrence, kExc, kRev},
      {"scan_segsum_inc_i32", 1, I32, Op::SegmentedSum, kInc, kFwd},
      {"scan_segsum_exc_rev_i32", 1, I32, Op::SegmentedSum, kExc, kRev},
      {"scan_segsum_inc_i32f32", 1, F32, Op::SegmentedSum, kInc, kFwd},
      {"scan_segsum_exc_rev_i32f32", 1, F32, Op::SegmentedSum, kExc, kRev},
      {"scan_segmax_inc_i32f16", 1, F16, Op::SegmentedMax, kInc, kFwd},
      {"scan_segmax_exc_rev_i32bf16", 1, BF16, Op::SegmentedMax, kExc, kRev},
      {"scan_segmax_inc_i32f32", 1, F32, Op::SegmentedMax, kInc, kFwd},
  };
  return specs;
}

const std::vector<Spec> &regionRowSpecs() {
  static const std::vector<Spec> specs = {
      {"rows_rec_inc_f32", 2, F32, Op::Recurrence, kInc, kFwd},
      {"rows_rec_exc_rev_f32", 2, F32, Op::Recurrence, kExc, kRev},
      {"rows_rec_inc_i32", 2, I32, Op::Recurrence, kInc, kFwd},
      {"rows_rec_exc_i32", 2, I32, Op::Recurrence, kExc, kFwd},
      {"rows_rec_inc_rev_i32", 2, I32, Op::Recurrence, kInc, kRev},
      {"rows_segsum_inc_i32", 2, I32, Op::SegmentedSum, kInc, kFwd},
      {"rows_segsum_inc_i32f32", 2, F32, Op::SegmentedSum, kInc, kFwd},
      {"rows_segsum_exc_rev_i32f32", 2, F32, Op::SegmentedSum, kExc, kRev},
      {"rows_segmax_inc_i32bf16", 2, BF16, Op::SegmentedMax, kInc, kFwd},
      {"rows_segmax_exc_rev_i32f16", 2, F16, Op::SegmentedMax, kExc, kRev},
  };
  return specs;
}

const std::vector<Spec> &regionColumnSpecs() {
  static const std::vector<Spec> specs = {
      {"cols_rec_inc_f32", 2, F32, Op::Recurrence, kInc, kFwd, kCols},
      {"cols_rec_exc_rev_i32", 2, I32, Op::Recurrence, kExc, kRev, kCols},
      {"cols_segsum_inc_i32f32", 2, F32, Op::SegmentedSum, kInc, kFwd, kCols},
      {"cols_segmax_exc_rev_i32bf16", 2, BF16, Op::SegmentedMax, kExc, kRev,
       kCols},
  };
  return specs;
}

const Spec &findSpec(const std::vector<Spec> &specs, const char *name) {
  for (const Spec &s : specs)
    if (std::strcmp(s.kernel, name) == 0)
      return s;
  std::fprintf(stderr, "no kernel %s in the table\n", name);
  std::abort();
}

/// Issue 4's shapes: the timed f32 sums first (so that a crash later still
/// leaves the numbers), then the timed f32 recurrences and column sums,
/// every 1-D scan on the ragged lengths, the long checks, every row scan,
/// the region scans' checks, and every column scan's.
std::vector<Case> buildCases() {
  const std::vector<Spec> &vec = vectorSpecs(), &rows = rowSpecs(),
                          &cols = columnSpecs();
  const std::vector<Spec> &regionVec = regionVectorSpecs(),
                          &regionRows = regionRowSpecs(),
                          &regionCols = regionColumnSpecs();
  const Spec &scanF32 = vec[0], &rowsF32 = rows[0], &colsF32 = cols[0];
  const Spec &scanRecF32 = regionVec[0], &rowsRecF32 = regionRows[0];
  const int64_t big = int64_t(1) << 28;
  std::vector<Case> cases = {
      {scanF32, 0, 1 << 20, true},      {scanF32, 0, 1 << 24, true},
      {scanF32, 0, big, true},          {rowsF32, 4096, 4096, true},
      {rowsF32, 65536, 1024, true},     {rowsF32, 1024, 65536, true},
      {rowsF32, 3, 1000003, true},
      // Short rows, several a program (the tile.narrow ladder).
      {rowsF32, 1 << 20, 32, true},     {rowsF32, 262144, 100, true},
      {rowsF32, 65536, 500, true},
      // The recurrences, 16 bytes an element.
      {scanRecF32, 0, 1 << 20, true},   {scanRecF32, 0, 1 << 24, true},
      {scanRecF32, 0, big, true},       {rowsRecF32, 65536, 1024, true},
      {rowsRecF32, 1024, 65536, true},
      // Columns (along 0): the f32 sum, 8 bytes an element like the rows.
      {colsF32, 4096, 4096, true},      {colsF32, 65536, 1024, true},
      {colsF32, 1024, 65536, true},
  };
  // Other single passes: a reverse f32 sum and a bf16 sum (GB/s of their
  // own bytes).
  for (const char *name : {"scan_add_inc_rev_f32", "scan_add_inc_bf16"})
    for (int64_t n : {int64_t(1) << 24, big})
      cases.push_back({findSpec(vec, name), 0, n, true});
  for (const Spec &s : vec)
    for (int64_t n : {int64_t(1), int64_t(31), int64_t(32), int64_t(33),
                      int64_t(1000), int64_t((1 << 20) + 7)})
      cases.push_back({s, 0, n, false});
  // 2^28 (a GiB a buffer): the exact i32 sums, forward and reverse, three
  // runs each; the f32 sum is among the timed cases.
  for (const char *name : {"scan_i32", "scan_rev_i32"})
    for (const Spec &s : vec)
      if (std::strcmp(s.kernel, name) == 0)
        cases.push_back({s, 0, big, false});
  // Short rows reach every rung of the narrow ladder (widths 1 to 512,
  // ragged, rows not a multiple of a program's).
  const std::vector<std::pair<int64_t, int64_t>> small = {
      {1, 1},      {7, 31},     {5, 4097},  {1000, 1003}, {3, 100003},
      {1001, 1},   {333, 5},    {1001, 17}, {4099, 100},  {257, 300},
      {100, 512},  {100, 513}};
  const std::vector<std::pair<int64_t, int64_t>> large = {
      {4096, 4096}, {65536, 1024}, {1024, 65536}, {3, 1000003}};
  for (size_t k = 0; k < rows.size(); ++k) {
    for (auto [r, c] : small)
      cases.push_back({rows[k], r, c, false});
    if (k == 0) // rows_f32 on the large shapes: the timed cases
      continue;
    if (k < 7)
      for (auto [r, c] : large)
        cases.push_back({rows[k], r, c, false});
  }
  // Region scans: every one on the ragged lengths and rows; the exact ones
  // also over 2^24 elements (4096 programs chained by the look-back), and
  // every row scan at 4096x4096 and 3x1000003.
  for (const Spec &s : regionVec)
    for (int64_t n : {int64_t(1), int64_t(31), int64_t(32), int64_t(33),
                      int64_t(1000), int64_t(4097), int64_t((1 << 20) + 7)})
      cases.push_back({s, 0, n, false});
  for (const char *name :
       {"scan_rec_inc_i32", "scan_rec_exc_rev_i32", "scan_segsum_inc_i32",
        "scan_segmax_inc_i32f16", "scan_segmax_exc_rev_i32bf16"})
    cases.push_back({findSpec(regionVec, name), 0, 1 << 24, false});
  for (const Spec &s : regionRows) {
    for (auto [r, c] : small)
      cases.push_back({s, r, c, false});
    for (auto [r, c] :
         {std::pair<int64_t, int64_t>{4096, 4096}, {3, 1000003}})
      cases.push_back({s, r, c, false});
  }
  // Every column scan (kinds and regions) on shapes a column tiling must
  // get right: one row, a few columns, columns of a tile's height and
  // ragged around it, wide rows (3x1000003, many column blocks), tall
  // columns (100003x5: a long carry chain), both ragged (2053x2050).
  // cols_f32 also runs on the timed shapes (above).
  const std::vector<std::pair<int64_t, int64_t>> columnShapes = {
      {1, 1},     {1, 7},      {33, 5},      {1000, 3},
      {1001, 17}, {257, 300},  {100, 513},   {4099, 100},
      {3, 1000003}, {100003, 5}, {2053, 2050}};
  for (const auto *table : {&cols, &regionCols})
    for (const Spec &s : *table)
      for (auto [r, c] : columnShapes)
        cases.push_back({s, r, c, false});
  return cases;
}

/// --sweep: schedule variants of the 1-D f32 sum (bench/scan/tuning),
/// checked and timed like scan_f32 on the timed lengths.
std::vector<Case> sweepCases(const std::vector<std::string> &kernels) {
  static std::vector<std::string> names; // Spec keeps a C string
  names = kernels;
  std::vector<Case> cases;
  for (const std::string &name : names)
    for (int64_t n : {int64_t(1) << 20, int64_t(1) << 24, int64_t(1) << 28}) {
      Spec spec = vectorSpecs()[0];
      spec.kernel = name.c_str();
      cases.push_back({spec, 0, n, true});
    }
  return cases;
}

std::vector<std::string> splitList(const std::string &list) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos)
      end = list.size();
    if (end > start)
      items.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

std::string commaList(const std::string &list) { return "," + list + ","; }
bool listed(const std::string &list, const std::string &name) {
  return list.empty() || list.find("," + name + ",") != std::string::npos;
}

/// --time-rows (--time-cols): the row (column) kernels of --only (rows_f32,
/// cols_f32 without it), checked and timed on "RxC" shapes.
std::vector<Case> timedRowCases(const std::string &shapes,
                                const std::string &only, bool columns) {
  const std::vector<Spec> &table = columns ? columnSpecs() : rowSpecs();
  const char *fallback = columns ? "cols_f32" : "rows_f32";
  std::vector<Case> cases;
  for (const std::string &shape : splitList(shapes)) {
    size_t x = shape.find('x');
    if (x == std::string::npos)
      continue;
    int64_t rows = std::strtoll(shape.c_str(), nullptr, 10);
    int64_t cols = std::strtoll(shape.c_str() + x + 1, nullptr, 10);
    for (const Spec &s : table)
      if (only.empty() ? std::strcmp(s.kernel, fallback) == 0
                       : listed(only, s.kernel))
        cases.push_back({s, rows, cols, true});
  }
  return cases;
}

/// --time-lengths: the 1-D kernels of --only (sums and regions; scan_f32
/// without it), checked and timed at these lengths.
std::vector<Case> timedVectorCases(const std::string &lengths,
                                   const std::string &only) {
  std::vector<Case> cases;
  for (const std::string &length : splitList(lengths)) {
    int64_t n = std::strtoll(length.c_str(), nullptr, 10);
    for (const auto *table : {&vectorSpecs(), &regionVectorSpecs()})
      for (const Spec &s : *table)
        if (only.empty() ? std::strcmp(s.kernel, "scan_f32") == 0
                         : listed(only, s.kernel))
          cases.push_back({s, 0, n, true});
  }
  return cases;
}

int usage() {
  std::fprintf(stderr,
               "usage: tilec-scan-bench --cubin FILE [--json FILE] "
               "[--only K1,K2] [--shapes S1,S2] [--max-elements N] "
               "[--no-time] [--seed N] [--sweep K1,K2] [--time-rows RxC,...] "
               "[--time-cols RxC,...] [--time-lengths N,...] [--roofs PTX]\n"
               "       tilec-scan-bench --self-test [--seed N]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string cubin, json, only, shapes, sweep, timeRows, timeCols, timeLengths,
      roofsPtx;
  int64_t maxElements = INT64_MAX;
  bool time = true, selfTestOnly = false;
  unsigned seed = 12345;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool hasValue = i + 1 < argc;
    if (arg == "--cubin" && hasValue)
      cubin = argv[++i];
    else if (arg == "--json" && hasValue)
      json = argv[++i];
    else if (arg == "--only" && hasValue)
      only = commaList(argv[++i]);
    else if ((arg == "--shapes" || arg == "--lengths") && hasValue)
      shapes = commaList(argv[++i]);
    else if (arg == "--max-elements" && hasValue)
      maxElements = std::strtoll(argv[++i], nullptr, 0);
    else if (arg == "--seed" && hasValue)
      seed = unsigned(std::strtoul(argv[++i], nullptr, 0));
    else if (arg == "--sweep" && hasValue)
      sweep = argv[++i];
    else if (arg == "--time-rows" && hasValue)
      timeRows = argv[++i];
    else if (arg == "--time-cols" && hasValue)
      timeCols = argv[++i];
    else if (arg == "--time-lengths" && hasValue)
      timeLengths = argv[++i];
    else if (arg == "--roofs" && hasValue)
      roofsPtx = argv[++i];
    else if (arg == "--no-time")
      time = false;
    else if (arg == "--self-test")
      selfTestOnly = true;
    else
      return usage();
  }
  if (selfTestOnly) {
    std::mt19937 rng(seed);
    return selfTest(rng) ? 1 : 0;
  }
  if (cubin.empty())
    return usage();
  std::vector<Case> cases;
  std::vector<Case> candidates;
  if (!timeLengths.empty()) {
    candidates = timedVectorCases(timeLengths, only);
  } else if (!timeRows.empty() || !timeCols.empty()) {
    candidates = timedRowCases(timeRows, only, false);
    for (const Case &c : timedRowCases(timeCols, only, true))
      candidates.push_back(c);
  } else {
    candidates = !sweep.empty() ? sweepCases(splitList(sweep)) : buildCases();
  }
  for (const Case &c : candidates) {
    int64_t n = (c.rows ? c.rows : 1) * c.cols;
    std::string shape = c.rows ? std::to_string(c.rows) + "x" +
                                     std::to_string(c.cols)
                               : std::to_string(c.cols);
    if (listed(only, c.spec.kernel) && listed(shapes, shape) &&
        n <= maxElements)
      cases.push_back(c);
  }
  int passed = 0, failed = 0;
  std::vector<Row> results;
  tilec::bench::Roofs roofs;
  try {
    Context ctx(0);
    Module module = Module::loadFile(ctx, cubin);
    if (!roofsPtx.empty()) {
      Stream stream(ctx);
      roofs = tilec::bench::measureRoofs(ctx, stream, roofsPtx,
                                         tilec::bench::RoofSet::CopyOnly);
      std::printf("roof (measured now): copy %.0f GB/s (read + written); "
                  "roof%% = GB/s of it\n\n",
                  roofs.copyGBs);
    }
    std::mt19937 rng(seed);
    std::printf("%-27s %-14s %4s %10s %10s %6s %8s %9s %9s  %s\n", "kernel",
                "shape", "runs", "us", "GB/s", "roof%", "waves", "rel_err",
                "tol", "status");
    std::fflush(stdout);
    for (const Case &c : cases) {
      Row r = runCase(ctx, module, c, time, rng);
      (r.pass ? passed : failed)++;
      std::printf(
          "%-27s %-14s %4d %10.1f %10.1f %6.1f %8.2f %9.2e %9.1e  %s %s\n",
          r.kernel.c_str(), r.shape.c_str(), r.runs, r.us, r.gbPerS,
          100 * r.gbPerS / roofs.copyGBs, r.schedule.waves, r.relError,
          r.tolerance, r.pass ? "PASS" : "FAIL", r.error.c_str());
      std::fflush(stdout);
      results.push_back(r);
      if (!json.empty())
        writeJson(json, results, roofs.copyGBs);
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    std::printf("%d passed, %d failed\n", passed, failed + 1);
    return 1;
  }
  if (!json.empty())
    writeJson(json, results, roofs.copyGBs);
  std::printf("%d passed, %d failed\n", passed, failed);
  if (results.empty())
    std::fprintf(stderr, "no case matched --only/--shapes/--max-elements\n");
  return failed || results.empty() ? 1 : 0;
}
