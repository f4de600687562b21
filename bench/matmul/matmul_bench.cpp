//===- matmul_bench.cpp - Check and time tilec matmuls against cuBLAS -----===//
//
// tilec-matmul-bench --cubin FILE (--check | --bench) [--json FILE]
//                    [--shape MxNxK,...] [--variant NAME,...]
//                    [--seed N] [--device N] [--dry-run] [--fail-if-none]
//                    [--roofs bench/roofs/roofs.ptx]
//
// The cubin holds kernels mm_<in>_<out>_<la><lb>[_acc]: <in> the dtype of A
// and B, <out> that of C (f32, f16, bf16), <la>/<lb> the layout of A and B
// (r: row-major, c: column-major, i.e. stored as the row-major transpose), and
// _acc for C = A x B + C (else C = A x B). Each takes A, B, C as 2-D buffers:
// A {M, K} (r) or {K, M} (c), B {K, N} (r) or {N, K} (c), C {M, N}; the
// runtime computes the grid from the cubin's launch metadata. Kernels absent
// from the cubin are SKIP rows.
//
// --check: every available variant on fresh random inputs (uniform in [-1, 1),
//   rounded to the dtype) against a float64 host reference; 30 shapes, the
//   large ones with a rotating few variants each. C is poisoned (0xFF bytes:
//   NaN in every dtype) before non-accumulating launches and filled with
//   random values for _acc ones. Pass: ||out - ref|| / ||ref|| < 1e-5 for f32
//   in and out, < 1e-2 when a 16-bit type is involved, and no NaN/Inf
//   anywhere in C. ||ref|| is floored at half its expected value for random
//   inputs, so that chance cancellation in a C of few elements (1x1x4097)
//   cannot fail a correct kernel (see relativeError). Shapes above 2^27
//   multiply-adds compare a sample (corners, last row and column, 2048 random
//   elements) but scan all of C for NaN. Each run launches twice and must
//   give the same bits (else: a race). --shape and --variant select single
//   runs (for compute-sanitizer); a failing row is replayed by --seed S
//   --shape X --variant V, as each run's inputs derive from the seed and the
//   run's name.
//
// --bench: mm_bf16_bf16_rr and mm_f16_f16_rr at 1024^3, 2048^3, 4096^3,
//   8192^3, 3000x5000x4000 and mm_f32_f32_rr at 1024^3..4096^3 (and the
//   other bench cases: bf16 into f32, accumulating, B stored [N, K]), each
//   against cuBLAS in the same run on the same inputs: first cuBLAS is checked
//   against a float64 sample (so a harness bug cannot pass as a result), then
//   the tilec kernel is checked against cuBLAS over all of C; only a verified
//   kernel is timed. Times are CUDA event medians of back-to-back launches.
//   Each row also gives the quantisation of the schedule launched: waves
//   (C's tiles over the blocks that run at once: a last wave partly empty
//   leaves multiprocessors idle) and fill (the share of the tiles' elements
//   inside C: partial edge tiles compute padding). With --roofs, the run
//   first measures the roofs (bench/roofs/roofs.ptx: the tensor cores'
//   bf16 peak, the f32 FMA peak, copy bandwidth) and each row gives its
//   arithmetic intensity (FLOP a compulsory byte), the roof that bounds it
//   and the fraction of that roof tilec and cuBLAS reached.
//
// Exit status: 0 when nothing failed, 1 on a failure (or, with
// --fail-if-none, when nothing passed), 2 on bad usage. The last line of
// output is "N passed, N failed".
//
// One CUDA context for both sides: the tilec runtime retains the device's
// *primary* context (cuDevicePrimaryCtxRetain in runtime/lib/Runtime.cpp) and
// makes it current before each of its operations; cuBLAS goes through the
// CUDA runtime, which adopts the context current on the calling thread (and
// would pick the primary context anyway). So every buffer is a runtime
// DeviceBuffer, cuBLAS gets raw pointers (DeviceBuffer::data()) and the
// runtime's stream (CUstream and cudaStream_t are the same type), and both
// sides' launches are ordered on one stream and timed the same way.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CubinInfo.h"
#include "tilec/Runtime/Driver.h"
#include "tilec/Runtime/Runtime.h"

#include "Roofs.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace tilec;
using namespace tilec::rt;
using tilec::bench::Roofs;

namespace {

//===----------------------------------------------------------------------===//
// Element types and their host encodings
//===----------------------------------------------------------------------===//

enum class DType { F32, F16, BF16 };
constexpr DType kDTypes[] = {DType::F32, DType::F16, DType::BF16};

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  }
  return "?";
}

ScalarType scalarType(DType t) {
  switch (t) {
  case DType::F32:
    return ScalarType::F32;
  case DType::F16:
    return ScalarType::F16;
  case DType::BF16:
    return ScalarType::BF16;
  }
  return ScalarType::F32;
}

cudaDataType cudaType(DType t) {
  switch (t) {
  case DType::F32:
    return CUDA_R_32F;
  case DType::F16:
    return CUDA_R_16F;
  case DType::BF16:
    return CUDA_R_16BF;
  }
  return CUDA_R_32F;
}

size_t dtypeBytes(DType t) { return t == DType::F32 ? 4 : 2; }

uint32_t floatBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

float bitsToFloat(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// IEEE binary16, round to nearest even, with subnormals and infinities.
uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint32_t sign = (x >> 16) & 0x8000u, abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u) // NaN stays NaN (quiet)
    return uint16_t(sign | 0x7e00u);
  if (abs >= 0x47800000u) // 2^16 and above (and inf): beyond every half
    return uint16_t(sign | 0x7c00u);
  if (abs < 0x38800000u) { // below 2^-14: a subnormal half (or zero)
    // In units of the half subnormal 2^-24; the scaling is exact and
    // nearbyint rounds to nearest even. 1024 is the smallest normal's bits.
    float units = std::nearbyint(bitsToFloat(abs) * 16777216.0f);
    return uint16_t(sign | uint32_t(units));
  }
  uint32_t exponent = (abs >> 23) - 127 + 15, mantissa = abs & 0x7fffffu;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // a carry into the exponent is still correct (up to inf)
  return uint16_t(sign | half);
}

float halfToFloat(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float sign = (h & 0x8000) ? -1.0f : 1.0f;
  if (exponent == 0)
    return sign * std::ldexp(float(mantissa), -24);
  if (exponent == 31)
    return mantissa ? std::numeric_limits<float>::quiet_NaN()
                    : sign * std::numeric_limits<float>::infinity();
  return sign * std::ldexp(float(1024 + mantissa), exponent - 25);
}

/// bfloat16, round to nearest even.
uint16_t floatToBf16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

float bf16ToFloat(uint16_t b) { return bitsToFloat(uint32_t(b) << 16); }

/// `v` rounded to the nearest value of type `t` (every f16 and bf16 value is
/// a float, so the result is exact and is what the reference uses).
float roundTo(DType t, float v) {
  switch (t) {
  case DType::F32:
    return v;
  case DType::F16:
    return halfToFloat(floatToHalf(v));
  case DType::BF16:
    return bf16ToFloat(floatToBf16(v));
  }
  return v;
}

void storeElement(DType t, float v, uint8_t *dst) {
  if (t == DType::F32) {
    std::memcpy(dst, &v, 4);
    return;
  }
  uint16_t bits = t == DType::F16 ? floatToHalf(v) : floatToBf16(v);
  std::memcpy(dst, &bits, 2);
}

float loadElement(DType t, const uint8_t *src) {
  if (t == DType::F32) {
    float v;
    std::memcpy(&v, src, 4);
    return v;
  }
  uint16_t bits;
  std::memcpy(&bits, src, 2);
  return t == DType::F16 ? halfToFloat(bits) : bf16ToFloat(bits);
}

//===----------------------------------------------------------------------===//
// Variants and shapes
//===----------------------------------------------------------------------===//

struct Variant {
  DType in = DType::F32, out = DType::F32;
  bool aColMajor = false, bColMajor = false, accumulate = false;

  /// mm_<in>_<out>_<la><lb>[_acc], the kernel's name in the cubin.
  std::string name() const {
    return std::string("mm_") + dtypeName(in) + "_" + dtypeName(out) + "_" +
           (aColMajor ? "c" : "r") + (bColMajor ? "c" : "r") +
           (accumulate ? "_acc" : "");
  }
  /// gpu.md: 1e-5 for f32 SIMT; 1e-2 once a 16-bit type is read or written.
  double tolerance() const {
    return in == DType::F32 && out == DType::F32 ? 1e-5 : 1e-2;
  }
};

