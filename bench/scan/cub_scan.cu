//===- cub_scan.cu - CUB's device-wide scans: the peer of tilec's scans ---===//
//
// tilec-cub-scan [--json FILE] [--log2 20,24,28] [--only sum,recurrence,copy]
//
// Times cub::DeviceScan::InclusiveSum and ExclusiveSum called directly, for
// f32 and i32 at n = 2^20, 2^24 and 2^28: temporary storage is allocated once
// before any timing; each call (CUB's two launches) sits between two CUDA
// events; warm-up first, then the median of many calls (fewer at 2^28).
// GB/s = 2 * n * sizeof(T) / time (the input read and the output written
// once). Each scan is first checked against a host reference on fresh
// random inputs with a poisoned output (f32: relative L2 error against a
// float64 scan; i32: exact), so that a broken peer shows. Also times the
// bound any scan is under: a float4 copy kernel and cudaMemcpy device to
// device, on 2^28 f32 elements.
//
// The peer of tilec's linear recurrence (@scan_rec_inc_f32, a scan whose
// combiner region composes (a, b) pairs): cub::DeviceScan::InclusiveScan
// with RecurrenceOp on float2 pairs (the same bytes as tilec's four f32
// arrays, interleaved), timed the same way at the same lengths, each first
// checked against a float64 recurrence (relative L2 error of the running
// product and of h below 1e-5). GB/s = 16 * n / time: n pairs of 8 bytes
// read and written once, as tilec's 2 inputs and 2 outputs of 4 bytes.
// --only picks the groups to run (default all).
//
// Built by scripts/package-device.sh with nvcc (not by CMake):
//   nvcc -O3 -std=c++17 -arch=sm_90 bench/scan/cub_scan.cu -o tilec-cub-scan
//
//===----------------------------------------------------------------------===//

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

/// Any CUDA error ends the program: a sticky error would fail every later
/// step anyway, and the script counts the non-zero exit.
#define CHECK_CUDA(expr)                                                       \
  do {                                                                         \
    cudaError_t err_ = (expr);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #expr,  \
                   cudaGetErrorName(err_), cudaGetErrorString(err_));          \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

struct Row {
  std::string impl, op, dtype;
  int64_t n = 0;
  int runs = 0;
  double us = NAN, gbPerS = NAN, relError = NAN, tolerance = NAN;
  int64_t mismatches = -1;
  bool pass = false;
};

/// f32 sums: relative L2 error below 1e-5, the bar of every f32 scan here;
/// beyond 2^24 elements the rounding of any blocked scan's carry chain
/// grows about as the square root of the length, and so does the bound
/// (the same rule as tilec-scan-bench's).
double f32SumTolerance(int64_t n) {
  const double base = 1e-5, knee = double(1 << 24);
  return n <= knee ? base : base * std::sqrt(double(n) / knee);
}

int runsFor(int64_t n) {
  return n >= (int64_t(1) << 28) ? 10 : n >= (int64_t(1) << 24) ? 50 : 200;
}

/// Median of `runs` event-timed calls of `call` after `warmup` untimed ones.
template <typename F> double medianUs(F call, int runs, int warmup = 5) {
  for (int i = 0; i < warmup; ++i)
    call();
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, end;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&end));
  std::vector<double> us;
  for (int i = 0; i < runs; ++i) {
    CHECK_CUDA(cudaEventRecord(start));
    call();
    CHECK_CUDA(cudaEventRecord(end));
    CHECK_CUDA(cudaEventSynchronize(end));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, end));
    us.push_back(1000.0 * ms);
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(end));
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

/// Runs one CUB scan on (in, out) with the temporary storage given. The
/// length is an int, as a direct caller passes it: CUB then uses 32-bit
/// offsets (int64 would select 64-bit ones).
template <typename T>
void cubScan(bool exclusive, void *temp, size_t tempBytes, const T *in, T *out,
             int n) {
  size_t bytes = tempBytes;
  if (exclusive)
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n));
  else
    CHECK_CUDA(cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n));
}

