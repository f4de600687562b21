//===- GpuTest.cpp - The runtime on a real device -------------------------===//
//
// Skipped when there is no GPU. Uses the hand-written kernels of kernels.ptx
// (loaded as PTX, which the driver compiles for whatever device is present,
// and as a cubin where one matches the device).
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"
#include "tilec/Runtime/CubinInfo.h"
#include "tilec/Runtime/Driver.h"
#include "tilec/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>

using namespace tilec;
using namespace tilec::rt;

namespace {

#define REQUIRE_GPU()                                                          \
  do {                                                                         \
    if (deviceCount() == 0)                                                    \
      GTEST_SKIP() << "no GPU";                                                \
  } while (0)

std::vector<float> randomFloats(size_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// Runs saxpy on `n` elements on `stream` and checks every one exactly (the
/// kernel does a single fused multiply-add, which std::fma reproduces): ""
/// or the first element that is wrong.
std::string saxpyProblem(const Context &ctx, const Kernel &saxpy,
                         const Stream &stream, int64_t n, std::mt19937 &rng) {
  std::vector<float> x = randomFloats(n, rng), y = randomFloats(n, rng);
  float alpha = std::uniform_real_distribution<float>(0.5f, 2.0f)(rng);
  DeviceBuffer dx = DeviceBuffer::fromHost(ctx, x);
  DeviceBuffer dy = DeviceBuffer::fromHost(ctx, y);
  DeviceBuffer out(ctx, n * sizeof(float));
  out.memset(0xff); // NaN
  saxpy.launch(stream, alpha, dx.view<float>({n}), dy.view<float>({n}),
               out.view<float>({n}));
  stream.synchronize();
  std::vector<float> got = out.download<float>();
  if (got.size() != size_t(n))
    return std::to_string(got.size()) + " elements, not " + std::to_string(n);
  for (int64_t i = 0; i < n; ++i)
    if (got[i] != std::fma(alpha, x[i], y[i]))
      return "n = " + std::to_string(n) + ", element " + std::to_string(i);
  return "";
}

void checkSaxpy(const Context &ctx, const Kernel &saxpy, int64_t n,
                std::mt19937 &rng) {
  ASSERT_EQ(saxpyProblem(ctx, saxpy, Stream(ctx), n, rng), "");
}

TEST(Gpu, DescribesDevices) {
  REQUIRE_GPU();
  for (const Device &d : Device::all()) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_GE(d.computeCapability(), 70);
    EXPECT_GT(d.smCount, 0);
    EXPECT_GE(d.maxSharedPerBlockOptin, 48 * 1024);
    std::printf("device %d: %s, sm_%d, %d SMs, %d bytes shared opt-in\n",
                d.ordinal, d.name.c_str(), d.computeCapability(), d.smCount,
                d.maxSharedPerBlockOptin);
  }
}

TEST(Gpu, CopiesRoundTrip) {
  REQUIRE_GPU();
  Context ctx(0);
  std::vector<int32_t> host(1000);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = int32_t(i * 7 - 3);
  DeviceBuffer buf = DeviceBuffer::fromHost(ctx, host);
  EXPECT_EQ(buf.size(), 4000u);
  EXPECT_EQ(buf.download<int32_t>(), host);

  // Partial copies at an offset.
  int32_t patch[2] = {-1, -2};
  buf.copyFromHost(patch, sizeof(patch), 40);
  host[10] = -1;
  host[11] = -2;
  EXPECT_EQ(buf.download<int32_t>(), host);
  int32_t back[3];
  buf.copyToHost(back, sizeof(back), 36);
  EXPECT_EQ(back[0], host[9]);
  EXPECT_EQ(back[2], -2);

  buf.memset(0xff);
  for (int32_t v : buf.download<int32_t>())
    ASSERT_EQ(v, -1);

  Stream stream(ctx);
  buf.copyFromHostAsync(stream, host.data(), 4000);
  std::vector<int32_t> async(1000);
  buf.copyToHostAsync(stream, async.data(), 4000);
  stream.synchronize();
  EXPECT_EQ(async, host);

  EXPECT_THROW(buf.copyToHost(back, 8, 3996), Error);
  EXPECT_THROW(buf.copyFromHost(back, 4001), Error);
  EXPECT_THROW(buf.view<float>({1001}), Error);
  EXPECT_THROW(buf.view<float>({int64_t(1) << 62, 4}), Error);

  DeviceBuffer empty(ctx, 0);
  EXPECT_EQ(empty.data(), 0u);
  EXPECT_TRUE(empty.download<float>().empty());
  DeviceBuffer moved = std::move(buf);
  EXPECT_EQ(moved.size(), 4000u);
}

TEST(Gpu, LaunchesSaxpyFromPtx) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel saxpy(module, "saxpy");
  EXPECT_EQ(saxpy.metadata(), test::saxpyMetadata());
  std::mt19937 rng(1);
  for (int64_t n : {1, 31, 256, 1000, (1 << 20) + 7})
    checkSaxpy(ctx, saxpy, n, rng);
}

TEST(Gpu, ZeroSizeLaunchesNothing) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel saxpy(module, "saxpy");
  Stream stream(ctx);
  DeviceBuffer empty(ctx, 0);
  TensorView v = empty.view<float>({0});
  EXPECT_EQ(saxpy.gridFor(1.0f, v, v, v), (std::array<uint64_t, 3>{0, 1, 1}));
  EXPECT_NO_THROW(saxpy.launch(stream, 1.0f, v, v, v));
  stream.synchronize();
}

TEST(Gpu, UsesDynamicSharedMemoryBeyond48K) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel iota(module, "iota2d");
  Stream stream(ctx);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 1}, {7, 33},
                            {100, 1000}}) {
    DeviceBuffer out(ctx, rows * cols * sizeof(int32_t));
    out.memset(0xff);
    iota.launch(stream, out.view<int32_t>({rows, cols}));
    stream.synchronize();
    std::vector<int32_t> got = out.download<int32_t>();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        ASSERT_EQ(got[r * cols + c], 1000 * r + c) << r << "," << c;
  }
}

/// Launches a fill kernel (fill or fill_wide: value into the first n of
/// 1000 floats) on poisoned output and checks that the rest is untouched.
void expectFilled(const Context &ctx, const Kernel &fill, int64_t n,
                  float value) {
  Stream stream(ctx);
  DeviceBuffer out(ctx, 1000 * sizeof(float));
  out.memset(0xff);
  fill.launch(stream, n, value, out.view<float>({1000}));
  stream.synchronize();
  std::vector<float> got = out.download<float>();
  for (int i = 0; i < 1000; ++i) {
    if (i < n)
      ASSERT_EQ(got[i], value) << i;
    else
      ASSERT_TRUE(std::isnan(got[i])) << i; // untouched
  }
}

TEST(Gpu, TakesTheGridFromAScalar) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel fill(module, "fill");
  DeviceBuffer out(ctx, 1000 * sizeof(float));
  EXPECT_EQ(fill.gridFor(int64_t(300), 2.5f, out.view<float>({1000})),
            (std::array<uint64_t, 3>{3, 1, 1}));
  expectFilled(ctx, fill, 300, 2.5f);
}

// A fill of 384001 elements: 3001 programs of 128 elements (the grid line
// divides the scalar by 128, rounding up), all launched, waves = programs
// over the blocks resident on the whole device.
TEST(Gpu, DescribesTheWaveQuantisationOfALaunch) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel fill(module, "fill");
  DeviceBuffer out(ctx, 384001 * sizeof(float));
  Kernel::Quantisation q = fill.quantisationFor(
      {KernelArg(int64_t(384001)), KernelArg(2.5f),
       KernelArg(out.view<float>({384001}))});
  EXPECT_EQ(q.kernel, "fill");
  EXPECT_EQ(q.programs, 3001u);
  EXPECT_EQ(q.blocks, 3001u);
  EXPECT_EQ(q.residentPerSm, fill.residentBlocksPerSm());
  ASSERT_GT(q.residentPerSm, 0);
  EXPECT_DOUBLE_EQ(q.waves, 3001.0 / (double(q.residentPerSm) *
                                      double(fill.multiprocessors())));
}

// Static and dynamic shared memory each under the default 48 KiB but over
// it together need the opt-in as much as dynamic memory over it alone.
TEST(Gpu, OptsInWhereStaticAndDynamicSharedMemoryPassTheDefault) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  expectFilled(ctx, Kernel(module, "fill_wide"), 700, -3.5f);
}

