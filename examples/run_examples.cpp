//===- run_examples.cpp - Run and check the examples on a GPU -------------===//
//
// tilec-run-examples --cubin-dir DIR[,DIR...] [--source-dir DIR]
//                    [--mode aot|jit|both]
//                    [--json FILE] [--only NAME,...] [--device N] [--seed N]
//                    [--max-gflop X]  (skip shapes above X GFLOP)
//                    [--shapes AxB...,...]  (these shapes instead of the
//                                            examples' own)
//
// For every example, mode and shape: load the module (AOT: DIR/<file>.cubin;
// JIT: compile <source-dir>/<file>.mlir in-process), make fresh random inputs,
// poison the output (every byte 0xFF: NaN in f32, f16 and bf16, -1 in i32),
// launch once, check the output against a float64 host reference (f32, f16,
// bf16: relative L2 error and no NaN; i32: exact), then time the kernel with
// events (median of 20 after warm-up). With several cubin folders (builds
// to compare) or both modes, every kernel of a shape runs on the same inputs
// and the timings alternate between them, three rounds (the median's
// median). Prints one table (with TFLOP/s where
// the example counts its flops) and, with --json, the same rows as JSON
// (kernel name, source file, shape, median time, flops, errors); exits
// non-zero on any failure. Without a GPU it lists what it would run and
// exits 0.
//
// <file> is the kernel's name unless the example names its source file: one
// .mlir file may define several kernels (examples/matmul_epilogue.mlir defines
// matmul_bias_relu, matmul_plain and matmul_softmax). --only takes kernel
// names, or a source file's stem for all of its kernels. Matmul shapes read
// MxNxK, b2b_gemm's MxNxKxH, attention's BxHxNxcausal (batch, heads,
// sequence length; the head dimension is the kernel's).
//
// Sampled references: where a float64 reference of the whole output would be
// too slow on the host (a prepare function passes its reference's work to
// referenceRows(); above kFullReferenceWork, 2^31, e.g. M*N*K
// multiply-adds), the reference covers only kSampledRows rows of the output,
// spread evenly from the first to the last (Workload::checkedRows), and the
// error is measured on those rows; the NaN (poison) count still covers every
// element of a floating-point output, so an element the kernel misses fails
// anywhere. The table's `checked` column and the JSON's `sampled` and
// `checked_rows` say which rows were compared.
//
// Attention comparison (Example::compare = Compare::Attention, the
// attention_block.mlir kernels): FlashAttention's criterion. The prepare
// function gives a second reference, computed in the kernel's low precision
// (Workload::referenceLowp); the output passes when
//   max |out - ref| <= 2 * max |ref_lowp - ref| + 1e-3
// (the table's `bound` column, the JSON's `max_abs_bound`), no element is
// NaN (poison), and its relative L2 error is below the example's tolerance.
//
// To add an example, write a prepare function and add a row to examples().
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"
#ifdef TILEC_RUN_EXAMPLES_JIT
#include "tilec/Runtime/Jit.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace tilec;
using namespace tilec::rt;

namespace {

using Shape = std::vector<int64_t>;

/// One prepared run: device buffers, the launch arguments that view them,
/// which buffer is the output, and the float64 reference for it.
struct Workload {
  std::vector<DeviceBuffer> buffers;
  std::vector<KernelArg> args;
  size_t output = 0;
  /// f32, f16 and bf16 outputs are compared by relative error, i32 ones
  /// exactly.
  ScalarType outputType = ScalarType::F32;
  /// Which rows the reference covers (set by referenceRows()): empty for the
  /// whole output; else the output read as rows of `rowLength` elements, and
  /// these rows of it, ascending.
  std::vector<int64_t> checkedRows;
  int64_t rowLength = 0;
  /// The float64 reference: of the whole output, or of the checked rows one
  /// after another.
  std::vector<double> reference;
  /// Compare::Attention only: the same elements computed as a low-precision
  /// kernel would (bf16 rounding where it rounds), for the error bound.
  std::vector<double> referenceLowp;
  /// A second, f32 output (attention's log-sum-exp), poisoned like the
  /// first: elements auxElements must be within kAuxTolerance (+
  /// kAuxRelTolerance relative) of auxReference, infinities equal.
  std::optional<size_t> aux;
  std::vector<int64_t> auxElements;
  std::vector<double> auxReference;
};

/// The bound on |aux - auxReference| (FlashAttention-3's tests hold the
/// log-sum-exp to 1e-3), widened by kAuxRelTolerance * |auxReference| where
/// an f32 of that size cannot hold 1e-3: a log-sum-exp of 1e4 is 2^-10 an
/// ulp.
constexpr double kAuxTolerance = 1e-3;
constexpr double kAuxRelTolerance = 1e-6;

using PrepareFn = Workload (*)(const Context &, const Shape &, std::mt19937 &);
/// Floating-point operations of one launch on a shape (for TFLOP/s).
using FlopsFn = double (*)(const Shape &);

/// How an example's output is judged.
enum class Compare {
  /// Relative L2 error below the tolerance (f32, f16, bf16), or exact (i32).
  RelL2,
  /// FlashAttention's criterion against Workload::referenceLowp (see the
  /// top of the file), and the relative L2 error below the tolerance.
  Attention,
};

struct Example {
  /// The kernel @<name>, defined by examples/<source>.mlir (AOT:
  /// <cubin-dir>/<source>.cubin).
  const char *name;
  std::vector<Shape> shapes;
  PrepareFn prepare;
  /// Bound on ||out - ref|| / ||ref|| (gpu.md: 1e-5 for f32 SIMT).
  double tolerance = 1e-5;
  /// Optional: the table and JSON then give TFLOP/s.
  FlopsFn flops = nullptr;
  /// The source file's stem, when it is not the kernel's name (one file
  /// defining several kernels).
  const char *source = nullptr;
  Compare compare = Compare::RelL2;
};

/// The stem of the example's .mlir and .cubin files.
std::string sourceStem(const Example &ex) {
  return ex.source ? ex.source : ex.name;
}

/// Calls fn(first, last) on contiguous blocks that cover [0, count), one
/// block a host core, in parallel: the float64 references and the random
/// inputs of large shapes were most of a run's time on one core. fn must
/// not throw.
template <typename Fn> void parallelBlocks(int64_t count, Fn fn) {
  int64_t threads = std::min<int64_t>(
      std::max(1u, std::thread::hardware_concurrency()), count);
  if (threads <= 1) {
    if (count > 0)
      fn(int64_t(0), count);
    return;
  }
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t)
    pool.emplace_back([&fn, count, threads, t] {
      fn(count * t / threads, count * (t + 1) / threads);
    });
  for (std::thread &thread : pool)
    thread.join();
}

//===----------------------------------------------------------------------===//
// Sampled references
//===----------------------------------------------------------------------===//

/// Above this much reference work (inner-loop steps, e.g. M*N*K
/// multiply-adds) a prepare function computes the reference of a sample of
/// the output's rows only.
constexpr double kFullReferenceWork = 2147483648.0; // 2^31
/// Rows in such a sample.
constexpr int64_t kSampledRows = 64;

/// The rows of a `rows` x `rowLength` output whose reference the prepare
/// function is to compute, in this order, given the work a reference of the
/// whole output would take: all of them, or (above kFullReferenceWork, and
/// recorded in w.checkedRows) kSampledRows rows spread evenly over the
/// output, the first and the last included. The same for every seed, so a
/// failure replays.
std::vector<int64_t> referenceRows(Workload &w, int64_t rows,
                                   int64_t rowLength, double work) {
  w.rowLength = rowLength;
  w.checkedRows.clear();
  if (work <= kFullReferenceWork || rows <= kSampledRows) {
    std::vector<int64_t> all(rows);
    for (int64_t r = 0; r < rows; ++r)
      all[r] = r;
    return all;
  }
  for (int64_t i = 0; i < kSampledRows; ++i) {
    int64_t r = i * (rows - 1) / (kSampledRows - 1);
    if (w.checkedRows.empty() || r != w.checkedRows.back())
      w.checkedRows.push_back(r);
  }
  return w.checkedRows;
}

//===----------------------------------------------------------------------===//
// Inputs and references
//===----------------------------------------------------------------------===//

std::vector<float> uniform(size_t n, std::mt19937 &rng, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// Adds an input buffer holding `host`, or an output buffer of `elements`
/// floats; returns its index.
size_t addBuffer(Workload &w, const Context &ctx, const std::vector<float> &host) {
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, host));
  return w.buffers.size() - 1;
}
size_t addOutput(Workload &w, const Context &ctx, size_t elements) {
  w.buffers.emplace_back(ctx, elements * sizeof(float));
  w.output = w.buffers.size() - 1;
  return w.output;
}

// saxpy(alpha: f32, x, y, out: f32[n]): out = alpha * x + y.
Workload prepareSaxpy(const Context &ctx, const Shape &shape,
                      std::mt19937 &rng) {
  int64_t n = shape[0];
  float alpha = uniform(1, rng, 0.5f, 2.0f)[0];
  std::vector<float> x = uniform(n, rng, -1, 1), y = uniform(n, rng, -1, 1);
  Workload w;
  size_t dx = addBuffer(w, ctx, x), dy = addBuffer(w, ctx, y);
  size_t out = addOutput(w, ctx, n);
  w.args = {alpha, w.buffers[dx].view<float>({n}),
            w.buffers[dy].view<float>({n}), w.buffers[out].view<float>({n})};
  w.reference.resize(n);
  for (int64_t i = 0; i < n; ++i)
    w.reference[i] = double(alpha) * x[i] + y[i];
  return w;
}

// softmax(x, y: f32[rows, cols]): y = softmax of each row of x.
Workload prepareSoftmax(const Context &ctx, const Shape &shape,
                        std::mt19937 &rng) {
  int64_t rows = shape[0], cols = shape[1];
  std::vector<float> x = uniform(rows * cols, rng, -8, 8);
  Workload w;
  size_t dx = addBuffer(w, ctx, x);
  size_t out = addOutput(w, ctx, rows * cols);
  w.args = {w.buffers[dx].view<float>({rows, cols}),
            w.buffers[out].view<float>({rows, cols})};
  w.reference.resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = &x[r * cols];
    double max = *std::max_element(row, row + cols), sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      sum += std::exp(double(row[c]) - max);
    for (int64_t c = 0; c < cols; ++c)
      w.reference[r * cols + c] = std::exp(double(row[c]) - max) / sum;
  }
  return w;
}

// layernorm(x: f32[rows, cols], gamma, beta: f32[cols], y: f32[rows, cols],
// eps: f32): y = (x - mean) / sqrt(var + eps) * gamma + beta, per row.
Workload prepareLayernorm(const Context &ctx, const Shape &shape,
                          std::mt19937 &rng) {
  int64_t rows = shape[0], cols = shape[1];
  const float eps = 1e-5f;
  std::vector<float> x = uniform(rows * cols, rng, -1, 1);
  std::vector<float> gamma = uniform(cols, rng, 0.5f, 1.5f);
  std::vector<float> beta = uniform(cols, rng, -0.5f, 0.5f);
  Workload w;
  size_t dx = addBuffer(w, ctx, x), dg = addBuffer(w, ctx, gamma),
         db = addBuffer(w, ctx, beta);
  size_t out = addOutput(w, ctx, rows * cols);
  w.args = {w.buffers[dx].view<float>({rows, cols}),
            w.buffers[dg].view<float>({cols}), w.buffers[db].view<float>({cols}),
            w.buffers[out].view<float>({rows, cols}), eps};
  w.reference.resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = &x[r * cols];
    double mean = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c)
      mean += row[c];
    mean /= cols;
    for (int64_t c = 0; c < cols; ++c)
      var += (row[c] - mean) * (row[c] - mean);
    var /= cols;
    double rstd = 1 / std::sqrt(var + eps);
    for (int64_t c = 0; c < cols; ++c)
      w.reference[r * cols + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
  }
  return w;
}

