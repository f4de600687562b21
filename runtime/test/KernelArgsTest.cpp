//===- KernelArgsTest.cpp - Argument checks, grids and packing ------------===//

#include "TestKernels.h"
#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/KernelArgs.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tilec;
using namespace tilec::rt;

namespace {

using Grid = std::array<uint64_t, 3>;

// Device addresses are never dereferenced here: any aligned value will do.
constexpr CUdeviceptr kX = 0x10000, kY = 0x20000, kOut = 0x30000;

TensorView vec(CUdeviceptr data, int64_t n, ScalarType t = ScalarType::F32) {
  return TensorView::contiguous(data, t, {n});
}
TensorView mat(CUdeviceptr data, int64_t rows, int64_t cols,
               ScalarType t = ScalarType::F32) {
  return TensorView::contiguous(data, t, {rows, cols});
}
/// An argument for iota2d, which takes an i32 matrix.
TensorView imat(CUdeviceptr data, int64_t rows, int64_t cols) {
  return mat(data, rows, cols, ScalarType::I32);
}

LaunchMetadata parse(const char *text) {
  std::string error;
  std::optional<LaunchMetadata> m = parseLaunchMetadata(text, &error);
  EXPECT_TRUE(m) << error;
  return m.value_or(LaunchMetadata{});
}

/// Runs `fn`, expecting an Error whose message is exactly `message`.
template <typename Fn> void expectError(Fn fn, const std::string &message) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const Error &e) {
    EXPECT_EQ(std::string(e.what()), message);
    EXPECT_FALSE(e.isDriverError());
  }
}

std::vector<KernelArg> saxpyArgs(int64_t n) {
  return {2.0f, vec(kX, n), vec(kY, n), vec(kOut, n)};
}

//===----------------------------------------------------------------------===//
// Grids
//===----------------------------------------------------------------------===//

TEST(Grid, CeilDividesRaggedSizes) {
  LaunchMetadata m = test::saxpyMetadata();
  EXPECT_EQ(computeGrid(m, saxpyArgs(1)), (Grid{1, 1, 1}));
  EXPECT_EQ(computeGrid(m, saxpyArgs(255)), (Grid{1, 1, 1}));
  EXPECT_EQ(computeGrid(m, saxpyArgs(256)), (Grid{1, 1, 1}));
  EXPECT_EQ(computeGrid(m, saxpyArgs(257)), (Grid{2, 1, 1}));
  EXPECT_EQ(computeGrid(m, saxpyArgs((1 << 20) + 7)), (Grid{4097, 1, 1}));
}

TEST(Grid, ZeroSizeMeansNoBlocks) {
  EXPECT_EQ(computeGrid(test::saxpyMetadata(), saxpyArgs(0)), (Grid{0, 1, 1}));
  LaunchMetadata m = test::iota2dMetadata();
  EXPECT_EQ(computeGrid(m, {imat(kOut, 0, 100)}), (Grid{4, 0, 1}));
  EXPECT_EQ(computeGrid(m, {imat(0, 100, 0)}), (Grid{0, 13, 1}));
}

TEST(Grid, UsesEachDimensionOfItsBuffer) {
  LaunchMetadata m = test::iota2dMetadata(); // x: cols / 32, y: rows / 8
  EXPECT_EQ(computeGrid(m, {imat(kOut, 1, 1)}), (Grid{1, 1, 1}));
  EXPECT_EQ(computeGrid(m, {imat(kOut, 7, 31)}), (Grid{1, 1, 1}));
  EXPECT_EQ(computeGrid(m, {imat(kOut, 1000, 1003)}), (Grid{32, 125, 1}));
  EXPECT_EQ(computeGrid(m, {imat(kOut, 1001, 1024)}), (Grid{32, 126, 1}));
}

TEST(Grid, MultipliesTermsAndReadsScalars) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\n"
                           "params buffer:f32:3 scalar:i64 scalar:i32\n"
                           "block 128 1 1\ngrid 0.2/64*0.1/16 1/10 2/3\n");
  auto grid = [&](int64_t n, int32_t heads) {
    return computeGrid(m, {TensorView::contiguous(kX, ScalarType::F32,
                                                  {4, 33, 100}),
                           n, heads});
  };
  // x = ceil(100/64) * ceil(33/16) = 2 * 3, y = ceil(n/10), z = ceil(h/3).
  EXPECT_EQ(grid(10, 3), (Grid{6, 1, 1}));
  EXPECT_EQ(grid(11, 7), (Grid{6, 2, 3}));
  EXPECT_EQ(grid(0, 7), (Grid{6, 0, 3}));
  expectError([&] { grid(-1, 1); },
              "kernel 'k': grid extent argument 1 is negative (-1)");
}