TEST(Gpu, ReportsBadKernelsAndArguments) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  try {
    Kernel k(module, "nometa");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "cubin has no tilec launch metadata for kernel 'nometa' (no "
              "global __tilec_launch_nometa)");
    EXPECT_EQ(e.kernel(), "nometa");
  }
  try {
    Kernel k(module, "nope");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.result(), CUDA_ERROR_NOT_FOUND);
    EXPECT_EQ(std::string(e.what()),
              "cuModuleGetFunction failed for kernel 'nope': "
              "CUDA_ERROR_NOT_FOUND (named symbol not found)");
  }
  Kernel saxpy(module, "saxpy");
  Stream stream(ctx);
  DeviceBuffer buf(ctx, 64);
  try {
    saxpy.launch(stream, 1.0f, 3, buf.view<float>({16}), buf.view<float>({16}));
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'saxpy': argument 1 expects buffer:f32:1, got scalar:i32");
  }
  EXPECT_THROW(Module::loadData(ctx, "not a module"), Error);
  EXPECT_THROW(Module::loadFile(ctx, "/nonexistent/m.cubin"), Error);
}

TEST(Gpu, LoadsMatchingCubins) {
  REQUIRE_GPU();
  Context ctx(0);
  int cc = ctx.device().computeCapability();
  // sm_80 code runs on any 8.x device; sm_90 only on 9.0.
  int arch = cc / 10 == 8 ? 80 : cc == 90 ? 90 : 0;
  std::optional<std::string_view> cubin = test::kernelsCubin(arch);
  if (!cubin)
    GTEST_SKIP() << "no test cubin for sm_" << cc;
  Module module = Module::loadData(ctx, *cubin);
  Kernel saxpy(module, "saxpy");
  std::mt19937 rng(2);
  checkSaxpy(ctx, saxpy, 1000, rng);

  // What the cubin reader says without a GPU is what the driver says.
  std::optional<CubinInfo> info = parseCubin(*cubin);
  ASSERT_TRUE(info);
  for (const char *name : {"saxpy", "iota2d", "fill"}) {
    Kernel k(module, name);
    const CubinKernel *ck = info->findKernel(name);
    ASSERT_TRUE(ck);
    EXPECT_EQ(int(ck->registers), k.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS))
        << name;
    EXPECT_EQ(int(ck->staticSharedBytes),
              k.attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES))
        << name << " (section: " << ck->sharedSectionBytes << " bytes)";
  }
}

TEST(Gpu, TimesWithEvents) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel fill(module, "fill");
  Stream stream(ctx);
  DeviceBuffer out(ctx, (1 << 20) * sizeof(float));
  Event start(ctx), end(ctx);
  start.record(stream);
  fill.launch(stream, int64_t(1) << 20, 1.0f, out.view<float>({1 << 20}));
  end.record(stream);
  float ms = Event::elapsedMs(start, end);
  EXPECT_GT(ms, 0.0f);
  EXPECT_LT(ms, 1000.0f);
}

TEST(Gpu, DrivesEveryDeviceFromOneThread) {
  REQUIRE_GPU();
  // Interleave work on all devices so that each operation must make its own
  // context current.
  std::vector<Context> contexts;
  std::vector<Module> modules;
  std::vector<Kernel> kernels;
  for (int d = 0; d < deviceCount(); ++d) {
    contexts.emplace_back(d);
    modules.push_back(Module::loadData(contexts.back(), test::kernelsPtx()));
    kernels.emplace_back(modules.back(), "saxpy");
  }
  std::mt19937 rng(3);
  for (int round = 0; round < 2; ++round)
    for (size_t d = 0; d < contexts.size(); ++d)
      checkSaxpy(contexts[d], kernels[d], 4097 + int64_t(d), rng);
  if (contexts.size() > 1) {
    // A kernel of device 0 cannot run on a stream of device 1.
    Stream other(contexts[1]);
    DeviceBuffer buf(contexts[0], 64);
    TensorView v = buf.view<float>({16});
    EXPECT_THROW(kernels[0].launch(other, 1.0f, v, v, v), Error);
  }
}

//===----------------------------------------------------------------------===//
// Tensor maps (tma.ptx, sm_90 and newer)
//===----------------------------------------------------------------------===//

#define REQUIRE_HOPPER()                                                       \
  do {                                                                         \
    REQUIRE_GPU();                                                             \
    if (Device::get(0).computeCapability() < 90)                               \
      GTEST_SKIP() << "no TMA before sm_90";                                   \
  } while (0)

/// Random floats on the device, seen as a rows x cols matrix whose rows lie
/// `pitch` elements apart, `skip` elements into the buffer.
struct Matrix {
  std::vector<float> host;
  DeviceBuffer buffer;
  TensorView view;
};

Matrix randomMatrix(const Context &ctx, int64_t rows, int64_t cols,
                    int64_t pitch, int64_t skip, std::mt19937 &rng) {
  std::vector<float> host = randomFloats(skip + rows * pitch, rng);
  DeviceBuffer buffer = DeviceBuffer::fromHost(ctx, host);
  TensorView view = TensorView::contiguous(buffer.data() + 4 * skip,
                                           ScalarType::F32, {rows, cols});
  view.strides[0] = pitch;
  return {std::move(host), std::move(buffer), view};
}

/// Random floats seen as a rows x cols matrix one float past an aligned
/// start, whose rows lie `pitch` elements apart, any pitch: 0 repeats the
/// first row, one under `cols` overlaps the next, a negative one runs
/// backwards.
Matrix stridedMatrix(const Context &ctx, int64_t rows, int64_t cols,
                     int64_t pitch, std::mt19937 &rng) {
  int64_t reach = (rows - 1) * (pitch < 0 ? -pitch : pitch);
  int64_t first = 1 + (pitch < 0 ? reach : 0);
  std::vector<float> host = randomFloats(1 + reach + cols, rng);
  DeviceBuffer buffer = DeviceBuffer::fromHost(ctx, host);
  TensorView view = TensorView::contiguous(buffer.data() + 4 * first,
                                           ScalarType::F32, {rows, cols});
  view.strides[0] = pitch;
  return {std::move(host), std::move(buffer), view};
}

/// Checks `got`, the outRows x outCols matrix a copy kernel wrote from `in`:
/// a copy of `in`, plus `mark` (which tells which kernel ran), and 0 outside
/// `in`.
void expectCopyOf(const Matrix &in, const std::vector<float> &got,
                  int64_t outRows, int64_t outCols, float mark) {
  ASSERT_EQ(got.size(), size_t(outRows * outCols));
  int64_t pitch = in.view.strides[0];
  int64_t skip = int64_t(in.view.data - in.buffer.data()) / 4;
  for (int64_t r = 0; r < outRows; ++r)
    for (int64_t c = 0; c < outCols; ++c) {
      bool inside = r < in.view.sizes[0] && c < in.view.sizes[1];
      float want = inside ? in.host[skip + r * pitch + c] + mark : 0.0f;
      ASSERT_EQ(got[r * outCols + c], want) << r << "," << c;
    }
}

/// Runs tma_copy (or what it falls back to) from `in` into a fresh outRows x
/// outCols matrix and checks every element: a copy of `in`, plus 1000 where
/// the fallback ran, and 0 outside `in`; and, given `expectRepitch`, whether
/// the runtime copied `in` for TMA first.
void checkTmaCopy(const Context &ctx, const Kernel &copy, const Matrix &in,
                  int64_t outRows, int64_t outCols, bool expectFallback,
                  std::optional<bool> expectRepitch = std::nullopt) {
  Stream stream(ctx);
  DeviceBuffer out(ctx, outRows * outCols * sizeof(float));
  out.memset(0xff); // NaN
  TensorView outView = out.view<float>({outRows, outCols});
  EXPECT_EQ(copy.usesFallback({in.view, outView}), expectFallback);
  if (expectRepitch) {
    EXPECT_EQ(copy.repitches({in.view, outView}), *expectRepitch);
  }
  copy.launch(stream, in.view, outView);
  stream.synchronize();
  expectCopyOf(in, out.download<float>(), outRows, outCols,
               expectFallback ? 1000.0f : 0.0f);
}