// colsum(x: i32[rows, cols], sums: i32[cols]): column sums, exact. Inputs are
// positive, so the poison (-1) cannot be a right answer.
Workload prepareColsum(const Context &ctx, const Shape &shape,
                       std::mt19937 &rng) {
  int64_t rows = shape[0], cols = shape[1];
  std::uniform_int_distribution<int32_t> dist(1, 1000);
  std::vector<int32_t> x(rows * cols);
  for (int32_t &v : x)
    v = dist(rng);
  Workload w;
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, x));
  w.buffers.emplace_back(ctx, cols * sizeof(int32_t));
  w.output = 1;
  w.outputType = ScalarType::I32;
  w.args = {w.buffers[0].view<int32_t>({rows, cols}),
            w.buffers[1].view<int32_t>({cols})};
  w.reference.assign(cols, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      w.reference[c] += x[r * cols + c];
  return w;
}

// IEEE half precision on the host, for f16 inputs and outputs.
uint16_t floatToHalf(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  uint32_t sign = (f >> 16) & 0x8000;
  int32_t exponent = int32_t((f >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = f & 0x7fffff;
  if (exponent <= 0) // flush values below the normal range to zero
    return uint16_t(sign);
  if (exponent >= 31)
    return uint16_t(sign | 0x7c00);
  // Round to nearest, ties to even.
  uint32_t half = sign | (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(half);
}

double halfToDouble(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  if (exponent == 31)
    return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// bfloat16 on the host: the upper half of an f32, for bf16 inputs and
// outputs.
uint16_t floatToBf16(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  if ((f & 0x7fffffffu) > 0x7f800000u) // NaN stays NaN (quiet)
    return uint16_t((f >> 16) | 0x40u);
  // Round to nearest, ties to even (a carry into the exponent is right, up to
  // infinity).
  f += 0x7fffu + ((f >> 16) & 1u);
  return uint16_t(f >> 16);
}

double bf16ToDouble(uint16_t b) {
  uint32_t f = uint32_t(b) << 16;
  float value;
  std::memcpy(&value, &f, 4);
  return value; // exact, NaN and infinities included
}

// rowsum_f16(x: f16[rows, cols], sums: f16[rows]): row sums. The reference
// sums the f16 inputs exactly (in float64).
Workload prepareRowsumF16(const Context &ctx, const Shape &shape,
                          std::mt19937 &rng) {
  int64_t rows = shape[0], cols = shape[1];
  std::vector<float> values = uniform(rows * cols, rng, -1, 1);
  std::vector<uint16_t> x(values.size());
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = floatToHalf(values[i]);
  Workload w;
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, x));
  w.buffers.emplace_back(ctx, rows * sizeof(uint16_t));
  w.output = 1;
  w.outputType = ScalarType::F16;
  w.args = {w.buffers[0].view(ScalarType::F16, {rows, cols}),
            w.buffers[1].view(ScalarType::F16, {rows})};
  w.reference.assign(rows, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      w.reference[r] += halfToDouble(x[r * cols + c]);
  return w;
}

// scan(x, y: f32[n]): inclusive prefix sums.
Workload prepareScan(const Context &ctx, const Shape &shape,
                     std::mt19937 &rng) {
  int64_t n = shape[0];
  std::vector<float> x = uniform(n, rng, -1, 1);
  Workload w;
  size_t dx = addBuffer(w, ctx, x);
  size_t out = addOutput(w, ctx, n);
  w.args = {w.buffers[dx].view<float>({n}), w.buffers[out].view<float>({n})};
  w.reference.resize(n);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i)
    w.reference[i] = sum += x[i];
  return w;
}

// recurrence(a, b, y1, y2: f32[n]): h[t] = a[t] * h[t-1] + b[t] as an
// inclusive scan over (a, b) pairs; y1 gets the running product of a (not
// checked), y2 gets h (checked). |a| in [0.9, 1) with a random sign keeps h
// bounded (rms about 1.8, so the relative L2 error is not a ratio of
// near-zeros) while a carry still reaches a few hundred elements: a lost or
// misordered carry between programs shows as an error near 1e-2 or more,
// against about 1e-7 for a right f32 scan.
Workload prepareRecurrence(const Context &ctx, const Shape &shape,
                           std::mt19937 &rng) {
  int64_t n = shape[0];
  std::vector<float> a = uniform(n, rng, 0.9f, 1.0f);
  std::vector<float> b = uniform(n, rng, -1, 1);
  std::bernoulli_distribution negative(0.5);
  for (float &v : a)
    if (negative(rng))
      v = -v;
  Workload w;
  size_t da = addBuffer(w, ctx, a), db = addBuffer(w, ctx, b);
  size_t y1 = addOutput(w, ctx, n);
  size_t y2 = addOutput(w, ctx, n); // the output checked
  w.args = {w.buffers[da].view<float>({n}), w.buffers[db].view<float>({n}),
            w.buffers[y1].view<float>({n}), w.buffers[y2].view<float>({n})};
  w.reference.resize(n);
  double h = 0;
  for (int64_t i = 0; i < n; ++i)
    w.reference[i] = h = double(a[i]) * h + b[i];
  return w;
}

// scan_moments and suffix_moments (examples/scan_pair.mlir), on {n}: x and
// xx = x * x, f32[n], scanned together (one kind over two operands) into s1
// (checked) and s2 (the second output, each element within 1e-3). x holds
// integers in [-3, 3], so that every partial sum is exact in f32 (|s2| <=
// 9n < 2^24 for n up to 1.8 million) whatever the association: a lost or
// misplaced carry in either operand shows.
template <bool Suffix>
Workload prepareMoments(const Context &ctx, const Shape &shape,
                        std::mt19937 &rng) {
  int64_t n = shape[0];
  std::uniform_int_distribution<int> value(-3, 3);
  std::vector<float> x(n), xx(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = float(value(rng));
    xx[i] = x[i] * x[i];
  }
  Workload w;
  size_t dx = addBuffer(w, ctx, x), dxx = addBuffer(w, ctx, xx);
  size_t s2 = addOutput(w, ctx, n);
  size_t s1 = addOutput(w, ctx, n); // the output checked
  w.aux = s2;
  w.args = {w.buffers[dx].view<float>({n}), w.buffers[dxx].view<float>({n}),
            w.buffers[s1].view<float>({n}), w.buffers[s2].view<float>({n})};
  w.reference.resize(n);
  w.auxReference.resize(n);
  w.auxElements.resize(n);
  // The prefix is inclusive, the suffix exclusive: the sums before or after
  // element i joins them.
  double sum = 0, squares = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t i = Suffix ? n - 1 - k : k;
    double sumBefore = sum, squaresBefore = squares;
    sum += x[i];
    squares += xx[i];
    w.reference[i] = Suffix ? sumBefore : sum;
    w.auxReference[i] = Suffix ? squaresBefore : squares;
    w.auxElements[i] = i;
  }
  return w;
}

// rowcumsum(x, y: f32[rows, cols]): inclusive prefix sums of each row.
Workload prepareRowcumsum(const Context &ctx, const Shape &shape,
                          std::mt19937 &rng) {
  int64_t rows = shape[0], cols = shape[1];
  std::vector<float> x = uniform(rows * cols, rng, -1, 1);
  Workload w;
  size_t dx = addBuffer(w, ctx, x);
  size_t out = addOutput(w, ctx, rows * cols);
  w.args = {w.buffers[dx].view<float>({rows, cols}),
            w.buffers[out].view<float>({rows, cols})};
  w.reference.resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      w.reference[r * cols + c] = sum += x[r * cols + c];
  }
  return w;
}

// The kernels of matmul_epilogue.mlir, on shape {M, N, K}: row-major bf16
// A [M, K] and B [K, N] uniform in [-1, 1], f32 accumulation.
//   matmul_plain(a, b, c: bf16[M, N]): c = bf16(A x B).
//   matmul_bias_relu(a, b, bias: f32[N], c: bf16[M, N]):
//     c = bf16(max(0, A x B + bias[n])), bias uniform in [-1, 1].
//   matmul_cumsum(a, b, c: f32[M, N]), N <= 16 (examples/matmul_cumsum.mlir):
//     c = row prefix sums of A x B.
//   matmul_suffixsum(a, b, c: f32[M, N]), N <= 16: c[m, n] = the sum of
//     (A x B)[m, n + 1 ..] (exclusive, reverse).
//   matmul_plus_square(a, b, x: f32[M, N], c: f32[M, N])
//     (examples/matmul_exchange.mlir): c = A x B + x * x, x uniform in
//     [-1, 1]; x * x reaches the product's layout through workgroup memory.
//   matmul_coltail(a, b, c: f32[M, N]), M <= 64: c[m, n] = the column's
//     inclusive prefix sum at row m less its total, -(A x B)[m + 1 .., n]
//     summed: a prefix down the columns whose warps hold different rows.
//   matmul_softmax(a, b, c: f32[M, N]), N <= 256: c = softmax of each row of
//     A x B. A score has standard deviation sqrt(K) / 3, so K sets how peaked
//     the rows are (K = 64: about 2.7; K = 4096: about 21).
// The reference is float64 from the bf16 inputs as stored (so the only errors
// are the kernel's f32 sums and the rounding of its output), of every row up
// to 2^31 multiply-adds, of a sample of rows beyond (referenceRows()).
enum class Epilogue {
  Plain,
  BiasRelu,
  Softmax,
  Cumsum,
  SuffixSum,
  ColumnTail,
  PlusSquare
};

/// `n` values uniform in [lo, hi] rounded to bf16: the bits for the device
/// and the values they hold (exact in float) for the reference.
struct Bf16Values {
  std::vector<uint16_t> bits;
  std::vector<float> values;
};
/// Values of a 16-bit input drawn by one generator: large inputs are drawn
/// in chunks, on all cores.
constexpr size_t kInputChunk = size_t(1) << 20;

/// The same for any 16-bit float format, given its conversions. Each chunk
/// of kInputChunk values has its own generator, seeded by one draw of `rng`
/// and the chunk's index, so a seed gives the same inputs on any machine.
Bf16Values uniform16(size_t n, std::mt19937 &rng, float lo, float hi,
                     uint16_t (*toBits)(float), double (*toDouble)(uint16_t)) {
  Bf16Values v;
  v.values.resize(n);
  v.bits.resize(n);
  uint32_t seed = rng();
  int64_t chunks = int64_t((n + kInputChunk - 1) / kInputChunk);
  parallelBlocks(chunks, [&](int64_t first, int64_t last) {
    for (int64_t c = first; c < last; ++c) {
      std::seed_seq chunkSeed{seed, uint32_t(c)};
      std::mt19937 chunkRng(chunkSeed);
      std::uniform_real_distribution<float> dist(lo, hi);
      size_t end = std::min(n, size_t(c + 1) * kInputChunk);
      for (size_t i = size_t(c) * kInputChunk; i < end; ++i) {
        v.bits[i] = toBits(dist(chunkRng));
        v.values[i] = float(toDouble(v.bits[i]));
      }
    }
  });
  return v;
}
Bf16Values uniformBf16(size_t n, std::mt19937 &rng, float lo, float hi) {
  return uniform16(n, rng, lo, hi, floatToBf16, bf16ToDouble);
}

/// Row `m` of A x B in float64, for row-major A [M, K] and B [K, N]. The
/// products of bf16 values are exact in float64.
void matmulRow(const std::vector<float> &a, const std::vector<float> &b,
               int64_t m, int64_t n, int64_t k, std::vector<double> &row) {
  row.assign(n, 0.0);
  for (int64_t kk = 0; kk < k; ++kk) {
    double av = a[m * k + kk];
    const float *brow = &b[kk * n];
    for (int64_t j = 0; j < n; ++j)
      row[j] += av * brow[j];
  }
}

