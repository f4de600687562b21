//===- KernelWrappersTest.cpp - tilec_add_kernels in the build tree -------===//
//
// test_kernels.mlir (here) and examples/matmul.mlir are compiled for sm_80
// and sm_90a by tilec_add_kernels (test/CMakeLists.txt) into this test,
// which includes the generated headers. Without a GPU it checks what was
// generated: the functions' types, the embedded cubins and their kernels,
// the entry kernels (not matmul's variants) and the choice of cubin per
// device. With one it launches every kernel, on a stream of its own and on
// a wrapped one, and checks the results.
//
//===----------------------------------------------------------------------===//

#include "tilec_kernels/matmul.h"
#include "tilec_kernels/test_kernels.h"

#include "tilec/Runtime/CubinInfo.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

using namespace tilec;
using namespace tilec::rt;

namespace {

// The generated API, as the kernels' signatures give it.
static_assert(std::is_same_v<decltype(&test_kernels::scale),
                             void (*)(const Stream &, float,
                                      const TypedView<float> &,
                                      const TypedView<float> &)>);
static_assert(std::is_same_v<decltype(&test_kernels::add_rows),
                             void (*)(const Stream &,
                                      const TypedView<int32_t> &, int32_t,
                                      int64_t)>);
static_assert(std::is_same_v<decltype(&test_kernels::add_f16),
                             void (*)(const Stream &, Half,
                                      const TypedView<Half> &,
                                      const TypedView<Half> &)>);
static_assert(std::is_same_v<decltype(&matmul::mm_bf16_bf16_rc),
                             void (*)(const Stream &,
                                      const TypedView<BFloat16> &,
                                      const TypedView<BFloat16> &,
                                      const TypedView<BFloat16> &)>);

/// The kernels of a cubin that carry launch metadata, by name.
std::set<std::string> launchableKernels(const EmbeddedCubin &cubin) {
  std::string error;
  std::optional<CubinInfo> info = parseCubin(cubin.bytes(), &error);
  EXPECT_TRUE(info) << cubin.arch << ": " << error;
  std::set<std::string> names;
  if (info)
    for (const CubinKernel &k : info->kernels)
      if (k.hasLaunchMetadata)
        names.insert(k.name);
  return names;
}

TEST(KernelWrappers, EmbedACubinPerArch) {
  const EmbeddedKernels &embedded = test_kernels::tilec_embedded();
  EXPECT_EQ(embedded.source(), "test_kernels.mlir");
  EXPECT_EQ(embedded.archList(), "sm_80, sm_90a");
  // In the order of the source.
  EXPECT_EQ(embedded.kernelNames(),
            (std::vector<std::string>{"scale", "add_rows", "add_f16"}));
  for (const EmbeddedCubin &cubin : embedded.cubins()) {
    EXPECT_GT(cubin.size, 1000u) << cubin.arch;
    EXPECT_EQ(std::memcmp(cubin.data, "\x7f" "ELF", 4), 0) << cubin.arch;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(cubin.data) % 64, 0u);
    EXPECT_EQ(launchableKernels(cubin),
              (std::set<std::string>{"scale", "add_rows", "add_f16"}));
  }
}

TEST(KernelWrappers, WrapEntryKernelsOnly) {
  const EmbeddedKernels &embedded = matmul::tilec_embedded();
  EXPECT_EQ(embedded.source(), "matmul.mlir");
  EXPECT_EQ(embedded.kernelNames(),
            std::vector<std::string>{"mm_bf16_bf16_rc"});
  ASSERT_EQ(embedded.cubins().size(), 2u);
  // The cubins hold variants the runtime dispatches to (small-grid and,
  // for sm_90a, TMA fallbacks), which get no function of their own.
  for (const EmbeddedCubin &cubin : embedded.cubins()) {
    std::set<std::string> kernels = launchableKernels(cubin);
    EXPECT_TRUE(kernels.count("mm_bf16_bf16_rc")) << cubin.arch;
    EXPECT_GT(kernels.size(), 1u) << cubin.arch;
  }
}