TEST(Gpu, LoadsThroughTensorMaps) {
  REQUIRE_HOPPER();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::tmaKernelsPtx());
  Kernel copy(module, "tma_copy");
  ASSERT_TRUE(copy.fallbackKernel());
  EXPECT_EQ(copy.fallbackKernel()->name(), "tma_copy_plain");
  EXPECT_EQ(copy.metadata().tensorMaps.size(), 1u);
  std::mt19937 rng(5);
  // Boxes past the edge of `in` read zeros (partly and wholly outside).
  checkTmaCopy(ctx, copy, randomMatrix(ctx, 37, 40, 40, 0, rng), 45, 70,
               false);
  checkTmaCopy(ctx, copy, randomMatrix(ctx, 64, 256, 256, 0, rng), 64, 256,
               false);
  // A window of a wider matrix: the tensor map takes the view's row pitch.
  checkTmaCopy(ctx, copy, randomMatrix(ctx, 37, 40, 48, 0, rng), 37, 40,
               false);
  checkTmaCopy(ctx, copy, randomMatrix(ctx, 37, 40, 48, 4, rng), 40, 40,
               false);
}

TEST(Gpu, FallsBackWhereTmaCannotDescribeABuffer) {
  REQUIRE_HOPPER();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::tmaKernelsPtx());
  Kernel copy(module, "tma_copy");
  std::mt19937 rng(6);
  // Rows of 33 floats (132 bytes, not a multiple of 16).
  checkTmaCopy(ctx, copy, randomMatrix(ctx, 37, 33, 33, 0, rng), 45, 70, true);
  // A base 4 bytes past a 16-byte boundary.
  checkTmaCopy(ctx, copy, randomMatrix(ctx, 37, 40, 40, 1, rng), 37, 40, true);
  // Nothing to launch: no fallback needed, no error.
  DeviceBuffer empty(ctx, 0);
  EXPECT_NO_THROW(copy.launch(Stream(ctx), empty.view<float>({0, 33}),
                              empty.view<float>({0, 33})));
}

TEST(Gpu, CopiesRepitchArgumentsWhereTmaCannotDescribeThem) {
  REQUIRE_HOPPER();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::tmaKernelsPtx());
  Kernel copy(module, "tma_copy_repitched");
  std::mt19937 rng(7);
  // The kernel itself runs (no +1000 mark): on `in` where it is aligned,
  // on a copy otherwise.
  auto check = [&](const Matrix &in, int64_t outRows, int64_t outCols,
                   bool expectRepitch) {
    checkTmaCopy(ctx, copy, in, outRows, outCols, false, expectRepitch);
  };
  check(randomMatrix(ctx, 37, 40, 40, 0, rng), 45, 70, false);
  // Rows of 33 floats (132 bytes), boxes partly and wholly outside.
  check(randomMatrix(ctx, 37, 33, 33, 0, rng), 45, 70, true);
  // A base 4 bytes past a 16-byte boundary, rows of a wider matrix.
  check(randomMatrix(ctx, 37, 40, 41, 1, rng), 37, 40, true);
  // One row and one column; then a larger, odd one that grows the staging
  // buffer (each check makes a new stream, which may get the same handle).
  check(randomMatrix(ctx, 1, 1, 1, 3, rng), 8, 32, true);
  check(randomMatrix(ctx, 1000, 333, 335, 1, rng), 1000, 333, true);
  // Rows that repeat (pitch 0), overlap (7 floats apart) or run backwards:
  // read, so copied all the same, one float past an aligned start.
  for (int64_t pitch : {0, 7, -33, -40})
    check(stridedMatrix(ctx, 37, 33, pitch, rng), 40, 40, true);
  // Rows 2^31 + 4 bytes apart, beyond the driver's 2-D copy: the copy
  // kernels take them (f32 is one of theirs).
  {
    constexpr int64_t kFarPitch = (int64_t(1) << 29) + 1;
    Matrix far{std::vector<float>(kFarPitch + 40, 0.0f),
               DeviceBuffer(ctx, (kFarPitch + 40) * sizeof(float)),
               TensorView{}};
    std::vector<float> rows = randomFloats(2 * 40, rng);
    std::copy(rows.begin(), rows.begin() + 40, far.host.begin());
    std::copy(rows.begin() + 40, rows.end(), far.host.begin() + kFarPitch);
    far.buffer.copyFromHost(far.host.data(), 40 * sizeof(float));
    far.buffer.copyFromHost(far.host.data() + kFarPitch, 40 * sizeof(float),
                            kFarPitch * sizeof(float));
    far.view =
        TensorView::contiguous(far.buffer.data(), ScalarType::F32, {2, 40});
    far.view.strides[0] = kFarPitch;
    check(far, 2, 40, true);
  }
  // An innermost stride of 2 is no copy's to mend: the fallback runs.
  Matrix strided = randomMatrix(ctx, 16, 16, 64, 0, rng);
  strided.view.strides[1] = 2;
  DeviceBuffer out(ctx, 16 * 16 * sizeof(float));
  TensorView outView = out.view<float>({16, 16});
  EXPECT_TRUE(copy.usesFallback({strided.view, outView}));
  EXPECT_FALSE(copy.repitches({strided.view, outView}));
}

TEST(Gpu, FollowsTheFallbackChainOfAlignedArguments) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::alignedKernelsPtx());
  Kernel first(module, "al_first");
  ASSERT_TRUE(first.fallbackKernel());
  EXPECT_EQ(first.fallbackKernel()->name(), "al_second");
  ASSERT_TRUE(first.fallbackKernel()->fallbackKernel());
  EXPECT_EQ(first.fallbackKernel()->fallbackKernel()->name(), "al_third");
  EXPECT_EQ(first.fallbackKernel()->fallbackKernel()->fallbackKernel(),
            nullptr);

  DeviceBuffer data(ctx, 256), out(ctx, 4);
  // Rows of 6 i16 (12 bytes: 4-byte aligned) or 5 (10 bytes: not); or a
  // start 2 bytes past an aligned one.
  auto view = [&](int64_t cols, int64_t startBytes) {
    return TensorView::contiguous(data.data() + startBytes, ScalarType::I16,
                                  {4, cols});
  };
  TensorView aligned = view(6, 0), oddPitch = view(5, 0), oddStart = view(6, 2);
  Stream stream(ctx);
  auto ran = [&](TensorView x, TensorView y) {
    std::vector<KernelArg> args = {x, y, out.view<int32_t>({1})};
    out.memset(0);
    first.launchArgs(stream, args);
    stream.synchronize();
    int32_t mark = out.download<int32_t>(1)[0];
    EXPECT_EQ(first.launchedFor(args).name(),
              mark == 1 ? "al_first" : mark == 2 ? "al_second" : "al_third");
    EXPECT_EQ(first.usesFallback(args), mark != 1);
    return mark;
  };
  EXPECT_EQ(ran(aligned, aligned), 1);
  // al_first needs only x aligned.
  EXPECT_EQ(ran(aligned, oddPitch), 1);
  EXPECT_EQ(ran(oddPitch, aligned), 2);
  EXPECT_EQ(ran(oddStart, aligned), 2);
  EXPECT_EQ(ran(oddPitch, oddPitch), 3);
  EXPECT_EQ(ran(oddStart, oddStart), 3);

  try {
    Kernel cycle(module, "al_cycle_a");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'al_cycle_b': its fallback 'al_cycle_a' falls back to "
              "it again");
  }
}