Workload prepareMatmulBf16(const Context &ctx, const Shape &shape,
                           std::mt19937 &rng, Epilogue epilogue) {
  int64_t m = shape[0], n = shape[1], k = shape[2];
  if (epilogue == Epilogue::Softmax && n > 256)
    throw Error("matmul_softmax holds whole rows of at most 256 columns; N = " +
                std::to_string(n));
  if ((epilogue == Epilogue::Cumsum || epilogue == Epilogue::SuffixSum) &&
      n > 16)
    throw Error("matmul_cumsum holds whole rows of at most 16 columns; N = " +
                std::to_string(n));
  if (epilogue == Epilogue::ColumnTail && m > 64)
    throw Error("matmul_coltail holds whole columns of at most 64 rows; M = " +
                std::to_string(m));
  Bf16Values a = uniformBf16(m * k, rng, -1, 1);
  Bf16Values b = uniformBf16(k * n, rng, -1, 1);
  std::vector<float> bias, x;
  if (epilogue == Epilogue::BiasRelu)
    bias = uniform(n, rng, -1, 1);
  if (epilogue == Epilogue::PlusSquare)
    x = uniform(m * n, rng, -1, 1);
  Workload w;
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, a.bits));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, b.bits));
  if (epilogue == Epilogue::BiasRelu)
    addBuffer(w, ctx, bias);
  if (epilogue == Epilogue::PlusSquare)
    addBuffer(w, ctx, x);
  bool f32Output = epilogue == Epilogue::Softmax ||
                   epilogue == Epilogue::Cumsum ||
                   epilogue == Epilogue::SuffixSum ||
                   epilogue == Epilogue::ColumnTail ||
                   epilogue == Epilogue::PlusSquare;
  w.outputType = f32Output ? ScalarType::F32 : ScalarType::BF16;
  size_t elementBytes = w.outputType == ScalarType::F32 ? 4 : 2;
  w.buffers.emplace_back(ctx, size_t(m * n) * elementBytes);
  w.output = w.buffers.size() - 1;
  w.args = {w.buffers[0].view(ScalarType::BF16, {m, k}),
            w.buffers[1].view(ScalarType::BF16, {k, n})};
  if (epilogue == Epilogue::BiasRelu)
    w.args.push_back(w.buffers[2].view<float>({n}));
  if (epilogue == Epilogue::PlusSquare)
    w.args.push_back(w.buffers[2].view<float>({m, n}));
  w.args.push_back(w.buffers[w.output].view(w.outputType, {m, n}));

  std::vector<int64_t> rows = referenceRows(w, m, n, double(m) * n * k);
  w.reference.resize(rows.size() * n);
  // A column's tail needs the rows below: the whole product (M <= 64).
  std::vector<std::vector<double>> product;
  if (epilogue == Epilogue::ColumnTail) {
    product.resize(m);
    for (int64_t r = 0; r < m; ++r)
      matmulRow(a.values, b.values, r, n, k, product[r]);
  }
  parallelBlocks(int64_t(rows.size()), [&](int64_t firstRow, int64_t lastRow) {
    std::vector<double> row;
    for (int64_t index = firstRow; index < lastRow; ++index) {
      int64_t r = rows[index];
      matmulRow(a.values, b.values, r, n, k, row);
      if (epilogue == Epilogue::BiasRelu) {
        for (int64_t j = 0; j < n; ++j)
          row[j] = std::max(0.0, row[j] + bias[j]);
      } else if (epilogue == Epilogue::Softmax) {
        double max = *std::max_element(row.begin(), row.end()), sum = 0;
        for (double &x : row)
          sum += x = std::exp(x - max);
        for (double &x : row)
          x /= sum;
      } else if (epilogue == Epilogue::Cumsum) {
        for (int64_t j = 1; j < n; ++j)
          row[j] += row[j - 1];
      } else if (epilogue == Epilogue::PlusSquare) {
        for (int64_t j = 0; j < n; ++j)
          row[j] += double(x[r * n + j]) * x[r * n + j];
      } else if (epilogue == Epilogue::ColumnTail) {
        for (int64_t j = 0; j < n; ++j) {
          double tail = 0;
          for (int64_t i = r + 1; i < m; ++i)
            tail += product[i][j];
          row[j] = -tail;
        }
      } else if (epilogue == Epilogue::SuffixSum) {
        double after = 0;
        for (int64_t j = n - 1; j >= 0; --j) {
          double x = row[j];
          row[j] = after;
          after += x;
        }
      }
      std::copy(row.begin(), row.end(), w.reference.begin() + index * n);
    }
  });
  return w;
}

/// prepareMatmulBf16 with one epilogue, as a PrepareFn.
template <Epilogue epilogue>
Workload prepareMatmulWith(const Context &ctx, const Shape &shape,
                           std::mt19937 &rng) {
  return prepareMatmulBf16(ctx, shape, rng, epilogue);
}

/// 2 M N K for shape {M, N, K} (the epilogues' few flops not counted).
double matmulFlops(const Shape &shape) {
  return 2.0 * double(shape[0]) * double(shape[1]) * double(shape[2]);
}

/// `x` rounded to bf16 (to nearest, ties to even), as a float.
float roundBf16(float x) { return float(bf16ToDouble(floatToBf16(x))); }

// b2b_gemm(a: bf16[M, K], b: bf16[K, H], e: bf16[H, N], d: f32[M, N]), on
// shape {M, N, K, H}: d = bf16(A x B) x E, both products accumulated in f32,
// inputs uniform in [-1, 1]. The reference mirrors the kernel's rounding:
// T = A x B in float64 from the bf16 inputs, each element of T rounded to
// bf16 (through float), then D = T x E in float64. (The kernel rounds an f32
// sum, the reference a float64 one: now and then they land one bf16 ulp
// apart, well within the 1e-2 bound.)
Workload prepareB2bGemm(const Context &ctx, const Shape &shape,
                        std::mt19937 &rng) {
  int64_t m = shape[0], n = shape[1], k = shape[2], h = shape[3];
  Bf16Values a = uniformBf16(m * k, rng, -1, 1);
  Bf16Values b = uniformBf16(k * h, rng, -1, 1);
  Bf16Values e = uniformBf16(h * n, rng, -1, 1);
  Workload w;
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, a.bits));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, b.bits));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, e.bits));
  size_t out = addOutput(w, ctx, m * n);
  w.args = {w.buffers[0].view(ScalarType::BF16, {m, k}),
            w.buffers[1].view(ScalarType::BF16, {k, h}),
            w.buffers[2].view(ScalarType::BF16, {h, n}),
            w.buffers[out].view<float>({m, n})};

  std::vector<int64_t> rows =
      referenceRows(w, m, n, double(m) * h * k + double(m) * n * h);
  w.reference.reserve(rows.size() * n);
  std::vector<double> t, row;
  std::vector<float> tBf16(h);
  for (int64_t r : rows) {
    matmulRow(a.values, b.values, r, h, k, t);
    for (int64_t j = 0; j < h; ++j)
      tBf16[j] = roundBf16(float(t[j]));
    matmulRow(tBf16, e.values, 0, n, h, row);
    w.reference.insert(w.reference.end(), row.begin(), row.end());
  }
  return w;
}

