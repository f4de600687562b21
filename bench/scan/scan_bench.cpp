//===- scan_bench.cpp - Check and time tilec scans ------------------------===//
//
// tilec-scan-bench --cubin FILE [--json FILE] [--only KERNEL,...]
//
// Runs the scans of bench/scan/kernels.mlir on the shapes: checks
// each against a float64 prefix sum of the same random inputs (outputs
// poisoned before the launch), then times it (median of back-to-back
// launches, CUDA events) and reports GB/s counting the input read and the
// output written once. The peers run in the same device call
// (bench/scan/torch_cumsum.py; CUB is not wired in yet).
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::rt;

namespace {

enum class Element { F32, I32, BF16 };

struct Case {
  const char *kernel;
  int64_t rows, cols; // rows = 0: a 1-D scan of `cols` elements
  Element element = Element::F32;
  bool max = false;       // max instead of add
  bool exclusive = false;
  bool timed = true;      // the f32 sums are timed against torch.cumsum
  bool reverse = false;   // from the last element
};

struct Row {
  std::string kernel, shape;
  double relError = NAN, us = NAN, gbPerS = NAN;
  bool pass = false;
  std::string error;
};

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

uint16_t toBf16(float v) { // round to nearest even
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

/// The scan of each row of `x` (as doubles; i32 sums wrap like the GPU's).
std::vector<double> reference(const Case &c, const std::vector<double> &x) {
  int64_t rows = c.rows ? c.rows : 1;
  std::vector<double> ref(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double acc = c.max ? -INFINITY : 0;
    uint32_t wrapped = 0;
    for (int64_t k = 0; k < c.cols; ++k) {
      int64_t i = r * c.cols + (c.reverse ? c.cols - 1 - k : k);
      double before = c.element == Element::I32 ? double(int32_t(wrapped)) : acc;
      if (c.element == Element::I32)
        wrapped += uint32_t(int32_t(x[i]));
      else
        acc = c.max ? std::max(acc, x[i]) : acc + x[i];
      double after = c.element == Element::I32 ? double(int32_t(wrapped)) : acc;
      ref[i] = c.exclusive ? before : after;
    }
  }
  return ref;
}

Row runCase(const Context &ctx, const Module &module, const Case &c,
            std::mt19937 &rng) {
  Row row;
  row.kernel = c.kernel;
  int64_t rows = c.rows ? c.rows : 1, n = rows * c.cols;
  row.shape = c.rows ? std::to_string(c.rows) + "x" + std::to_string(c.cols)
                     : std::to_string(c.cols);
  try {
    Kernel kernel(module, c.kernel);
    // Inputs as the kernel sees them, and as doubles for the reference.
    std::vector<double> x(n);
    std::vector<float> f32;
    std::vector<int32_t> i32;
    std::vector<uint16_t> bf16;
    std::uniform_real_distribution<float> dist(-1, 1);
    std::uniform_int_distribution<int32_t> ints(-(1 << 30), 1 << 30);
    for (int64_t i = 0; i < n; ++i) {
      if (c.element == Element::I32) {
        i32.push_back(ints(rng)); // sums overflow: wrapping is checked too
        x[i] = i32.back();
      } else if (c.element == Element::BF16) {
        bf16.push_back(toBf16(dist(rng)));
        x[i] = fromBf16(bf16.back());
      } else {
        f32.push_back(dist(rng));
        x[i] = f32.back();
      }
    }
    ScalarType type = c.element == Element::I32    ? ScalarType::I32
                      : c.element == Element::BF16 ? ScalarType::BF16
                                                   : ScalarType::F32;
    DeviceBuffer in = c.element == Element::I32    ? DeviceBuffer::fromHost(ctx, i32)
                      : c.element == Element::BF16 ? DeviceBuffer::fromHost(ctx, bf16)
                                                   : DeviceBuffer::fromHost(ctx, f32);
    DeviceBuffer out(ctx, n * scalarTypeSize(type));
    std::vector<int64_t> shape = c.rows ? std::vector<int64_t>{c.rows, c.cols}
                                        : std::vector<int64_t>{c.cols};
    std::vector<KernelArg> args = {in.view(type, shape), out.view(type, shape)};
    Stream stream(ctx);
    std::vector<double> ref = reference(c, x);
    // Integer results must be exact and the same on every run (a changing
    // result is a race); floats within a relative error.
    int runs = c.element == Element::I32 ? 3 : 1;
    row.pass = true;
    for (int run = 0; run < runs; ++run) {
      out.memset(0xff);
      kernel.launchArgs(stream, args);
      stream.synchronize();
      std::vector<double> y(n);
      if (c.element == Element::I32) {
        std::vector<int32_t> got = out.download<int32_t>();
        for (int64_t i = 0; i < n; ++i)
          y[i] = got[i];
      } else if (c.element == Element::BF16) {
        std::vector<uint16_t> got = out.download<uint16_t>();
        for (int64_t i = 0; i < n; ++i)
          y[i] = fromBf16(got[i]);
      } else {
        std::vector<float> got = out.download<float>();
        for (int64_t i = 0; i < n; ++i)
          y[i] = got[i];
      }
      double diff2 = 0, ref2 = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (std::isinf(ref[i]) && y[i] == ref[i])
          continue; // the identity of an exclusive max
        diff2 += (y[i] - ref[i]) * (y[i] - ref[i]);
        ref2 += ref[i] * ref[i];
      }
      double rel = std::sqrt(diff2 / std::max(ref2, 1e-300));
      double tolerance = c.element == Element::I32 || c.max ? 0
                         : c.element == Element::BF16     ? 1e-2
                                                          : 1e-5;
      row.relError = std::isnan(row.relError) ? rel : std::max(row.relError, rel);
      row.pass = row.pass && std::isfinite(rel) && rel <= tolerance;
    }
    if (c.timed) {
      row.us = medianUs(ctx, stream, kernel, args, n > (1 << 24) ? 5 : 20);
      row.gbPerS = 2.0 * n * scalarTypeSize(type) / (row.us * 1e3);
    }
  } catch (const Error &e) {
    row.error = e.what();
  }
  return row;
}

/// JSON has no NaN: null for what was not measured.
std::string jsonNumber(double v) {
  return std::isfinite(v) ? std::to_string(v) : "null";
}

} // namespace