TEST(Gpu, ReportsTensorMapProblems) {
  REQUIRE_HOPPER();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::tmaKernelsPtx());
  Kernel strict(module, "tma_strict");
  EXPECT_EQ(strict.fallbackKernel(), nullptr);
  std::mt19937 rng(7);
  Matrix in = randomMatrix(ctx, 37, 33, 33, 0, rng);
  EXPECT_FALSE(strict.usesFallback({in.view, in.view}));
  try {
    strict.launch(Stream(ctx), in.view, in.view);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'tma_strict': argument 0 cannot be described by a TMA "
              "tensor map (the stride of dimension 0 (132 bytes) is not a "
              "multiple of 16 bytes), nor copied into rows that can be (not "
              "a buffer the kernel stages, written rows that overlap, or "
              "2^32 rows or more), and there is no fallback kernel");
    EXPECT_EQ(e.kernel(), "tma_strict");
  }

  auto loadError = [&](const char *name) {
    try {
      Kernel k(module, name);
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(loadError("tma_fallback_has_maps"),
            "kernel 'tma_fallback_has_maps': its fallback 'tma_strict' has "
            "tensor maps itself");
  EXPECT_EQ(loadError("tma_fallback_other_params"),
            "kernel 'tma_fallback_other_params': its fallback "
            "'tma_one_buffer' takes (buffer:f32:2), not the kernel's "
            "(buffer:f32:2 buffer:f32:2)");
  EXPECT_EQ(loadError("tma_fallback_missing"),
            "cuModuleGetFunction failed for kernel 'tma_nonexistent': "
            "CUDA_ERROR_NOT_FOUND (named symbol not found)");
}

TEST(Gpu, LaunchesTheSmallGridVariantWithItsOwnFallback) {
  REQUIRE_HOPPER();
  Context ctx(0);
  // 256 programs must not be below 50% of the SMs.
  if (ctx.device().smCount > 512)
    GTEST_SKIP() << "the large case is a small grid on this device";
  Module module = Module::loadData(ctx, test::tmaKernelsPtx());
  Kernel wide(module, "tma_copy_wide");
  ASSERT_TRUE(wide.smallGridKernel());
  EXPECT_EQ(wide.smallGridKernel()->name(), "tma_copy");
  EXPECT_EQ(wide.fallbackKernel(), nullptr);
  // The variant is a full kernel: it brings its own fallback.
  ASSERT_TRUE(wide.smallGridKernel()->fallbackKernel());
  EXPECT_EQ(wide.smallGridKernel()->fallbackKernel()->name(), "tma_copy_plain");
  std::mt19937 rng(9);
  // Runs `wide` from `in` into a fresh outRows x outCols matrix; `kernel` is
  // what selectFor should pick, `mark` says which kernel really ran.
  auto check = [&](const Matrix &in, int64_t outRows, int64_t outCols,
                   const char *kernel, bool fallback, float mark) {
    Stream stream(ctx);
    DeviceBuffer out(ctx, outRows * outCols * sizeof(float));
    out.memset(0xff); // NaN
    std::vector<KernelArg> args = {in.view,
                                   out.view<float>({outRows, outCols})};
    EXPECT_EQ(wide.selectFor(args).name(), kernel);
    EXPECT_EQ(wide.usesFallback(args), fallback);
    wide.launchArgs(stream, args);
    stream.synchronize();
    expectCopyOf(in, out.download<float>(), outRows, outCols, mark);
  };
  // 2 x 5 programs: tma_copy, through TMA or through its fallback.
  check(randomMatrix(ctx, 37, 40, 40, 0, rng), 37, 40, "tma_copy", false, 0.0f);
  check(randomMatrix(ctx, 37, 33, 33, 0, rng), 37, 33, "tma_copy", true,
        1000.0f);
  // 32 x 8 programs: tma_copy_wide (+2000), which has no tensor maps, so
  // unaligned rows do not matter.
  check(randomMatrix(ctx, 64, 1024, 1024, 0, rng), 64, 1024, "tma_copy_wide",
        false, 2000.0f);
  check(randomMatrix(ctx, 64, 1023, 1023, 0, rng), 64, 1023, "tma_copy_wide",
        false, 2000.0f);
}

//===----------------------------------------------------------------------===//
// Small-grid variants (smallgrid.ptx)
//===----------------------------------------------------------------------===//

/// Runs sg_wide (or its variant) on the first `n` elements of a larger
/// buffer and checks that they hold `mark` (1: sg_wide ran, 2: sg_narrow)
/// and that the rest is untouched.
void checkMarks(const Context &ctx, const Kernel &kernel, int64_t n,
                int32_t mark) {
  int64_t size = n + 5;
  Stream stream(ctx);
  DeviceBuffer out(ctx, size * sizeof(int32_t));
  out.memset(0xff);
  kernel.launch(stream, n, out.view<int32_t>({size}));
  stream.synchronize();
  std::vector<int32_t> got = out.download<int32_t>();
  for (int64_t i = 0; i < size; ++i)
    ASSERT_EQ(got[i], i < n ? mark : -1) << "n = " << n << ", element " << i;
}

TEST(Gpu, LaunchesTheSmallGridVariantOnSmallGrids) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::smallGridKernelsPtx());
  Kernel wide(module, "sg_wide");
  EXPECT_EQ(wide.metadata().smallGrid, (SmallGridVariant{"sg_narrow", 50}));
  ASSERT_TRUE(wide.smallGridKernel());
  EXPECT_EQ(wide.smallGridKernel()->name(), "sg_narrow");
  EXPECT_EQ(wide.smallGridKernel()->smallGridKernel(), nullptr);
  EXPECT_EQ(wide.fallbackKernel(), nullptr);
  // Copies share the variant.
  Kernel copy = wide;
  EXPECT_EQ(copy.smallGridKernel(), wide.smallGridKernel());

  // sg_wide takes 128 elements per program; below `bound` programs, fewer
  // than 50% of the SMs, sg_narrow runs.
  int sms = ctx.device().smCount;
  int64_t bound = (sms + 1) / 2;
  DeviceBuffer buf(ctx, 0);
  auto selected = [&](int64_t n) {
    std::vector<KernelArg> args = {n, buf.view<int32_t>({0})};
    EXPECT_FALSE(wide.usesFallback(args));
    return wide.selectFor(args).name();
  };
  std::vector<std::pair<int64_t, int32_t>> cases = {
      {bound * 128, 1}, {(bound + 1) * 128 - 5, 1}, {4096 * 128 + 3, 1}};
  if (bound > 1) // a device of more than 2 SMs
    cases.insert(
        cases.end(),
        {{1, 2}, {127, 2}, {(bound - 1) * 128, 2}, {(bound - 1) * 128 + 1, 1}});
  for (auto [n, mark] : cases) {
    EXPECT_EQ(selected(n), mark == 2 ? "sg_narrow" : "sg_wide") << n;
    checkMarks(ctx, wide, n, mark);
  }
  // An empty grid launches nothing, and has no small-grid variant.
  EXPECT_EQ(selected(0), "sg_wide");
  checkMarks(ctx, wide, 0, 1);
  // The variant itself runs on any grid.
  checkMarks(ctx, *wide.smallGridKernel(), 4096 * 128, 2);
}

TEST(Gpu, FollowsALadderOfSmallGridVariants) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::smallGridKernelsPtx());
  // sg_chained's grid is one block, so its variant sg_wide always takes the
  // launch, and hands it on to sg_narrow where its own grid is small.
  Kernel chained(module, "sg_chained");
  ASSERT_TRUE(chained.smallGridKernel());
  const Kernel &wide = *chained.smallGridKernel();
  EXPECT_EQ(wide.name(), "sg_wide");
  ASSERT_TRUE(wide.smallGridKernel());
  EXPECT_EQ(wide.smallGridKernel()->name(), "sg_narrow");
  EXPECT_EQ(wide.smallGridKernel()->smallGridKernel(), nullptr);
  int sms = ctx.device().smCount;
  if (sms < 3)
    GTEST_SKIP() << "a one-block grid fills " << sms << " SMs";
  int64_t bound = (sms + 1) / 2;
  DeviceBuffer buf(ctx, 0);
  auto selected = [&](int64_t n) {
    return chained.selectFor({n, buf.view<int32_t>({0})}).name();
  };
  for (auto [n, mark] :
       std::vector<std::pair<int64_t, int32_t>>{{1, 2},
                                                {(bound - 1) * 128, 2},
                                                {bound * 128, 1},
                                                {4096 * 128 + 3, 1}}) {
    EXPECT_EQ(selected(n), mark == 2 ? "sg_narrow" : "sg_wide") << n;
    checkMarks(ctx, chained, n, mark);
  }
}

