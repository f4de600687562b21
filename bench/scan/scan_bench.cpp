//===- scan_bench.cpp - Check and time tilec scans ------------------------===//
//
// tilec-scan-bench --cubin FILE [--json FILE]
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
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace tilec::rt;

namespace {

struct Case {
  const char *kernel;
  int64_t rows, cols; // rows = 0: a 1-D scan of `cols` elements
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

Row runCase(const Context &ctx, const Module &module, const Case &c,
            std::mt19937 &rng) {
  Row row;
  row.kernel = c.kernel;
  int64_t rows = c.rows ? c.rows : 1, n = rows * c.cols;
  row.shape = c.rows ? std::to_string(c.rows) + "x" + std::to_string(c.cols)
                     : std::to_string(c.cols);
  try {
    Kernel kernel(module, c.kernel);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> x(n);
    for (float &v : x)
      v = dist(rng);
    DeviceBuffer in = DeviceBuffer::fromHost(ctx, x);
    DeviceBuffer out(ctx, n * sizeof(float));
    out.memset(0xff);
    std::vector<KernelArg> args =
        c.rows ? std::vector<KernelArg>{in.view<float>({c.rows, c.cols}),
                                        out.view<float>({c.rows, c.cols})}
               : std::vector<KernelArg>{in.view<float>({c.cols}),
                                        out.view<float>({c.cols})};
    Stream stream(ctx);
    kernel.launchArgs(stream, args);
    stream.synchronize();
    std::vector<float> y = out.download<float>();
    double diff2 = 0, ref2 = 0;
    for (int64_t r = 0; r < rows; ++r) {
      double sum = 0;
      for (int64_t i = r * c.cols; i < (r + 1) * c.cols; ++i) {
        sum += x[i];
        diff2 += (y[i] - sum) * (y[i] - sum);
        ref2 += sum * sum;
      }
    }
    row.relError = std::sqrt(diff2 / std::max(ref2, 1e-300));
    row.pass = std::isfinite(row.relError) && row.relError < 1e-5;
    row.us = medianUs(ctx, stream, kernel, args, n > (1 << 24) ? 5 : 20);
    row.gbPerS = 2.0 * n * sizeof(float) / (row.us * 1e3);
  } catch (const Error &e) {
    row.error = e.what();
  }
  return row;
}

} // namespace

int main(int argc, char **argv) {
  std::string cubin, json;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--cubin" && i + 1 < argc)
      cubin = argv[++i];
    else if (arg == "--json" && i + 1 < argc)
      json = argv[++i];
    else {
      std::fprintf(stderr, "usage: tilec-scan-bench --cubin FILE [--json FILE]\n");
      return 2;
    }
  }
  if (cubin.empty()) {
    std::fprintf(stderr, "usage: tilec-scan-bench --cubin FILE [--json FILE]\n");
    return 2;
  }
  const std::vector<Case> cases = {
      {"scan_f32", 0, 1 << 20},     {"scan_f32", 0, 1 << 24},
      {"rows_f32", 4096, 4096},     {"rows_f32", 65536, 1024},
      {"rows_f32", 1024, 65536},    {"rows_f32", 3, 1000003},
  };
  int passed = 0, failed = 0;
  std::vector<Row> results;
  try {
    Context ctx(0);
    Module module = Module::loadFile(ctx, cubin);
    std::mt19937 rng(12345);
    std::printf("%-10s %-14s %10s %10s %9s  %s\n", "kernel", "shape", "us",
                "GB/s", "rel_err", "status");
    for (const Case &c : cases) {
      Row r = runCase(ctx, module, c, rng);
      (r.pass ? passed : failed)++;
      std::printf("%-10s %-14s %10.1f %10.1f %9.2e  %s %s\n", r.kernel.c_str(),
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
          << "\", \"us\": " << r.us << ", \"gb_per_s\": " << r.gbPerS
          << ", \"rel_error\": " << r.relError << ", \"status\": \""
          << (r.pass ? "PASS" : "FAIL") << "\"}"
          << (i + 1 < results.size() ? ",\n" : "\n");
    }
    out << "]\n";
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