/// 2 M H K + 2 M N H for shape {M, N, K, H}.
double b2bGemmFlops(const Shape &shape) {
  double m = shape[0], n = shape[1], k = shape[2], h = shape[3];
  return 2.0 * m * h * k + 2.0 * m * n * h;
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// A score modification on the host: the scaled score of query `i` and key
/// `j` of (batch, head) -> the new score (-inf masks).
using ScoreModFn = double (*)(double score, int64_t batch, int64_t head,
                              int64_t i, int64_t j);

/// One attention problem: O = softmax(scale * Q K^T [+ mask]) V per batch and
/// query head, query head h reading K/V head h / (heads / kvHeads).
struct AttentionProblem {
  int64_t batch = 1, heads = 1, kvHeads = 1, nq = 1, nkv = 1, d = 64;
  /// Query i sees keys j <= i + nkv - nq (FlashAttention-2's bottom-right
  /// alignment).
  bool causal = false;
  /// [batch, seq, heads, d] views with a spare head between rows (strides
  /// as a packed QKV tensor gives them), else contiguous [batch, heads, seq,
  /// d].
  bool bshd = false;
  /// A log-sum-exp output (f32 [batch, heads, nq]) after O.
  bool lse = false;
  ScalarType type = ScalarType::BF16;
  ScoreModFn scoreMod = nullptr;
  /// Q and K constant so that every logit is about 1e4: rows must stay
  /// finite.
  bool largeLogits = false;
  /// The scale; 0 for 1/sqrt(d).
  float scale = 0;
  /// With causal, W > 0: query i sees only keys j > i + nkv - nq - W.
  int64_t window = 0;
  /// Packed sequences (layout thd) when not empty: each sequence's (n_q,
  /// n_kv); batch, nq and nkv are then ignored. Q, K and V are [tokens,
  /// heads, d] with a spare head between tokens, O [tokens, heads, d], the
  /// LSE [heads, tokens_q]; cu_seqlens_q, cu_seqlens_k and max_seqlen_q
  /// follow the buffers, then max_seqlen_k with `maxSeqlenK`.
  std::vector<std::array<int64_t, 2>> sequences;
  bool maxSeqlenK = false;
};

/// Where one attention row (a query of a head) reads and writes.
struct AttentionRow {
  int64_t b, h, i;
  /// The lengths of its sequence, and the token of its query and of its
  /// sequence's first key in the (packed) buffers.
  int64_t nq, nkv, queryToken, firstKeyToken;
  /// Its element of the LSE.
  int64_t lseIndex;
};

/// `n` values uniform in [lo, hi] rounded to `type` (bf16 or f16): the bits
/// for the device and the values they hold (exact in float).
Bf16Values uniformLowp(size_t n, std::mt19937 &rng, float lo, float hi,
                       ScalarType type) {
  if (type == ScalarType::BF16)
    return uniformBf16(n, rng, lo, hi);
  return uniform16(n, rng, lo, hi, floatToHalf, halfToDouble);
}

float roundLowp(float x, ScalarType type) {
  return type == ScalarType::BF16 ? roundBf16(x)
                                  : float(halfToDouble(floatToHalf(x)));
}

/// The 4-D view of head-major data held in `buffer`: [B, H, N, D]
/// contiguous, or (bshd) [B, N, H, D] whose rows of heads are H + 1 heads
/// apart.
TensorView attentionView(const DeviceBuffer &buffer, const AttentionProblem &p,
                         int64_t heads, int64_t n) {
  if (!p.bshd)
    return buffer.view(p.type, {p.batch, heads, n, p.d});
  TensorView v = buffer.view(p.type, {p.batch * n * (heads + 1) * p.d});
  v.rank = 4;
  v.sizes = {p.batch, n, heads, p.d};
  v.strides = {n * (heads + 1) * p.d, (heads + 1) * p.d, p.d, 1};
  return v;
}

/// Element (b, h, s, c) of head-major data as attentionView() stores it.
int64_t attentionIndex(const AttentionProblem &p, int64_t heads, int64_t n,
                       int64_t b, int64_t h, int64_t s, int64_t c) {
  if (!p.bshd)
    return ((b * heads + h) * n + s) * p.d + c;
  return ((b * n + s) * (heads + 1) + h) * p.d + c;
}

/// Inputs for attentionView(): uniform in [-1, 1], or (largeLogits) Q and K
/// all 32 (logits 1024 * d * scale, above 1e4) and V uniform.
Bf16Values attentionInput(const AttentionProblem &p, int64_t heads, int64_t n,
                          bool constant, std::mt19937 &rng) {
  int64_t elements = p.batch * n * (heads + (p.bshd ? 1 : 0)) * p.d;
  if (!constant)
    return uniformLowp(elements, rng, -1, 1, p.type);
  return uniformLowp(elements, rng, 32, 32, p.type);
}

/// Fills `w`'s references for `p` (see prepareAttentionProblem), whose
/// inputs are q, k, v, over `rowCount` rows of O in its memory order (rowOf
/// gives each one's place), of about `workPerRow` reference steps each.
template <typename RowOf>
void attentionReference(Workload &w, const AttentionProblem &p,
                        const Bf16Values &q, const Bf16Values &k,
                        const Bf16Values &v, int64_t rowCount,
                        double workPerRow, RowOf rowOf) {
  int64_t d = p.d;
  float scale = p.scale != 0 ? p.scale : float(1.0 / std::sqrt(double(d)));
  std::vector<int64_t> rows =
      referenceRows(w, rowCount, d, double(rowCount) * workPerRow);
  size_t count = rows.size(), first = w.reference.size();
  w.reference.resize(first + count * d);
  w.referenceLowp.resize(first + count * d);
  size_t firstAux = w.auxReference.size();
  if (p.lse) {
    w.auxElements.resize(firstAux + count);
    w.auxReference.resize(firstAux + count);
  }
  int64_t group = p.heads / p.kvHeads;
  // Packed sequences are one bshd batch of all tokens.
  AttentionProblem packed = p;
  if (!p.sequences.empty())
    packed.batch = 1, packed.bshd = true;
  parallelBlocks(int64_t(count), [&](int64_t firstRow, int64_t lastRow) {
    std::vector<double> s, o(d);
    std::vector<float> sLow, oLow(d);
    for (int64_t index = firstRow; index < lastRow; ++index) {
      AttentionRow row = rowOf(rows[index]);
      int64_t b = row.b, h = row.h, i = row.i, nq = row.nq, nkv = row.nkv;
      int64_t kvh = h / group;
      s.resize(nkv);
      sLow.resize(nkv);
      // Keys [firstKey, keys) are seen.
      int64_t keys =
          p.causal ? std::clamp<int64_t>(i + nkv - nq + 1, 0, nkv) : nkv;
      int64_t firstKey =
          p.window > 0
              ? std::clamp<int64_t>(i + nkv - nq - p.window + 1, 0, keys)
              : 0;
      // The buffers' token counts: the sequence's, or all packed tokens.
      // (Packed: one batch, so the count does not matter.)
      int64_t qTokens = p.sequences.empty() ? nq : 0;
      int64_t kTokens = p.sequences.empty() ? nkv : 0;
      int64_t bufferBatch = p.sequences.empty() ? b : 0;
      auto keyRow = [&](const Bf16Values &x, int64_t j) {
        return &x.values[attentionIndex(packed, p.kvHeads, kTokens, bufferBatch,
                                        kvh, row.firstKeyToken + j, 0)];
      };
      const float *qrow = &q.values[attentionIndex(
          packed, p.heads, qTokens, bufferBatch, h, row.queryToken, 0)];
      double max = -INFINITY;
      float maxLow = -INFINITY;
      for (int64_t j = firstKey; j < keys; ++j) {
        const float *krow = keyRow(k, j);
        double dot = 0;
        float dotLow = 0;
        for (int64_t c = 0; c < d; ++c) {
          dot += double(qrow[c]) * krow[c];
          dotLow += qrow[c] * krow[c];
        }
        s[j] = dot * scale;
        sLow[j] = dotLow * scale;
        if (p.scoreMod) {
          s[j] = p.scoreMod(s[j], b, h, i, j);
          sLow[j] = float(p.scoreMod(sLow[j], b, h, i, j));
        }
        max = std::max(max, s[j]);
        maxLow = std::max(maxLow, sLow[j]);
      }
      double sum = 0;
      float sumLow = 0;
      for (int64_t j = firstKey; j < keys && max > -INFINITY; ++j) {
        sum += s[j] = std::exp(s[j] - max);
        sumLow += sLow[j] = std::exp(sLow[j] - maxLow);
      }
      std::fill(o.begin(), o.end(), 0.0);
      std::fill(oLow.begin(), oLow.end(), 0.0f);
      for (int64_t j = firstKey; j < keys && sum > 0; ++j) {
        const float *vrow = keyRow(v, j);
        double pr = s[j] / sum;
        float pLow = roundLowp(sLow[j] / sumLow, p.type);
        for (int64_t c = 0; c < d; ++c) {
          o[c] += pr * vrow[c];
          oLow[c] += pLow * vrow[c];
        }
      }
      size_t at = first + size_t(index) * d;
      std::copy(o.begin(), o.end(), w.reference.begin() + at);
      for (int64_t c = 0; c < d; ++c)
        w.referenceLowp[at + c] = roundLowp(oLow[c], p.type);
      if (p.lse) {
        w.auxElements[firstAux + index] = row.lseIndex;
        w.auxReference[firstAux + index] =
            sum > 0 ? max + std::log(sum) : -INFINITY;
      }
    }
  });
}

/// [tokens, heads, d] over `buffer`: tokens heads + 1 heads apart (as
/// attentionView() lays out bshd data) or, with `packed` false, contiguous.
TensorView tokensView(const DeviceBuffer &buffer, const AttentionProblem &p,
                      int64_t heads, int64_t tokens, bool spareHead) {
  int64_t pitch = (heads + (spareHead ? 1 : 0)) * p.d;
  TensorView v = buffer.view(p.type, {std::max<int64_t>(tokens * pitch, 1)});
  v.rank = 3;
  v.sizes = {tokens, heads, p.d};
  v.strides = {pitch, p.d, 1};
  return v;
}

/// prepareAttentionProblem for packed sequences (p.sequences): the inputs
/// are one bshd batch of all tokens; then cu_seqlens_q, cu_seqlens_k,
/// max_seqlen_q and (p.maxSeqlenK) max_seqlen_k.
Workload prepareRaggedAttention(const Context &ctx, const AttentionProblem &p,
                                std::mt19937 &rng) {
  int64_t d = p.d;
  std::vector<int32_t> cuQ = {0}, cuK = {0};
  int64_t maxQuery = 0, maxKey = 0;
  for (auto [nq, nkv] : p.sequences) {
    cuQ.push_back(int32_t(cuQ.back() + nq));
    cuK.push_back(int32_t(cuK.back() + nkv));
    maxQuery = std::max(maxQuery, nq);
    maxKey = std::max(maxKey, nkv);
  }
  int64_t tq = cuQ.back(), tk = cuK.back();
  AttentionProblem packed = p;
  packed.batch = 1, packed.bshd = true;
  Bf16Values q = attentionInput(packed, p.heads, tq, p.largeLogits, rng);
  Bf16Values k = attentionInput(packed, p.kvHeads, tk, p.largeLogits, rng);
  Bf16Values v = attentionInput(packed, p.kvHeads, tk, false, rng);
  // No tokens (every sequence without keys, say) still gets a buffer of one
  // element: the views below, and the tensor maps, need an address.
  for (Bf16Values *values : {&q, &k, &v})
    if (values->bits.empty())
      values->bits.push_back(0);
  Workload w;
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, q.bits));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, k.bits));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, v.bits));
  w.buffers.emplace_back(ctx, size_t(std::max<int64_t>(tq * p.heads * d, 1)) *
                                  sizeof(uint16_t));
  w.output = 3;
  w.outputType = p.type;
  w.args = {tokensView(w.buffers[0], p, p.heads, tq, true),
            tokensView(w.buffers[1], p, p.kvHeads, tk, true),
            tokensView(w.buffers[2], p, p.kvHeads, tk, true),
            tokensView(w.buffers[3], p, p.heads, tq, false)};
  if (p.lse) {
    w.buffers.emplace_back(ctx, size_t(std::max<int64_t>(p.heads * tq, 1)) * 4);
    w.aux = 4;
    w.args.push_back(w.buffers[4].view<float>({p.heads, tq}));
  }
  size_t cu = w.buffers.size();
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, cuQ));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, cuK));
  w.args.push_back(w.buffers[cu].view<int32_t>({int64_t(cuQ.size())}));
  w.args.push_back(w.buffers[cu + 1].view<int32_t>({int64_t(cuK.size())}));
  w.args.push_back(int32_t(maxQuery));
  if (p.maxSeqlenK)
    w.args.push_back(int32_t(maxKey));
  // Rows in O's memory order: (token, head); the LSE is [heads, tokens].
  double work = 0;
  for (auto [nq, nkv] : p.sequences)
    work += double(nq) * nkv;
  attentionReference(
      w, p, q, k, v, tq * p.heads,
      tq > 0 ? work / double(tq) * d * 2 : 0, [&](int64_t r) {
        int64_t h = r % p.heads, t = r / p.heads;
        int64_t b =
            std::upper_bound(cuQ.begin(), cuQ.end(), int32_t(t)) - cuQ.begin() - 1;
        return AttentionRow{b,     h,       t - cuQ[b], cuQ[b + 1] - cuQ[b],
                            cuK[b + 1] - cuK[b], t, cuK[b], h * tq + t};
      });
  return w;
}

/// Prepares `p`: buffers Q, K, V, O[, LSE] and their views as the first
/// arguments; the output O (Compare::Attention) against two references of
/// the same rows (a row is one query of one head: D elements; a sample of
/// them beyond 2^31 reference steps, nkv * D * 2 a row):
///   reference:     float64 from the low-precision inputs;
///   referenceLowp: as a low-precision kernel would: S = Q K^T summed in
///                  float, times scale, modified; softmax in float; P rounded
///                  to the input type; O = P V summed in float, rounded.
/// A row that sees no key is 0. With `lse`, the log-sum-exp of the same rows
/// (natural log, float64; -inf for a row that sees no key).
Workload prepareAttentionProblem(const Context &ctx, const AttentionProblem &p,
                                 std::mt19937 &rng) {
  if (!p.sequences.empty())
    return prepareRaggedAttention(ctx, p, rng);
  int64_t d = p.d;
  Bf16Values q = attentionInput(p, p.heads, p.nq, p.largeLogits, rng);
  Bf16Values k = attentionInput(p, p.kvHeads, p.nkv, p.largeLogits, rng);
  Bf16Values v = attentionInput(p, p.kvHeads, p.nkv, false, rng);
  Workload w;
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, q.bits));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, k.bits));
  w.buffers.push_back(DeviceBuffer::fromHost(ctx, v.bits));
  int64_t outElements = p.batch * p.heads * p.nq * d;
  w.buffers.emplace_back(ctx, size_t(outElements) * sizeof(uint16_t));
  w.output = 3;
  w.outputType = p.type;
  w.args = {attentionView(w.buffers[0], p, p.heads, p.nq),
            attentionView(w.buffers[1], p, p.kvHeads, p.nkv),
            attentionView(w.buffers[2], p, p.kvHeads, p.nkv),
            p.bshd ? w.buffers[3].view(p.type, {p.batch, p.nq, p.heads, d})
                   : w.buffers[3].view(p.type, {p.batch, p.heads, p.nq, d})};
  if (p.lse) {
    w.buffers.emplace_back(ctx, size_t(p.batch * p.heads * p.nq) * 4);
    w.aux = 4;
    w.args.push_back(
        w.buffers[4].view<float>({p.batch, p.heads, p.nq}));
  }
  // Rows in O's memory order: (b, h, i) for bhsd, (b, i, h) for bshd.
  attentionReference(
      w, p, q, k, v, p.batch * p.heads * p.nq, double(p.nkv) * d * 2,
      [&](int64_t r) {
        int64_t b, h, i;
        if (p.bshd) {
          h = r % p.heads, i = (r / p.heads) % p.nq, b = r / (p.heads * p.nq);
        } else {
          i = r % p.nq, h = (r / p.nq) % p.heads, b = r / (p.heads * p.nq);
        }
        // The LSE is [batch, heads, nq] whatever O's order.
        return AttentionRow{b, h, i, p.nq, p.nkv, i, 0,
                            (b * p.heads + h) * p.nq + i};
      });
  return w;
}

// attention_d64 and attention_d128 of attention_block.mlir, on shape
// {B, H, N, causal}:
//   attention_dD(q, k, v, o: bf16[B, H, N, D], scale: f32, causal: i32):
//     O = softmax(scale * Q K^T + mask) V for each batch and head; with
//     causal != 0, query i sees keys j <= i.
template <int64_t D>
Workload prepareAttentionBlock(const Context &ctx, const Shape &shape,
                               std::mt19937 &rng) {
  if (shape.size() != 4)
    throw Error("attention_block shapes are BxHxNxcausal");
  AttentionProblem p;
  p.batch = shape[0], p.heads = p.kvHeads = shape[1];
  p.nq = p.nkv = shape[2], p.d = D, p.causal = shape[3] != 0;
  Workload w = prepareAttentionProblem(ctx, p, rng);
  w.args.push_back(float(1.0 / std::sqrt(double(D))));
  w.args.push_back(int32_t(shape[3]));
  return w;
}