template <typename T> size_t cubTempBytes(bool exclusive, int n) {
  size_t bytes = 0;
  if (exclusive)
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes,
                                             static_cast<const T *>(nullptr),
                                             static_cast<T *>(nullptr), n));
  else
    CHECK_CUDA(cub::DeviceScan::InclusiveSum(nullptr, bytes,
                                             static_cast<const T *>(nullptr),
                                             static_cast<T *>(nullptr), n));
  return bytes;
}

/// Checks `got` against the host scan of `x`: float64 for f32 (relative L2
/// error), wrapping 32-bit integers for i32 (exact).
template <typename T>
void checkScan(const std::vector<T> &x, const std::vector<T> &got,
               bool exclusive, Row &row) {
  int64_t n = int64_t(x.size());
  int64_t bad = 0;
  if constexpr (std::is_same_v<T, float>) {
    double acc = 0, diff2 = 0, ref2 = 0;
    for (int64_t i = 0; i < n; ++i) {
      double before = acc;
      acc += x[i];
      double ref = exclusive ? before : acc, y = got[i];
      if (!std::isfinite(y))
        ++bad; // the poison (NaN) left, or worse
      diff2 += (y - ref) * (y - ref);
      ref2 += ref * ref;
    }
    row.relError = std::sqrt(diff2 / std::max(ref2, 1e-300));
    row.tolerance = f32SumTolerance(n);
    row.mismatches = bad;
    row.pass = bad == 0 && std::isfinite(row.relError) &&
               row.relError <= row.tolerance;
  } else {
    uint32_t acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      uint32_t before = acc;
      acc += uint32_t(x[i]);
      if (uint32_t(got[i]) != (exclusive ? before : acc))
        ++bad;
    }
    row.relError = bad ? NAN : 0.0;
    row.tolerance = 0;
    row.mismatches = bad;
    row.pass = bad == 0;
  }
}

template <typename T>
void runType(const char *dtype, const std::vector<int> &log2s,
             std::mt19937 &rng, std::vector<Row> &rows) {
  int64_t maxN = 0;
  for (int l : log2s)
    maxN = std::max(maxN, int64_t(1) << l);
  // Temporary storage: once, for the largest scan of either kind.
  size_t tempBytes = std::max(cubTempBytes<T>(false, int(maxN)),
                              cubTempBytes<T>(true, int(maxN)));
  void *temp = nullptr;
  T *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, std::max<size_t>(tempBytes, 1)));
  CHECK_CUDA(cudaMalloc(&in, maxN * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&out, maxN * sizeof(T)));
  for (int l : log2s) {
    int64_t n = int64_t(1) << l;
    for (bool exclusive : {false, true}) {
      Row row;
      row.impl = "cub";
      row.op = exclusive ? "ExclusiveSum" : "InclusiveSum";
      row.dtype = dtype;
      row.n = n;
      // Fresh inputs for every check: f32 uniform in [-1, 1] (as tilec's
      // bench), i32 in [-100, 100] (no overflow even at 2^28 in practice;
      // the reference wraps anyway).
      std::vector<T> x(n);
      if constexpr (std::is_same_v<T, float>) {
        std::uniform_real_distribution<float> dist(-1, 1);
        for (auto &v : x)
          v = dist(rng);
      } else {
        std::uniform_int_distribution<int32_t> dist(-100, 100);
        for (auto &v : x)
          v = dist(rng);
      }
      CHECK_CUDA(cudaMemcpy(in, x.data(), n * sizeof(T), cudaMemcpyHostToDevice));
      // Poison: NaN for f32; for i32 0x7f7f7f7f, which no prefix of these
      // inputs reaches.
      CHECK_CUDA(cudaMemset(out, std::is_same_v<T, float> ? 0xff : 0x7f,
                            n * sizeof(T)));
      cubScan<T>(exclusive, temp, tempBytes, in, out, int(n));
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      std::vector<T> got(n);
      CHECK_CUDA(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
      checkScan(x, got, exclusive, row);
      row.runs = runsFor(n);
      row.us = medianUs([&] { cubScan<T>(exclusive, temp, tempBytes, in, out, int(n)); },
                        row.runs);
      CHECK_CUDA(cudaGetLastError());
      row.gbPerS = 2.0 * n * sizeof(T) / (row.us * 1e3);
      std::printf("%-6s %-14s %-6s %10lld %10.1f %10.1f %9.2e %6lld  %s\n",
                  row.impl.c_str(), row.op.c_str(), dtype, (long long)n, row.us,
                  row.gbPerS, row.relError, (long long)row.mismatches,
                  row.pass ? "PASS" : "FAIL");
      std::fflush(stdout);
      rows.push_back(row);
    }
  }
  CHECK_CUDA(cudaFree(temp));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
}