/// Every variant the harness knows, in a fixed order (the order of the
/// check's rows): input type, output type, A layout, B layout, accumulate.
std::vector<Variant> allVariants() {
  std::vector<Variant> all;
  for (DType in : kDTypes)
    for (DType out : kDTypes)
      for (bool aCol : {false, true})
        for (bool bCol : {false, true})
          for (bool acc : {false, true})
            all.push_back({in, out, aCol, bCol, acc});
  return all;
}

std::optional<Variant> findVariant(const std::string &name) {
  for (const Variant &v : allVariants())
    if (v.name() == name)
      return v;
  return std::nullopt;
}

struct Shape {
  int64_t m = 1, n = 1, k = 1;

  std::string str() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k);
  }
  double macs() const { return double(m) * double(n) * double(k); }
  double flops() const { return 2 * macs(); }
};

/// "MxNxK", each at least 1 and at most INT32_MAX (cuBLAS takes int).
std::optional<Shape> parseShape(const std::string &text) {
  int64_t dims[3];
  std::stringstream ss(text);
  std::string part;
  int count = 0;
  while (std::getline(ss, part, 'x')) {
    if (count == 3 || part.empty() ||
        part.find_first_not_of("0123456789") != std::string::npos ||
        part.size() > 10)
      return std::nullopt;
    dims[count++] = std::stoll(part);
  }
  if (count != 3)
    return std::nullopt;
  for (int64_t d : dims)
    if (d < 1 || d > std::numeric_limits<int32_t>::max())
      return std::nullopt;
  return Shape{dims[0], dims[1], dims[2]};
}

/// Above this many multiply-adds the reference is a sample of C.
constexpr double kFullReferenceMacs = double(1 << 27);
/// Random elements in a sampled reference (besides corners, last row/column).
constexpr int64_t kSampleCount = 2048;
/// Above this many multiply-adds a shape runs only a few variants.
constexpr double kLargeMacs = 4294967296.0; // 2^32
/// How many variants each large shape runs (rotating over the available).
constexpr size_t kVariantsPerLargeShape = 6;

/// The check's shapes: ragged and powers of two; 1 and odd sizes (127, 129,
/// 1023, 4097) in every position; K = 1; tall-skinny; and the big ones.
const std::vector<Shape> &checkShapes() {
  static const std::vector<Shape> shapes = {
      {1, 1, 1},        {7, 13, 5},       {33, 65, 17},
      {3, 5, 7},        {17, 31, 1},      {1, 257, 129},
      {255, 1, 129},    {1, 1, 4097},     {513, 257, 1},
      {64, 64, 64},     {128, 128, 128},  {256, 256, 256},
      {127, 129, 1023}, {129, 1023, 127}, {1023, 127, 129},
      {4097, 127, 129}, {129, 4097, 127}, {127, 129, 4097},
      {1000, 1003, 517}, {1023, 1023, 1023}, {1024, 1024, 1024},
      {8192, 16, 1024}, {16, 8192, 1024}, {1, 4096, 4096},
      {4096, 1, 4096},  {4097, 1023, 65}, {65, 129, 8192},
      {2048, 2048, 2048}, {3000, 5000, 4000}, {4096, 4096, 4096},
  };
  return shapes;
}

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

/// splitmix64: fast (the big shapes need tens of millions of values) and the
/// same sequence everywhere, so --seed replays a run exactly.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1): 24 random bits, exactly.
  float symmetric() { return float(next() >> 40) * (1.0f / 8388608.0f) - 1.0f; }
  /// Uniform in [0, n).
  int64_t below(int64_t n) { return int64_t(next() % uint64_t(n)); }

private:
  uint64_t state_;
};

/// The seed of one run: the master seed mixed with the run's name, so that a
/// run's inputs do not depend on which other runs were selected.
uint64_t runSeed(uint64_t seed, const std::string &name) {
  uint64_t h = 0xcbf29ce484222325ull; // FNV-1a
  for (char c : name)
    h = (h ^ uint8_t(c)) * 0x100000001b3ull;
  return Rng(seed ^ h).next();
}

/// `count` values uniform in [-1, 1), rounded to `t`.
std::vector<float> randomValues(size_t count, DType t, Rng &rng) {
  std::vector<float> v(count);
  for (float &x : v)
    x = roundTo(t, rng.symmetric());
  return v;
}

/// The bytes of a rows x cols row-major matrix `values` as stored on the
/// device: row-major, or (transpose) as the row-major cols x rows transpose.
std::vector<uint8_t> encode(const std::vector<float> &values, int64_t rows,
                            int64_t cols, DType t, bool transpose) {
  size_t size = dtypeBytes(t);
  std::vector<uint8_t> bytes(values.size() * size);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t dst = transpose ? c * rows + r : r * cols + c;
      storeElement(t, values[r * cols + c], &bytes[dst * size]);
    }
  return bytes;
}

std::vector<float> decode(const std::vector<uint8_t> &bytes, DType t) {
  size_t size = dtypeBytes(t);
  std::vector<float> values(bytes.size() / size);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = loadElement(t, &bytes[i * size]);
  return values;
}

/// The inputs of one matmul: exact values for the reference, laid out so
/// that each output element is a dot product of two contiguous rows, and the
/// bytes the kernel reads.
struct HostProblem {
  Shape shape;
  std::vector<float> a;  // M x K: A[m][k] at m*K + k
  std::vector<float> bt; // N x K: B[k][n] at n*K + k
  std::vector<float> c;  // M x N initial C of an _acc kernel; else empty
  std::vector<uint8_t> aBytes, bBytes, cBytes;
};

HostProblem makeProblem(const Shape &s, const Variant &v, Rng &rng) {
  HostProblem p;
  p.shape = s;
  p.a = randomValues(size_t(s.m * s.k), v.in, rng);
  p.bt = randomValues(size_t(s.n * s.k), v.in, rng);
  // Column-major A is stored as the row-major {K, M} A^T; row-major B
  // ({K, N}) is the transpose of bt, column-major B ({N, K}) is bt itself.
  p.aBytes = encode(p.a, s.m, s.k, v.in, v.aColMajor);
  p.bBytes = encode(p.bt, s.n, s.k, v.in, !v.bColMajor);
  if (v.accumulate) {
    p.c = randomValues(size_t(s.m * s.n), v.out, rng);
    p.cBytes = encode(p.c, s.m, s.n, v.out, false);
  }
  return p;
}

//===----------------------------------------------------------------------===//
// Reference and comparison
//===----------------------------------------------------------------------===//

/// Runs body(i) for i in [0, n) on all cores (the reference of the larger
/// shapes is 10^8 multiply-adds per variant).
template <typename Body> void parallelFor(int64_t n, const Body &body) {
  int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<int64_t>({threads, 64, (n + 63) / 64});
  if (threads <= 1) {
    for (int64_t i = 0; i < n; ++i)
      body(i);
    return;
  }
  std::vector<std::thread> pool;
  int64_t chunk = (n + threads - 1) / threads;
  for (int64_t t = 0; t < threads; ++t)
    pool.emplace_back([&body, t, chunk, n] {
      for (int64_t i = t * chunk; i < std::min(n, (t + 1) * chunk); ++i)
        body(i);
    });
  for (std::thread &th : pool)
    th.join();
}

/// C[m][n] in float64 from the exact inputs (a product of two floats is
/// exact in a double). If `scale2` is given, it receives the sum of the
/// squares of the terms (products and initial C): the expected square of
/// C[m][n] for independent zero-mean inputs.
double referenceAt(const HostProblem &p, int64_t m, int64_t n,
                   double *scale2 = nullptr) {
  int64_t k = p.shape.k;
  const float *a = &p.a[m * k], *b = &p.bt[n * k];
  double c = p.c.empty() ? 0.0 : double(p.c[m * p.shape.n + n]);
  double sum = c, sum2 = c * c;
  for (int64_t i = 0; i < k; ++i) {
    double t = double(a[i]) * double(b[i]);
    sum += t;
    sum2 += t * t;
  }
  if (scale2)
    *scale2 = sum2;
  return sum;
}