/// 4 B H N^2 D for shape {B, H, N, causal} (Q K^T and P V), half of it when
/// causal; the softmax's flops not counted.
template <int64_t D> double attentionFlops(const Shape &shape) {
  double flops = 4.0 * double(shape[0]) * double(shape[1]) * double(shape[2]) *
                 double(shape[2]) * double(D);
  return shape[3] ? flops / 2 : flops;
}

/// Each {B, H, N} twice: causal 0 and 1 ({B, H, N, causal}).
std::vector<Shape> attentionShapes(const std::vector<Shape> &shapes) {
  std::vector<Shape> out;
  for (const Shape &s : shapes)
    for (int64_t causal : {0, 1})
      out.push_back({s[0], s[1], s[2], causal});
  return out;
}

// examples/attention.mlir's descriptions, on shape {B, Hq, Hkv, Nq, Nkv}
// (a sixth 1: large logits). Each kernel is one AttentionProblem form.
double softCap30(double s, int64_t, int64_t, int64_t, int64_t) {
  return 30.0 * std::tanh(s / 30.0);
}
/// ALiBi with slopes 2^(-(h + 1) / 2), as the example writes it.
double alibi(double s, int64_t, int64_t h, int64_t i, int64_t j) {
  return s + std::exp2(-0.5 * double(h + 1)) * double(j - i);
}
/// A sliding window of 256 keys (with causal: keys i-255..i).
double window256(double s, int64_t, int64_t, int64_t i, int64_t j) {
  return i - j < 256 ? s : -INFINITY;
}
/// A band of 128 keys: key j from query i when i - 127 <= j <= i.
double band128(double s, int64_t, int64_t, int64_t i, int64_t j) {
  return j <= i && i - j < 128 ? s : -INFINITY;
}
/// Documents of 1000 tokens packed one after another: a query sees the keys
/// of its own document.
double documents1000(double s, int64_t, int64_t, int64_t i, int64_t j) {
  return i / 1000 == j / 1000 ? s : -INFINITY;
}

struct AttentionForm {
  int64_t d;
  bool causal, bshd, lse;
  ScalarType type;
  ScoreModFn scoreMod;
  /// Nonzero: the kernel takes the scale as its last argument, and this is
  /// it.
  float scaleArgument = 0;
  int64_t window = 0;
  /// Packed sequences: the kernel takes max_seqlen_k after max_seqlen_q.
  bool maxSeqlenK = false;
};

template <const AttentionForm &F>
Workload prepareAttentionForm(const Context &ctx, const Shape &shape,
                              std::mt19937 &rng) {
  if (shape.size() < 5 || shape[1] < 1 || shape[2] < 1 ||
      shape[1] % shape[2] != 0)
    throw Error("attention shapes are BxHqxHkvxNqxNkv[x1 for large logits], "
                "Hkv dividing Hq");
  AttentionProblem p;
  p.batch = shape[0], p.heads = shape[1], p.kvHeads = shape[2];
  p.nq = shape[3], p.nkv = shape[4];
  p.largeLogits = shape.size() > 5 && shape[5] != 0;
  p.d = F.d, p.causal = F.causal, p.bshd = F.bshd, p.lse = F.lse;
  p.type = F.type, p.scoreMod = F.scoreMod, p.scale = F.scaleArgument;
  p.window = F.window;
  Workload w = prepareAttentionProblem(ctx, p, rng);
  if (F.scaleArgument != 0)
    w.args.push_back(F.scaleArgument);
  return w;
}

/// A ragged form (layout thd) on shape {Hq, Hkv, nq0, nkv0, nq1, nkv1, ...}:
/// one sequence per pair.
template <const AttentionForm &F>
Workload prepareRaggedAttentionForm(const Context &ctx, const Shape &shape,
                                    std::mt19937 &rng) {
  if (shape.size() < 4 || shape.size() % 2 != 0 || shape[0] < 1 ||
      shape[1] < 1 || shape[0] % shape[1] != 0)
    throw Error("ragged attention shapes are HqxHkvxNq0xNkv0[xNq1xNkv1...], "
                "Hkv dividing Hq");
  AttentionProblem p;
  p.heads = shape[0], p.kvHeads = shape[1];
  for (size_t i = 2; i < shape.size(); i += 2)
    p.sequences.push_back({shape[i], shape[i + 1]});
  p.d = F.d, p.causal = F.causal, p.lse = F.lse, p.type = F.type;
  p.scoreMod = F.scoreMod, p.scale = F.scaleArgument, p.window = F.window;
  p.maxSeqlenK = F.maxSeqlenK;
  Workload w = prepareAttentionProblem(ctx, p, rng);
  if (F.scaleArgument != 0)
    w.args.push_back(F.scaleArgument);
  return w;
}

/// 4 Hq D sum(Nq Nkv) over the sequences, half of it when causal.
template <const AttentionForm &F>
double raggedAttentionFlops(const Shape &shape) {
  double pairs = 0;
  for (size_t i = 2; i + 1 < shape.size(); i += 2)
    pairs += double(shape[i]) * double(shape[i + 1]);
  double flops = 4.0 * double(shape[0]) * pairs * double(F.d);
  return F.causal ? flops / 2 : flops;
}

/// 4 B Hq Nq Nkv D, half of it when causal (the FlashAttention papers'
/// count).
template <const AttentionForm &F>
double attentionFormFlops(const Shape &shape) {
  double flops = 4.0 * double(shape[0]) * double(shape[1]) * double(shape[3]) *
                 double(shape[4]) * double(F.d);
  return F.causal ? flops / 2 : flops;
}

constexpr ScalarType kBf16 = ScalarType::BF16, kF16 = ScalarType::F16;
constexpr AttentionForm kAttnD64 = {64, false, false, false, kBf16, nullptr};
constexpr AttentionForm kAttnD64Causal = {64, true, false, true, kBf16,
                                          nullptr};
constexpr AttentionForm kAttnD128 = {128, false, false, true, kBf16, nullptr};
constexpr AttentionForm kAttnD128Causal = {128, true, false, false, kBf16,
                                           nullptr};
constexpr AttentionForm kAttnD256 = {256, false, false, true, kBf16, nullptr};
constexpr AttentionForm kAttnBshdD256Causal = {256, true, true, false, kF16,
                                               nullptr};
constexpr AttentionForm kAttnBshdD64 = {64, false, true, true, kF16, nullptr};
constexpr AttentionForm kAttnBshdD128Causal = {128, true, true, true, kF16,
                                               nullptr};
constexpr AttentionForm kAttnSoftcap = {64, false, false, true, kBf16,
                                        softCap30};
constexpr AttentionForm kAttnAlibi = {128, true, false, false, kBf16, alibi};
constexpr AttentionForm kAttnWindow = {64, true, false, true, kBf16,
                                       window256};
constexpr AttentionForm kAttnBand = {64, false, false, true, kBf16, band128};
constexpr AttentionForm kAttnDocuments = {128, false, false, true, kBf16,
                                          documents1000};
constexpr AttentionForm kAttnScaleArgument = {64,    true,    true, true,
                                              kBf16, nullptr, 0.3f};
constexpr AttentionForm kAttnWindowAttribute = {128,   true,    false, true,
                                                kBf16, nullptr, 0,     300};
constexpr AttentionForm kAttnVarlen = {128,   true,    false, true, kBf16,
                                       nullptr, 0,       0,     true};
constexpr AttentionForm kAttnVarlenF16 = {64,   false, false, false,
                                          kF16, alibi, 0.2f};

/// An examples/attention.mlir row of packed sequences.
template <const AttentionForm &F>
Example raggedAttentionExample(const char *name) {
  // The issue's lengths (1, 17, 1000, 4095) as self-attention; empty
  // sequences, queries with no key, more queries than keys; 40 short
  // sequences.
  Shape many = {8, 2};
  for (int64_t i = 0; i < 40; ++i)
    many.insert(many.end(), {1 + i * 7 % 23, 1 + i * 11 % 29});
  // Decode (descriptions with max_seqlen_k split the keys when every
  // sequence has at most 16 queries, and pack the query heads of a K/V
  // head when each has one): 1 to 16 queries against the issue's key
  // lengths and chunk edges (1024 keys), sequences with no query or no key;
  // a batch with no key at all (the key grid is empty; the combine still
  // writes 0 and -inf).
  return {name,
          {{4, 1, 1, 1, 17, 17, 1000, 1000, 4095, 4095},
           {6, 3, 3, 0, 0, 5, 64, 64, 129, 300, 700, 50, 1, 65},
           many,
           {2, 2, 300, 300, 1, 1},
           {4, 4, 16, 3000, 3, 1025, 7, 1, 0, 500, 1, 4095, 5, 0},
           {8, 2, 1, 1, 1, 17, 1, 1000, 1, 4095, 1, 2049, 0, 7, 1, 0},
           {24, 1, 1, 3000, 1, 1024},
           {4, 2, 3, 0, 2, 0}},
          prepareRaggedAttentionForm<F>,
          1e-2,
          raggedAttentionFlops<F>,
          "attention",
          Compare::Attention};
}

/// An examples/attention.mlir row.
template <const AttentionForm &F>
Example attentionExample(const char *name, std::vector<Shape> shapes) {
  return {name,
          std::move(shapes),
          prepareAttentionForm<F>,
          1e-2,
          attentionFormFlops<F>,
          "attention",
          Compare::Attention};
}

/// The issue's (n_q, n_kv) pairs for each head arrangement ({B, Hq, Hkv}):
/// MHA, GQA 8:1 and MQA; 1 x 65536 (decode against a long cache) and
/// 4224^2 at one head arrangement each, to keep the run short.
std::vector<Shape> attentionFormShapes();

/// attentionFormShapes() and the timing shape of the FlashAttention-3
/// paper's setup at 4096 tokens: 16k tokens, 16 heads.
std::vector<Shape> withTimingShape() {
  std::vector<Shape> shapes = attentionFormShapes();
  shapes.push_back({4, 16, 16, 4096, 4096});
  return shapes;
}

std::vector<Shape> attentionFormShapes() {
  std::vector<Shape> shapes;
  for (Shape heads : {Shape{2, 3, 3}, Shape{1, 8, 1}, Shape{2, 4, 1}})
    for (Shape n : {Shape{1, 1}, Shape{239, 1}, Shape{799, 3},
                    Shape{113, 203}, Shape{1023, 1024}})
      shapes.push_back({heads[0], heads[1], heads[2], n[0], n[1]});
  shapes.push_back({1, 16, 2, 4224, 4224});
  shapes.push_back({4, 32, 8, 1, 65536});
  // At most 16 query rows take the split-key kernel and its combine: chunk
  // edges (1024 keys), a last chunk of one key, 17 rows (the whole kernel).
  // One query row packs the query heads of a K/V head into the rows: 8, 3,
  // and 32 and 24 (packs of 16 and 8).
  for (Shape s : {Shape{2, 3, 3, 16, 1000}, Shape{1, 8, 1, 7, 4099},
                  Shape{2, 4, 1, 17, 1025}, Shape{1, 2, 2, 3, 1537},
                  Shape{1, 16, 2, 1, 16385}, Shape{2, 12, 4, 1, 1025},
                  Shape{1, 32, 1, 1, 3000}, Shape{1, 24, 1, 1, 2049}})
    shapes.push_back(s);
  // No key at all: every row is masked (0 and an LSE of -inf), in the
  // packed-heads and split-key kernels (whose key grids are empty) and in
  // the whole kernel.
  for (Shape s : {Shape{2, 4, 2, 1, 0}, Shape{2, 4, 2, 5, 0},
                  Shape{1, 4, 4, 100, 0}})
    shapes.push_back(s);
  shapes.push_back({1, 2, 2, 300, 300, 1}); // large logits
  shapes.push_back({1, 2, 2, 5, 3000, 1});  // large logits, split keys
  return shapes;
}