int main(int argc, char **argv) {
  std::string cubin, json, only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--cubin" && i + 1 < argc)
      cubin = argv[++i];
    else if (arg == "--json" && i + 1 < argc)
      json = argv[++i];
    else if (arg == "--only" && i + 1 < argc)
      only = "," + std::string(argv[++i]) + ",";
    else {
      std::fprintf(stderr, "usage: tilec-scan-bench --cubin FILE [--json FILE] [--only K1,K2]\n");
      return 2;
    }
  }
  if (cubin.empty()) {
    std::fprintf(stderr, "usage: tilec-scan-bench --cubin FILE [--json FILE] [--only K1,K2]\n");
    return 2;
  }
  const std::vector<Case> cases = {
      {"scan_f32", 0, 1 << 20},     {"scan_f32", 0, 1 << 24},
      {"rows_f32", 4096, 4096},     {"rows_f32", 65536, 1024},
      {"rows_f32", 1024, 65536},    {"rows_f32", 3, 1000003},
      // Checked only: exact repeated integers, exclusive, max, bf16.
      {"scan_i32", 0, 1, Element::I32, false, false, false},
      {"scan_i32", 0, 33, Element::I32, false, false, false},
      {"scan_i32", 0, (1 << 20) + 7, Element::I32, false, false, false},
      {"rows_i32", 1000, 1003, Element::I32, false, true, false},
      {"rows_i32", 3, 100003, Element::I32, false, true, false},
      {"rows_max_f32", 1000, 1003, Element::F32, true, true, false},
      {"rows_bf16", 1000, 1003, Element::BF16, false, false, false},
      {"rows_bf16", 64, 4096, Element::BF16, false, false, false},
      {"scan_rev_i32", 0, (1 << 20) + 7, Element::I32, false, false, false,
       true},
      {"scan_rev_i32", 0, 5, Element::I32, false, false, false, true},
      {"rows_rev_f32", 1000, 1003, Element::F32, false, true, false, true},
      {"rows_rev_f32", 3, 100003, Element::F32, false, true, false, true},
  };
  int passed = 0, failed = 0;
  std::vector<Row> results;
  try {
    Context ctx(0);
    Module module = Module::loadFile(ctx, cubin);
    std::mt19937 rng(12345);
    std::printf("%-12s %-14s %10s %10s %9s  %s\n", "kernel", "shape", "us",
                "GB/s", "rel_err", "status");
    for (const Case &c : cases) {
      if (!only.empty() &&
          only.find("," + std::string(c.kernel) + ",") == std::string::npos)
        continue;
      Row r = runCase(ctx, module, c, rng);
      (r.pass ? passed : failed)++;
      std::printf("%-12s %-14s %10.1f %10.1f %9.2e  %s %s\n", r.kernel.c_str(),
                  r.shape.c_str(), r.us, r.gbPerS, r.relError,
                  r.pass ? "PASS" : "FAIL", r.error.c_str());
      results.push_back(r);
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  if (!json.empty()) {
    std::ofstream out(json);
    out << "[\n";
    for (size_t i = 0; i < results.size(); ++i) {
      const Row &r = results[i];
      out << "  {\"kernel\": \"" << r.kernel << "\", \"shape\": \"" << r.shape
          << "\", \"us\": " << jsonNumber(r.us)
          << ", \"gb_per_s\": " << jsonNumber(r.gbPerS)
          << ", \"rel_error\": " << jsonNumber(r.relError) << ", \"status\": \""
          << (r.pass ? "PASS" : "FAIL") << "\"}"
          << (i + 1 < results.size() ? ",\n" : "\n");
    }
    out << "]\n";
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