/// Flat indices (m*N + n) of the elements of C to compare: all of them, or
/// the four corners, the last row and column and `samples` random ones.
std::vector<int64_t> checkedIndices(const Shape &s, bool full, int64_t samples,
                                    Rng &rng) {
  std::vector<int64_t> idx;
  if (full) {
    idx.resize(size_t(s.m * s.n));
    for (size_t i = 0; i < idx.size(); ++i)
      idx[i] = int64_t(i);
    return idx;
  }
  idx = {0, s.n - 1, (s.m - 1) * s.n, s.m * s.n - 1};
  for (int64_t n = 0; n < s.n; ++n)
    idx.push_back((s.m - 1) * s.n + n);
  for (int64_t m = 0; m < s.m; ++m)
    idx.push_back(m * s.n + s.n - 1);
  std::sort(idx.begin(), idx.end());
  idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  // Random ones until `samples` more are distinct (or all of C is covered).
  size_t want = size_t(std::min(s.m * s.n, int64_t(idx.size()) + samples));
  while (idx.size() < want) {
    for (size_t i = idx.size(); i < want; ++i)
      idx.push_back(rng.below(s.m) * s.n + rng.below(s.n));
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
  }
  return idx;
}

/// The reference at the checked elements of C.
struct Reference {
  std::vector<double> value;
  /// Per element, the expected square of its value (see referenceAt).
  std::vector<double> scale2;
};

Reference referenceValues(const HostProblem &p,
                          const std::vector<int64_t> &indices) {
  Reference ref;
  ref.value.resize(indices.size());
  ref.scale2.resize(indices.size());
  parallelFor(int64_t(indices.size()), [&](int64_t i) {
    ref.value[i] = referenceAt(p, indices[i] / p.shape.n,
                               indices[i] % p.shape.n, &ref.scale2[i]);
  });
  return ref;
}

int64_t countNonFinite(const std::vector<float> &values) {
  int64_t count = 0;
  for (float v : values)
    count += !std::isfinite(v);
  return count;
}

/// ||out - ref|| / ||ref|| over the checked elements, with ||ref|| floored
/// at half its expected value sqrt(sum of scale2). With random inputs the
/// floor matters only when C has few elements and cancellation made it
/// small by chance: for 1x1x4097 a correct sequential f32 dot product then
/// exceeds 1e-5 in about one run in ten. `floored` says whether it applied.
/// NaN when a checked element is NaN or Inf (reported as "-", never a pass).
double relativeError(const std::vector<float> &out,
                     const std::vector<int64_t> &indices,
                     const Reference &ref, bool *floored = nullptr) {
  double diff2 = 0, ref2 = 0, expected2 = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    expected2 += ref.scale2[i];
    float o = out[size_t(indices[i])];
    if (!std::isfinite(o))
      return NAN;
    double d = double(o) - ref.value[i];
    diff2 += d * d;
    ref2 += ref.value[i] * ref.value[i];
  }
  double norm2 = std::max(ref2, expected2 / 4);
  if (floored)
    *floored = norm2 > ref2;
  // All-zero inputs have no scale: then the absolute error.
  return norm2 > 0 ? std::sqrt(diff2 / norm2) : std::sqrt(diff2);
}

/// ||out - ref|| / ||ref|| between two device results of equal size (tilec
/// vs cuBLAS); NaN when `out` has a NaN or Inf.
double relativeError(const std::vector<float> &out,
                     const std::vector<float> &ref) {
  double diff2 = 0, ref2 = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!std::isfinite(out[i]))
      return NAN;
    double d = double(out[i]) - double(ref[i]);
    diff2 += d * d;
    ref2 += double(ref[i]) * double(ref[i]);
  }
  return ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

/// A, B and C on the device.
struct DeviceOperands {
  DeviceBuffer a, b, c;
};

DeviceOperands allocateOperands(const Context &ctx, const Shape &s,
                                const Variant &v) {
  return {DeviceBuffer(ctx, size_t(s.m * s.k) * dtypeBytes(v.in)),
          DeviceBuffer(ctx, size_t(s.k * s.n) * dtypeBytes(v.in)),
          DeviceBuffer(ctx, size_t(s.m * s.n) * dtypeBytes(v.out))};
}

/// The typed launch of the kernel interface: A {M, K} or {K, M}, B {K, N} or
/// {N, K}, C {M, N}. The runtime checks the views against the kernel's
/// metadata and computes the grid.
std::vector<KernelArg> matmulArgs(const Variant &v, const Shape &s,
                                  const DeviceOperands &d) {
  std::vector<int64_t> sizesA = v.aColMajor ? std::vector<int64_t>{s.k, s.m}
                                            : std::vector<int64_t>{s.m, s.k};
  std::vector<int64_t> sizesB = v.bColMajor ? std::vector<int64_t>{s.n, s.k}
                                            : std::vector<int64_t>{s.k, s.n};
  return {d.a.view(scalarType(v.in), sizesA),
          d.b.view(scalarType(v.in), sizesB),
          d.c.view(scalarType(v.out), {s.m, s.n})};
}

void launchMatmul(const Kernel &kernel, const Stream &stream,
                  const Variant &v, const Shape &s, const DeviceOperands &d) {
  kernel.launchArgs(stream, matmulArgs(v, s, d));
}

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

/// Which kernel runs at `s`: "main"; "small", the small-grid variant, where
/// the grid would leave most SMs idle (or, 16-bit, C has at most 128
/// columns); "split", the small-grid variant's own (split-K), where even its
/// grid would; "gemv", the GEMV kernel, where C has few columns (named by
/// the selected kernel's suffix, as the narrow and small-grid ladders reach
/// the same kernels by different rungs); then "/fallback" for the
/// TMA-free twin of either, where a buffer cannot be described to TMA (rows not
/// 16-byte aligned), and "/elements" for an element-copy twin (tilec
/// --aligned-copy-kernels), where rows are not 4-byte aligned; "/repitch"
/// where the runtime copies misaligned operands into 16-byte pitched rows
/// for the kernel's TMA instead (launch metadata `repitch`).
std::string kernelPath(const Kernel &kernel, const Variant &v, const Shape &s,
                       const DeviceOperands &d) {
  std::vector<KernelArg> args = matmulArgs(v, s, d);
  const Kernel &selected = kernel.selectFor(args);
  const std::string &name = selected.name();
  std::string path = &selected == &kernel             ? "main"
                     : endsWith(name, "__gemv")       ? "gemv"
                     : endsWith(name, "__vecmat")     ? "vecmat"
                     : endsWith(name, "__small_grid") ? "small"
                                                      : "split";
  for (const Kernel *k = &selected; k != &kernel.launchedFor(args);
       k = k->fallbackKernel()) {
    bool elements = endsWith(k->fallbackKernel()->name(), "__element_copies");
    path += elements ? "/elements" : "/fallback";
  }
  if (kernel.repitches(args))
    path += "/repitch";
  if (path.rfind("main/", 0) == 0)
    path = path.substr(5);
  return path;
}

std::vector<float> downloadC(const DeviceOperands &d, DType out) {
  return decode(d.c.download<uint8_t>(), out);
}

/// The kernels a cubin file lists in its ELF symbols; nullopt if the file
/// is not an ELF cubin (a fatbin, PTX).
std::optional<CubinInfo> listKernels(const std::string &path) {
  return parseCubinFile(path);
}

/// Kernel `name` of the module, or nullopt when the cubin lacks it (a SKIP).
/// Throws Error when it is there but unusable (a FAIL: no launch metadata,
/// say). Absence is read from `listed` when there is one, rather than
/// learned from a failing cuModuleGetFunction, which compute-sanitizer
/// would report as an API error.
std::optional<Kernel> lookUpKernel(const Module &module,
                                   const std::optional<CubinInfo> &listed,
                                   const std::string &name) {
  if (listed && !listed->findKernel(name))
    return std::nullopt;
  try {
    return Kernel(module, name);
  } catch (const Error &e) {
    if (e.isDriverError() && e.result() == CUDA_ERROR_NOT_FOUND &&
        e.operation() == "cuModuleGetFunction")
      return std::nullopt;
    throw;
  }
}

/// After an error from the driver the context may be lost (an illegal
/// address is sticky): then nothing later can run.
bool contextUsable(const Context &ctx) {
  try {
    ctx.synchronize();
    return true;
  } catch (const Error &) {
    return false;
  }
}

//===----------------------------------------------------------------------===//
// cuBLAS
//===----------------------------------------------------------------------===//

void checkCublas(cublasStatus_t status, const char *operation) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string(operation) + " failed: " +
                cublasGetStatusName(status) + " (" +
                cublasGetStatusString(status) + ")");
}

/// A cuBLAS handle issuing its work on the runtime's stream, in the
/// runtime's (primary) context; see the header comment.
class Cublas {
public:
  Cublas(const Context &ctx, const Stream &stream) : ctx_(ctx) {
    ctx_.makeCurrent();
    checkCublas(cublasCreate(&handle_), "cublasCreate");
    cublasStatus_t status = cublasSetStream(handle_, stream.handle());
    if (status != CUBLAS_STATUS_SUCCESS)
      cublasDestroy(handle_);
    checkCublas(status, "cublasSetStream");
  }
  Cublas(const Cublas &) = delete;
  Cublas &operator=(const Cublas &) = delete;
  ~Cublas() { cublasDestroy(handle_); }