TEST(Grid, RejectsDimensionsBeyondCudaLimits) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\nparams scalar:i64\n"
                           "block 32 1 1\ngrid 0/1 0/1 -\n");
  EXPECT_EQ(computeGrid(m, {int64_t(65535)}), (Grid{65535, 65535, 1}));
  expectError([&] { computeGrid(m, {int64_t(65536)}); },
              "kernel 'k': grid dimension y = 65536 exceeds the CUDA limit "
              "of 65535");
  LaunchMetadata x = parse("tilec-launch 1\nkernel k\nparams scalar:i64\n"
                           "block 32 1 1\ngrid 0/2 - -\n");
  EXPECT_EQ(computeGrid(x, {int64_t(4294967294)}),
            (Grid{2147483647, 1, 1}));
  expectError([&] { computeGrid(x, {int64_t(4294967296)}); },
              "kernel 'k': grid dimension x = 2147483648 exceeds the CUDA "
              "limit of 2147483647");
  // Products that overflow 64 bits are too large, not small.
  LaunchMetadata big = parse("tilec-launch 1\nkernel k\nparams scalar:i64\n"
                             "block 32 1 1\ngrid 0/1*0/1*0/1 - -\n");
  EXPECT_THROW(computeGrid(big, {int64_t(1) << 62}), Error);
}

TEST(Grid, ZeroWinsOverAnOversizedDimension) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\n"
                           "params scalar:i64 scalar:i64\nblock 32 1 1\n"
                           "grid 0/1 1/1 -\n");
  EXPECT_EQ(computeGrid(m, {int64_t(0), int64_t(1) << 40}),
            (Grid{0, uint64_t(1) << 40, 1}));
}

TEST(Grid, NeedsIntegerScalars) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\nparams scalar:f32\n"
                           "block 32 1 1\ngrid 0/1 - -\n");
  expectError([&] { computeGrid(m, {1.0f}); },
              "kernel 'k': grid extent argument 0 is not an integer");
}

//===----------------------------------------------------------------------===//
// Argument checks
//===----------------------------------------------------------------------===//

TEST(Arguments, AcceptsMatchingValues) {
  EXPECT_NO_THROW(validateArguments(test::saxpyMetadata(), saxpyArgs(10)));
  EXPECT_NO_THROW(validateArguments(
      test::fillMetadata(), {int64_t(5), 1.0f, vec(kOut, 5)}));
}

TEST(Arguments, NamesTheKernelAndIndex) {
  LaunchMetadata m = test::saxpyMetadata();
  expectError([&] { validateArguments(m, {2.0f, 3, vec(kY, 4), vec(kOut, 4)}); },
              "kernel 'saxpy': argument 1 expects buffer:f32:1, got scalar:i32");
  expectError(
      [&] { validateArguments(m, {2.0, vec(kX, 4), vec(kY, 4), vec(kOut, 4)}); },
      "kernel 'saxpy': argument 0 expects scalar:f32, got scalar:f64");
  expectError(
      [&] {
        validateArguments(m, {2.0f, vec(kX, 4, ScalarType::F16), vec(kY, 4),
                              vec(kOut, 4)});
      },
      "kernel 'saxpy': argument 1 expects buffer:f32:1, got buffer:f16:1");
  expectError(
      [&] {
        validateArguments(m, {2.0f, vec(kX, 4), mat(kY, 2, 2), vec(kOut, 4)});
      },
      "kernel 'saxpy': argument 2 expects buffer:f32:1, got buffer:f32:2");
  expectError([&] { validateArguments(m, {2.0f, vec(kX, 4), vec(kY, 4)}); },
              "kernel 'saxpy': expects 4 arguments, got 3");
  expectError(
      [&] {
        validateArguments(test::fillMetadata(), {5, 1.0f, vec(kOut, 5)});
      },
      "kernel 'fill': argument 0 expects scalar:i64, got scalar:i32");
}

TEST(Arguments, ChecksBufferViews) {
  LaunchMetadata m = test::saxpyMetadata();
  expectError(
      [&] { validateArguments(m, {2.0f, vec(0, 4), vec(kY, 4), vec(kOut, 4)}); },
      "kernel 'saxpy': argument 1 is a null buffer with 4 elements");
  // An empty view may be null.
  EXPECT_NO_THROW(
      validateArguments(m, {2.0f, vec(0, 0), vec(0, 0), vec(0, 0)}));
  TensorView negative = vec(kX, 4);
  negative.sizes[0] = -4;
  expectError(
      [&] { validateArguments(m, {2.0f, negative, vec(kY, 4), vec(kOut, 4)}); },
      "kernel 'saxpy': argument 1 has negative size -4 in dimension 0");
  expectError(
      [&] {
        validateArguments(m, {2.0f, vec(kX + 2, 4), vec(kY, 4), vec(kOut, 4)});
      },
      "kernel 'saxpy': argument 1 is not aligned to its element size");
  TensorView deep = vec(kX, 4);
  deep.rank = 9;
  expectError(
      [&] { validateArguments(m, {2.0f, deep, vec(kY, 4), vec(kOut, 4)}); },
      "kernel 'saxpy': argument 1 has rank 9, more than the supported 8");
}