TEST(Gpu, ReportsBadSmallGridVariants) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::smallGridKernelsPtx());
  auto loadError = [&](const char *name) {
    try {
      Kernel k(module, name);
    } catch (const Error &e) {
      EXPECT_EQ(e.kernel(), name);
      EXPECT_FALSE(e.isDriverError());
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(loadError("sg_other_params"),
            "kernel 'sg_other_params': its small-grid variant 'sg_one_param' "
            "takes (buffer:i32:1), not the kernel's (scalar:i64 "
            "buffer:i32:1)");
  // A cycle is reported by the rung whose variant closes it.
  for (auto [root, rung] :
       {std::pair<std::string, std::string>{"sg_cycle_a", "sg_cycle_b"},
        {"sg_cycle_b", "sg_cycle_a"}}) {
    try {
      Kernel k(module, root);
      ADD_FAILURE() << root << " loaded";
    } catch (const Error &e) {
      EXPECT_EQ(e.kernel(), rung);
      EXPECT_EQ(std::string(e.what()),
                "kernel '" + rung + "': its small-grid variant '" + root +
                    "' is above it on the small-grid ladder");
    }
  }
  EXPECT_EQ(loadError("sg_missing"),
            "kernel 'sg_missing': its small-grid variant 'sg_nonexistent' is "
            "not in the module");
}

//===----------------------------------------------------------------------===//
// Narrow variants (narrow.ptx)
//===----------------------------------------------------------------------===//

/// Runs `kernel` on a rows x cols view at the start of a larger buffer and
/// checks that the view holds `mark` (which kernel ran, see narrow.ptx) and
/// that the rest is untouched.
void checkMatrixMarks(const Context &ctx, const Kernel &kernel, int64_t rows,
                      int64_t cols, int32_t mark) {
  int64_t size = rows * cols + 5;
  Stream stream(ctx);
  DeviceBuffer out(ctx, size * sizeof(int32_t));
  out.memset(0xff);
  kernel.launch(stream, out.view<int32_t>({rows, cols}));
  stream.synchronize();
  std::vector<int32_t> got = out.download<int32_t>();
  for (int64_t i = 0; i < size; ++i)
    ASSERT_EQ(got[i], i < rows * cols ? mark : -1)
        << rows << "x" << cols << ", element " << i;
}

/// A launch of a narrow.ptx kernel on a rows x cols matrix, the kernel
/// selectFor should pick and the mark that kernel writes.
struct MatrixCase {
  int64_t rows, cols;
  const char *kernel;
  int32_t mark;
};

/// Checks selectFor and the launch of `kernel` on each case.
void checkMatrixCases(const Context &ctx, const Kernel &kernel,
                      const std::vector<MatrixCase> &cases) {
  for (const MatrixCase &c : cases) {
    DeviceBuffer buf(ctx, c.rows * c.cols * sizeof(int32_t));
    std::vector<KernelArg> args = {buf.view<int32_t>({c.rows, c.cols})};
    EXPECT_EQ(kernel.selectFor(args).name(), c.kernel)
        << c.rows << "x" << c.cols;
    EXPECT_FALSE(kernel.usesFallback(args));
    checkMatrixMarks(ctx, kernel, c.rows, c.cols, c.mark);
  }
}

TEST(Gpu, LaunchesTheNarrowestVariantThatFits) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::narrowKernelsPtx());
  Kernel wide(module, "nw_wide");
  EXPECT_EQ(wide.metadata(), test::narrowKernelMetadata("nw_wide"));
  EXPECT_EQ(wide.metadata().narrow,
            (std::vector<NarrowVariant>{{"nw_narrow", 0, 1, 8}}));
  EXPECT_EQ(wide.fallbackKernel(), nullptr);
  EXPECT_EQ(wide.smallGridKernel(), nullptr);
  // The ladder: nw_wide, nw_narrow (at most 8 columns), nw_tiny (at most 2).
  ASSERT_TRUE(wide.narrowKernel());
  const Kernel &narrow = *wide.narrowKernel();
  EXPECT_EQ(narrow.name(), "nw_narrow");
  ASSERT_TRUE(narrow.narrowKernel());
  const Kernel &tiny = *narrow.narrowKernel();
  EXPECT_EQ(tiny.name(), "nw_tiny");
  EXPECT_EQ(tiny.narrowKernel(), nullptr);
  EXPECT_EQ(wide.narrowKernel(1), nullptr);
  // Copies share the variant.
  Kernel copy = wide;
  EXPECT_EQ(copy.narrowKernel(), wide.narrowKernel());

  // The columns (dimension 1) decide; the rows do not.
  checkMatrixCases(ctx, wide,
                   {{1, 1, "nw_tiny", 3},
                    {3, 2, "nw_tiny", 3},
                    {3, 3, "nw_narrow", 2},
                    {3, 8, "nw_narrow", 2},
                    {100, 8, "nw_narrow", 2},
                    {3, 9, "nw_wide", 1},
                    {2, 100, "nw_wide", 1},
                    {1, 129, "nw_wide", 1},
                    {1, 1000, "nw_wide", 1}});
  // An empty matrix: no columns is narrow, and nw_tiny's empty grid
  // launches nothing; no rows is not, and nw_wide's launches nothing.
  checkMatrixCases(ctx, wide, {{3, 0, "nw_tiny", 3}, {0, 100, "nw_wide", 1}});
  // Each rung runs on any width above its own bound, and the choice starts
  // from the kernel launched.
  checkMatrixCases(ctx, narrow,
                   {{2, 1000, "nw_narrow", 2}, {2, 2, "nw_tiny", 3}});
  checkMatrixCases(ctx, tiny, {{2, 1000, "nw_tiny", 3}});
}

TEST(Gpu, TheNarrowVariantMakesItsOwnSmallGridChoice) {
  REQUIRE_GPU();
  Context ctx(0);
  int sms = ctx.device().smCount;
  if (sms < 2)
    GTEST_SKIP() << "a grid of one block is not small on one SM";
  Module module = Module::loadData(ctx, test::narrowKernelsPtx());
  Kernel grid(module, "nw_grid");
  EXPECT_EQ(grid.metadata(), test::narrowKernelMetadata("nw_grid"));
  EXPECT_EQ(grid.smallGridKernel(), nullptr);
  ASSERT_TRUE(grid.narrowKernel());
  const Kernel &sg = *grid.narrowKernel();
  EXPECT_EQ(sg.name(), "nw_sg");
  // The variant is a full kernel: it brings its own small-grid variant.
  ASSERT_TRUE(sg.smallGridKernel());
  EXPECT_EQ(sg.smallGridKernel()->name(), "nw_tiny");
  // At most 8 columns, nw_sg runs one block per row; below `sms` rows (100%
  // of the SMs) its small-grid variant nw_tiny runs instead.
  checkMatrixCases(ctx, grid,
                   {{1, 8, "nw_tiny", 3},
                    {sms - 1, 8, "nw_tiny", 3},
                    {sms, 8, "nw_sg", 4},
                    {sms + 1, 1, "nw_sg", 4},
                    {1, 9, "nw_grid", 5},
                    {sms, 9, "nw_grid", 5}});
}

// The GEMV kernel's small-grid variant is the small-grid kernel whose
// narrow variant it is: reached down the small-grid ladder, that kernel
// runs on its own grid and makes no narrow choice again (which would hand
// the launch back, or, its narrow variant unloaded, crash).
TEST(Gpu, ASmallGridRungMakesNoNarrowChoiceAgain) {
  REQUIRE_GPU();
  Context ctx(0);
  int sms = ctx.device().smCount;
  if (sms < 2)
    GTEST_SKIP() << "a grid of one block is not small on one SM";
  Module module = Module::loadData(ctx, test::narrowKernelsPtx());
  Kernel back(module, "nw_back");
  EXPECT_EQ(back.metadata(), test::narrowKernelMetadata("nw_back"));
  ASSERT_TRUE(back.narrowKernel());
  const Kernel &narrow = *back.narrowKernel();
  EXPECT_EQ(narrow.name(), "nw_back_narrow");
  ASSERT_TRUE(narrow.smallGridKernel());
  EXPECT_EQ(narrow.smallGridKernel()->name(), "nw_back");
  // Loaded as a small-grid rung, nw_back has its narrow line but not its
  // variant; a launch from it makes no narrow choice.
  EXPECT_EQ(narrow.smallGridKernel()->metadata().narrow.size(), 1u);
  EXPECT_EQ(narrow.smallGridKernel()->narrowKernel(), nullptr);
  checkMatrixMarks(ctx, *narrow.smallGridKernel(), sms, 8, 9);
  checkMatrixCases(ctx, back,
                   {{1, 8, "nw_back", 9},
                    {sms - 1, 1, "nw_back", 9},
                    {sms, 8, "nw_back_narrow", 10},
                    {sms + 1, 1, "nw_back_narrow", 10},
                    {1, 9, "nw_back", 9}});
  // From the variant too: its small grid hands the launch to nw_back.
  checkMatrixCases(ctx, narrow,
                   {{1, 8, "nw_back", 9}, {sms, 8, "nw_back_narrow", 10}});
}