  /// "13.1.0".
  std::string version() const {
    int v = 0;
    checkCublas(cublasGetVersion(handle_, &v), "cublasGetVersion");
    return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) +
           "." + std::to_string(v % 100);
  }

  /// C = A x B (+ C with `accumulate`) for A (M x K) and B (K x N) of type
  /// `t` stored in `v`'s layouts and a row-major C (M x N) of type `out`,
  /// with f32 scaling and `compute` (a 32F compute type).
  void gemm(DType t, cublasComputeType_t compute, const Shape &s,
            const DeviceOperands &d, const Variant &v) const {
    // cuBLAS is column-major, and a row-major X is the column-major X^T; so
    // compute C^T (N x M) = B^T (N x K) A^T (K x M): m = N, n = M, C (ld N).
    // A row-major B [K, N] is B^T at ld N as it is; B stored [N, K] is B
    // at ld K, transposed. Likewise A [M, K] (ld K) or stored [K, M] (ld M).
    const float alpha = 1.0f, beta = v.accumulate ? 1.0f : 0.0f;
    cublasOperation_t opB = v.bColMajor ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t opA = v.aColMajor ? CUBLAS_OP_T : CUBLAS_OP_N;
    int ldb = int(v.bColMajor ? s.k : s.n), lda = int(v.aColMajor ? s.m : s.k);
    ctx_.makeCurrent();
    checkCublas(cublasGemmEx(handle_, opB, opA, int(s.n), int(s.m), int(s.k),
                             &alpha, devicePtr(d.b), cudaType(t), ldb,
                             devicePtr(d.a), cudaType(t), lda, &beta,
                             devicePtr(d.c), cudaType(v.out), int(s.n), compute,
                             CUBLAS_GEMM_DEFAULT),
                "cublasGemmEx");
  }

private:
  static void *devicePtr(const DeviceBuffer &b) {
    return reinterpret_cast<void *>(static_cast<uintptr_t>(b.data()));
  }
  const Context &ctx_;
  cublasHandle_t handle_ = nullptr;
};