const std::vector<Example> &examples() {
  // matmul_cumsum.mlir's kernels (MxNxK, N <= 16).
  static const std::vector<Shape> cumsumShapes = {
      {1, 1, 1},       {7, 13, 5},     {16, 16, 16},     {33, 5, 100},
      {1000, 16, 517}, {4097, 11, 64}, {65536, 16, 1024}};
  static const std::vector<Example> table = {
      {"saxpy", {{1}, {31}, {1000}, {(1 << 20) + 7}}, prepareSaxpy},
      {"softmax",
       {{1, 1}, {7, 31}, {1000, 1003}, {64, 4096}, {4096, 1000}},
       prepareSoftmax},
      {"layernorm",
       {{1, 1}, {7, 31}, {1000, 1003}, {4097, 256}, {64, 4096}},
       prepareLayernorm},
      {"colsum",
       {{1, 1}, {33, 7}, {1000, 1003}, {4097, 129}, {3, 100003}},
       prepareColsum},
      {"scan", {{1}, {31}, {32}, {33}, {1000}, {(1 << 20) + 7}}, prepareScan},
      {"recurrence",
       {{1}, {31}, {32}, {33}, {1000}, {4097}, {(1 << 20) + 7}},
       prepareRecurrence},
      // Two operands: 1536 elements of each a program, read 512 at a time;
      // lengths around a program's and a read's end.
      {"scan_moments",
       {{1}, {33}, {511}, {1536}, {1537}, {3071}, {1000003}, {(1 << 20) + 7}},
       prepareMoments<false>,
       1e-5,
       nullptr,
       "scan_pair"},
      {"suffix_moments",
       {{1}, {33}, {511}, {1536}, {1537}, {3071}, {1000003}, {(1 << 20) + 7}},
       prepareMoments<true>,
       1e-5,
       nullptr,
       "scan_pair"},
      {"rowcumsum",
       {{1, 1}, {7, 31}, {1000, 1003}, {64, 4096}, {3, 100003}},
       prepareRowcumsum},
      // f16 data with f32 accumulation: the 1e-2 bound of gpu.md.
      {"rowsum_f16",
       {{1, 1}, {7, 31}, {1000, 1003}, {64, 4096}, {3, 100003}},
       prepareRowsumF16,
       1e-2},
      // matmul_epilogue.mlir's three kernels (shapes MxNxK): bf16 data with
      // f32 accumulation, the 1e-2 bound. 4096^3 is for timing; its reference
      // is a sample of rows.
      {"matmul_bias_relu",
       {{1, 1, 1},
        {7, 13, 5},
        {33, 65, 17},
        {128, 256, 64},
        {1000, 1003, 517},
        {1024, 1024, 1024},
        {4096, 4096, 4096}},
       prepareMatmulWith<Epilogue::BiasRelu>,
       1e-2,
       matmulFlops,
       "matmul_epilogue"},
      {"matmul_plain",
       {{1, 1, 1},
        {7, 13, 5},
        {33, 65, 17},
        {128, 256, 64},
        {1000, 1003, 517},
        {1024, 1024, 1024},
        {4096, 4096, 4096}},
       prepareMatmulWith<Epilogue::Plain>,
       1e-2,
       matmulFlops,
       "matmul_epilogue"},
      // N <= 256; K = 1000 and 4096 make peaked rows (scores of standard
      // deviation 10.5 and 21).
      {"matmul_softmax",
       {{1, 1, 1},
        {7, 13, 5},
        {64, 256, 64},
        {1000, 256, 517},
        {4095, 100, 64},
        {333, 255, 1000},
        {256, 256, 4096}},
       prepareMatmulWith<Epilogue::Softmax>,
       1e-2,
       matmulFlops,
       "matmul_epilogue"},
      // Row prefix sums of A x B, N <= 16, one warp a program: tile.prefix
      // scans the dot's fragments where they are. f32 out, sums of exact
      // products: 1e-5.
      {"matmul_cumsum",
       cumsumShapes,
       prepareMatmulWith<Epilogue::Cumsum>,
       1e-5,
       matmulFlops},
      // The same dot, then an exclusive reverse prefix (suffix sums).
      {"matmul_suffixsum",
       cumsumShapes,
       prepareMatmulWith<Epilogue::SuffixSum>,
       1e-5,
       matmulFlops,
       "matmul_cumsum"},
      // A dot's product plus a tile that arrives in the blocked layout and
      // meets the product's fragments through (swizzled) workgroup memory.
      {"matmul_plus_square",
       {{1, 1, 1}, {7, 13, 5}, {64, 32, 64}, {100, 70, 33}, {1000, 1003, 517},
        {4097, 33, 64}},
       prepareMatmulWith<Epilogue::PlusSquare>,
       1e-5,
       matmulFlops,
       "matmul_exchange"},
      // A prefix down the columns of a 64x64 accumulator on 4 warps, its
      // totals used (M <= 64).
      {"matmul_coltail",
       {{1, 1, 1}, {7, 13, 5}, {64, 64, 64}, {33, 100, 517}, {64, 1000, 64},
        {50, 4097, 300}},
       prepareMatmulWith<Epilogue::ColumnTail>,
       1e-5,
       matmulFlops,
       "matmul_cumsum"},
      // D = bf16(A x B) x E (shapes MxNxKxH), f32 accumulation, the 1e-2
      // bound.
      {"b2b_gemm",
       {{1, 1, 1, 1},
        {7, 13, 5, 3},
        {64, 64, 64, 64},
        {100, 70, 33, 65},
        {1000, 1003, 517, 130},
        {1024, 1024, 1024, 256}},
       prepareB2bGemm,
       1e-2,
       b2bGemmFlops},
      // attention_block.mlir's two kernels (shapes BxHxNxcausal, each shape
      // causal and not): FlashAttention's criterion, and relative L2 below
      // 1e-2. 4x16x4096 (16k tokens, 16 heads) is for timing; its reference
      // is a sample of 64 query rows.
      {"attention_d64",
       attentionShapes({{1, 1, 1},
                        {1, 2, 1000},
                        {1, 1, 4095},
                        {1, 1, 4096},
                        {2, 3, 129},
                        {4, 16, 4096}}),
       prepareAttentionBlock<64>,
       1e-2,
       attentionFlops<64>,
       "attention_block",
       Compare::Attention},
      {"attention_d128",
       attentionShapes({{1, 1, 1},
                        {1, 2, 1000},
                        {1, 1, 4095},
                        {1, 1, 4096},
                        {2, 3, 129},
                        {4, 16, 4096}}),
       prepareAttentionBlock<128>,
       1e-2,
       attentionFlops<128>,
       "attention_block",
       Compare::Attention},
      // attention.mlir's descriptions (shapes BxHqxHkvxNqxNkv): the same
      // criterion; the log-sum-exp, where a kernel writes it, within 1e-3
      // (-inf for a row that sees no key). 4x16x16x4096x4096 is for timing.
      attentionExample<kAttnD64>("attn_d64", withTimingShape()),
      attentionExample<kAttnD64Causal>("attn_d64_causal", withTimingShape()),
      attentionExample<kAttnD128>("attn_d128", withTimingShape()),
      attentionExample<kAttnD128Causal>("attn_d128_causal",
                                        withTimingShape()),
      attentionExample<kAttnBshdD64>("attn_bshd_f16_d64",
                                     attentionFormShapes()),
      attentionExample<kAttnBshdD128Causal>("attn_bshd_f16_d128_causal",
                                            attentionFormShapes()),
      attentionExample<kAttnD256>("attn_d256", withTimingShape()),
      attentionExample<kAttnBshdD256Causal>("attn_bshd_f16_d256_causal",
                                            attentionFormShapes()),
      attentionExample<kAttnSoftcap>("attn_softcap", attentionFormShapes()),
      attentionExample<kAttnAlibi>("attn_alibi", attentionFormShapes()),
      attentionExample<kAttnWindow>("attn_window", attentionFormShapes()),
      attentionExample<kAttnBand>("attn_band", attentionFormShapes()),
      attentionExample<kAttnWindowAttribute>("attn_window_attribute",
                                             attentionFormShapes()),
      attentionExample<kAttnScaleArgument>("attn_scale_argument",
                                           attentionFormShapes()),
      attentionExample<kAttnDocuments>("attn_documents",
                                       {{1, 4, 4, 2500, 2500},
                                        {2, 4, 2, 1000, 1000},
                                        {1, 2, 1, 999, 1001}}),
      raggedAttentionExample<kAttnVarlen>("attn_varlen"),
      raggedAttentionExample<kAttnVarlenF16>("attn_varlen_f16_d64"),
  };
  return table;
}

//===----------------------------------------------------------------------===//
// Running and checking
//===----------------------------------------------------------------------===//

struct Result {
  std::string example, mode, shape;
  /// The source file's stem and the shape's sizes (empty for a row that
  /// stands for every shape).
  std::string source;
  Shape dims;
  double relError = NAN, maxAbsError = NAN, timeUs = NAN;
  /// Compare::Attention: the bound on maxAbsError, 2 * max |ref_lowp - ref|
  /// + 1e-3 (NaN for other comparisons).
  double maxAbsBound = NAN;
  /// Flops of one launch (NaN when the example does not count them).
  double flops = NAN;
  /// max |aux - auxReference| over the checked elements of a second output
  /// (NaN without one).
  double auxMaxAbsError = NAN;
  int64_t nanCount = 0;
  /// Whether the reference was a sample of rows, and how many of how many
  /// (0 where the example does not say how its output is rowed).
  bool sampled = false;
  int64_t checkedRows = 0, rows = 0;
  bool pass = false;
  std::string error;
  /// The wave quantisation of the kernel launched (its first kernel where a
  /// then kernel follows).
  Kernel::Quantisation schedule;

  double tflops() const { return flops / timeUs * 1e-6; }
};

Result startResult(const Example &ex, const std::string &mode,
                   std::string shape) {
  Result r;
  r.example = ex.name;
  r.source = sourceStem(ex);
  r.mode = mode;
  r.shape = std::move(shape);
  return r;
}

