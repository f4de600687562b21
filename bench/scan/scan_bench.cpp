//===- scan_bench.cpp - Check and time tilec scans ------------------------===//
//
// tilec-scan-bench --cubin FILE [--json FILE] [--only KERNEL,...]
//                  [--shapes SHAPE,...] [--max-elements N] [--no-time]
//                  [--seed N]
//
// Runs the scans of bench/scan/kernels.mlir on issue 4's shapes and checks
// each against a host reference on fresh random inputs, with the output
// poisoned before every launch: floats against a float64 scan (relative L2
// error), integers (wrapping like the GPU's), float max/min and f32
// products of powers of two exactly, on three runs whose outputs must also
// be identical (a changing result is a race). The f32 sums the issue times
// (1-D 2^20, 2^24, 2^28; rows 4096x4096, 65536x1024, 1024x65536,
// 3x1000003) are then timed: median of back-to-back launches between CUDA
// events, after warm-up; GB/s counts the input read and the output written
// once. The peers run in the same device call (bench/scan-gpu.sh:
// tilec-cub-scan, torch_cumsum.py).
//
//   --only     kernels to run (names in kernels.mlir)
//   --sweep    instead of the table: these kernels, each a 1-D f32 inclusive
//              sum (schedule variants), checked and timed at 2^20, 2^24, 2^28
//   --shapes   shapes to run, as printed: "1048583", "1000x1003"
//              (--lengths is the same option)
//   --max-elements  skip shapes of more elements (e.g. 2^28 for a quick run)
//   --no-time  checks only (for compute-sanitizer)
//
// Exit status 0 when every case ran passed, 1 otherwise (also when no case
// ran), 2 on bad usage. The JSON is rewritten after every case, so that a
// crash or a timeout keeps what ran.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"

#include <algorithm>
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
enum class Op { Add, Mul, Max, Min };

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
  }
  return "?";
}