/// f32 inputs use CUBLAS_COMPUTE_32F_PEDANTIC, given per call: pedantic
/// forbids TF32 and every other reduced-precision or emulated path (e.g. the
/// BF16x9 emulation of CUDA 13), so cuBLAS does plain f32 FMAs like tilec's
/// SIMT kernel; per call rather than handle-wide (cublasSetMathMode) so that
/// the 16-bit GEMMs on the same handle keep their default algorithms. Since
/// pedantic could be slower than the default, the bench also times the
/// default CUBLAS_COMPUTE_32F (which never uses TF32 unless asked, but may
/// reorder reductions) and reports it next to it, so the ratio is not
/// flattered. 16-bit inputs use CUBLAS_COMPUTE_32F: f32 accumulation.
cublasComputeType_t cublasCompute(DType t) {
  return t == DType::F32 ? CUBLAS_COMPUTE_32F_PEDANTIC : CUBLAS_COMPUTE_32F;
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

/// Launches after the warm-up estimate: within [kMinRuns, kMaxRuns], about
/// kTimeBudgetMs of GPU time each.
constexpr int kWarmupRuns = 3, kMinRuns = 5, kMaxRuns = 50;
constexpr double kTimeBudgetMs = 1500;
/// Inputs rotate over enough operand sets that each launch finds its inputs
/// out of L2 (60 MB on an H200): at least this many bytes in all. Rotating
/// is preferred to flushing L2 with a big memset between runs, which leaves
/// up to 60 MB of dirty lines that the timed kernel would have to write back
/// (about 15 us, more than a whole 1024^3 bf16 GEMM).
constexpr size_t kRotationBytes = size_t(256) << 20;
constexpr int kMaxSets = 64;

struct Timing {
  double medianMs = NAN;
  int runs = 0;
};

/// The median of `runs` launches: launch(i) issues launch i; all are issued
/// back to back, an event between each two, so the GPU runs them without
/// gaps and no launch overhead is timed.
template <typename Launch>
double medianMs(const Context &ctx, const Stream &stream, int runs,
                const Launch &launch) {
  std::vector<Event> events;
  for (int i = 0; i <= runs; ++i)
    events.emplace_back(ctx);
  for (int i = 0; i < runs; ++i) {
    events[i].record(stream);
    launch(i);
  }
  events[runs].record(stream);
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i)
    ms.push_back(Event::elapsedMs(events[i], events[i + 1]));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Warm-up (also the estimate that sets the number of runs), then the timed
/// runs.
template <typename Launch>
Timing timeLaunches(const Context &ctx, const Stream &stream,
                    const Launch &launch) {
  double estimate = medianMs(ctx, stream, kWarmupRuns, launch);
  Timing t;
  t.runs = int(std::clamp(kTimeBudgetMs / std::max(estimate, 1e-3),
                          double(kMinRuns), double(kMaxRuns)));
  t.medianMs = medianMs(ctx, stream, t.runs, launch);
  return t;
}

//===----------------------------------------------------------------------===//
// Output helpers
//===----------------------------------------------------------------------===//

std::string fmt(const char *format, double v) {
  if (std::isnan(v))
    return "-";
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += std::string("\\") + c;
    else if (c == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else
      out += c;
  }
  return out + "\"";
}

std::string jsonNumber(double v) {
  if (std::isnan(v) || std::isinf(v))
    return "null";
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

double tflops(const Shape &s, double ms) { return s.flops() / (ms * 1e9); }

/// "2026-11-21T19:05:00Z".
std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

/// The CUDA driver's version, "13.0" (cuDriverGetVersion through the
/// runtime's loaded driver).
std::string driverVersion() {
  using Fn = CUresult (*)(int *);
  auto fn = reinterpret_cast<Fn>(driverEntryPoint("cuDriverGetVersion"));
  int v = 0;
  if (!fn || fn(&v) != CUDA_SUCCESS)
    return "unknown";
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

/// The header fields shared by both JSON files.
std::string jsonHeader(const std::string &mode, const Context &ctx,
                       const std::string &cubin, uint64_t seed) {
  const Device &d = ctx.device();
  return "  \"mode\": " + jsonString(mode) +
         ",\n  \"device\": " + jsonString(d.name) +
         ",\n  \"compute_capability\": " +
         std::to_string(d.computeCapability()) +
         ",\n  \"sm_count\": " + std::to_string(d.smCount) +
         ",\n  \"driver_version\": " + jsonString(driverVersion()) +
         ",\n  \"date\": " + jsonString(utcNow()) +
         ",\n  \"cubin\": " + jsonString(cubin) +
         ",\n  \"seed\": " + std::to_string(seed) + ",\n";
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

struct Options {
  std::string cubin, json;
  /// --roofs: bench/roofs/roofs.ptx, whose kernels measure the roofs
  /// (bench/roofs/Roofs.h).
  std::string roofs;
  bool check = false, bench = false, dryRun = false;
  /// Exit 1 when no tilec kernel ran (all SKIP): a vacuous pass.
  bool failIfNone = false;
  std::vector<Shape> shapes;          // --shape: replaces the built-in list
  std::vector<std::string> variants;  // --variant: only these kernels
  int device = 0;
  /// Fresh from the OS unless --seed is given; printed for replay.
  std::optional<uint64_t> seed;

  bool wants(const std::string &kernel) const {
    return variants.empty() ||
           std::find(variants.begin(), variants.end(), kernel) !=
               variants.end();
  }
};

//===----------------------------------------------------------------------===//
// --check
//===----------------------------------------------------------------------===//

struct CheckRow {
  std::string variant, shape, status; // PASS, FAIL, SKIP
  std::string path = "-"; // the kernel that ran: main, fallback, small or
                          // small/fallback (see kernelPath)
  double relError = NAN, tolerance = NAN;
  int64_t nonFinite = 0, checked = 0;
  bool sampled = false;
  bool floored = false; // see relativeError
  bool deterministic = true;
  std::string error;
};

/// The variants each shape runs: all available ones on shapes up to
/// kLargeMacs, and on larger ones kVariantsPerLargeShape of them spread
/// evenly over the list (so over input types, output types and layouts),
/// starting one place further for each large shape so that they cover
/// different variants; all of them on shapes given with --shape.
std::vector<std::pair<Shape, std::vector<Variant>>>
planChecks(const std::vector<Shape> &shapes,
           const std::vector<Variant> &available, bool subsetLarge) {
  std::vector<std::pair<Shape, std::vector<Variant>>> plan;
  size_t start = 0;
  for (const Shape &s : shapes) {
    std::vector<Variant> vs;
    if (subsetLarge && s.macs() > kLargeMacs && !available.empty()) {
      size_t count = std::min(kVariantsPerLargeShape, available.size());
      size_t step = available.size() / count;
      for (size_t i = 0; i < count; ++i)
        vs.push_back(available[(start + i * step) % available.size()]);
      // Odd, so that successive shapes alternate plain and _acc kernels.
      start += 5;
    } else {
      vs = available;
    }
    plan.emplace_back(s, std::move(vs));
  }
  return plan;
}

/// One launch of `v` at `s` on fresh inputs, compared with the reference.
CheckRow runCheck(const Context &ctx, const Stream &stream,
                  const Kernel &kernel, const Variant &v, const Shape &s,
                  uint64_t seed) {
  CheckRow row;
  row.variant = v.name();
  row.shape = s.str();
  row.status = "FAIL";
  row.tolerance = v.tolerance();
  Rng rng(runSeed(seed, row.variant + "@" + row.shape));
  HostProblem p = makeProblem(s, v, rng);
  DeviceOperands d = allocateOperands(ctx, s, v);
  d.a.upload(p.aBytes);
  d.b.upload(p.bBytes);
  // Launches into a fresh C and returns C's bytes.
  auto launchOnce = [&] {
    if (v.accumulate)
      d.c.upload(p.cBytes);
    else
      d.c.memset(0xff); // NaN in f32, f16 and bf16: an unwritten C fails
    launchMatmul(kernel, stream, v, s, d);
    stream.synchronize();
    return d.c.download<uint8_t>();
  };
  row.path = kernelPath(kernel, v, s, d);
  std::vector<uint8_t> first = launchOnce();
  // The same inputs must give the same bits (gpu.md: else it is a race).
  row.deterministic = launchOnce() == first;
  std::vector<float> out = decode(first, v.out);

  row.sampled = s.macs() > kFullReferenceMacs;
  std::vector<int64_t> indices =
      checkedIndices(s, !row.sampled, kSampleCount, rng);
  row.checked = int64_t(indices.size());
  row.nonFinite = countNonFinite(out); // all of C, sampled or not
  row.relError = relativeError(out, indices, referenceValues(p, indices),
                               &row.floored);
  bool pass = row.nonFinite == 0 && row.relError < row.tolerance &&
              row.deterministic;
  row.status = pass ? "PASS" : "FAIL";
  if (row.nonFinite)
    row.error = std::to_string(row.nonFinite) +
                " elements of C are NaN/Inf (not written?)";
  if (!row.deterministic)
    row.error += std::string(row.error.empty() ? "" : "; ") +
                 "a second launch on the same inputs gave different bits "
                 "(a race?)";
  return row;
}

void printCheckHeader() {
  std::printf("%-20s %-16s %-14s %10s %8s %-13s %s\n", "variant", "shape",
              "path", "rel_err", "tol", "checked", "status");
}

void printCheckRow(const CheckRow &r) {
  std::string checked =
      r.checked == 0 ? "-"
                     : (r.sampled ? "sample " : "all ") +
                           std::to_string(r.checked);
  std::printf("%-20s %-16s %-14s %10s %8s %-13s %s%s%s\n", r.variant.c_str(),
              r.shape.c_str(), r.path.c_str(), fmt("%.2e", r.relError).c_str(),
              fmt("%.0e", r.tolerance).c_str(), checked.c_str(),
              r.status.c_str(), r.floored ? "  (||ref|| floored)" : "",
              r.error.empty() ? "" : ("  " + r.error).c_str());
  std::fflush(stdout);
}

bool writeCheckJson(const std::string &path, const std::string &header,
                    const std::vector<CheckRow> &rows, int passed, int failed,
                    int skipped) {
  std::ofstream out(path);
  out << "{\n"
      << header << "  \"error_metric\": "
      << jsonString("||out - ref|| / max(||ref||, ||s|| / 2) over the checked "
                    "elements, s[m][n]^2 = sum_k (A[m][k] B[k][n])^2 + "
                    "C0[m][n]^2 (the expected ref^2 for random inputs)")
      << ",\n  \"passed\": " << passed
      << ",\n  \"failed\": " << failed << ",\n  \"skipped\": " << skipped
      << ",\n  \"results\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const CheckRow &r = rows[i];
    out << "    {\"variant\": " << jsonString(r.variant)
        << ", \"shape\": " << jsonString(r.shape)
        << ", \"path\": " << jsonString(r.path)
        << ", \"status\": " << jsonString(r.status)
        << ", \"rel_error\": " << jsonNumber(r.relError)
        << ", \"tolerance\": " << jsonNumber(r.tolerance)
        << ", \"non_finite\": " << r.nonFinite
        << ", \"checked_elements\": " << r.checked
        << ", \"sampled\": " << (r.sampled ? "true" : "false")
        << ", \"norm_floored\": " << (r.floored ? "true" : "false")
        << ", \"deterministic\": " << (r.deterministic ? "true" : "false")
        << ", \"error\": " << jsonString(r.error) << "}"
        << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
  return bool(out);
}

/// The variants the user asked for (all by default), in the fixed order.
std::vector<Variant> selectedVariants(const Options &opts) {
  std::vector<Variant> selected;
  for (const Variant &v : allVariants())
    if (opts.wants(v.name()))
      selected.push_back(v);
  return selected;
}

/// Looks up every selected variant in the module: the available ones go to
/// `kernels`, the others become SKIP rows (absent) or FAIL rows (present but
/// unusable, e.g. without launch metadata).
std::vector<CheckRow> findKernels(const Module &module,
                                  const std::optional<CubinInfo> &listed,
                                  const std::vector<Variant> &selected,
                                  std::map<std::string, Kernel> &kernels,
                                  std::vector<Variant> &available) {
  std::vector<CheckRow> rows;
  for (const Variant &v : selected) {
    CheckRow r;
    r.variant = v.name();
    r.shape = "-";
    try {
      std::optional<Kernel> kernel = lookUpKernel(module, listed, v.name());
      if (kernel) {
        kernels.emplace(v.name(), *kernel);
        available.push_back(v);
        continue;
      }
      r.status = "SKIP";
      r.error = "not in the cubin";
    } catch (const Error &e) {
      r.status = "FAIL";
      r.error = e.what();
    }
    rows.push_back(r);
  }
  return rows;
}

int runCheckMode(const Context &ctx, const Options &opts, uint64_t seed) {
  Module module = Module::loadFile(ctx, opts.cubin);
  std::map<std::string, Kernel> kernels;
  std::vector<Variant> available;
  std::vector<CheckRow> rows =
      findKernels(module, listKernels(opts.cubin), selectedVariants(opts),
                  kernels, available);
  printCheckHeader();
  for (const CheckRow &r : rows)
    printCheckRow(r);

  bool userShapes = !opts.shapes.empty();
  auto plan = planChecks(userShapes ? opts.shapes : checkShapes(), available,
                         !userShapes);
  Stream stream(ctx);
  std::string lost; // the error after which the context was unusable
  for (const auto &[shape, variants] : plan)
    for (const Variant &v : variants) {
      CheckRow r;
      r.variant = v.name();
      r.shape = shape.str();
      r.status = "FAIL";
      if (!lost.empty()) {
        r.error = "not run: the CUDA context was lost after: " + lost;
      } else {
        try {
          r = runCheck(ctx, stream, kernels.at(v.name()), v, shape, seed);
        } catch (const Error &e) {
          r.error = e.what();
          if (e.isDriverError() && !contextUsable(ctx))
            lost = e.what();
        }
      }
      printCheckRow(r);
      rows.push_back(r);
    }

  int passed = 0, failed = 0, skipped = 0;
  for (const CheckRow &r : rows) {
    passed += r.status == "PASS";
    failed += r.status == "FAIL";
    skipped += r.status == "SKIP";
  }
  int status = failed || (opts.failIfNone && passed == 0) ? 1 : 0;
  if (!opts.json.empty() &&
      !writeCheckJson(opts.json, jsonHeader("check", ctx, opts.cubin, seed),
                      rows, passed, failed, skipped)) {
    std::fprintf(stderr, "cannot write '%s'\n", opts.json.c_str());
    status = 1;
  }
  std::printf("\n%d variants available, %d skipped (not in the cubin)\n",
              int(available.size()), skipped);
  std::printf("%d passed, %d failed\n", passed, failed);
  return status;
}

//===----------------------------------------------------------------------===//
// --bench
//===----------------------------------------------------------------------===//

/// A row-major variant (its kernel named by Variant::name) timed against
/// cuBLAS at `shapes`: C of its own type, and accumulating with beta = 1.
struct BenchCase {
  Variant variant;
  std::vector<Shape> shapes;
};

/// Row-major A and B, output dtype = input dtype: the common case cuBLAS is
/// tuned for; the bf16 kernels that write f32 or add to C; and B stored
/// [N, K] (a linear layer's weight), in bf16 and f32.
const std::vector<BenchCase> &benchCases() {
  static const std::vector<Shape> big = {{1024, 1024, 1024},
                                         {2048, 2048, 2048},
                                         {4096, 4096, 4096},
                                         {8192, 8192, 8192},
                                         {3000, 5000, 4000}};
  static const std::vector<BenchCase> cases = {
      {{DType::BF16, DType::BF16}, big},
      {{DType::F16, DType::F16}, big},
      {{DType::F32, DType::F32},
       {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}}},
      {{DType::BF16, DType::F32}, big},
      {{DType::BF16, DType::BF16, false, false, /*accumulate=*/true}, big},
      {{DType::BF16, DType::F32, false, false, /*accumulate=*/true}, big},
      {{DType::BF16, DType::BF16, false, /*bColMajor=*/true}, big},
      {{DType::F32, DType::F32, false, /*bColMajor=*/true},
       {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}}},
  };
  return cases;
}

struct BenchRow {
  std::string kernel, dtype, status = "FAIL"; // PASS, FAIL, SKIP
  Shape shape;
  std::string cublasCompute;
  double tilecMs = NAN, cublasMs = NAN, cublasDefaultMs = NAN;
  int tilecRuns = 0, cublasRuns = 0, sets = 0;
  double errorVsCublas = NAN, tilecRefError = NAN, cublasRefError = NAN;
  int64_t nonFinite = 0;
  std::string error;
  /// The schedule of the kernel launched: C tiles, blocks launched, blocks
  /// resident a multiprocessor, waves (tiles over the blocks running at
  /// once) and the share of the tiles' elements inside C.
  uint64_t tiles = 0, blocks = 0;
  int residentPerSm = 0;
  double waves = NAN, tileFill = NAN;
  /// Against the roofs (--roofs): FLOP a compulsory byte, the roof that
  /// bounds the shape (TFLOP/s) and whether it is the memory one.
  double intensity = NAN, roofTflops = NAN;
  bool memoryBound = false;
};

/// Tile and wave quantisation of the kernel `kernel` launches for `args`
/// (C is m x n): a last wave that is partly empty, and partial edge tiles,
/// both leave tensor cores idle.
void describeSchedule(const Kernel &kernel, const std::vector<KernelArg> &args,
                      const Shape &s, BenchRow &row) {
  Kernel::Quantisation q = kernel.quantisationFor(args);
  row.tiles = q.programs;
  row.blocks = q.blocks;
  row.residentPerSm = q.residentPerSm;
  row.waves = q.waves;
  const tilec::LaunchMetadata &meta = kernel.launchedFor(args).metadata();
  std::array<uint64_t, 3> grid = tilec::rt::computeGrid(meta, args);
  // Matmul grids: x over C's columns, y over its rows, one term each.
  if (meta.grid[0].size() == 1 && meta.grid[1].size() == 1 && row.tiles) {
    double covered = double(grid[0] * meta.grid[0][0].perProgram) *
                     double(grid[1] * meta.grid[1][0].perProgram);
    row.tileFill = double(s.m) * double(s.n) / covered;
  }
}

/// Elements of the float64 check in bench mode (besides the corners and
/// the last row and column): enough to catch a wrong cuBLAS call.
constexpr int64_t kBenchSampleCount = 256;

/// One (kernel, shape): cuBLAS checked against float64 and timed, then the
/// tilec kernel (if present) checked against cuBLAS and float64 and, only if
/// right, timed. Fills `row` as it goes, so that a failure (an exception)
/// keeps what was measured before it.
void runBench(const Context &ctx, const Stream &stream, const Cublas &cublas,
              const BenchCase &bc, const Kernel *kernel, const Shape &s,
              uint64_t seed, BenchRow &row) {
  const Variant &v = bc.variant;
  const DType t = v.in;
  row.cublasCompute = t == DType::F32 ? "CUBLAS_COMPUTE_32F_PEDANTIC"
                                      : "CUBLAS_COMPUTE_32F";
  Rng rng(runSeed(seed, v.name() + "@" + s.str() + "/bench"));
  HostProblem p = makeProblem(s, v, rng);

  // Operand sets to rotate over (the same values at different addresses).
  size_t setBytes =
      p.aBytes.size() + p.bBytes.size() + size_t(s.m * s.n) * dtypeBytes(v.out);
  row.sets = int(std::clamp<size_t>((kRotationBytes + setBytes - 1) / setBytes,
                                    2, kMaxSets));
  std::vector<DeviceOperands> ops;
  for (int i = 0; i < row.sets; ++i) {
    ops.push_back(allocateOperands(ctx, s, v));
    ops.back().a.upload(p.aBytes);
    ops.back().b.upload(p.bBytes);
    // Accumulating, timed launches add to C again and again: its values
    // drift, its cost does not.
    if (v.accumulate)
      ops.back().c.upload(p.cBytes);
  }
  auto next = [&](int i) -> const DeviceOperands & {
    return ops[size_t(i % row.sets)];
  };
  // C as a checked launch starts from: C's values, or NaN (an unwritten
  // element fails).
  auto freshC = [&] {
    if (v.accumulate)
      ops[0].c.upload(p.cBytes);
    else
      ops[0].c.memset(0xff);
  };

  // cuBLAS first, checked against float64: a wrong call (layouts, types)
  // would otherwise make every tilec kernel look wrong, or a wrong one right.
  freshC();
  cublas.gemm(t, cublasCompute(t), s, ops[0], v);
  stream.synchronize();
  std::vector<float> cublasOut = downloadC(ops[0], v.out);
  std::vector<int64_t> idx = checkedIndices(s, false, kBenchSampleCount, rng);
  Reference ref = referenceValues(p, idx);
  row.cublasRefError = relativeError(cublasOut, idx, ref);
  if (countNonFinite(cublasOut) || !(row.cublasRefError < v.tolerance())) {
    row.error = "cuBLAS disagrees with the float64 reference (harness bug?)";
    return;
  }
  Timing ct = timeLaunches(ctx, stream, [&](int i) {
    cublas.gemm(t, cublasCompute(t), s, next(i), v);
  });
  row.cublasMs = ct.medianMs;
  row.cublasRuns = ct.runs;
  if (t == DType::F32)
    row.cublasDefaultMs = timeLaunches(ctx, stream, [&](int i) {
                            cublas.gemm(t, CUBLAS_COMPUTE_32F, s, next(i), v);
                          }).medianMs;

  if (!kernel) {
    row.status = "SKIP";
    row.error = "not in the cubin";
    return;
  }
  // The tilec kernel on the same inputs, into the same fresh C.
  freshC();
  launchMatmul(*kernel, stream, v, s, ops[0]);
  stream.synchronize();
  std::vector<float> out = downloadC(ops[0], v.out);
  row.nonFinite = countNonFinite(out);
  row.errorVsCublas = relativeError(out, cublasOut);
  row.tilecRefError = relativeError(out, idx, ref);
  if (row.nonFinite || !(row.errorVsCublas < v.tolerance()) ||
      !(row.tilecRefError < v.tolerance())) {
    row.error = "wrong result, not timed";
    if (row.nonFinite)
      row.error += " (" + std::to_string(row.nonFinite) + " NaN/Inf in C)";
    return;
  }
  Timing tt = timeLaunches(ctx, stream, [&](int i) {
    launchMatmul(*kernel, stream, v, s, next(i));
  });
  row.tilecMs = tt.medianMs;
  row.tilecRuns = tt.runs;
  describeSchedule(*kernel, matmulArgs(v, s, ops[0]), s, row);
  row.status = "PASS";
}

/// Bytes a matmul must move at least: A and B read once, C written (and
/// read, when accumulating) once.
double compulsoryBytes(const Shape &s, DType in, DType out, bool accumulate) {
  return double(dtypeBytes(in)) * (double(s.m) * s.k + double(s.k) * s.n) +
         double(dtypeBytes(out)) * double(s.m) * s.n * (accumulate ? 2 : 1);
}

/// Where `row` stands against the roofs: its arithmetic intensity (FLOP a
/// compulsory byte), the roof that bounds it (the compute peak of its type,
/// or intensity x copy bandwidth) and the fraction of it each side reached.
void placeOnRoofline(const Roofs &roofs, const BenchCase &bc, BenchRow &row) {
  if (!roofs.measured())
    return;
  const Variant &v = bc.variant;
  DType t = v.in;
  row.intensity =
      row.shape.flops() / compulsoryBytes(row.shape, t, v.out, v.accumulate);
  double peak = t == DType::F32 ? roofs.fmaTflops : roofs.tensorTflops;
  double memoryRoof = row.intensity * roofs.copyGBs / 1e3;
  row.memoryBound = memoryRoof < peak;
  row.roofTflops = std::min(peak, memoryRoof);
}

void printBenchHeader() {
  std::printf("%-16s %-16s %9s %8s %9s %8s %7s %10s %9s %6s %5s %6s %9s %6s "
              "%6s  %s\n",
              "kernel", "shape", "tilec_ms", "TFLOP/s", "cublas_ms", "TFLOP/s",
              "ratio", "err_cublas", "cb32F_TF", "waves", "fill", "AI",
              "roof_TF", "tilec%", "cblas%", "status");
}

void printBenchRow(const BenchRow &r) {
  double ratio = r.cublasMs / r.tilecMs;
  std::string roof =
      std::isfinite(r.roofTflops)
          ? fmt("%.0f", r.roofTflops) + (r.memoryBound ? "(M)" : "(C)")
          : "-";
  std::printf("%-16s %-16s %9s %8s %9s %8s %7s %10s %9s %6s %5s %6s %9s %6s "
              "%6s  %s%s%s\n",
              r.kernel.c_str(), r.shape.str().c_str(),
              fmt("%.3f", r.tilecMs).c_str(),
              fmt("%.1f", tflops(r.shape, r.tilecMs)).c_str(),
              fmt("%.3f", r.cublasMs).c_str(),
              fmt("%.1f", tflops(r.shape, r.cublasMs)).c_str(),
              fmt("%.3f", ratio).c_str(), fmt("%.2e", r.errorVsCublas).c_str(),
              fmt("%.1f", tflops(r.shape, r.cublasDefaultMs)).c_str(),
              fmt("%.2f", r.waves).c_str(), fmt("%.3f", r.tileFill).c_str(),
              fmt("%.0f", r.intensity).c_str(), roof.c_str(),
              fmt("%.1f", 100 * tflops(r.shape, r.tilecMs) / r.roofTflops).c_str(),
              fmt("%.1f", 100 * tflops(r.shape, r.cublasMs) / r.roofTflops).c_str(),
              r.status.c_str(), r.error.empty() ? "" : "  ", r.error.c_str());
  std::fflush(stdout);
}

bool writeBenchJson(const std::string &path, const std::string &header,
                    const std::string &cublasVersion, const Roofs &roofs,
                    const std::vector<BenchRow> &rows) {
  std::ofstream out(path);
  out << "{\n" << header << "  \"cublas_version\": " << jsonString(cublasVersion)
      << ",\n  \"roofs\": {\"tensor_bf16_tflops\": "
      << jsonNumber(roofs.tensorTflops)
      << ", \"fma_f32_tflops\": " << jsonNumber(roofs.fmaTflops)
      << ", \"copy_gbs\": " << jsonNumber(roofs.copyGBs)
      << ", \"how\": "
      << jsonString("bench/roofs/roofs.ptx in the same run: warpgroup MMA "
                    "m64n256k16 bf16 (one group in flight), 8 chains of f32 "
                    "FMA a thread, a 16-byte-a-thread copy (read + written)")
      << "}"
      << ",\n  \"timing\": "
      << jsonString("median of " + std::to_string(kMinRuns) + "-" +
                    std::to_string(kMaxRuns) +
                    " back-to-back launches (CUDA events) after " +
                    std::to_string(kWarmupRuns) +
                    " warm-up ones; inputs rotated over >= " +
                    std::to_string(kRotationBytes >> 20) + " MiB of operands")
      << ",\n  \"results\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const BenchRow &r = rows[i];
    const Shape &s = r.shape;
    out << "    {\"kernel\": " << jsonString(r.kernel)
        << ", \"dtype\": " << jsonString(r.dtype)
        << ", \"shape\": " << jsonString(s.str()) << ", \"m\": " << s.m
        << ", \"n\": " << s.n << ", \"k\": " << s.k
        << ", \"status\": " << jsonString(r.status)
        << ", \"tilec_ms\": " << jsonNumber(r.tilecMs)
        << ", \"tilec_tflops\": " << jsonNumber(tflops(s, r.tilecMs))
        << ", \"cublas_ms\": " << jsonNumber(r.cublasMs)
        << ", \"cublas_tflops\": " << jsonNumber(tflops(s, r.cublasMs))
        << ", \"ratio\": " << jsonNumber(r.cublasMs / r.tilecMs)
        << ", \"cublas_compute\": " << jsonString(r.cublasCompute)
        << ", \"cublas_default_ms\": " << jsonNumber(r.cublasDefaultMs)
        << ", \"cublas_default_tflops\": "
        << jsonNumber(tflops(s, r.cublasDefaultMs))
        << ", \"tilec_runs\": " << r.tilecRuns
        << ", \"cublas_runs\": " << r.cublasRuns
        << ", \"rotating_sets\": " << r.sets
        << ", \"rel_error_vs_cublas\": " << jsonNumber(r.errorVsCublas)
        << ", \"tilec_rel_error_vs_ref\": " << jsonNumber(r.tilecRefError)
        << ", \"cublas_rel_error_vs_ref\": " << jsonNumber(r.cublasRefError)
        << ", \"non_finite\": " << r.nonFinite
        << ", \"tiles\": " << r.tiles << ", \"blocks\": " << r.blocks
        << ", \"resident_blocks_per_sm\": " << r.residentPerSm
        << ", \"waves\": " << jsonNumber(r.waves)
        << ", \"tile_fill\": " << jsonNumber(r.tileFill)
        << ", \"intensity\": " << jsonNumber(r.intensity)
        << ", \"roof_tflops\": " << jsonNumber(r.roofTflops)
        << ", \"roof\": "
        << jsonString(!std::isfinite(r.roofTflops) ? ""
                      : r.memoryBound             ? "memory"
                                                  : "compute")
        << ", \"tilec_roof_fraction\": "
        << jsonNumber(tflops(s, r.tilecMs) / r.roofTflops)
        << ", \"cublas_roof_fraction\": "
        << jsonNumber(tflops(s, r.cublasMs) / r.roofTflops)
        << ", \"error\": " << jsonString(r.error) << "}"
        << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
  return bool(out);
}

std::vector<const BenchCase *> selectedBenchCases(const Options &opts) {
  std::vector<const BenchCase *> cases;
  for (const BenchCase &bc : benchCases())
    if (opts.wants(bc.variant.name()))
      cases.push_back(&bc);
  return cases;
}

int runBenchMode(const Context &ctx, const Options &opts, uint64_t seed) {
  Module module = Module::loadFile(ctx, opts.cubin);
  Stream stream(ctx);
  Cublas cublas(ctx, stream);
  std::string cublasVersion = cublas.version();
  std::printf("cuBLAS %s, CUDA driver %s; ratio = tilec TFLOP/s / cuBLAS "
              "TFLOP/s; cb32F_TF = cuBLAS f32 in default (non-pedantic) "
              "mode\n\n",
              cublasVersion.c_str(), driverVersion().c_str());
  Roofs roofs;
  if (!opts.roofs.empty()) {
    roofs = tilec::bench::measureRoofs(ctx, stream, opts.roofs);
    std::printf("roofs (measured now): bf16/f16 tensor %.1f TFLOP/s, f32 FMA "
                "%.1f TFLOP/s, copy %.0f GB/s; AI = FLOP a compulsory byte, "
                "roof_TF (C)ompute or (M)emory bound, tilec%%/cblas%% of it\n\n",
                roofs.tensorTflops, roofs.fmaTflops, roofs.copyGBs);
  }
  printBenchHeader();
  std::vector<BenchRow> rows;
  std::string lost;
  std::optional<CubinInfo> listed = listKernels(opts.cubin);
  for (const BenchCase *bc : selectedBenchCases(opts)) {
    std::optional<Kernel> kernel;
    std::string kernelError; // present but unusable
    try {
      kernel = lookUpKernel(module, listed, bc->variant.name());
    } catch (const Error &e) {
      kernelError = e.what();
    }
    for (const Shape &s : opts.shapes.empty() ? bc->shapes : opts.shapes) {
      BenchRow row;
      row.kernel = bc->variant.name();
      row.dtype = dtypeName(bc->variant.in);
      row.shape = s;
      if (!lost.empty()) {
        row.error = "not run: the CUDA context was lost after: " + lost;
      } else {
        try {
          placeOnRoofline(roofs, *bc, row);
          runBench(ctx, stream, cublas, *bc, kernel ? &*kernel : nullptr, s,
                   seed, row);
          if (!kernelError.empty()) {
            row.status = "FAIL";
            row.error = kernelError;
          }
        } catch (const Error &e) {
          row.status = "FAIL";
          row.error = e.what();
          if (e.isDriverError() && !contextUsable(ctx))
            lost = e.what();
        }
      }
      printBenchRow(row);
      rows.push_back(row);
    }
  }

  int passed = 0, failed = 0, skipped = 0;
  for (const BenchRow &r : rows) {
    passed += r.status == "PASS";
    failed += r.status == "FAIL";
    skipped += r.status == "SKIP";
  }
  int status = failed || (opts.failIfNone && passed == 0) ? 1 : 0;
  if (!opts.json.empty() &&
      !writeBenchJson(opts.json, jsonHeader("bench", ctx, opts.cubin, seed),
                      cublasVersion, roofs, rows)) {
    std::fprintf(stderr, "cannot write '%s'\n", opts.json.c_str());
    status = 1;
  }
  std::printf("\n%d skipped (kernel not in the cubin; cuBLAS still timed)\n",
              skipped);
  std::printf("%d passed, %d failed\n", passed, failed);
  return status;
}

//===----------------------------------------------------------------------===//
// --dry-run and the command line
//===----------------------------------------------------------------------===//

/// What a run would do, assuming every selected kernel is in the cubin;
/// needs no GPU.
void printPlan(const Options &opts) {
  if (opts.bench) {
    for (const BenchCase *bc : selectedBenchCases(opts))
      for (const Shape &s : opts.shapes.empty() ? bc->shapes : opts.shapes)
        std::printf("bench %-16s %s\n", bc->variant.name().c_str(),
                    s.str().c_str());
    return;
  }
  bool userShapes = !opts.shapes.empty();
  auto plan = planChecks(userShapes ? opts.shapes : checkShapes(),
                         selectedVariants(opts), !userShapes);
  size_t runs = 0;
  for (const auto &[shape, variants] : plan) {
    std::printf("check %-16s %2zu variants%s:", shape.str().c_str(),
                variants.size(),
                shape.macs() > kFullReferenceMacs ? " (sampled)" : "");
    if (variants.size() == selectedVariants(opts).size())
      std::printf(" all");
    else
      for (const Variant &v : variants)
        std::printf(" %s", v.name().c_str());
    std::printf("\n");
    runs += variants.size();
  }
  std::printf("%zu shapes, %zu launches\n", plan.size(), runs);
}

const char kUsage[] =
    "usage: tilec-matmul-bench --cubin FILE (--check | --bench) [--json FILE]\n"
    "         [--shape MxNxK,...] [--variant NAME,...] [--seed N]\n"
    "         [--device N] [--dry-run] [--fail-if-none] [--roofs PTX]\n"
    "  --check     every variant in the cubin on 30 shapes vs float64\n"
    "  --bench     bf16/f16/f32 row-major kernels timed against cuBLAS\n"
    "  --shape     only these shapes (check: every selected variant on each)\n"
    "  --variant   only these kernels, e.g. mm_bf16_f32_rc_acc\n"
    "  --dry-run   print what would run (no GPU needed)\n"
    "  --fail-if-none  exit 1 if no kernel of the cubin ran (all SKIP)\n"
    "  --roofs     with --bench: measure the roofs with this PTX\n"
    "              (bench/roofs/roofs.ptx) and place each row on them\n";

std::vector<std::string> splitComma(const std::string &s) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, ',');)
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