std::string shapeString(const Shape &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

/// The output as float64 (every f32, f16, bf16 and i32 value is exact).
std::vector<double> downloadOutput(const DeviceBuffer &out, ScalarType type) {
  std::vector<double> values;
  auto widen = [&](const auto &host, auto convert) {
    values.resize(host.size());
    for (size_t i = 0; i < host.size(); ++i)
      values[i] = convert(host[i]);
  };
  switch (type) {
  case ScalarType::F32:
    widen(out.download<float>(), [](float v) { return double(v); });
    break;
  case ScalarType::F16:
    widen(out.download<uint16_t>(), halfToDouble);
    break;
  case ScalarType::BF16:
    widen(out.download<uint16_t>(), bf16ToDouble);
    break;
  case ScalarType::I32:
    widen(out.download<int32_t>(), [](int32_t v) { return double(v); });
    break;
  default:
    throw Error("the harness cannot check this output type");
  }
  return values;
}

/// The elements of `out` that `w.reference` covers: all of them, or the
/// checked rows one after another.
std::vector<double> checkedElements(std::vector<double> out,
                                    const Workload &w) {
  if (!w.checkedRows.empty()) {
    if (w.rowLength <= 0 || out.size() % size_t(w.rowLength) != 0)
      throw Error("harness: a row length of " + std::to_string(w.rowLength) +
                  " does not divide the output's " +
                  std::to_string(out.size()) + " elements");
    int64_t rows = int64_t(out.size()) / w.rowLength;
    std::vector<double> picked;
    picked.reserve(w.checkedRows.size() * w.rowLength);
    for (int64_t r : w.checkedRows) {
      if (r < 0 || r >= rows)
        throw Error("harness: checked row " + std::to_string(r) +
                    " is outside the output's " + std::to_string(rows));
      auto first = out.begin() + r * w.rowLength;
      picked.insert(picked.end(), first, first + w.rowLength);
    }
    out = std::move(picked);
  }
  if (out.size() != w.reference.size())
    throw Error("harness: the reference has " +
                std::to_string(w.reference.size()) + " elements, against " +
                std::to_string(out.size()) + " checked output elements");
  return out;
}

/// `v` printed with `format`, "-" for NaN.
std::string fmt(const char *format, double v) {
  if (std::isnan(v))
    return "-";
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

/// Relative L2 error of `out` against `ref`, NaNs left out (r.nanCount,
/// counted over the whole output, fails them).
void compare(const std::vector<double> &out, const std::vector<double> &ref,
             double tolerance, Result &r) {
  double diff2 = 0, ref2 = 0, maxAbs = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (std::isnan(out[i]))
      continue;
    double d = out[i] - ref[i];
    diff2 += d * d;
    ref2 += ref[i] * ref[i];
    maxAbs = std::max(maxAbs, std::abs(d));
  }
  // An all-zero reference has no scale: fall back to the absolute error.
  r.relError = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  r.maxAbsError = maxAbs;
  r.pass = r.nanCount == 0 && r.relError < tolerance;
  if (r.nanCount)
    r.error = std::to_string(r.nanCount) + " elements are NaN (not written?)";
}

/// Compare::Attention: FlashAttention's criterion, max |out - ref| <=
/// 2 * max |lowp - ref| + 1e-3, and compare()'s relative L2 bound.
void compareAttention(const std::vector<double> &out,
                      const std::vector<double> &ref,
                      const std::vector<double> &lowp, double tolerance,
                      Result &r) {
  if (lowp.size() != ref.size())
    throw Error("harness: the low-precision reference has " +
                std::to_string(lowp.size()) + " elements, against " +
                std::to_string(ref.size()));
  compare(out, ref, tolerance, r);
  double lowpMaxAbs = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    lowpMaxAbs = std::max(lowpMaxAbs, std::abs(lowp[i] - ref[i]));
  r.maxAbsBound = 2 * lowpMaxAbs + 1e-3;
  bool withinBound = r.maxAbsError <= r.maxAbsBound;
  r.pass = r.pass && withinBound;
  if (r.nanCount == 0 && !withinBound)
    r.error = "max |out - ref| " + fmt("%.3e", r.maxAbsError) +
              " exceeds 2 * max |ref_lowp - ref| + 1e-3 = " +
              fmt("%.3e", r.maxAbsBound);
  else if (r.nanCount == 0 && !r.pass)
    r.error = "relative L2 error " + fmt("%.3e", r.relError) +
              " is not below " + fmt("%.0e", tolerance);
}

void compareExact(const std::vector<double> &out,
                  const std::vector<double> &ref, Result &r) {
  int64_t wrong = 0;
  double diff2 = 0, ref2 = 0, maxAbs = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    double d = out[i] - ref[i];
    wrong += d != 0;
    diff2 += d * d;
    ref2 += ref[i] * ref[i];
    maxAbs = std::max(maxAbs, std::abs(d));
  }
  r.relError = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  r.maxAbsError = maxAbs;
  r.pass = wrong == 0;
  if (wrong)
    r.error = std::to_string(wrong) + " elements differ from the exact sums";
}

/// Checks the second output against its reference (see Workload::aux).
void compareAux(const std::vector<double> &out, const Workload &w,
                Result &r) {
  double maxAbs = 0;
  int64_t wrong = 0;
  for (size_t i = 0; i < w.auxElements.size(); ++i) {
    double got = out.at(size_t(w.auxElements[i])), want = w.auxReference[i];
    bool ok = std::isinf(want)
                  ? got == want
                  : std::abs(got - want) <=
                        kAuxTolerance + kAuxRelTolerance * std::abs(want);
    if (!std::isinf(want) && !std::isnan(got))
      maxAbs = std::max(maxAbs, std::abs(got - want));
    wrong += !ok;
  }
  int64_t poisoned =
      std::count_if(out.begin(), out.end(), [](double v) { return std::isnan(v); });
  r.auxMaxAbsError = maxAbs;
  if (wrong == 0 && poisoned == 0)
    return;
  r.pass = false;
  r.error += (r.error.empty() ? "" : "; ") + std::string("second output: ") +
             std::to_string(wrong) + " checked elements off by more than " +
             fmt("%.0e", kAuxTolerance) + " + " + fmt("%.0e", kAuxRelTolerance) +
             " |ref| (or not the same infinity), " +
             std::to_string(poisoned) + " NaN";
}

double medianLaunchUs(const Context &ctx, const Stream &stream,
                      const Kernel &kernel, const std::vector<KernelArg> &args) {
  const int kWarmup = 3, kRuns = 20;
  for (int i = 0; i < kWarmup; ++i)
    kernel.launchArgs(stream, args);
  Event start(ctx), end(ctx);
  std::vector<double> us;
  for (int i = 0; i < kRuns; ++i) {
    start.record(stream);
    kernel.launchArgs(stream, args);
    end.record(stream);
    us.push_back(1000.0 * Event::elapsedMs(start, end));
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

/// A kernel to run, and the mode its results are reported under.
struct ModeKernel {
  std::string mode;
  const Kernel *kernel;
};

/// Launches `kernel` on `w` once, with its outputs poisoned first, and
/// compares the output with the references; returns the output.
std::vector<double> checkLaunch(const Stream &stream, const Kernel &kernel,
                                const Example &ex, Workload &w, Result &r) {
  DeviceBuffer &out = w.buffers[w.output];
  // Every byte 0xFF: NaN in f32, f16 and bf16 (0xFFFF), -1 in i32: an
  // element the kernel misses cannot pass.
  out.memset(0xff);
  if (w.aux)
    w.buffers[*w.aux].memset(0xff);
  kernel.launchArgs(stream, w.args);
  stream.synchronize();
  std::vector<double> values = downloadOutput(out, w.outputType);
  std::vector<double> first = values;
  r.sampled = !w.checkedRows.empty();
  r.rows = w.rowLength > 0 ? int64_t(values.size()) / w.rowLength : 0;
  r.checkedRows = r.sampled ? int64_t(w.checkedRows.size()) : r.rows;
  if (w.outputType == ScalarType::I32) {
    compareExact(checkedElements(std::move(values), w), w.reference, r);
  } else {
    // Poison left anywhere fails, sampled reference or not.
    r.nanCount = std::count_if(values.begin(), values.end(),
                               [](double v) { return std::isnan(v); });
    if (ex.compare == Compare::Attention)
      compareAttention(checkedElements(std::move(values), w), w.reference,
                       w.referenceLowp, ex.tolerance, r);
    else
      compare(checkedElements(std::move(values), w), w.reference,
              ex.tolerance, r);
  }
  if (w.aux)
    compareAux(downloadOutput(w.buffers[*w.aux], ScalarType::F32), w, r);
  return first;
}

/// Attention must be deterministic: the timed launches rewrite the output,
/// which must equal the first launch's bit for bit.
void checkRepeatable(const Stream &stream, const Workload &w,
                     const std::vector<double> &first, Result &r) {
  stream.synchronize();
  std::vector<double> again =
      downloadOutput(w.buffers[w.output], w.outputType);
  bool same = std::equal(first.begin(), first.end(), again.begin(),
                         again.end(), [](double x, double y) {
                           return x == y || (std::isnan(x) && std::isnan(y));
                         });
  if (!same) {
    r.pass = false;
    r.error += (r.error.empty() ? "" : "; ") +
               std::string("the output differs between launches");
  }
}

/// Runs every kernel of `kernels` (builds of one example) on one workload
/// of `shape`: each is checked, then timed in rounds that alternate between
/// them, so that builds compared in one process see the same inputs and the
/// same state of the GPU; a kernel's time is the median of its rounds'.
std::vector<Result> runShape(const Context &ctx,
                             const std::vector<ModeKernel> &kernels,
                             const Example &ex, const Shape &shape,
                             std::mt19937 &rng) {
  std::vector<Result> results;
  for (const ModeKernel &k : kernels) {
    Result r = startResult(ex, k.mode, shapeString(shape));
    r.dims = shape;
    if (ex.flops)
      r.flops = ex.flops(shape);
    results.push_back(std::move(r));
  }
  // A kernel that fails stops there; the others go on. A workload that
  // cannot be made fails them all.
  auto fail = [](Result &r, const Error &e) {
    r.pass = false;
    r.error = e.what();
  };
  std::optional<Stream> stream;
  std::optional<Workload> w;
  try {
    stream.emplace(ctx);
    w.emplace(ex.prepare(ctx, shape, rng));
  } catch (const Error &e) {
    for (Result &r : results)
      fail(r, e);
    return results;
  }
  std::vector<std::optional<std::vector<double>>> firsts(kernels.size());
  for (size_t i = 0; i < kernels.size(); ++i) {
    try {
      firsts[i] = checkLaunch(*stream, *kernels[i].kernel, ex, *w, results[i]);
    } catch (const Error &e) {
      fail(results[i], e);
    }
  }
  // One round alone when there is nothing to alternate with.
  int rounds = kernels.size() > 1 ? 3 : 1;
  std::vector<std::vector<double>> times(kernels.size());
  for (int round = 0; round < rounds; ++round)
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (!firsts[i])
        continue;
      try {
        times[i].push_back(
            medianLaunchUs(ctx, *stream, *kernels[i].kernel, w->args));
      } catch (const Error &e) {
        fail(results[i], e);
        firsts[i].reset();
      }
    }
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (!firsts[i])
      continue;
    Result &r = results[i];
    std::sort(times[i].begin(), times[i].end());
    r.timeUs = times[i][times[i].size() / 2];
    try {
      r.schedule = kernels[i].kernel->quantisationFor(w->args);
      if (ex.compare == Compare::Attention) {
        // The output the timed launches of this kernel left: launch it
        // once more, after the others.
        kernels[i].kernel->launchArgs(*stream, w->args);
        checkRepeatable(*stream, *w, *firsts[i], r);
      }
    } catch (const Error &e) {
      fail(r, e);
    }
  }
  return results;
}