// A matmul's main kernel narrows on C's rows (to the vector-matrix kernel)
// and on its columns (to the small-grid kernel): the first line that holds
// is taken, and its variant's own lines follow.
TEST(Gpu, TakesTheFirstNarrowLineThatHolds) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::narrowKernelsPtx());
  Kernel lines(module, "nw_lines");
  EXPECT_EQ(lines.metadata(), test::narrowKernelMetadata("nw_lines"));
  ASSERT_TRUE(lines.narrowKernel(0));
  EXPECT_EQ(lines.narrowKernel(0)->name(), "nw_lines_rows");
  ASSERT_TRUE(lines.narrowKernel(1));
  EXPECT_EQ(lines.narrowKernel(1)->name(), "nw_narrow");
  EXPECT_EQ(lines.narrowKernel(2), nullptr);
  // nw_narrow's own line (at most 2 columns) is followed from it.
  checkMatrixCases(ctx, lines,
                   {{1, 1000, "nw_lines_rows", 12},
                    {2, 129, "nw_lines_rows", 12},
                    {2, 1, "nw_lines_rows", 12},
                    {3, 8, "nw_narrow", 2},
                    {1000, 3, "nw_narrow", 2},
                    {3, 2, "nw_tiny", 3},
                    {3, 9, "nw_lines", 11},
                    {100, 1000, "nw_lines", 11}});
  // No rows is at most 2: nw_lines_rows's empty grid launches nothing.
  checkMatrixCases(ctx, lines, {{0, 100, "nw_lines_rows", 12}});
}

/// A launch of nw_scalar's ladder on a rows x cols matrix and its two
/// scalars, the kernel selectFor should pick and the mark that kernel writes.
struct ScalarCase {
  int64_t rows, cols;
  int32_t i32;
  int64_t i64;
  const char *kernel;
  int32_t mark;
};

/// Checks selectFor and the launch of `kernel` (of the nw_scalar ladder) on
/// each case, as checkMatrixMarks does.
void checkScalarCases(const Context &ctx, const Kernel &kernel,
                      const std::vector<ScalarCase> &cases) {
  for (const ScalarCase &c : cases) {
    std::string what = std::to_string(c.rows) + "x" + std::to_string(c.cols) +
                       ", " + std::to_string(c.i32) + ", " +
                       std::to_string(c.i64);
    int64_t size = c.rows * c.cols + 5;
    DeviceBuffer out(ctx, size * sizeof(int32_t));
    out.memset(0xff);
    std::vector<KernelArg> args = {out.view<int32_t>({c.rows, c.cols}),
                                   KernelArg(c.i32), KernelArg(c.i64)};
    EXPECT_EQ(kernel.selectFor(args).name(), c.kernel) << what;
    EXPECT_FALSE(kernel.usesFallback(args)) << what;
    Stream stream(ctx);
    kernel.launchArgs(stream, args);
    stream.synchronize();
    std::vector<int32_t> got = out.download<int32_t>();
    for (int64_t i = 0; i < size; ++i)
      ASSERT_EQ(got[i], i < c.rows * c.cols ? c.mark : -1)
          << what << ", element " << i;
  }
}

TEST(Gpu, ChoosesANarrowVariantOnAnIntegerScalar) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::narrowKernelsPtx());
  Kernel wide(module, "nw_scalar");
  EXPECT_EQ(wide.metadata(), test::narrowKernelMetadata("nw_scalar"));
  EXPECT_EQ(
      wide.metadata().narrow,
      (std::vector<NarrowVariant>{{"nw_scalar_narrow", 1, std::nullopt, 8}}));
  // The ladder: nw_scalar, nw_scalar_narrow (the i32 at most 8),
  // nw_scalar_tiny (the i64 at most 4).
  ASSERT_TRUE(wide.narrowKernel());
  const Kernel &narrow = *wide.narrowKernel();
  EXPECT_EQ(narrow.name(), "nw_scalar_narrow");
  ASSERT_TRUE(narrow.narrowKernel());
  const Kernel &tiny = *narrow.narrowKernel();
  EXPECT_EQ(tiny.name(), "nw_scalar_tiny");
  EXPECT_EQ(tiny.narrowKernel(), nullptr);

  constexpr int32_t i32Max = std::numeric_limits<int32_t>::max();
  constexpr int32_t i32Min = std::numeric_limits<int32_t>::min();
  constexpr int64_t i64Min = std::numeric_limits<int64_t>::min();
  // The scalars decide, whatever the matrix; a negative value never selects
  // a variant.
  checkScalarCases(ctx, wide,
                   {{3, 200, 9, 0, "nw_scalar", 6},
                    {1, 1, 9, 0, "nw_scalar", 6},
                    {3, 200, i32Max, 0, "nw_scalar", 6},
                    {3, 200, -1, 0, "nw_scalar", 6},
                    {3, 200, i32Min, 0, "nw_scalar", 6},
                    {3, 200, 8, 100, "nw_scalar_narrow", 7},
                    {3, 200, 0, 5, "nw_scalar_narrow", 7},
                    {3, 200, 1, -1, "nw_scalar_narrow", 7},
                    {3, 200, 1, i64Min, "nw_scalar_narrow", 7},
                    {3, 200, 8, 4, "nw_scalar_tiny", 8},
                    {100, 1000, 0, 0, "nw_scalar_tiny", 8},
                    {1, 1, 9, 4, "nw_scalar", 6}});
  // An empty matrix: the chosen kernel's empty grid launches nothing.
  checkScalarCases(ctx, wide,
                   {{0, 100, 1, 1, "nw_scalar_tiny", 8},
                    {3, 0, 100, 1, "nw_scalar", 6}});
  // The choice starts from the kernel launched.
  checkScalarCases(ctx, narrow,
                   {{2, 100, 100, 100, "nw_scalar_narrow", 7},
                    {2, 100, 100, 4, "nw_scalar_tiny", 8}});
  checkScalarCases(ctx, tiny, {{2, 100, 100, 100, "nw_scalar_tiny", 8}});
}

TEST(Gpu, ReportsBadNarrowVariants) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::narrowKernelsPtx());
  auto loadError = [&](const char *name, const char *kernel) {
    try {
      Kernel k(module, name);
    } catch (const Error &e) {
      EXPECT_EQ(e.kernel(), kernel);
      EXPECT_FALSE(e.isDriverError());
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(loadError("nw_other_params", "nw_other_params"),
            "kernel 'nw_other_params': its narrow variant 'nw_two_params' "
            "takes (buffer:i32:2 scalar:i64), not the kernel's "
            "(buffer:i32:2)");
  // A cycle is a rung whose bound is not below the one above it.
  EXPECT_EQ(loadError("nw_cycle_a", "nw_cycle_a"),
            "kernel 'nw_cycle_a': its narrow variant 'nw_cycle_b' names a "
            "narrow variant itself ('nw_cycle_a', at most 8 elements) whose "
            "bound is not below the kernel's 8");
  EXPECT_EQ(loadError("nw_wider", "nw_wider"),
            "kernel 'nw_wider': its narrow variant 'nw_narrow' names a "
            "narrow variant itself ('nw_tiny', at most 2 elements) whose "
            "bound is not below the kernel's 1");
  EXPECT_EQ(loadError("nw_missing", "nw_missing"),
            "kernel 'nw_missing': its narrow variant 'nw_nonexistent' is not "
            "in the module");
  // Lines on different dimensions that lead back up the ladder.
  EXPECT_EQ(loadError("nw_loop_a", "nw_loop_b"),
            "kernel 'nw_loop_b': its narrow variant 'nw_loop_a' is above it "
            "on the narrow ladder");
  // A bad rung further down is reported by the rung above it.
  EXPECT_EQ(loadError("nw_deep", "nw_cycle_a"),
            "kernel 'nw_cycle_a': its narrow variant 'nw_cycle_b' names a "
            "narrow variant itself ('nw_cycle_a', at most 8 elements) whose "
            "bound is not below the kernel's 8");
  // The module is still usable.
  Kernel wide(module, "nw_wide");
  checkMatrixMarks(ctx, wide, 2, 8, 2);
}

// Where the module resolves missing kernels (the JIT), variants load on
// first need: a ladder that comes back is found at launch, not at load.
TEST(Gpu, ALazyNarrowLadderThatComesBackIsAnErrorAtLaunch) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::narrowKernelsPtx());
  module.setKernelImages([](const std::string &) {
    return std::string(test::narrowKernelsPtx());
  });
  Kernel loop(module, "nw_loop_a");
  DeviceBuffer buf(ctx, 4 * sizeof(int32_t));
  std::vector<KernelArg> args = {buf.view<int32_t>({2, 2})};
  try {
    loop.selectFor(args);
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'nw_loop_a': its narrow ladder comes back to "
              "'nw_loop_a'");
    EXPECT_EQ(e.kernel(), "nw_loop_a");
  }
  // Where no line holds, nothing is followed.
  EXPECT_EQ(loop.selectFor({buf.view<int32_t>({5, 0})}).name(), "nw_loop_a");
  // Good ladders work the same lazily.
  Kernel lines(module, "nw_lines");
  checkMatrixCases(ctx, lines,
                   {{1, 1000, "nw_lines_rows", 12},
                    {3, 2, "nw_tiny", 3},
                    {3, 9, "nw_lines", 11}});
}