/// The linear recurrence h[t] = a[t] * h[t-1] + b[t] as a scan over (a, b)
/// pairs (x = a, y = b): the affine map of the later pair after that of the
/// earlier, (a0, b0) . (a1, b1) = (a1 * a0, a1 * b0 + b1). Associative, not
/// commutative: CUB's scans need only associativity, and call the operator
/// with the earlier operand first. A scan's output is (running product of
/// a, h).
struct RecurrenceOp {
  __host__ __device__ float2 operator()(const float2 &earlier,
                                        const float2 &later) const {
    return make_float2(later.x * earlier.x, later.x * earlier.y + later.y);
  }
};

/// The tolerance of tilec-scan-bench's f32 region scans: the recurrence
/// contracts (|a| < 1), so rounding does not grow with the length.
constexpr double kRecurrenceTolerance = 1e-5;

/// Checks the two lanes of `got` against the float64 recurrence over `x`:
/// the worst relative L2 error of the two; a non-finite value (the NaN
/// poison left) is a mismatch.
void checkRecurrence(const std::vector<float2> &x,
                     const std::vector<float2> &got, Row &row) {
  double a = 1, h = 0, diffA = 0, refA = 0, diffH = 0, refH = 0;
  int64_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    a *= x[i].x;
    h = x[i].x * h + x[i].y;
    double ya = got[i].x, yh = got[i].y;
    if (!std::isfinite(ya) || !std::isfinite(yh)) {
      ++bad;
      continue;
    }
    diffA += (ya - a) * (ya - a);
    refA += a * a;
    diffH += (yh - h) * (yh - h);
    refH += h * h;
  }
  row.relError = bad ? NAN
                     : std::max(std::sqrt(diffA / std::max(refA, 1e-300)),
                                std::sqrt(diffH / std::max(refH, 1e-300)));
  row.tolerance = kRecurrenceTolerance;
  row.mismatches = bad;
  row.pass = bad == 0 && std::isfinite(row.relError) &&
             row.relError <= row.tolerance;
}

void cubRecurrence(void *temp, size_t tempBytes, const float2 *in,
                   float2 *out, int n) {
  size_t bytes = tempBytes;
  CHECK_CUDA(cub::DeviceScan::InclusiveScan(temp, bytes, in, out,
                                            RecurrenceOp{}, n));
}