bool parseUnsigned(const std::string &text, uint64_t &out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  out = std::strtoull(text.c_str(), nullptr, 10);
  return errno == 0;
}

enum class ParseResult { Ok, Help, Bad };

/// Parses one option (with its value) at argv[i]; false on a bad one.
bool parseOption(int argc, char **argv, int &i, Options &opts) {
  std::string arg = argv[i], v;
  auto value = [&]() {
    if (i + 1 >= argc)
      return false;
    v = argv[++i];
    return true;
  };
  uint64_t number = 0;
  if (arg == "--check")
    opts.check = true;
  else if (arg == "--bench")
    opts.bench = true;
  else if (arg == "--dry-run")
    opts.dryRun = true;
  else if (arg == "--fail-if-none")
    opts.failIfNone = true;
  else if (arg == "--cubin")
    return value() && !(opts.cubin = v).empty();
  else if (arg == "--json")
    return value() && !(opts.json = v).empty();
  else if (arg == "--roofs")
    return value() && !(opts.roofs = v).empty();
  else if (arg == "--seed") {
    if (!value() || !parseUnsigned(v, number))
      return false;
    opts.seed = number;
  } else if (arg == "--device") {
    if (!value() || !parseUnsigned(v, number) || number > 1024)
      return false;
    opts.device = int(number);
  } else if (arg == "--shape") {
    if (!value())
      return false;
    for (const std::string &text : splitComma(v)) {
      std::optional<Shape> s = parseShape(text);
      if (!s) {
        std::fprintf(stderr, "bad shape '%s' (want MxNxK, each >= 1)\n",
                     text.c_str());
        return false;
      }
      opts.shapes.push_back(*s);
    }
  } else if (arg == "--variant") {
    if (!value())
      return false;
    for (const std::string &name : splitComma(v)) {
      if (!findVariant(name)) {
        std::fprintf(stderr, "unknown variant '%s' (want e.g. mm_f16_f32_rc or "
                             "mm_bf16_bf16_rr_acc)\n",
                     name.c_str());
        return false;
      }
      opts.variants.push_back(name);
    }
  } else
    return false;
  return true;
}