TEST(Arguments, DescribeInTheMetadataSpelling) {
  EXPECT_EQ(KernelArg(1.0f).describe(), "scalar:f32");
  EXPECT_EQ(KernelArg(int64_t(1)).describe(), "scalar:i64");
  EXPECT_EQ(KernelArg(bf16Bits(0x3f80)).describe(), "scalar:bf16");
  EXPECT_EQ(KernelArg(mat(kX, 2, 3)).describe(), "buffer:f32:2");
}

TEST(TensorView, ContiguousIsRowMajor) {
  TensorView v = TensorView::contiguous(kX, ScalarType::F16, {2, 3, 4});
  EXPECT_EQ(v.rank, 3u);
  EXPECT_EQ(v.numElements(), 24);
  EXPECT_EQ(v.strides[0], 12);
  EXPECT_EQ(v.strides[1], 4);
  EXPECT_EQ(v.strides[2], 1);
  TensorView empty = TensorView::contiguous(kX, ScalarType::F32, {3, 0, 5});
  EXPECT_EQ(empty.numElements(), 0);
  EXPECT_EQ(empty.strides[0], 5);
  EXPECT_THROW(TensorView::contiguous(kX, ScalarType::F32,
                                      {1 << 30, 1 << 30, 1 << 30}),
               Error);
  TensorView huge = TensorView::contiguous(kX, ScalarType::F32, {1, 1, 1});
  huge.sizes = {1 << 30, 1 << 30, 1 << 30};
  EXPECT_EQ(huge.numElements(), INT64_MAX); // saturates, does not wrap
  EXPECT_THROW(TensorView::contiguous(kX, ScalarType::F32, {-1}), Error);
  EXPECT_THROW(TensorView::contiguous(kX, ScalarType::F32,
                                      std::vector<int64_t>(9, 1)),
               Error);
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

uint64_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

TEST(Packing, ExpandsBuffersIntoMemrefDescriptors) {
  PackedArgs p = packArguments(test::saxpyMetadata(), saxpyArgs(1000));
  // alpha, then (allocated, aligned, offset, size, stride) per buffer.
  std::vector<uint64_t> expected = {bitsOf(2.0f),
                                    kX,   kX,   0, 1000, 1,
                                    kY,   kY,   0, 1000, 1,
                                    kOut, kOut, 0, 1000, 1};
  EXPECT_EQ(p.slots, expected);
  std::vector<unsigned> sizes(16, 8);
  sizes[0] = 4;
  EXPECT_EQ(p.sizes, sizes);
  std::vector<void *> ptrs = p.pointers();
  ASSERT_EQ(ptrs.size(), 16u);
  EXPECT_EQ(*static_cast<float *>(ptrs[0]), 2.0f);
  EXPECT_EQ(*static_cast<uint64_t *>(ptrs[4]), 1000u);
}

TEST(Packing, LaysOutSizesThenStrides) {
  PackedArgs p = packArguments(test::iota2dMetadata(), {imat(kOut, 7, 31)});
  EXPECT_EQ(p.slots,
            (std::vector<uint64_t>{kOut, kOut, 0, 7, 31, 31, 1}));
}

TEST(Packing, KeepsScalarWidthsAndSigns) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\n"
                           "params scalar:i32 scalar:i64 scalar:f64 "
                           "scalar:f16 scalar:bf16 scalar:i16\n"
                           "block 1 1 1\ngrid - - -\n");
  PackedArgs p = packArguments(
      m, {int32_t(-2), int64_t(-3), 1.5, f16Bits(0x3c00), bf16Bits(0x3f80),
          Raw16{ScalarType::I16, 0xffff}});
  EXPECT_EQ(p.sizes, (std::vector<unsigned>{4, 8, 8, 2, 2, 2}));
  EXPECT_EQ(static_cast<uint32_t>(p.slots[0]), 0xfffffffeu);
  EXPECT_EQ(static_cast<int64_t>(p.slots[1]), -3);
  double d;
  std::memcpy(&d, &p.slots[2], 8);
  EXPECT_EQ(d, 1.5);
  EXPECT_EQ(p.slots[3], 0x3c00u);
  EXPECT_EQ(p.slots[4], 0x3f80u);
  EXPECT_EQ(p.slots[5], 0xffffu);
}

TEST(Packing, ValidatesFirst) {
  EXPECT_THROW(packArguments(test::saxpyMetadata(), {1.0f}), Error);
}

} // namespace