TEST(KernelWrappers, PickTheCubinForTheDevice) {
  const EmbeddedKernels &embedded = test_kernels::tilec_embedded();
  Device hopper;
  hopper.ccMajor = 9;
  EXPECT_STREQ(embedded.cubinFor(hopper).arch, "sm_90a");
  Device ada;
  ada.ccMajor = 8;
  ada.ccMinor = 9;
  EXPECT_STREQ(embedded.cubinFor(ada).arch, "sm_80");
  Device blackwell;
  blackwell.ccMajor = 10;
  blackwell.name = "B200";
  try {
    embedded.cubinFor(blackwell);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("compiled for sm_80, sm_90a"),
              std::string::npos)
        << e.what();
  }
}

//===----------------------------------------------------------------------===//
// On a GPU
//===----------------------------------------------------------------------===//

#define REQUIRE_GPU()                                                          \
  do {                                                                         \
    if (deviceCount() == 0)                                                    \
      GTEST_SKIP() << "no GPU";                                                \
  } while (0)

/// f16 bits of a float that f16 holds exactly (small integers, halves).
uint16_t toHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffff) == 0)
    return uint16_t(bits >> 16);
  uint32_t sign = (bits >> 16) & 0x8000;
  int exponent = int((bits >> 23) & 0xff) - 127 + 15;
  return uint16_t(sign | (uint32_t(exponent) << 10) |
                  ((bits >> 13) & 0x3ff));
}

uint16_t toBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint16_t(bits >> 16);
}