void runRecurrence(const std::vector<int> &log2s, std::mt19937 &rng,
                   std::vector<Row> &rows) {
  int64_t maxN = 0;
  for (int l : log2s)
    maxN = std::max(maxN, int64_t(1) << l);
  size_t tempBytes = 0;
  CHECK_CUDA(cub::DeviceScan::InclusiveScan(
      nullptr, tempBytes, static_cast<const float2 *>(nullptr),
      static_cast<float2 *>(nullptr), RecurrenceOp{}, int(maxN)));
  void *temp = nullptr;
  float2 *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&temp, std::max<size_t>(tempBytes, 1)));
  CHECK_CUDA(cudaMalloc(&in, maxN * sizeof(float2)));
  CHECK_CUDA(cudaMalloc(&out, maxN * sizeof(float2)));
  // tilec-scan-bench's inputs: a = +-[0.9, 1) (random sign), b in [-1, 1],
  // so h stays bounded and a carry counts for a few hundred elements.
  std::uniform_real_distribution<float> unit(-1, 1), magnitude(0.9f, 1.0f);
  std::bernoulli_distribution negative(0.5);
  for (int l : log2s) {
    int64_t n = int64_t(1) << l;
    Row row;
    row.impl = "cub";
    row.op = "RecurrenceScan";
    row.dtype = "float2";
    row.n = n;
    std::vector<float2> x(n);
    for (float2 &p : x) {
      float a = magnitude(rng);
      p = make_float2(negative(rng) ? -a : a, unit(rng));
    }
    CHECK_CUDA(cudaMemcpy(in, x.data(), n * sizeof(float2),
                          cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(out, 0xff, n * sizeof(float2))); // NaN
    cubRecurrence(temp, tempBytes, in, out, int(n));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float2> got(n);
    CHECK_CUDA(cudaMemcpy(got.data(), out, n * sizeof(float2),
                          cudaMemcpyDeviceToHost));
    checkRecurrence(x, got, row);
    row.runs = runsFor(n);
    row.us = medianUs([&] { cubRecurrence(temp, tempBytes, in, out, int(n)); },
                      row.runs);
    CHECK_CUDA(cudaGetLastError());
    row.gbPerS = 2.0 * n * sizeof(float2) / (row.us * 1e3);
    std::printf("%-6s %-14s %-6s %10lld %10.1f %10.1f %9.2e %6lld  %s\n",
                row.impl.c_str(), row.op.c_str(), row.dtype.c_str(),
                (long long)n, row.us, row.gbPerS, row.relError,
                (long long)row.mismatches, row.pass ? "PASS" : "FAIL");
    std::fflush(stdout);
    rows.push_back(row);
  }
  CHECK_CUDA(cudaFree(temp));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
}

/// The bandwidth bound: each thread copies 16-byte vectors, grid-stride.
__global__ void copyFloat4(const float4 *__restrict__ in,
                           float4 *__restrict__ out, int64_t n4) {
  int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4;
       i += stride)
    out[i] = in[i];
}

