// Times the candidate staging-copy kernels of copy-shapes.mlir (tilec
// cubin) against the driver's 2-D copy at the staging copies' shapes:
// 16-bit rows of odd length whose source starts 2 bytes past 16-byte
// alignment, into 16-byte pitched rows (the read direction; the written
// one moves the same bytes the other way). Every copy is checked element by
// element. Built and run as copy-shapes-device.sh says.
#include "tilec/Runtime/Driver.h"
#include "tilec/Runtime/Runtime.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace tilec::rt;
using tilec::ScalarType;

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: copy-shapes CUBIN\n");
    return 2;
  }
  Context ctx(0);
  Module module = Module::loadFile(ctx, argv[1]);
  Stream stream(ctx);
  const char *kernels16[] = {"copy_i16_8x256_w4",  "copy_i16_16x256_w8",
                             "copy_i16_4x512_w4",  "copy_i16_8x512_w8",
                             "copy_i16_32x256_w8", "copy_i16_16x512_w8"};
  struct Shape {
    int64_t rows, cols;
  };
  Shape shapes[] = {{4095, 4095}, {4096, 32767}, {8191, 8191}, {4096, 1},
                    {4096, 7},    {128, 4097},   {1000, 517}};
  int failures = 0;
  for (Shape s : shapes) {
    int64_t srcPitch = s.cols, dstPitch = (s.cols * 2 + 15) / 16 * 16 / 2;
    DeviceBuffer src(ctx, s.rows * srcPitch * 2 + 16),
        dst(ctx, s.rows * dstPitch * 2);
    std::vector<uint16_t> host(s.rows * srcPitch + 8);
    for (size_t i = 0; i < host.size(); ++i)
      host[i] = uint16_t(i * 2654435761u >> 7);
    src.upload(host);
    TensorView in = TensorView::contiguous(src.data() + 2, ScalarType::I16,
                                           {s.rows, s.cols});
    TensorView out =
        TensorView::contiguous(dst.data(), ScalarType::I16, {s.rows, s.cols});
    out.strides[0] = dstPitch;
    double bytes = 2.0 * s.rows * s.cols * 2;
    auto time = [&](const char *name, auto launch) {
      dst.memset(0);
      launch();
      stream.synchronize();
      std::vector<uint16_t> back = dst.download<uint16_t>();
      int64_t wrong = 0;
      for (int64_t r = 0; r < s.rows; ++r)
        for (int64_t c = 0; c < s.cols; ++c)
          wrong += back[r * dstPitch + c] != host[1 + r * srcPitch + c];
      failures += wrong != 0;
      const int reps = 20;
      launch();
      stream.synchronize();
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < reps; ++i)
        launch();
      stream.synchronize();
      double us = std::chrono::duration<double, std::micro>(
                      std::chrono::steady_clock::now() - t0)
                      .count() /
                  reps;
      std::printf("%lldx%lld %-20s %9.1f us %6.2f TB/s%s\n", (long long)s.rows,
                  (long long)s.cols, name, us, bytes / us / 1e6,
                  wrong ? " WRONG" : "");
    };
    time("memcpy2d", [&] {
      CUDA_MEMCPY2D region{};
      region.srcMemoryType = CU_MEMORYTYPE_DEVICE;
      region.srcDevice = in.data;
      region.srcPitch = srcPitch * 2;
      region.dstMemoryType = CU_MEMORYTYPE_DEVICE;
      region.dstDevice = out.data;
      region.dstPitch = dstPitch * 2;
      region.WidthInBytes = s.cols * 2;
      region.Height = s.rows;
      driver().memcpy2DAsync(&region, stream.handle());
    });
    for (const char *name : kernels16) {
      Kernel k(module, name);
      time(name, [&] { k.launchArgs(stream, {in, out}); });
    }
  }
  std::printf("%d failed\n", failures);
  return failures != 0;
}
