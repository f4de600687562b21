//===- EmbeddedKernelsTest.cpp - What generated kernel wrappers stand on --===//
//
// No GPU needed: picking a cubin for a compute capability, the errors of a
// device without one, typed views and 16-bit scalars, and the shape of
// Stream::wrap (its launches are tested in GpuTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/EmbeddedKernels.h"
#include "tilec/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

using namespace tilec;
using namespace tilec::rt;

namespace {

TEST(CubinArch, Parses) {
  std::optional<CubinArch> a = CubinArch::parse("sm_80");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->major, 8);
  EXPECT_EQ(a->minor, 0);
  EXPECT_EQ(a->suffix, '\0');
  a = CubinArch::parse("sm_90a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->major, 9);
  EXPECT_EQ(a->suffix, 'a');
  a = CubinArch::parse("sm_100f");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->major, 10);
  EXPECT_EQ(a->minor, 0);
  EXPECT_EQ(a->suffix, 'f');
  a = CubinArch::parse("sm_86");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->minor, 6);
  for (const char *bad : {"", "sm_", "sm_8", "sm_08", "sm_9x", "compute_90",
                          "sm_90b", "sm_1000", "SM_90", "sm_90aa"})
    EXPECT_FALSE(CubinArch::parse(bad)) << bad;
}

TEST(CubinArch, RunsOnItsMajorVersion) {
  CubinArch sm80 = *CubinArch::parse("sm_80");
  EXPECT_TRUE(sm80.runsOn(8, 0));
  EXPECT_TRUE(sm80.runsOn(8, 9));
  EXPECT_FALSE(sm80.runsOn(9, 0));
  EXPECT_FALSE(sm80.runsOn(7, 5));
  CubinArch sm86 = *CubinArch::parse("sm_86");
  EXPECT_FALSE(sm86.runsOn(8, 0));
  EXPECT_TRUE(sm86.runsOn(8, 9));
  CubinArch sm90a = *CubinArch::parse("sm_90a");
  EXPECT_TRUE(sm90a.runsOn(9, 0));
  EXPECT_FALSE(sm90a.runsOn(9, 1));
  EXPECT_FALSE(sm90a.runsOn(10, 0));
  CubinArch sm100f = *CubinArch::parse("sm_100f");
  EXPECT_TRUE(sm100f.runsOn(10, 3));
  EXPECT_FALSE(sm100f.runsOn(12, 0));
}

TEST(SelectCubin, PicksTheBestThatRuns) {
  std::vector<std::string> archs = {"sm_80", "sm_90a"};
  EXPECT_EQ(selectCubin(archs, 9, 0), 1u);
  EXPECT_EQ(selectCubin(archs, 8, 0), 0u);
  EXPECT_EQ(selectCubin(archs, 8, 6), 0u);
  EXPECT_EQ(selectCubin(archs, 8, 9), 0u);
  EXPECT_FALSE(selectCubin(archs, 10, 0));
  EXPECT_FALSE(selectCubin(archs, 12, 0));
  EXPECT_FALSE(selectCubin(archs, 7, 5));
  // The highest minor that runs; an exact 'a' before a plain one.
  EXPECT_EQ(selectCubin({"sm_80", "sm_86", "sm_89"}, 8, 7), 1u);
  EXPECT_EQ(selectCubin({"sm_80", "sm_86", "sm_89"}, 8, 9), 2u);
  EXPECT_EQ(selectCubin({"sm_90", "sm_90a"}, 9, 0), 1u);
  EXPECT_EQ(selectCubin({"sm_90a", "sm_90"}, 9, 0), 0u);
  EXPECT_EQ(selectCubin({"sm_80"}, 8, 0), 0u);
  EXPECT_FALSE(selectCubin({}, 9, 0));
  EXPECT_FALSE(selectCubin({"sm_80", "bogus"}, 8, 0));
}

const unsigned char kFakeBytes[] = {1, 2, 3};