#ifdef TILEC_RUN_EXAMPLES_JIT
std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("cannot open '" + path + "'");
  return std::string((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
}
#endif

struct Options {
  std::string sourceDir = TILEC_EXAMPLES_SOURCE_DIR, json;
  std::vector<std::string> modes;
  /// The cubin folder of each aot mode (--cubin-dir: one folder, mode aot,
  /// or several, comma-separated, whose builds run side by side on the same
  /// inputs as modes aot@<folder name>).
  std::map<std::string, std::string> cubinDirOf;
  std::vector<std::string> only;
  int device = 0;
  /// Shapes of examples that count FLOPs above this many GFLOP are skipped
  /// (--max-gflop; compute-sanitizer runs take the small shapes only).
  double maxGflop = 0;
  /// --shapes: run these instead of each selected example's own shapes.
  std::vector<Shape> shapes;
  /// Seed of the input generator: fresh from the OS unless --seed is given,
  /// and printed so that a failure can be replayed.
  std::optional<uint64_t> seed;
};

/// Whether `shape` of `ex` is within --max-gflop (always, without it or
/// without a FLOP count).
bool withinLimit(const Options &opts, const Example &ex, const Shape &shape) {
  return opts.maxGflop <= 0 || !ex.flops ||
         ex.flops(shape) <= opts.maxGflop * 1e9;
}

/// The cubin (aot) or source (jit) that defines the example's kernel.
std::string modulePath(const Options &opts, const Example &ex,
                       const std::string &mode) {
  if (auto dir = opts.cubinDirOf.find(mode); dir != opts.cubinDirOf.end())
    return dir->second + "/" + sourceStem(ex) + ".cubin";
  return opts.sourceDir + "/" + sourceStem(ex) + ".mlir";
}

Module loadModule(const Context &ctx, const Options &opts, const Example &ex,
                  const std::string &mode) {
  if (opts.cubinDirOf.count(mode))
    return Module::loadFile(ctx, modulePath(opts, ex, mode));
#ifdef TILEC_RUN_EXAMPLES_JIT
  std::string path = modulePath(opts, ex, mode);
  JitOptions jit;
  jit.bufferName = path;
  return jitLoad(ctx, readFile(path), jit);
#else
  throw Error("this build has no JIT");
#endif
}

std::vector<Result> runExample(const Context &ctx, const Options &opts,
                               const Example &ex, std::mt19937 &rng) {
  std::vector<Result> results;
  std::vector<std::optional<Kernel>> loaded(opts.modes.size());
  std::vector<ModeKernel> kernels;
  for (size_t i = 0; i < opts.modes.size(); ++i) {
    const std::string &mode = opts.modes[i];
    try {
      loaded[i].emplace(loadModule(ctx, opts, ex, mode), ex.name);
      kernels.push_back({mode, &*loaded[i]});
    } catch (const Error &e) {
      // Every shape fails the same way; one row says why.
      Result r = startResult(ex, mode, "-");
      r.error = e.what();
      results.push_back(r);
    }
  }
  if (kernels.empty())
    return results;
  for (const Shape &shape : opts.shapes.empty() ? ex.shapes : opts.shapes)
    if (withinLimit(opts, ex, shape))
      for (Result &r : runShape(ctx, kernels, ex, shape, rng))
        results.push_back(std::move(r));
  return results;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

/// "all", or "<checked>/<rows>" for a sampled reference.
std::string checkedString(const Result &r) {
  if (std::isnan(r.relError)) // not compared
    return "-";
  if (!r.sampled)
    return "all";
  return std::to_string(r.checkedRows) + "/" + std::to_string(r.rows);
}

void printTable(const std::vector<Result> &results) {
  int nameWidth = 10, modeWidth = 5, shapeWidth = 12;
  for (const Result &r : results) {
    nameWidth = std::max(nameWidth, int(r.example.size()));
    modeWidth = std::max(modeWidth, int(r.mode.size()));
    shapeWidth = std::max(shapeWidth, int(r.shape.size()));
  }
  std::printf("%-*s %-*s %-*s %10s %10s %10s %10s %8s %9s  %s\n", nameWidth,
              "example", modeWidth, "mode", shapeWidth, "shape", "rel_err", "max_abs",
              "bound", "time_us", "TFLOP/s", "checked", "status");
  for (const Result &r : results)
    std::printf("%-*s %-*s %-*s %10s %10s %10s %10s %8s %9s  %s\n", nameWidth,
                r.example.c_str(), modeWidth, r.mode.c_str(), shapeWidth,
                r.shape.c_str(),
                fmt("%.2e", r.relError).c_str(),
                fmt("%.2e", r.maxAbsError).c_str(),
                fmt("%.2e", r.maxAbsBound).c_str(),
                fmt("%.1f", r.timeUs).c_str(), fmt("%.1f", r.tflops()).c_str(),
                checkedString(r).c_str(), r.pass ? "PASS" : "FAIL");
  for (const Result &r : results)
    if (!r.error.empty())
      std::printf("%s %s %s: %s\n", r.example.c_str(), r.mode.c_str(),
                  r.shape.c_str(), r.error.c_str());
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

std::string jsonNumber(double v, int precision = 6) {
  if (std::isnan(v) || std::isinf(v))
    return "null";
  std::ostringstream os;
  os.precision(precision);
  os << v;
  return os.str();
}

/// A row count, null where the example does not say how its output is
/// rowed (it never samples).
std::string rowCount(int64_t rows) {
  return rows > 0 ? std::to_string(rows) : "null";
}

bool writeJson(const std::string &path, const Device &device,
               const std::vector<Result> &results) {
  std::ofstream out(path);
  out << "{\n  \"device\": " << jsonString(device.name)
      << ",\n  \"results\": [\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const Result &r = results[i];
    std::string dims;
    for (int64_t d : r.dims)
      dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    // "example" is the kernel's name ("kernel" says it again, beside its
    // source file); "time_us" the median launch.
    out << "    {\"example\": " << jsonString(r.example)
        << ", \"mode\": " << jsonString(r.mode)
        << ", \"shape\": " << jsonString(r.shape)
        << ", \"rel_error\": " << jsonNumber(r.relError)
        << ", \"max_abs_error\": " << jsonNumber(r.maxAbsError)
        << ", \"max_abs_bound\": " << jsonNumber(r.maxAbsBound)
        << ", \"aux_max_abs_error\": " << jsonNumber(r.auxMaxAbsError)
        << ", \"nan_count\": " << r.nanCount
        << ", \"time_us\": " << jsonNumber(r.timeUs)
        << ", \"kernel\": " << jsonString(r.example)
        << ", \"source\": " << jsonString(r.source)
        << ", \"dims\": [" << dims << "]"
        << ", \"flops\": " << jsonNumber(r.flops, 17)
        << ", \"tflops\": " << jsonNumber(r.tflops())
        << ", \"sampled\": " << (r.sampled ? "true" : "false")
        << ", \"checked_rows\": " << rowCount(r.checkedRows)
        << ", \"rows\": " << rowCount(r.rows)
        << ", \"launched\": " << jsonString(r.schedule.kernel)
        << ", \"programs\": " << r.schedule.programs
        << ", \"blocks\": " << r.schedule.blocks
        << ", \"resident_blocks_per_sm\": " << r.schedule.residentPerSm
        << ", \"waves\": " << jsonNumber(r.schedule.waves)
        << ", \"status\": " << jsonString(r.pass ? "PASS" : "FAIL")
        << ", \"error\": " << jsonString(r.error) << "}"
        << (i + 1 < results.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
  return bool(out);
}

/// Without a GPU: what would run, and what the cubins hold.
void listWithoutGpu(const Options &opts,
                    const std::vector<const Example *> &selected) {
  std::printf("no GPU found\n\nwould run:\n");
  int nameWidth = 10, shapeWidth = 12;
  for (const Example *ex : selected) {
    nameWidth = std::max(nameWidth, int(std::strlen(ex->name)));
    for (const Shape &shape : ex->shapes)
      shapeWidth = std::max(shapeWidth, int(shapeString(shape).size()));
  }
  for (const Example *ex : selected)
    for (const std::string &mode : opts.modes)
      for (const Shape &shape : ex->shapes)
        if (withinLimit(opts, *ex, shape))
          std::printf("  %-*s %-5s %-*s %s\n", nameWidth, ex->name,
                    mode.c_str(), shapeWidth, shapeString(shape).c_str(),
                    modulePath(opts, *ex, mode).c_str());
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

bool hasJit() {
#ifdef TILEC_RUN_EXAMPLES_JIT
  return true;
#else
  return false;
#endif
}

const char kUsage[] =
    "usage: tilec-run-examples --cubin-dir DIR[,DIR...] [--source-dir DIR]\n"
    "         [--mode aot|jit|both] [--json FILE] [--only NAME,...]\n"
    "         [--device N] [--seed N] [--max-gflop X]\n"
    "         [--shapes AxB...,...]  (instead of the examples' own shapes)\n";

std::vector<std::string> splitComma(const std::string &s) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, ',');)
    if (!part.empty())
      parts.push_back(part);
  return parts;
}

/// "AxB,CxD" -> {{A, B}, {C, D}}; false on anything but positive sizes.
bool parseShapes(const std::string &s, std::vector<Shape> &shapes) {
  for (const std::string &text : splitComma(s)) {
    Shape shape;
    std::stringstream ss(text);
    for (std::string size; std::getline(ss, size, 'x');) {
      char *end = nullptr;
      long long value = std::strtoll(size.c_str(), &end, 10);
      if (size.empty() || *end != '\0' || value < 0)
        return false;
      shape.push_back(value);
    }
    shapes.push_back(shape);
  }
  return !shapes.empty();
}

/// Parses argv; returns false (after printing why) on bad usage.
bool parseArgs(int argc, char **argv, Options &opts) {
  std::string mode = hasJit() ? "both" : "aot";
  std::vector<std::string> cubinDirs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    bool ok = true;
    if (arg == "--cubin-dir" && (ok = value(v)))
      cubinDirs = splitComma(v);
    else if (arg == "--source-dir")
      ok = value(opts.sourceDir);
    else if (arg == "--mode")
      ok = value(mode);
    else if (arg == "--json")
      ok = value(opts.json);
    else if (arg == "--only" && (ok = value(v)))
      opts.only = splitComma(v);
    else if (arg == "--device" && (ok = value(v)))
      opts.device = std::atoi(v.c_str());
    else if (arg == "--seed" && (ok = value(v)))
      opts.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (arg == "--shapes" && (ok = value(v)))
      ok = parseShapes(v, opts.shapes);
    else if (arg == "--max-gflop" && (ok = value(v)))
      opts.maxGflop = std::strtod(v.c_str(), nullptr);
    else if (arg == "-h" || arg == "--help") {
      std::printf("%s", kUsage);
      std::exit(0);
    } else
      ok = false;
    if (!ok) {
      std::fprintf(stderr, "bad argument '%s'\n%s", arg.c_str(), kUsage);
      return false;
    }
  }
  if (mode != "both" && mode != "aot" && mode != "jit") {
    std::fprintf(stderr, "bad mode '%s'\n%s", mode.c_str(), kUsage);
    return false;
  }
  if (!hasJit() && mode != "aot") {
    std::fprintf(stderr, "this build of tilec-run-examples has no JIT; use "
                         "--mode aot\n");
    return false;
  }
  if (mode != "jit") {
    if (cubinDirs.empty()) {
      std::fprintf(stderr, "--cubin-dir is required for aot mode\n%s", kUsage);
      return false;
    }
    // Several folders: each build's rows are named by its folder.
    for (const std::string &dir : cubinDirs) {
      std::string name =
          cubinDirs.size() == 1
              ? "aot"
              : "aot@" + std::filesystem::path(dir).filename().string();
      if (!opts.cubinDirOf.emplace(name, dir).second) {
        std::fprintf(stderr, "two cubin folders named '%s'\n", name.c_str());
        return false;
      }
      opts.modes.push_back(name);
    }
  }
  if (mode != "aot")
    opts.modes.push_back("jit");
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (!parseArgs(argc, argv, opts))
    return 2;
  std::vector<const Example *> selected;
  // --only NAME: the kernel NAME, or every kernel of examples/NAME.mlir.
  for (const Example &ex : examples())
    if (opts.only.empty() ||
        std::find(opts.only.begin(), opts.only.end(), ex.name) !=
            opts.only.end() ||
        std::find(opts.only.begin(), opts.only.end(), sourceStem(ex)) !=
            opts.only.end())
      selected.push_back(&ex);
  if (selected.empty()) {
    std::fprintf(stderr, "no example matches --only\n");
    return 2;
  }

  if (deviceCount() == 0) {
    listWithoutGpu(opts, selected);
    return 0;
  }
  try {
    Context ctx(opts.device);
    std::printf("device %d: %s (sm_%d, %d SMs)\n\n", opts.device,
                ctx.device().name.c_str(), ctx.device().computeCapability(),
                ctx.device().smCount);
    uint64_t seed = opts.seed ? *opts.seed : std::random_device{}();
    std::printf("input seed %llu (replay with --seed)\n\n",
                static_cast<unsigned long long>(seed));
    std::mt19937 rng(static_cast<std::mt19937::result_type>(seed));
    std::vector<Result> results;
    for (const Example *ex : selected)
      for (Result &r : runExample(ctx, opts, *ex, rng))
        results.push_back(std::move(r));
    printTable(results);
    if (!opts.json.empty() && !writeJson(opts.json, ctx.device(), results)) {
      std::fprintf(stderr, "cannot write '%s'\n", opts.json.c_str());
      return 1;
    }
    bool allPass = std::all_of(results.begin(), results.end(),
                               [](const Result &r) { return r.pass; });
    std::printf("\n%s\n", allPass ? "all passed" : "FAILURES");
    return allPass ? 0 : 1;
  } catch (const Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