/// One scan of kernels.mlir: what it computes. `rank` 1 scans a vector,
/// rank 2 every row.
struct Spec {
  const char *kernel;
  int rank;
  Element element;
  Op op;
  bool exclusive;
  bool reverse;
};

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
/// 65520 (subnormals included).
uint16_t toF16(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  float a = std::fabs(v);
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

/// The scan of every row of `x` (as doubles): float64 for floats (16-bit
/// ones as their exact values), wrapping 32-bit arithmetic for i32; the
/// identity of an exclusive scan is 0, 1, -inf/+inf (f32 max/min) or
/// INT32_MIN/INT32_MAX (i32 max/min), as tilec's.
template <typename T>
std::vector<double> reference(const Spec &s, int64_t rows, int64_t cols,
                              const std::vector<T> &x) {
  std::vector<double> ref(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    if (s.element == Element::I32) {
      uint32_t acc = s.op == Op::Add   ? 0u
                     : s.op == Op::Mul ? 1u
                     : s.op == Op::Max ? uint32_t(INT32_MIN)
                                       : uint32_t(INT32_MAX);
      for (int64_t k = 0; k < cols; ++k) {
        int64_t i = r * cols + (s.reverse ? cols - 1 - k : k);
        uint32_t before = acc, v = uint32_t(int32_t(decode(s.element, x[i])));
        switch (s.op) {
        case Op::Add: acc += v; break;
        case Op::Mul: acc *= v; break;
        case Op::Max: acc = uint32_t(std::max(int32_t(acc), int32_t(v))); break;
        case Op::Min: acc = uint32_t(std::min(int32_t(acc), int32_t(v))); break;
        }
        ref[i] = double(int32_t(s.exclusive ? before : acc));
      }
    } else {
      double acc = s.op == Op::Add   ? 0.0
                   : s.op == Op::Mul ? 1.0
                   : s.op == Op::Max ? -INFINITY
                                     : INFINITY;
      for (int64_t k = 0; k < cols; ++k) {
        int64_t i = r * cols + (s.reverse ? cols - 1 - k : k);
        double before = acc, v = decode(s.element, x[i]);
        switch (s.op) {
        case Op::Add: acc += v; break;
        case Op::Mul: acc *= v; break;
        case Op::Max: acc = std::max(acc, v); break;
        case Op::Min: acc = std::min(acc, v); break;
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
  Kernel kernel(module, s.kernel);
  std::vector<T> x = makeInput<T>(s, n, c.cols, rng);
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
  row.tolerance = tolerance(s, c.cols);
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
  }
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
void writeJson(const std::string &path, const std::vector<Row> &results) {
  std::ofstream out(path);
  out << "[\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const Row &r = results[i];
    int64_t n = (r.rows ? r.rows : 1) * r.cols;
    out << "  {\"kernel\": " << jsonString(r.kernel)
        << ", \"shape\": " << jsonString(r.shape)
        << ", \"us\": " << jsonNumber(r.us)
        << ", \"gb_per_s\": " << jsonNumber(r.gbPerS)
        << ", \"rel_error\": " << jsonNumber(r.relError)
        << ", \"status\": \"" << (r.pass ? "PASS" : "FAIL") << "\""
        << ", \"rows\": " << r.rows << ", \"cols\": " << r.cols
        << ", \"n\": " << n << ", \"dtype\": \"" << elementName(r.spec.element)
        << "\", \"op\": \"" << opName(r.spec.op) << "\", \"exclusive\": "
        << (r.spec.exclusive ? "true" : "false")
        << ", \"reverse\": " << (r.spec.reverse ? "true" : "false")
        << ", \"timed\": " << (r.timed ? "true" : "false")
        << ", \"exact\": " << (r.exact ? "true" : "false")
        << ", \"runs\": " << r.runs << ", \"identical\": "
        << (r.identical ? "true" : "false")
        << ", \"mismatches\": " << r.mismatches
        << ", \"tolerance\": " << jsonNumber(r.tolerance)
        << ", \"timing_runs\": " << r.timingRuns
        << ", \"error\": " << jsonString(r.error) << "}"
        << (i + 1 < results.size() ? ",\n" : "\n");
  }
  out << "]\n";
}

// --- the table ----------------------------------------------------------

constexpr bool kInc = false, kExc = true, kFwd = false, kRev = true;
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

/// Issue 4's shapes: the timed f32 sums first (so that a crash later still
/// leaves the numbers), then every 1-D scan on the ragged lengths, the
/// long checks, and every row scan.
std::vector<Case> buildCases() {
  const std::vector<Spec> &vec = vectorSpecs(), &rows = rowSpecs();
  const Spec &scanF32 = vec[0], &rowsF32 = rows[0];
  const int64_t big = int64_t(1) << 28;
  std::vector<Case> cases = {
      {scanF32, 0, 1 << 20, true},      {scanF32, 0, 1 << 24, true},
      {scanF32, 0, big, true},          {rowsF32, 4096, 4096, true},
      {rowsF32, 65536, 1024, true},     {rowsF32, 1024, 65536, true},
      {rowsF32, 3, 1000003, true},
  };
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
  const std::vector<std::pair<int64_t, int64_t>> small = {
      {1, 1}, {7, 31}, {5, 4097}, {1000, 1003}, {3, 100003}};
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

int usage() {
  std::fprintf(stderr,
               "usage: tilec-scan-bench --cubin FILE [--json FILE] "
               "[--only K1,K2] [--shapes S1,S2] [--max-elements N] "
               "[--no-time] [--seed N] [--sweep K1,K2]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string cubin, json, only, shapes, sweep;
  int64_t maxElements = INT64_MAX;
  bool time = true;
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
    else if (arg == "--no-time")
      time = false;
    else
      return usage();
  }
  if (cubin.empty())
    return usage();
  std::vector<Case> cases;
  for (const Case &c :
       sweep.empty() ? buildCases() : sweepCases(splitList(sweep))) {
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
  try {
    Context ctx(0);
    Module module = Module::loadFile(ctx, cubin);
    std::mt19937 rng(seed);
    std::printf("%-22s %-14s %4s %10s %10s %9s %9s  %s\n", "kernel", "shape",
                "runs", "us", "GB/s", "rel_err", "tol", "status");
    std::fflush(stdout);
    for (const Case &c : cases) {
      Row r = runCase(ctx, module, c, time, rng);
      (r.pass ? passed : failed)++;
      std::printf("%-22s %-14s %4d %10.1f %10.1f %9.2e %9.1e  %s %s\n",
                  r.kernel.c_str(), r.shape.c_str(), r.runs, r.us, r.gbPerS,
                  r.relError, r.tolerance, r.pass ? "PASS" : "FAIL",
                  r.error.c_str());
      std::fflush(stdout);
      results.push_back(r);
      if (!json.empty())
        writeJson(json, results);
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    std::printf("%d passed, %d failed\n", passed, failed + 1);
    return 1;
  }
  if (!json.empty())
    writeJson(json, results);
  std::printf("%d passed, %d failed\n", passed, failed);
  if (results.empty())
    std::fprintf(stderr, "no case matched --only/--shapes/--max-elements\n");
  return failed || results.empty() ? 1 : 0;
}