Device fakeDevice(int major, int minor) {
  Device d;
  d.ordinal = 3;
  d.name = "Fake GPU";
  d.ccMajor = major;
  d.ccMinor = minor;
  return d;
}

TEST(EmbeddedKernels, PicksACubinPerDevice) {
  const EmbeddedCubin cubins[] = {{"sm_80", kFakeBytes, 1},
                                  {"sm_90a", kFakeBytes, 3}};
  const char *const kernels[] = {"first", "second"};
  EmbeddedKernels embedded("fake.mlir", cubins, 2, kernels, 2);
  EXPECT_EQ(embedded.source(), "fake.mlir");
  EXPECT_EQ(embedded.archList(), "sm_80, sm_90a");
  EXPECT_EQ(embedded.kernelNames(),
            (std::vector<std::string>{"first", "second"}));
  ASSERT_EQ(embedded.cubins().size(), 2u);
  EXPECT_EQ(embedded.cubins()[1].bytes(), std::string("\1\2\3", 3));
  EXPECT_STREQ(embedded.cubinFor(fakeDevice(9, 0)).arch, "sm_90a");
  EXPECT_STREQ(embedded.cubinFor(fakeDevice(8, 6)).arch, "sm_80");
  try {
    embedded.cubinFor(fakeDevice(12, 0));
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "the kernels of fake.mlir have no cubin for device 3 (Fake "
              "GPU, compute capability 12.0): they were compiled for sm_80, "
              "sm_90a (the ARCHS of tilec_add_kernels)");
    EXPECT_FALSE(e.isDriverError());
  }
}

// Stream::wrap gives a non-owning Stream; launching on one needs a GPU
// (GpuTest.cpp: LaunchesOnAWrappedStreamAndLeavesItAlone).
static_assert(std::is_same_v<decltype(&Stream::wrap),
                             Stream (*)(const Context &, CUstream)>);
static_assert(std::is_nothrow_move_constructible_v<Stream>);
static_assert(!std::is_copy_constructible_v<Stream>);
static_assert(std::is_same_v<decltype(std::declval<const DeviceBuffer &>()
                                          .view<float>({1})),
                             TypedView<float>>);

TEST(TypedView, IsATensorViewOfItsElementType) {
  static_assert(std::is_base_of_v<TensorView, TypedView<Half>>);
  static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2);
  EXPECT_EQ(TypedView<float>().type, ScalarType::F32);
  EXPECT_EQ(TypedView<Half>().type, ScalarType::F16);
  EXPECT_EQ(TypedView<BFloat16>().type, ScalarType::BF16);
  EXPECT_EQ(TypedView<bool>().type, ScalarType::I1);
  EXPECT_EQ(TypedView<int8_t>().type, ScalarType::I8);

  TypedView<BFloat16> v = TypedView<BFloat16>::contiguous(256, {4, 8});
  EXPECT_EQ(v.data, 256u);
  EXPECT_EQ(v.rank, 2u);
  EXPECT_EQ(v.strides[0], 8);
  EXPECT_EQ(KernelArg(v).describe(), "buffer:bf16:2");

  TensorView untyped = TensorView::contiguous(512, ScalarType::F32, {10});
  EXPECT_EQ(TypedView<float>(untyped).sizes[0], 10);
  try {
    TypedView<int32_t> wrong(untyped);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()),
              "a view of f32 elements used as a view of i32");
  }
  // Where a vector of arguments is built, a typed view is one too.
  std::vector<KernelArg> args = {TypedView<float>(untyped), 2.0f};
  EXPECT_EQ(args[0].describe(), "buffer:f32:1");
}

TEST(KernelArg, Takes16BitFloats) {
  KernelArg h(Half{0x3c00});
  EXPECT_EQ(h.describe(), "scalar:f16");
  EXPECT_EQ(std::get<Raw16>(h.value()).bits, 0x3c00);
  KernelArg b(BFloat16{0x3f80});
  EXPECT_EQ(b.describe(), "scalar:bf16");
  EXPECT_EQ(std::get<Raw16>(b.value()).bits, 0x3f80);
}

} // namespace