//===----------------------------------------------------------------------===//
// Scratch buffers (scratch.ptx)
//===----------------------------------------------------------------------===//

/// scratch_count's words before the per-thread pairs.
constexpr int64_t kScratchHeader = 5;

/// A buffer for scratch_count over `blocks` programs of 64 threads, poisoned
/// with -1, and the view to pass.
struct CountOutput {
  int64_t blocks;
  DeviceBuffer buffer;
  TensorView view;
};

CountOutput countOutput(const Context &ctx, int64_t blocks) {
  int64_t words = kScratchHeader + 2 * 64 * blocks;
  DeviceBuffer buffer(ctx, words * sizeof(int32_t));
  buffer.memset(0xff);
  TensorView view = buffer.view<int32_t>({words});
  return {blocks, std::move(buffer), view};
}

void launchCount(const Kernel &count, const Stream &stream,
                 const CountOutput &out) {
  count.launch(stream, out.blocks * 64, out.view);
}

/// Checks, exactly, what scratch_count wrote: the scratch descriptor it was
/// given, and old values that only zero-filled scratch yields: every ticket
/// of word 0 once (0..threads-1), every ticket of its block's word once
/// (0..63).
void expectZeroFilledScratch(const CountOutput &out) {
  std::vector<int32_t> got = out.buffer.download<int32_t>();
  int64_t blocks = out.blocks, threads = 64 * blocks;
  ASSERT_EQ(got.size(), size_t(kScratchHeader + 2 * threads));
  EXPECT_EQ(got[0], 4 + blocks) << "size in words, " << blocks << " blocks";
  EXPECT_EQ(got[1], 0) << "allocated - aligned pointer";
  EXPECT_EQ(got[2], 0) << "aligned pointer mod 256";
  EXPECT_EQ(got[3], 0) << "offset";
  EXPECT_EQ(got[4], 1) << "stride";
  std::vector<int32_t> tickets;
  std::vector<std::vector<int32_t>> perBlock(blocks);
  for (int64_t t = 0; t < threads; ++t) {
    tickets.push_back(got[kScratchHeader + 2 * t]);
    perBlock[t / 64].push_back(got[kScratchHeader + 2 * t + 1]);
  }
  std::sort(tickets.begin(), tickets.end());
  for (int64_t i = 0; i < threads; ++i)
    ASSERT_EQ(tickets[i], i) << "word 0, " << blocks << " blocks";
  for (int64_t b = 0; b < blocks; ++b) {
    std::sort(perBlock[b].begin(), perBlock[b].end());
    for (int32_t i = 0; i < 64; ++i)
      ASSERT_EQ(perBlock[b][i], i)
          << "word " << 4 + b << ", " << blocks << " blocks";
  }
}

TEST(Gpu, ZeroFillsScratchBeforeEveryLaunch) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::scratchKernelsPtx());
  Kernel count(module, "scratch_count");
  EXPECT_EQ(count.metadata(), test::scratchCountMetadata());
  Stream stream(ctx);
  // Queued back to back on one stream and synchronised once, so that each
  // launch sees only what its own zero-fill left: a smaller grid reuses the
  // buffer the one before left dirty, a larger one grows it.
  std::vector<CountOutput> outs;
  for (int64_t blocks : {40, 3, 40, 300, 1, 300})
    outs.push_back(countOutput(ctx, blocks));
  for (const CountOutput &out : outs)
    launchCount(count, stream, out);
  // An empty grid launches nothing and needs no scratch.
  DeviceBuffer empty(ctx, 0);
  EXPECT_NO_THROW(count.launch(stream, int64_t(0), empty.view<int32_t>({0})));
  stream.synchronize();
  for (const CountOutput &out : outs)
    expectZeroFilledScratch(out);
}

TEST(Gpu, KeepsAScratchBufferPerStream) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::scratchKernelsPtx());
  Kernel count(module, "scratch_count");
  // A copy shares the buffers; two streams never share one, or their
  // launches, which may overlap, would count each other's threads.
  Kernel copy = count;
  Stream a(ctx), b(ctx);
  std::vector<CountOutput> outs;
  for (int i = 0; i < 6; ++i)
    outs.push_back(countOutput(ctx, 1000 + i));
  for (int i = 0; i < 6; ++i)
    launchCount(i % 2 ? copy : count, i % 2 ? b : a, outs[i]);
  a.synchronize();
  b.synchronize();
  for (const CountOutput &out : outs)
    expectZeroFilledScratch(out);
}

TEST(Gpu, ReportsScratchThatCannotBeProvided) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::scratchKernelsPtx());
  Kernel huge(module, "scratch_huge");
  EXPECT_EQ(huge.metadata(), test::scratchHugeMetadata());
  Stream stream(ctx);
  // One program: 2^63 + 4 bytes, which the driver cannot allocate.
  try {
    huge.launch(stream, int64_t(1));
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_TRUE(e.isDriverError());
    EXPECT_EQ(e.operation(), "cuMemAlloc(scratch)");
    EXPECT_EQ(e.kernel(), "scratch_huge");
    EXPECT_FALSE(e.cudaDescription().empty());
  }
  // Two programs: 2^64 + 4 bytes, which does not fit in 64 bits.
  try {
    huge.launch(stream, int64_t(2));
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_FALSE(e.isDriverError());
    EXPECT_EQ(std::string(e.what()),
              "kernel 'scratch_huge': its scratch buffer of 4 + "
              "9223372036854775808 * 2x1x1 bytes does not fit in 64 bits");
    EXPECT_EQ(e.kernel(), "scratch_huge");
  }
  // Nothing to launch, nothing to allocate.
  EXPECT_NO_THROW(huge.launch(stream, int64_t(0)));
  // The context is still usable.
  Kernel count(module, "scratch_count");
  CountOutput out = countOutput(ctx, 2);
  launchCount(count, stream, out);
  stream.synchronize();
  expectZeroFilledScratch(out);
}

/// Launches `first` (whose then kernel copies the scratch words it left to
/// out) for each n of `sizes` back to back on one stream, out of n words
/// each, and checks that word i of each out is want(i, n).
void expectPairsBackToBack(const Context &ctx, const Kernel &first,
                           std::initializer_list<int64_t> sizes,
                           int64_t (*want)(int64_t i, int64_t n)) {
  Stream stream(ctx);
  std::vector<std::pair<int64_t, DeviceBuffer>> outs;
  for (int64_t n : sizes)
    outs.emplace_back(n, DeviceBuffer(ctx, n * sizeof(int32_t)));
  for (auto &[n, buffer] : outs) {
    buffer.memset(0xff);
    first.launch(stream, n, buffer.view<int32_t>({n}));
  }
  stream.synchronize();
  for (auto &[n, buffer] : outs) {
    std::vector<int32_t> got = buffer.download<int32_t>();
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], want(i, n)) << "word " << i << " of " << n;
  }
}

TEST(Gpu, LaunchesTheThenKernelWithTheScratchBufferAsLeft) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::scratchKernelsPtx());
  Kernel write(module, "then_write");
  EXPECT_EQ(write.metadata(), test::thenWriteMetadata());
  ASSERT_NE(write.thenKernel(), nullptr);
  EXPECT_EQ(write.thenKernel()->metadata(), test::thenReadMetadata());
  // Back to back on one stream: each pair must see its own first kernel's
  // words, not a zero-fill or the other pair's.
  expectPairsBackToBack(ctx, write, {100, 7, 5000, 32},
                        [](int64_t i, int64_t) { return 3 * i + 1; });
  // A then kernel the module lacks is reported when the kernel is loaded.
  try {
    Kernel missing(module, "then_missing");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'then_missing': its then kernel 'no_such_kernel' is not "
              "in the module");
  }
}

TEST(Gpu, LaunchesAWaitingThenKernelWhileTheFirstRuns) {
  REQUIRE_HOPPER();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::dependentKernelsPtx());
  Kernel write(module, "dep_write");
  EXPECT_EQ(write.metadata(), test::depWriteMetadata());
  ASSERT_NE(write.thenKernel(), nullptr);
  EXPECT_EQ(write.thenKernel()->metadata(), test::depReadMetadata());
  // dep_write lets dep_read launch first thing and writes its words only
  // after a spin: dep_read, launched with programmatic stream
  // serialization, reads them only if it waited (else the words of the
  // pair before, of another n). Back to back, each pair must see its own
  // first kernel's words.
  expectPairsBackToBack(ctx, write, {100, 7, 5000, 32, 100},
                        [](int64_t i, int64_t n) { return 3 * i + n; });
}