/// Rounded to nearest even, as the kernels round (finite values).
uint16_t toBf16Nearest(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint16_t((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

float fromBf16(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void checkScale(const Context &ctx, const Stream &stream, int64_t n) {
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i)
    x[i] = float(i % 100) - 50.0f;
  DeviceBuffer dx = DeviceBuffer::fromHost(ctx, x);
  DeviceBuffer dy(ctx, n * sizeof(float));
  dy.memset(0xff);
  test_kernels::scale(stream, 1.5f, dx.view<float>({n}), dy.view<float>({n}));
  stream.synchronize();
  std::vector<float> y = dy.download<float>();
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 1.5f * x[i]) << "n = " << n << ", element " << i;
}

TEST(KernelWrappers, LaunchOnAStream) {
  REQUIRE_GPU();
  for (int ordinal = 0; ordinal < deviceCount(); ++ordinal) {
    Context ctx(ordinal);
    Stream stream(ctx);
    checkScale(ctx, stream, 1);
    checkScale(ctx, stream, 100003);
  }
}

TEST(KernelWrappers, LoadOnceFromManyThreads) {
  REQUIRE_GPU();
  // The first launches on a device race to load its cubin; each thread has
  // a stream of its own.
  Context ctx(0);
  std::vector<std::thread> threads;
  std::vector<std::string> failures(4);
  for (size_t t = 0; t < failures.size(); ++t)
    threads.emplace_back([&, t] {
      try {
        Stream stream(ctx);
        for (int i = 0; i < 20; ++i)
          checkScale(ctx, stream, 3000 + int64_t(t));
      } catch (const Error &e) {
        failures[t] = e.what();
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &failure : failures)
    EXPECT_EQ(failure, "");
  // One module and kernel per device, whichever thread loaded it.
  EXPECT_EQ(&test_kernels::tilec_embedded().kernel(Stream(ctx), 0),
            &test_kernels::tilec_embedded().kernel(Stream(ctx), "scale"));
}

TEST(KernelWrappers, LaunchOnAWrappedStream) {
  REQUIRE_GPU();
  Context ctx(0);
  Stream own(ctx);
  // As a framework's stream would be given: only its handle.
  checkScale(ctx, Stream::wrap(ctx, own.handle()), 5000);
  checkScale(ctx, Stream::wrap(ctx, nullptr), 5000);
  EXPECT_TRUE(own.owned());
}

TEST(KernelWrappers, PassScalarsOfEveryKind) {
  REQUIRE_GPU();
  Context ctx(0);
  Stream stream(ctx);
  // add_rows: an i32 offset added to the first `rows` (i64) rows.
  const int64_t rows = 37, cols = 300;
  std::vector<int32_t> x(rows * cols);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = int32_t(i);
  DeviceBuffer dx = DeviceBuffer::fromHost(ctx, x);
  test_kernels::add_rows(stream, dx.view<int32_t>({rows, cols}), -7,
                         int64_t(20));
  stream.synchronize();
  std::vector<int32_t> got = dx.download<int32_t>();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      ASSERT_EQ(got[r * cols + c], int32_t(r * cols + c) - (r < 20 ? 7 : 0))
          << r << ", " << c;

  // add_f16: an f16 scalar.
  const int64_t n = 1500;
  std::vector<Half> h(n);
  for (int64_t i = 0; i < n; ++i)
    h[i] = Half{toHalf(float(i % 64))};
  DeviceBuffer dh = DeviceBuffer::fromHost(ctx, h);
  DeviceBuffer dout(ctx, n * sizeof(Half));
  test_kernels::add_f16(stream, Half{toHalf(0.5f)}, dh.view<Half>({n}),
                        dout.view<Half>({n}));
  stream.synchronize();
  std::vector<Half> out = dout.download<Half>();
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i].bits, toHalf(float(i % 64) + 0.5f)) << i;
}

TEST(KernelWrappers, LaunchAMatmulWithItsVariants) {
  REQUIRE_GPU();
  Context ctx(0);
  Stream stream(ctx);
  // Small integers: every product and sum is exact in f32, and C is rounded
  // to bf16 once. K = 64 lets TMA describe the operands; K = 70 does not
  // (the fallback). A 200x136 C makes the small-grid kernel run, which
  // splits K in runs of 512 where that makes 4 or more: 2112 = 33 steps of
  // 64 in 5 splits (TMA), 2054 in 5 splits (the fallback); 1088 (3 runs)
  // unsplit; 0 in none (C is zero: the main kernel).
  for (int64_t k : {64, 70, 1088, 2112, 2054, 0}) {
    const int64_t m = 200, n = 136;
    std::vector<BFloat16> a(m * k), bt(n * k);
    for (int64_t i = 0; i < m * k; ++i)
      a[i] = BFloat16{toBf16(float(i % 2))};
    for (int64_t i = 0; i < n * k; ++i)
      bt[i] = BFloat16{toBf16(float(i % 3))};
    // Empty operands still need an allocation to point at.
    DeviceBuffer da = DeviceBuffer::fromHost(ctx, k ? a : std::vector<BFloat16>(1));
    DeviceBuffer db = DeviceBuffer::fromHost(ctx, k ? bt : std::vector<BFloat16>(1));
    // C poisoned: every element must be written.
    DeviceBuffer dc = DeviceBuffer::fromHost(
        ctx, std::vector<BFloat16>(m * n, BFloat16{toBf16(-7.0f)}));
    matmul::mm_bf16_bf16_rc(stream, da.view<BFloat16>({m, k}),
                            db.view<BFloat16>({n, k}),
                            dc.view<BFloat16>({m, n}));
    stream.synchronize();
    std::vector<BFloat16> c = dc.download<BFloat16>();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float want = 0;
        for (int64_t l = 0; l < k; ++l)
          want += float((i * k + l) % 2) * float((j * k + l) % 3);
        ASSERT_EQ(fromBf16(c[i * n + j].bits), fromBf16(toBf16Nearest(want)))
            << "k = " << k << ", " << i << ", " << j;
      }
  }
}

TEST(KernelWrappers, CheckArgumentsAtLaunch) {
  REQUIRE_GPU();
  Context ctx(0);
  Stream stream(ctx);
  DeviceBuffer buf(ctx, 4096);
  // A rank the kernel does not take: the runtime's error, naming the kernel.
  try {
    test_kernels::scale(stream, 1.0f, buf.view<float>({16, 16}),
                        buf.view<float>({256}));
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.kernel(), "scale");
    EXPECT_NE(std::string(e.what()).find("argument 1 expects buffer:f32:1"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