ParseResult parseArgs(int argc, char **argv, Options &opts) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::printf("%s", kUsage);
      return ParseResult::Help;
    }
    if (!parseOption(argc, argv, i, opts)) {
      std::fprintf(stderr, "bad argument '%s'\n%s", arg.c_str(), kUsage);
      return ParseResult::Bad;
    }
  }
  if (opts.check == opts.bench) {
    std::fprintf(stderr, "give exactly one of --check and --bench\n%s", kUsage);
    return ParseResult::Bad;
  }
  if (opts.cubin.empty() && !opts.dryRun) {
    std::fprintf(stderr, "--cubin is required\n%s", kUsage);
    return ParseResult::Bad;
  }
  if (opts.bench && selectedBenchCases(opts).empty()) {
    std::fprintf(stderr, "--variant selects no bench kernel (mm_bf16_bf16_rr, "
                         "mm_f16_f16_rr, mm_f32_f32_rr, mm_bf16_f32_rr, their "
                         "_acc, mm_bf16_bf16_rc, mm_f32_f32_rc)\n");
    return ParseResult::Bad;
  }
  return ParseResult::Ok;
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  switch (parseArgs(argc, argv, opts)) {
  case ParseResult::Help:
    return 0;
  case ParseResult::Bad:
    return 2;
  case ParseResult::Ok:
    break;
  }
  if (opts.dryRun) {
    printPlan(opts);
    return 0;
  }
  try {
    if (deviceCount() == 0) {
      std::string why;
      tryDriver(&why);
      throw Error("no CUDA device" + (why.empty() ? "" : ": " + why));
    }
    Context ctx(opts.device);
    std::printf("device %d: %s (sm_%d, %d SMs), cubin %s\n", opts.device,
                ctx.device().name.c_str(), ctx.device().computeCapability(),
                ctx.device().smCount, opts.cubin.c_str());
    std::random_device rd;
    uint64_t seed = opts.seed ? *opts.seed : (uint64_t(rd()) << 32) ^ rd();
    std::printf("input seed %llu (replay with --seed %llu)\n\n",
                static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(seed));
    return opts.check ? runCheckMode(ctx, opts, seed)
                      : runBenchMode(ctx, opts, seed);
  } catch (const std::exception &e) {
    // Keep the promise of a last "N passed, N failed" line.
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", e.what());
    std::printf("0 passed, 1 failed\n");
    return 1;
  }
}