void runCopies(int64_t n, std::vector<Row> &rows) {
  float *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, n * sizeof(float)));
  // Check both copies move the data: a ramp in, poison out.
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = float(i % 1000003);
  CHECK_CUDA(cudaMemcpy(in, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  int device = 0, sms = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int threads = 256;
  const int blocks = sms * 8; // 2048 threads per SM, grid-stride
  int64_t n4 = n / 4;
  auto kernel = [&] {
    copyFloat4<<<blocks, threads>>>(reinterpret_cast<const float4 *>(in),
                                    reinterpret_cast<float4 *>(out), n4);
  };
  auto memcpyDtoD = [&] {
    CHECK_CUDA(cudaMemcpyAsync(out, in, n * sizeof(float),
                               cudaMemcpyDeviceToDevice));
  };
  for (int k = 0; k < 2; ++k) {
    Row row;
    row.impl = k == 0 ? "copy_float4" : "memcpy_dtod";
    row.op = "copy";
    row.dtype = "f32";
    row.n = n;
    CHECK_CUDA(cudaMemset(out, 0xff, n * sizeof(float)));
    if (k == 0)
      kernel();
    else
      memcpyDtoD();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> got(n);
    CHECK_CUDA(cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
    row.mismatches = 0;
    for (int64_t i = 0; i < n; ++i)
      row.mismatches += std::memcmp(&got[i], &x[i], sizeof(float)) != 0;
    row.relError = row.mismatches ? NAN : 0.0;
    row.tolerance = 0;
    row.pass = row.mismatches == 0;
    row.runs = runsFor(n);
    row.us = k == 0 ? medianUs(kernel, row.runs) : medianUs(memcpyDtoD, row.runs);
    CHECK_CUDA(cudaGetLastError());
    row.gbPerS = 2.0 * n * sizeof(float) / (row.us * 1e3);
    std::printf("%-13s %-6s %18lld %10.1f %10.1f %9s %6lld  %s\n",
                row.impl.c_str(), row.dtype.c_str(), (long long)n, row.us,
                row.gbPerS, "-", (long long)row.mismatches,
                row.pass ? "PASS" : "FAIL");
    std::fflush(stdout);
    rows.push_back(row);
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
}

std::string jsonNumber(double v) {
  if (!std::isfinite(v))
    return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void writeJson(const std::string &path, const std::vector<Row> &rows,
               const cudaDeviceProp &prop, int runtimeVersion,
               int driverVersion) {
  std::string device = prop.name; // as a JSON string
  for (char &ch : device)
    if (ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20)
      ch = ' ';
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
  std::fprintf(f,
               "{\"device\": \"%s\", \"cuda_runtime\": %d, \"cuda_driver\": %d, "
               "\"cccl_version\": %d,\n \"timing\": \"median of event-timed "
               "calls after warm-up; temp storage allocated once\",\n"
               " \"results\": [\n",
               device.c_str(), runtimeVersion, driverVersion, CCCL_VERSION);
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    std::fprintf(f,
                 "  {\"impl\": \"%s\", \"op\": \"%s\", \"dtype\": \"%s\", "
                 "\"shape\": \"%lld\", \"n\": %lld, \"runs\": %d, \"us\": %s, "
                 "\"gb_per_s\": %s, \"rel_error\": %s, \"tolerance\": %s, "
                 "\"mismatches\": %lld, \"status\": \"%s\"}%s\n",
                 r.impl.c_str(), r.op.c_str(), r.dtype.c_str(), (long long)r.n,
                 (long long)r.n, r.runs, jsonNumber(r.us).c_str(),
                 jsonNumber(r.gbPerS).c_str(), jsonNumber(r.relError).c_str(),
                 jsonNumber(r.tolerance).c_str(), (long long)r.mismatches,
                 r.pass ? "PASS" : "FAIL", i + 1 < rows.size() ? "," : "");
  }
  std::fprintf(f, " ]\n}\n");
  std::fclose(f);
}

int usage() {
  std::fprintf(stderr, "usage: tilec-cub-scan [--json FILE] [--log2 20,24,28] "
                       "[--only sum,recurrence,copy]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string json, only = ",sum,recurrence,copy,";
  std::vector<int> log2s = {20, 24, 28};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else if (arg == "--only" && i + 1 < argc) {
      only = "," + std::string(argv[++i]) + ",";
    } else if (arg == "--log2" && i + 1 < argc) {
      log2s.clear();
      std::string list = argv[++i];
      for (size_t pos = 0; pos <= list.size();) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos)
          comma = list.size();
        int l = std::atoi(list.substr(pos, comma - pos).c_str());
        if (l < 1 || l > 30)
          return usage();
        log2s.push_back(l);
        pos = comma + 1;
      }
    } else {
      return usage();
    }
  }
  int device = 0, runtimeVersion = 0, driverVersion = 0;
  CHECK_CUDA(cudaSetDevice(device));
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  CHECK_CUDA(cudaRuntimeGetVersion(&runtimeVersion));
  CHECK_CUDA(cudaDriverGetVersion(&driverVersion));
  std::printf("%s, %d SMs, CUDA runtime %d, driver %d, CCCL %d\n", prop.name,
              prop.multiProcessorCount, runtimeVersion, driverVersion,
              CCCL_VERSION);
  std::printf("%-6s %-14s %-6s %10s %10s %10s %9s %6s  %s\n", "impl", "op",
              "type", "n", "us", "GB/s", "rel_err", "bad", "status");
  std::mt19937 rng(20261121);
  std::vector<Row> rows;
  auto runs = [&](const char *group) {
    return only.find("," + std::string(group) + ",") != std::string::npos;
  };
  if (runs("sum")) {
    runType<float>("f32", log2s, rng, rows);
    runType<int32_t>("i32", log2s, rng, rows);
  }
  if (runs("recurrence"))
    runRecurrence(log2s, rng, rows);
  int maxLog2 = *std::max_element(log2s.begin(), log2s.end());
  if (runs("copy"))
    runCopies(int64_t(1) << std::max(maxLog2, 20), rows);
  if (rows.empty())
    return usage();
  int passed = 0, failed = 0;
  for (const Row &r : rows)
    (r.pass ? passed : failed)++;
  if (!json.empty())
    writeJson(json, rows, prop, runtimeVersion, driverVersion);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
