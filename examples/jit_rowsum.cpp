//===- jit_rowsum.cpp - JIT-compile a tile kernel from C++ ----------------===//
//
// The smallest use of tilec as a library: the kernel is a string in this
// program; jitLoad compiles it in-process (tile dialect -> PTX -> cubin, with
// a disk cache) and loads it; the launch takes its grid from the kernel's
// metadata. Row sums of a rows x cols matrix, checked on the host.
//
//   tilec-jit-rowsum [rows cols]
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Jit.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

// One program per row; the row is read 512 columns at a time.
static const char *kRowSum = R"mlir(
tile.kernel @rowsum(%x: memref<?x?xf32>, %sums: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 4} {
  %row = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %cols = memref.dim %x, %c1 : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %col = %c0 to %cols step %c512 iter_args(%s = %zero) -> (f32) {
    %t = tile.load %x[%row, %col] : memref<?x?xf32> -> tensor<1x512xf32>
    %r = tile.reduce add %t along 1 : tensor<1x512xf32> -> tensor<1xf32>
    %v = tile.reduce add %r along 0 : tensor<1xf32> -> f32
    %n = arith.addf %s, %v : f32
    scf.yield %n : f32
  }
  %out = tile.splat %sum : f32 -> tensor<1xf32>
  tile.store %out, %sums[%row] : tensor<1xf32>, memref<?xf32>
  tile.return
}
)mlir";

int main(int argc, char **argv) {
  int64_t rows = argc > 2 ? std::atoll(argv[1]) : 1000;
  int64_t cols = argc > 2 ? std::atoll(argv[2]) : 1003;
  if (tilec::rt::deviceCount() == 0) {
    std::printf("no GPU found\n");
    return 0;
  }
  try {
    tilec::rt::Context ctx(0);
    tilec::rt::Stream stream(ctx);
    tilec::rt::Module module = tilec::rt::jitLoad(ctx, kRowSum);
    tilec::rt::Kernel rowsum(module, "rowsum");

    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> x(rows * cols);
    for (float &v : x)
      v = dist(rng);
    auto xBuf = tilec::rt::DeviceBuffer::fromHost(ctx, x);
    auto sumsBuf = tilec::rt::DeviceBuffer::fromHost(
        ctx, std::vector<float>(rows, NAN));
    rowsum.launch(stream, xBuf.view<float>({rows, cols}),
                  sumsBuf.view<float>({rows}));
    stream.synchronize();
    std::vector<float> sums = sumsBuf.download<float>();

    double worst = 0;
    for (int64_t r = 0; r < rows; ++r) {
      double ref = 0;
      for (int64_t c = 0; c < cols; ++c)
        ref += x[r * cols + c];
      double err = std::fabs(sums[r] - ref) / std::max(1.0, std::fabs(ref));
      worst = std::isnan(sums[r]) ? INFINITY : std::max(worst, err);
    }
    bool ok = worst < 1e-5;
    std::printf("jit rowsum %lldx%lld: grid %llu, worst relative error %.2e: "
                "%s\n",
                (long long)rows, (long long)cols,
                (unsigned long long)rowsum.gridFor(xBuf.view<float>({rows, cols}),
                                                   sumsBuf.view<float>({rows}))[0],
                worst, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
  } catch (const tilec::rt::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