TEST(Gpu, LaunchesTheThenKernelWhenTheGridIsEmpty) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::scratchKernelsPtx());
  Kernel after(module, "then_after");
  ASSERT_NE(after.thenKernel(), nullptr);
  Stream stream(ctx);
  // then_after has n / 32 programs: none for n = 0 and 31, some for 64;
  // then_fill runs over out's 40 elements each time.
  for (int64_t n : {0, 31, 64}) {
    DeviceBuffer out(ctx, 40 * sizeof(int32_t));
    out.memset(0xff);
    after.launch(stream, n, out.view<int32_t>({40}));
    stream.synchronize();
    std::vector<int32_t> got = out.download<int32_t>();
    for (int64_t i = 0; i < 40; ++i)
      ASSERT_EQ(got[i], n + 5) << "element " << i << " with n = " << n;
  }
}

TEST(Gpu, LaunchesOnAWrappedStreamAndLeavesItAlone) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel saxpy(module, "saxpy");
  std::mt19937 rng(9);
  // A stream the caller (a framework) created and owns; blocking, so that
  // saxpyProblem's synchronous copies (legacy default stream) order with it.
  ctx.makeCurrent();
  CUstream raw = nullptr;
  ASSERT_EQ(driver().streamCreate(&raw, CU_STREAM_DEFAULT), CUDA_SUCCESS);
  {
    Stream wrapped = Stream::wrap(ctx, raw);
    EXPECT_EQ(wrapped.handle(), raw);
    EXPECT_FALSE(wrapped.owned());
    EXPECT_EQ(wrapped.device().ordinal, 0);
    EXPECT_EQ(saxpyProblem(ctx, saxpy, wrapped, 5000, rng), "");
    // Moved, it is still not owned.
    Stream moved = std::move(wrapped);
    EXPECT_FALSE(moved.owned());
    EXPECT_EQ(moved.handle(), raw);
    EXPECT_EQ(saxpyProblem(ctx, saxpy, moved, 77, rng), "");
  }
  // Not destroyed by ~Stream: still usable, and the caller's to destroy.
  ctx.makeCurrent();
  EXPECT_EQ(driver().streamSynchronize(raw), CUDA_SUCCESS);
  EXPECT_EQ(saxpyProblem(ctx, saxpy, Stream::wrap(ctx, raw), 300, rng), "");
  EXPECT_EQ(driver().streamDestroy(raw), CUDA_SUCCESS);

  // The legacy default stream, and the per-thread one.
  EXPECT_EQ(saxpyProblem(ctx, saxpy, Stream::wrap(ctx, nullptr), 1000, rng),
            "");
  EXPECT_EQ(saxpyProblem(ctx, saxpy, Stream::wrap(ctx, CU_STREAM_PER_THREAD),
                         1000, rng),
            "");
  Stream own(ctx);
  EXPECT_TRUE(own.owned());
}

TEST(Gpu, ObjectsOutliveTheirContextObject) {
  REQUIRE_GPU();
  std::optional<Kernel> saxpy;
  {
    Context ctx(0);
    Module module = Module::loadData(ctx, test::kernelsPtx());
    saxpy.emplace(module, "saxpy");
  }
  Context ctx(0);
  std::mt19937 rng(4);
  checkSaxpy(ctx, *saxpy, 100, rng);
}

//===----------------------------------------------------------------------===//
// Faults: each gives an error value with CUDA's message; none exits or hangs.
//===----------------------------------------------------------------------===//

TEST(Gpu, ReportsAnAllocationLargerThanTheDevice) {
  REQUIRE_GPU();
  Context ctx(0);
  try {
    DeviceBuffer huge(ctx, uint64_t(1) << 50);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.result(), CUDA_ERROR_OUT_OF_MEMORY) << e.what();
    EXPECT_NE(std::string(e.what()).find("out of memory"), std::string::npos)
        << e.what();
  }
  // The context goes on working.
  Module module = Module::loadData(ctx, test::kernelsPtx());
  std::mt19937 rng(6);
  checkSaxpy(ctx, Kernel(module, "saxpy"), 1000, rng);
}

TEST(Gpu, ReportsAKernelWithMoreSharedMemoryThanABlockHas) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::faultKernelsPtx());
  try {
    Kernel hog(module, "hog");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "kernel 'hog': it needs 1048576 bytes of dynamic shared memory, "
              "more than the " +
                  std::to_string(ctx.device().maxSharedPerBlockOptin) +
                  " a block of " + ctx.device().name + " can have");
    EXPECT_EQ(e.kernel(), "hog");
  }
  Module kernels = Module::loadData(ctx, test::kernelsPtx());
  std::mt19937 rng(7);
  checkSaxpy(ctx, Kernel(kernels, "saxpy"), 1000, rng);
}

TEST(Gpu, ReportsACubinForAnotherArchitecture) {
  REQUIRE_GPU();
  Context ctx(0);
  int cc = ctx.device().computeCapability();
  // sm_80 code does not run on 9.0, nor sm_90 code on 8.x.
  int other = cc == 90 ? 80 : cc / 10 == 8 ? 90 : 0;
  std::optional<std::string_view> cubin = test::kernelsCubin(other);
  if (!cubin)
    GTEST_SKIP() << "no test cubin for another arch than sm_" << cc;
  try {
    Module::loadData(ctx, *cubin);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.result(), CUDA_ERROR_NO_BINARY_FOR_GPU) << e.what();
    EXPECT_NE(std::string(e.what()).find(
                  "cuModuleLoadData (the image has no code for " +
                  ctx.device().name),
              std::string::npos)
        << e.what();
  }
  Module kernels = Module::loadData(ctx, test::kernelsPtx());
  std::mt19937 rng(8);
  checkSaxpy(ctx, Kernel(kernels, "saxpy"), 1000, rng);
}

TEST(Gpu, LaunchesFromTwoThreadsOnOneStreamAndOnTwo) {
  REQUIRE_GPU();
  Context ctx(0);
  Module module = Module::loadData(ctx, test::kernelsPtx());
  Kernel saxpy(module, "saxpy");
  for (bool oneStream : {true, false}) {
    Stream common(ctx);
    std::string problems[2];
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
      threads.emplace_back([&, t] {
        try {
          std::optional<Stream> own;
          if (!oneStream)
            own.emplace(ctx);
          const Stream &stream = oneStream ? common : *own;
          std::mt19937 rng(10 + t);
          for (int i = 0; i < 50 && problems[t].empty(); ++i)
            problems[t] =
                saxpyProblem(ctx, saxpy, stream, 1000 + 4099 * i + t, rng);
        } catch (const Error &e) {
          problems[t] = e.what();
        }
      });
    for (std::thread &thread : threads)
      thread.join();
    EXPECT_EQ(problems[0], "") << (oneStream ? "one stream" : "two streams");
    EXPECT_EQ(problems[1], "") << (oneStream ? "one stream" : "two streams");
  }
}

/// Launches a kernel that traps, then uses the context again; prints what
/// each reported and exits 0 if both were errors with a CUDA result.
[[noreturn]] void trapThenCallAgain() {
  Context ctx(0);
  Module module = Module::loadData(ctx, test::faultKernelsPtx());
  Kernel trapper(module, "trapper");
  Stream stream(ctx);
  std::string trap, later;
  CUresult trapResult = CUDA_SUCCESS, laterResult = CUDA_SUCCESS;
  try {
    trapper.launch(stream, int64_t(64));
    stream.synchronize();
  } catch (const Error &e) {
    trap = e.what();
    trapResult = e.result();
  }
  try {
    DeviceBuffer buffer(ctx, 1024);
    buffer.memset(0);
    Stream other(ctx);
    other.synchronize();
  } catch (const Error &e) {
    later = e.what();
    laterResult = e.result();
  }
  std::fprintf(stderr, "trap reported: %s\nlater call reported: %s\n",
               trap.c_str(), later.c_str());
  std::exit(trapResult != CUDA_SUCCESS && laterResult != CUDA_SUCCESS ? 0
                                                                       : 1);
}

// A trap loses the context: the launch's stream reports it, and so do later
// calls on that context. In a child process (the death test re-executes
// this binary), as the other tests need a context that works.
TEST(GpuDeathTest, ATrapLosesTheContextAndLaterCallsReportIt) {
  REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(trapThenCallAgain(), ::testing::ExitedWithCode(0),
              "trap reported: .*CUDA_ERROR.*\nlater call reported: "
              ".*CUDA_ERROR");
}

} // namespace
