//===- KernelArgsTest.cpp - Argument checks, grids and packing ------------===//

#include "TestKernels.h"
#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/KernelArgs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

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

// A buffer whose layout fixes strides (memref<?x?xf32> reads rows
// contiguously) takes only views with those strides: the kernel would read
// any other as if it had them. Dimensions of one element are never stepped
// over, and `?` strides are the view's.
TEST(Arguments, RejectViewsWithStridesTheKernelDoesNotRead) {
  LaunchMetadata m;
  m.kernel = "rows";
  m.params = {{ParamInfo::Kind::Buffer, ScalarType::F32, 2, {ParamInfo::kDynamicStride, 1}},
              {ParamInfo::Kind::Buffer, ScalarType::F32, 3, {ParamInfo::kDynamicStride, 8, 1}}};
  m.block = {128, 1, 1};
  m.grid[0] = {GridTerm{0, 0, 1}};
  auto view = [](unsigned rank, std::vector<int64_t> sizes,
                 std::vector<int64_t> strides) {
    TensorView v = TensorView::contiguous(kX, ScalarType::F32, sizes);
    for (unsigned d = 0; d < rank; ++d)
      v.strides[d] = strides[d];
    return v;
  };
  TensorView cube = view(3, {2, 4, 8}, {64, 8, 1});
  EXPECT_NO_THROW(validateArguments(m, {view(2, {3, 4}, {4, 1}), cube}));
  EXPECT_NO_THROW(validateArguments(m, {view(2, {3, 4}, {100, 1}), cube}));
  EXPECT_NO_THROW(validateArguments(m, {view(2, {3, 4}, {0, 1}), cube}));
  EXPECT_NO_THROW(validateArguments(m, {view(2, {3, 1}, {4, 7}), cube}));
  EXPECT_NO_THROW(
      validateArguments(m, {view(2, {3, 4}, {4, 1}), view(3, {2, 1, 8}, {8, 3, 1})}));
  expectError(
      [&] { validateArguments(m, {view(2, {3, 4}, {8, 2}), cube}); },
      "kernel 'rows': argument 0 has stride 2 in dimension 1; the kernel "
      "reads it with stride 1 (its buffer's layout)");
  expectError(
      [&] {
        validateArguments(m, {view(2, {3, 4}, {4, 1}), view(3, {2, 4, 8}, {64, 16, 1})});
      },
      "kernel 'rows': argument 1 has stride 16 in dimension 1; the kernel "
      "reads it with stride 8 (its buffer's layout)");
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

TEST(Packing, PassesTensorMapsAfterTheUserParameters) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\n"
                           "params buffer:bf16:2 buffer:bf16:2 scalar:i32\n"
                           "tensormaps 0:64x128:128 1:64x64:128\n"
                           "block 128 1 1\ngrid - - -\n");
  PackedArgs p = packArguments(
      m, {mat(kX, 256, 64, ScalarType::BF16),
          mat(kY, 64, 256, ScalarType::BF16), int32_t(7)});
  // The runtime encodes the maps; packing leaves room for them only.
  EXPECT_TRUE(p.tensorMaps.empty());
  ASSERT_EQ(p.slots.size(), 15u);
  p.tensorMaps.resize(2);
  p.tensorMaps[0].opaque[0] = 0xaaaa;
  p.tensorMaps[1].opaque[15] = 0xbbbb;
  std::vector<void *> ptrs = p.pointers();
  ASSERT_EQ(ptrs.size(), 17u);
  EXPECT_EQ(*static_cast<int32_t *>(ptrs[14]), 7);
  EXPECT_EQ(ptrs[15], &p.tensorMaps[0]);
  EXPECT_EQ(ptrs[16], &p.tensorMaps[1]);
  for (int i : {15, 16})
    EXPECT_EQ(reinterpret_cast<uintptr_t>(ptrs[i]) % 64, 0u) << i;
  EXPECT_EQ(static_cast<CUtensorMap *>(ptrs[15])->opaque[0], 0xaaaau);
  EXPECT_EQ(static_cast<CUtensorMap *>(ptrs[16])->opaque[15], 0xbbbbu);
  static_assert(sizeof(CUtensorMap) == 128, "the ABI passes 128 bytes");
}

TEST(Packing, PassesScratchAfterTheUserParametersAndBeforeTensorMaps) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\n"
                           "params buffer:bf16:2 buffer:bf16:2 scalar:i32\n"
                           "tensormaps 0:64x128:128 1:64x64:128\n"
                           "scratch 16 4\n"
                           "block 128 1 1\ngrid - - -\n");
  constexpr CUdeviceptr kScratch = 0x40000;
  PackedArgs p = packArguments(
      m,
      {mat(kX, 256, 64, ScalarType::BF16), mat(kY, 64, 256, ScalarType::BF16),
       int32_t(7)},
      ScratchBuffer{kScratch, 21});
  // 7 + 7 + 1 user slots, then the scratch buffer as a rank-1 i32 memref:
  // allocated, aligned, offset 0, 21 words, stride 1.
  ASSERT_EQ(p.slots.size(), 20u);
  EXPECT_EQ(std::vector<uint64_t>(p.slots.begin() + 15, p.slots.end()),
            (std::vector<uint64_t>{kScratch, kScratch, 0, 21, 1}));
  EXPECT_EQ(static_cast<int32_t>(p.slots[14]), 7);
  EXPECT_EQ(p.sizes.size(), 20u);
  EXPECT_EQ(std::vector<unsigned>(p.sizes.begin() + 15, p.sizes.end()),
            std::vector<unsigned>(5, 8));
  EXPECT_TRUE(p.tensorMaps.empty());
  p.tensorMaps.resize(2);
  std::vector<void *> ptrs = p.pointers();
  ASSERT_EQ(ptrs.size(), 22u);
  EXPECT_EQ(*static_cast<int32_t *>(ptrs[14]), 7);
  for (int i = 15; i < 20; ++i)
    EXPECT_EQ(ptrs[i], &p.slots[i]) << i;
  EXPECT_EQ(*static_cast<uint64_t *>(ptrs[15]), kScratch);
  EXPECT_EQ(*static_cast<uint64_t *>(ptrs[18]), 21u);
  EXPECT_EQ(ptrs[20], &p.tensorMaps[0]);
  EXPECT_EQ(ptrs[21], &p.tensorMaps[1]);
}

TEST(Packing, PassesScratchLastWithoutTensorMaps) {
  LaunchMetadata m = test::saxpyMetadata();
  m.scratch = {0, 8};
  PackedArgs p = packArguments(m, saxpyArgs(1000), ScratchBuffer{kOut, 8});
  ASSERT_EQ(p.slots.size(), 21u);
  EXPECT_EQ(p.slots[15], 1u); // the last user slot: out's stride
  EXPECT_EQ(std::vector<uint64_t>(p.slots.begin() + 16, p.slots.end()),
            (std::vector<uint64_t>{kOut, kOut, 0, 8, 1}));
  EXPECT_EQ(p.pointers().size(), 21u);
}

TEST(Packing, InsistsOnScratchExactlyWhereTheMetadataAsksForIt) {
  LaunchMetadata m = test::saxpyMetadata();
  expectError([&] { packArguments(m, saxpyArgs(4), ScratchBuffer{kOut, 4}); },
              "kernel 'saxpy': takes no scratch buffer but was given one");
  m.scratch = {16, 0};
  expectError([&] { packArguments(m, saxpyArgs(4)); },
              "kernel 'saxpy': needs a scratch buffer and none was given");
  expectError(
      [&] {
        packArguments(m, saxpyArgs(4), ScratchBuffer{kOut, uint64_t(1) << 63});
      },
      "kernel 'saxpy': a scratch buffer of 9223372036854775808 words does "
      "not fit in an i64 size");
  // Arguments are still validated first.
  expectError([&] { packArguments(m, {1.0f}, ScratchBuffer{kOut, 4}); },
              "kernel 'saxpy': expects 4 arguments, got 1");
}

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

TensorMapRequest
request(const std::variant<TensorMapRequest, std::string> &described) {
  if (const auto *why = std::get_if<std::string>(&described)) {
    ADD_FAILURE() << "not describable: " << *why;
    return {};
  }
  return std::get<TensorMapRequest>(described);
}

/// The reason why `view` cannot be described, "" if it can.
std::string reason(const TensorMapInfo &info, const TensorView &view) {
  auto described = describeTensorMap(info, view);
  if (const auto *why = std::get_if<std::string>(&described))
    return *why;
  return {};
}

const TensorMapInfo kBf16Tile{0, {64, 128}, 128};
constexpr CUdeviceptr kAligned = 0x7f0000000000;

TEST(TensorMap, DescribesAContiguousMatrixInnermostFirst) {
  TensorView a = mat(kAligned, 1000, 1024, ScalarType::BF16);
  TensorMapRequest r = request(describeTensorMap(kBf16Tile, a));
  EXPECT_EQ(r.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(r.rank, 2u);
  EXPECT_EQ(r.address, kAligned);
  EXPECT_EQ(r.globalDim, (std::array<cuuint64_t, 5>{1024, 1000, 0, 0, 0}));
  EXPECT_EQ(r.globalStrides, (std::array<cuuint64_t, 4>{2048, 0, 0, 0}));
  EXPECT_EQ(r.boxDim, (std::array<cuuint32_t, 5>{64, 128, 0, 0, 0}));
  EXPECT_EQ(r.elementStrides, (std::array<cuuint32_t, 5>{1, 1, 0, 0, 0}));
  EXPECT_EQ(r.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(r.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  // The box's rows are 128 bytes of the matrix's 2048.
  EXPECT_EQ(r.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  EXPECT_EQ(r.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

TEST(TensorMap, FitsABoxDimensionToTheViewInPartsOfEightRows) {
  TensorMapInfo fitted{0, {64, 64}, 128};
  fitted.fitDim = 1;
  auto boxRows = [&](int64_t rows) {
    TensorView a = mat(kAligned, rows, 4096, ScalarType::BF16);
    return request(describeTensorMap(fitted, a)).boxDim[1];
  };
  EXPECT_EQ(boxRows(1), 8u);
  EXPECT_EQ(boxRows(3), 8u);
  EXPECT_EQ(boxRows(8), 8u);
  EXPECT_EQ(boxRows(9), 16u);
  EXPECT_EQ(boxRows(17), 24u);
  EXPECT_EQ(boxRows(57), 64u);
  EXPECT_EQ(boxRows(64), 64u);
  // Never past the box: a longer view is copied a whole box at a time.
  EXPECT_EQ(boxRows(65), 64u);
  EXPECT_EQ(boxRows(int64_t(1) << 31), 64u);
  // The columns are never fitted, and an unfitted box is the box.
  TensorView a = mat(kAligned, 3, 4096, ScalarType::BF16);
  EXPECT_EQ(request(describeTensorMap(fitted, a)).boxDim[0], 64u);
  EXPECT_EQ(request(describeTensorMap({0, {64, 64}, 128}, a)).boxDim[1], 64u);
  // A 3-D view fitted along its middle dimension (rows_dim 1 of a copy).
  TensorMapInfo middle{0, {64, 32, 1}, 128};
  middle.fitDim = 1;
  TensorView v =
      TensorView::contiguous(kAligned, ScalarType::BF16, {4, 12, 64});
  EXPECT_EQ(request(describeTensorMap(middle, v)).boxDim,
            (std::array<cuuint32_t, 5>{64, 16, 1, 0, 0}));
}

TEST(TensorMap, PromotesL2FetchesNoWiderThanTheBoxRows) {
  TensorView a = mat(kAligned, 1000, 1024, ScalarType::BF16);
  auto promotion = [&](unsigned innerBox) {
    return request(describeTensorMap(TensorMapInfo{0, {innerBox, 8}, 0}, a))
        .l2Promotion;
  };
  EXPECT_EQ(promotion(16), CU_TENSOR_MAP_L2_PROMOTION_NONE);   // 32 bytes
  EXPECT_EQ(promotion(32), CU_TENSOR_MAP_L2_PROMOTION_L2_64B); // 64 bytes
  EXPECT_EQ(promotion(96), CU_TENSOR_MAP_L2_PROMOTION_L2_128B);
  EXPECT_EQ(promotion(128), CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(promotion(256), CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}

TEST(TensorMap, UsesTheViewStridesNotItsSizes) {
  // A 100 x 96 window of a matrix whose rows are 1024 f32 apart.
  TensorView window = mat(kAligned + 64, 100, 96);
  window.strides[0] = 1024;
  TensorMapRequest r =
      request(describeTensorMap(TensorMapInfo{0, {32, 8}, 128}, window));
  EXPECT_EQ(r.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(r.address, kAligned + 64);
  EXPECT_EQ(r.globalDim[0], 96u);
  EXPECT_EQ(r.globalDim[1], 100u);
  EXPECT_EQ(r.globalStrides[0], 4096u);
}

TEST(TensorMap, ReversesHigherRanks) {
  TensorView v = TensorView::contiguous(kAligned, ScalarType::F16, {3, 5, 64});
  TensorMapRequest r =
      request(describeTensorMap(TensorMapInfo{0, {64, 4, 2}, 0}, v));
  EXPECT_EQ(r.rank, 3u);
  EXPECT_EQ(r.globalDim, (std::array<cuuint64_t, 5>{64, 5, 3, 0, 0}));
  // Dimension 1 is 64 elements apart, dimension 2 (outermost) 5 * 64.
  EXPECT_EQ(r.globalStrides, (std::array<cuuint64_t, 4>{128, 640, 0, 0}));
  EXPECT_EQ(r.boxDim, (std::array<cuuint32_t, 5>{64, 4, 2, 0, 0}));
  EXPECT_EQ(r.elementStrides, (std::array<cuuint32_t, 5>{1, 1, 1, 0, 0}));
  EXPECT_EQ(r.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);

  TensorView vec1 = vec(kAligned, 1000);
  TensorMapRequest r1 =
      request(describeTensorMap(TensorMapInfo{0, {256}, 0}, vec1));
  EXPECT_EQ(r1.rank, 1u);
  EXPECT_EQ(r1.globalDim[0], 1000u);
  EXPECT_EQ(r1.globalStrides, (std::array<cuuint64_t, 4>{}));
}

TEST(TensorMap, MapsSwizzlesAndElementTypes) {
  TensorView a = mat(kAligned, 8, 64, ScalarType::BF16);
  EXPECT_EQ(request(describeTensorMap({0, {16, 8}, 32}, a)).swizzle,
            CU_TENSOR_MAP_SWIZZLE_32B);
  EXPECT_EQ(request(describeTensorMap({0, {32, 8}, 64}, a)).swizzle,
            CU_TENSOR_MAP_SWIZZLE_64B);
  struct Case {
    ScalarType type;
    CUtensorMapDataType tma;
  };
  for (Case c : {Case{ScalarType::F16, CU_TENSOR_MAP_DATA_TYPE_FLOAT16},
                 Case{ScalarType::BF16, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16},
                 Case{ScalarType::F32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
                 Case{ScalarType::F64, CU_TENSOR_MAP_DATA_TYPE_FLOAT64},
                 Case{ScalarType::I32, CU_TENSOR_MAP_DATA_TYPE_INT32},
                 Case{ScalarType::I64, CU_TENSOR_MAP_DATA_TYPE_INT64},
                 Case{ScalarType::I8, CU_TENSOR_MAP_DATA_TYPE_UINT8},
                 Case{ScalarType::I16, CU_TENSOR_MAP_DATA_TYPE_UINT16}}) {
    EXPECT_EQ(tensorMapDataType(c.type), c.tma) << scalarTypeName(c.type);
    TensorView v = mat(kAligned, 16, 128, c.type);
    EXPECT_EQ(request(describeTensorMap({0, {16, 16}, 0}, v)).dataType, c.tma)
        << scalarTypeName(c.type);
  }
  EXPECT_EQ(tensorMapDataType(ScalarType::I1), std::nullopt);
  EXPECT_EQ(reason({0, {16, 16}, 0}, mat(kAligned, 16, 128, ScalarType::I1)),
            "TMA has no i1 element type");
}

TEST(TensorMap, RejectsARowPitchThatIsNotAMultipleOf16Bytes) {
  // K = 517 bf16: each row is 1034 bytes.
  EXPECT_EQ(reason(kBf16Tile, mat(kAligned, 1000, 517, ScalarType::BF16)),
            "the stride of dimension 0 (1034 bytes) is not a multiple of 16 "
            "bytes");
  // K = 520 is fine.
  EXPECT_EQ(reason(kBf16Tile, mat(kAligned, 1000, 520, ScalarType::BF16)), "");
}

TEST(TensorMap, RejectsAMisalignedBase) {
  EXPECT_EQ(reason(kBf16Tile, mat(kAligned + 8, 1000, 1024, ScalarType::BF16)),
            "its base address 0x7f0000000008 is not a multiple of 16 bytes");
}

TEST(TensorMap, RejectsANonUnitInnerStride) {
  // The transpose of a contiguous 1024 x 1000 matrix.
  TensorView t = mat(kAligned, 1000, 1024, ScalarType::BF16);
  t.strides = {1, 1000};
  EXPECT_EQ(reason(kBf16Tile, t), "its innermost stride is 1000 elements, not 1");
}

TEST(TensorMap, RejectsSizesAndStridesBeyondTma) {
  TensorView empty = mat(kAligned, 0, 1024, ScalarType::BF16);
  EXPECT_EQ(reason(kBf16Tile, empty),
            "dimension 0 has size 0, not in 1..2^32-1");
  TensorView wide = mat(kAligned, 1, int64_t(1) << 32, ScalarType::I8);
  EXPECT_EQ(reason({0, {16, 1}, 0}, wide),
            "dimension 1 has size 4294967296, not in 1..2^32-1");
  TensorView justBelow = mat(kAligned, 1, (int64_t(1) << 32) - 16,
                             ScalarType::I8);
  EXPECT_EQ(reason({0, {16, 1}, 0}, justBelow), "");
  TensorView far = mat(kAligned, 2, 64, ScalarType::F32);
  far.strides[0] = int64_t(1) << 38; // 2^40 bytes
  EXPECT_EQ(reason({0, {32, 2}, 0}, far),
            "the stride of dimension 0 (274877906944 elements) is not in "
            "1..2^40-1 bytes");
  far.strides[0] = (int64_t(1) << 38) - 4; // 2^40 - 16 bytes
  EXPECT_EQ(reason({0, {32, 2}, 0}, far), "");
  far.strides[0] = -64;
  EXPECT_EQ(reason({0, {32, 2}, 0}, far),
            "the stride of dimension 0 (-64 elements) is not in 1..2^40-1 "
            "bytes");
}

TEST(TensorMap, RejectsARankMismatch) {
  EXPECT_EQ(reason(kBf16Tile, vec(kAligned, 64, ScalarType::BF16)),
            "a rank-2 tensor map cannot describe a rank-1 view");
  TensorView six = TensorView::contiguous(kAligned, ScalarType::F32,
                                          {1, 1, 1, 1, 1, 64});
  EXPECT_EQ(reason({0, {64, 1, 1, 1, 1, 1}, 0}, six),
            "TMA describes 1 to 5 dimensions, not 6");
}

} // namespace

//===----------------------------------------------------------------------===//
// Aligned arguments
//===----------------------------------------------------------------------===//

TEST(AlignedArguments, HoldForStartsAndRowPitchesOfFourBytes) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel mm\n"
                           "params buffer:bf16:2 buffer:bf16:2 scalar:i32\n"
                           "aligned 0 1\nfallback mm__element_copies\n"
                           "block 128 1 1\ngrid - - -\n");
  auto check = [&](TensorView a, TensorView b) {
    return misalignedArgument(m, {a, b, int32_t(0)});
  };
  // K = 4098 and 4100: rows of 8196 and 8200 bytes.
  EXPECT_EQ(check(mat(kX, 64, 4098, ScalarType::BF16),
                  mat(kY, 4098, 64, ScalarType::BF16)),
            std::nullopt);
  EXPECT_EQ(check(mat(kX, 64, 4100, ScalarType::BF16),
                  mat(kY, 4100, 64, ScalarType::BF16)),
            std::nullopt);
  // Odd K: rows of A 2-byte aligned only.
  auto odd = check(mat(kX, 64, 4095, ScalarType::BF16),
                   mat(kY, 4095, 64, ScalarType::BF16));
  ASSERT_TRUE(odd);
  EXPECT_EQ(odd->first, 0u);
  EXPECT_EQ(odd->second,
            "its stride 4095 in dimension 0 is not a multiple of 4 bytes");
  // Odd N: rows of B.
  auto oddN = check(mat(kX, 64, 64, ScalarType::BF16),
                    mat(kY, 64, 4095, ScalarType::BF16));
  ASSERT_TRUE(oddN);
  EXPECT_EQ(oddN->first, 1u);
  // A start 2 bytes past an aligned one.
  auto start = check(mat(kX + 2, 64, 64, ScalarType::BF16),
                     mat(kY, 64, 64, ScalarType::BF16));
  ASSERT_TRUE(start);
  EXPECT_EQ(start->first, 0u);
  EXPECT_EQ(start->second, "its start is not 4-byte aligned");
  // A single column has rows of 2 bytes.
  EXPECT_TRUE(check(mat(kX, 64, 1, ScalarType::BF16),
                    mat(kY, 1, 64, ScalarType::BF16)));
}

//===----------------------------------------------------------------------===//
// Repitched arguments
//===----------------------------------------------------------------------===//

/// A TMA matmul over bf16 A and B whose misaligned operands are copied
/// where two programs or more read them (A along x, B along y).
LaunchMetadata repitchedMatmul(const char *repitch = "repitch 0:x:2 1:y:2\n") {
  std::string text = std::string("tilec-launch 1\nkernel mm\n"
                                 "params buffer:bf16:2 buffer:bf16:2 "
                                 "buffer:f32:2\n"
                                 "tensormaps 0:64x128:128 1:64x64:128\n") +
                     repitch +
                     "fallback mm__thread_copies\nblock 128 1 1\n"
                     "grid - - -\n";
  return parse(text.c_str());
}

/// A grid with programs enough along every axis to copy.
constexpr std::array<uint64_t, 3> kGrid = {8, 8, 1};

TEST(Repitch, NothingToCopyWhereTmaDescribesEveryBuffer) {
  LaunchMetadata m = repitchedMatmul();
  EXPECT_EQ(planRepitch(m,
                        {mat(kAligned, 4096, 4096, ScalarType::BF16),
                         mat(kAligned, 4096, 4096, ScalarType::BF16),
                         mat(kOut, 3, 3, ScalarType::F32)},
                        kGrid),
            std::nullopt);
}

TEST(Repitch, CopiesOddRowsIntoSixteenBytePitches) {
  LaunchMetadata m = repitchedMatmul();
  // Odd K: A's rows are 8190 bytes, B's 8192 (aligned, left in place).
  TensorView a = mat(kAligned, 4095, 4095, ScalarType::BF16);
  TensorView b = mat(kAligned + (1 << 26), 4095, 4096, ScalarType::BF16);
  std::optional<RepitchPlan> plan =
      planRepitch(m, {a, b, mat(kOut, 4095, 4096, ScalarType::F32)}, kGrid);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->copies.size(), 1u);
  const RepitchCopy &copy = plan->copies[0];
  EXPECT_EQ(copy.arg, 0u);
  EXPECT_EQ(copy.source.data, a.data);
  EXPECT_EQ(copy.rows, 4095u);
  EXPECT_EQ(copy.rowBytes, 8190u);
  EXPECT_EQ(copy.sourcePitch, 8190);
  EXPECT_EQ(copy.stagedPitch, 8192u);
  EXPECT_EQ(copy.stagedOffset, 0u);
  EXPECT_EQ(plan->bytes, 4095u * 8192u);
  // The kernel reads the copy: same sizes, rows of 4096 elements, at the
  // staging buffer.
  std::vector<KernelArg> staged =
      repitchedArguments({a, b, mat(kOut, 4095, 4096, ScalarType::F32)},
                         *plan, kAligned + (1 << 28));
  const auto &view = std::get<TensorView>(staged[0].value());
  EXPECT_EQ(view.data, kAligned + (1 << 28));
  EXPECT_EQ(view.sizes[0], 4095);
  EXPECT_EQ(view.sizes[1], 4095);
  EXPECT_EQ(view.strides[0], 4096);
  EXPECT_EQ(view.strides[1], 1);
  EXPECT_EQ(std::get<TensorView>(staged[1].value()).data, b.data);
  EXPECT_EQ(reason(kBf16Tile, view), "");
}

TEST(Repitch, StagesEachCopyOnA256ByteBoundary) {
  LaunchMetadata m = repitchedMatmul();
  // Both operands odd: A 3x5 (rows of 10 bytes, pitch 16), B 5x7 starting
  // 2 bytes past an aligned address.
  std::optional<RepitchPlan> plan =
      planRepitch(m, {mat(kAligned, 3, 5, ScalarType::BF16),
                      mat(kAligned + 2, 5, 7, ScalarType::BF16),
                      mat(kOut, 3, 7, ScalarType::F32)},
                  kGrid);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->copies.size(), 2u);
  EXPECT_EQ(plan->copies[0].stagedPitch, 16u);
  EXPECT_EQ(plan->copies[1].stagedOffset, 256u);
  EXPECT_EQ(plan->copies[1].source.data, kAligned + 2);
  EXPECT_EQ(plan->copies[1].rowBytes, 14u);
  EXPECT_EQ(plan->copies[1].stagedPitch, 16u);
  EXPECT_EQ(plan->bytes, 512u);
}

TEST(Repitch, CopiesOnlyWhatEnoughProgramsRead) {
  LaunchMetadata m = repitchedMatmul();
  // A's rows are odd (K = 4095): copied where two programs or more along x
  // read them, not where one does (one column of C's tiles).
  std::vector<KernelArg> args = {mat(kAligned, 4096, 4095, ScalarType::BF16),
                                 mat(kAligned, 4095, 256, ScalarType::BF16),
                                 mat(kOut, 4096, 256, ScalarType::F32)};
  EXPECT_TRUE(planRepitch(m, args, {2, 32, 1}));
  EXPECT_EQ(planRepitch(m, args, {1, 32, 1}), std::nullopt);
  // B's rows odd (N = 255): read along y.
  args = {mat(kAligned, 128, 4096, ScalarType::BF16),
          mat(kAligned, 4096, 255, ScalarType::BF16),
          mat(kOut, 128, 255, ScalarType::F32)};
  EXPECT_EQ(planRepitch(m, args, {32, 1, 1}), std::nullopt);
  EXPECT_TRUE(planRepitch(m, args, {1, 2, 1}));
}

TEST(Repitch, CopiesAWrittenBufferBackAtAnyGrid) {
  // C of odd N in bf16 (rows of 8190 bytes) under its bulk store's tensor
  // map; A and B (N x K, a column-major B) aligned.
  auto matmul = [](const char *c) {
    return parse((std::string("tilec-launch 1\nkernel mm\n"
                              "params buffer:bf16:2 buffer:bf16:2 "
                              "buffer:bf16:2\n"
                              "tensormaps 0:64x128:128 1:64x64:128 "
                              "2:64x8:128\nrepitch 0:x:2 1:y:2 ") +
                  c + "\nfallback mm__thread_copies\nblock 128 1 1\n"
                      "grid - - -\n")
                     .c_str());
  };
  std::vector<KernelArg> args = {mat(kAligned, 4096, 4096, ScalarType::BF16),
                                 mat(kAligned, 4095, 4096, ScalarType::BF16),
                                 mat(kOut, 4096, 4095, ScalarType::BF16)};
  for (bool accumulates : {false, true}) {
    // One program: a read buffer would not be copied, a written one is.
    std::optional<RepitchPlan> plan =
        planRepitch(matmul(accumulates ? "2:inout" : "2:out"), args, {1, 1, 1});
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->copies.size(), 1u);
    const RepitchCopy &copy = plan->copies[0];
    EXPECT_EQ(copy.arg, 2u);
    EXPECT_EQ(copy.in, accumulates);
    EXPECT_TRUE(copy.out);
    EXPECT_EQ(copy.rows, 4096u);
    EXPECT_EQ(copy.rowBytes, 8190u);
    EXPECT_EQ(copy.stagedPitch, 8192u);
  }
  // A read buffer that does not pay still sends the launch to the twin.
  args[0] = mat(kAligned, 4096, 4095, ScalarType::BF16);
  args[1] = mat(kAligned, 4095, 4095, ScalarType::BF16);
  EXPECT_EQ(planRepitch(matmul("2:out"), args, {1, 1, 1}), std::nullopt);
  std::optional<RepitchPlan> both = planRepitch(matmul("2:out"), args, {2, 2, 1});
  ASSERT_TRUE(both);
  ASSERT_EQ(both->copies.size(), 3u);
  EXPECT_TRUE(both->copies[0].in && !both->copies[0].out);
  // Rows that overlap cannot be written back.
  TensorView overlapping = mat(kOut, 64, 4095, ScalarType::BF16);
  overlapping.strides = {4001, 1};
  args = {mat(kAligned, 64, 64, ScalarType::BF16),
          mat(kAligned, 64, 4095, ScalarType::BF16), overlapping};
  EXPECT_EQ(planRepitch(matmul("2:out"), args, kGrid), std::nullopt);
}

TEST(Repitch, LeavesWhatNoCopyMends) {
  TensorView a = mat(kAligned, 64, 4095, ScalarType::BF16);
  TensorView b = mat(kAligned, 4095, 64, ScalarType::BF16);
  TensorView c = mat(kOut, 64, 64, ScalarType::F32);
  // Argument 0 is not listed.
  EXPECT_EQ(planRepitch(repitchedMatmul("repitch 1:y:2\n"), {a, b, c}, kGrid),
            std::nullopt);
  // A column view (innermost stride 2).
  TensorView strided = mat(kAligned, 64, 64, ScalarType::BF16);
  strided.strides = {128, 2};
  EXPECT_EQ(planRepitch(repitchedMatmul(), {strided, b, c}, kGrid),
            std::nullopt);
  // A size TMA cannot describe whatever the pitch (2^32 rows).
  TensorView tall = mat(kAligned, int64_t(1) << 32, 3, ScalarType::BF16);
  EXPECT_EQ(planRepitch(repitchedMatmul(), {tall, b, c}, kGrid), std::nullopt);
}

TEST(Repitch, CopiesRowsThatRepeatOverlapOrRunBackwards) {
  TensorView b = mat(kAligned, 4095, 64, ScalarType::BF16);
  TensorView c = mat(kOut, 64, 64, ScalarType::F32);
  // The staged copy of A (64 rows of 4095 bf16) whose rows are `pitch`
  // elements apart.
  auto copyOfA = [&](int64_t pitch) -> std::optional<RepitchCopy> {
    TensorView a = mat(kAligned + (1 << 20), 64, 4095, ScalarType::BF16);
    a.strides = {pitch, 1};
    std::optional<RepitchPlan> plan =
        planRepitch(repitchedMatmul(), {a, b, c}, kGrid);
    if (!plan)
      return std::nullopt;
    EXPECT_EQ(plan->copies.size(), 1u);
    EXPECT_EQ(plan->copies[0].stagedPitch, 8192u);
    EXPECT_EQ(plan->copies[0].staged.strides[0], 4096);
    return plan->copies[0];
  };
  // Every row the first (a broadcast), rows 4001 elements apart (each
  // overlapping the next), rows running backwards, rows 2^31 elements
  // apart (beyond cuMemcpy2D's pitches).
  for (int64_t pitch : {int64_t(0), int64_t(4001), int64_t(-4095), int64_t(-5),
                        (int64_t(1) << 31) + 1}) {
    std::optional<RepitchCopy> copy = copyOfA(pitch);
    ASSERT_TRUE(copy) << pitch;
    EXPECT_EQ(copy->sourcePitch, 2 * pitch);
    EXPECT_EQ(copy->rows, 64u);
    EXPECT_EQ(copy->rowBytes, 8190u);
    EXPECT_FALSE(driverCanCopy(*copy)) << pitch;
  }
  // The same rows as a written C (accumulated or not): rows of their own,
  // backwards included, are copied back; rows that repeat or overlap are
  // not, an element would be written twice.
  for (const char *use : {"2:out", "2:inout"}) {
    LaunchMetadata m = parse((std::string("tilec-launch 1\nkernel mm\n"
                                          "params buffer:bf16:2 buffer:bf16:2 "
                                          "buffer:bf16:2\n"
                                          "tensormaps 0:64x128:128 1:64x64:128 "
                                          "2:64x8:128\nrepitch 0:x:2 1:y:2 ") +
                              use + "\nblock 128 1 1\ngrid - - -\n")
                                 .c_str());
    auto plans = [&](int64_t pitch) {
      TensorView written = mat(kOut, 64, 4095, ScalarType::BF16);
      written.strides = {pitch, 1};
      return planRepitch(m,
                         {mat(kAligned, 64, 64, ScalarType::BF16),
                          mat(kAligned, 4095, 64, ScalarType::BF16), written},
                         kGrid)
          .has_value();
    };
    EXPECT_TRUE(plans(-4095)) << use;
    EXPECT_TRUE(plans(4097)) << use;
    EXPECT_FALSE(plans(0)) << use;
    EXPECT_FALSE(plans(4001)) << use;
    EXPECT_FALSE(plans(-4001)) << use;
  }
}

TEST(Repitch, DescribesAnEmptyBufferByOneStagedElement) {
  // K = 0: A (200 x 0) and B (0 x 136) have no element, and TMA takes no
  // empty dimension. Nothing is copied; the kernel takes the views as they
  // are (it loops over no K), the tensor maps one staged element each.
  LaunchMetadata m = repitchedMatmul();
  TensorView a = mat(kAligned, 200, 0, ScalarType::BF16);
  TensorView b = mat(0, 0, 136, ScalarType::BF16);
  std::vector<KernelArg> args = {a, b, mat(kOut, 200, 136, ScalarType::F32)};
  std::optional<RepitchPlan> plan = planRepitch(m, args, kGrid);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->copies.size(), 2u);
  for (const RepitchCopy &copy : plan->copies) {
    EXPECT_TRUE(copy.empty);
    EXPECT_FALSE(copy.in || copy.out);
    EXPECT_EQ(copy.staged.sizes[0], 1);
    EXPECT_EQ(copy.staged.sizes[1], 1);
    EXPECT_EQ(copy.staged.strides[0], 8);
  }
  EXPECT_EQ(plan->copies[1].stagedOffset, 256u);
  constexpr CUdeviceptr kStaging = kAligned + (1 << 28);
  std::vector<KernelArg> kernelArgs = repitchedArguments(args, *plan, kStaging);
  EXPECT_EQ(std::get<TensorView>(kernelArgs[0].value()).data, a.data);
  EXPECT_EQ(std::get<TensorView>(kernelArgs[0].value()).sizes[1], 0);
  EXPECT_EQ(std::get<TensorView>(kernelArgs[1].value()).data, 0u);
  std::vector<KernelArg> mapped = tensorMapArguments(args, *plan, kStaging);
  const auto &mappedA = std::get<TensorView>(mapped[0].value());
  EXPECT_EQ(mappedA.data, kStaging);
  EXPECT_EQ(reason(m.tensorMaps[0], mappedA), "");
  EXPECT_EQ(std::get<TensorView>(mapped[1].value()).data, kStaging + 256);
}

TEST(Repitch, TheDriverCopiesOnlyRowsOfTheirOwnUnder2To31BytesApart) {
  RepitchCopy copy;
  copy.rows = 3;
  copy.rowBytes = 100;
  copy.stagedPitch = 112;
  copy.sourcePitch = 100;
  EXPECT_TRUE(driverCanCopy(copy));
  copy.sourcePitch = (int64_t(1) << 31) - 1;
  EXPECT_TRUE(driverCanCopy(copy));
  copy.sourcePitch = int64_t(1) << 31;
  EXPECT_FALSE(driverCanCopy(copy));
  for (int64_t pitch : {0, 50, 99, -100, -200}) {
    copy.sourcePitch = pitch;
    EXPECT_FALSE(driverCanCopy(copy)) << pitch;
  }
  // One row has no pitch that matters.
  copy.rows = 1;
  copy.sourcePitch = 0;
  EXPECT_TRUE(driverCanCopy(copy));
}

TEST(Repitch, FoldsOuterDimensionsIntoRows) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel k\n"
                           "params buffer:bf16:3\n"
                           "tensormaps 0:64x64x1:128\nrepitch 0:z:1\n"
                           "fallback k__thread_copies\nblock 128 1 1\n"
                           "grid - - -\n");
  TensorView batched = mat(kAligned, 1, 1, ScalarType::BF16);
  batched.rank = 3;
  batched.sizes = {3, 100, 33};
  batched.strides = {3300, 33, 1};
  std::optional<RepitchPlan> plan = planRepitch(m, {batched}, kGrid);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->copies[0].rows, 300u);
  EXPECT_EQ(plan->copies[0].sourcePitch, 66);
  EXPECT_EQ(plan->copies[0].stagedPitch, 80u);
  EXPECT_EQ(plan->copies[0].staged.strides[0], 4000);
  EXPECT_EQ(plan->copies[0].staged.strides[1], 40);
  // An outer dimension of one element has any stride.
  TensorView single = batched;
  single.sizes = {1, 100, 33};
  single.strides = {7, 33, 1};
  ASSERT_TRUE(planRepitch(m, {single}, kGrid));
  EXPECT_EQ(planRepitch(m, {single}, kGrid)->copies[0].rows, 100u);
  // Batches that are not whole rows apart need one copy each: fallback.
  TensorView gapped = batched;
  gapped.strides = {3400, 33, 1};
  EXPECT_EQ(planRepitch(m, {gapped}, kGrid), std::nullopt);
}

/// A copy of `rows` rows of `rowBytes` bytes of `type`, from `source` at a
/// pitch of `sourcePitch` into staged rows of `stagedPitch` at `offset`.
RepitchCopy stagingCopy(CUdeviceptr source, ScalarType type, uint64_t rows,
                        uint64_t rowBytes, uint64_t sourcePitch,
                        uint64_t stagedPitch, uint64_t offset = 0) {
  RepitchCopy copy;
  copy.source = mat(source, int64_t(rows),
                    int64_t(rowBytes / scalarTypeSize(type)), type);
  copy.rows = rows;
  copy.rowBytes = rowBytes;
  copy.sourcePitch = sourcePitch;
  copy.stagedPitch = stagedPitch;
  copy.stagedOffset = offset;
  return copy;
}

TEST(StagingCopyLaunch, CopiesRowsAsIntegersOfTheirElementSize) {
  constexpr CUdeviceptr kStaging = kAligned + (1 << 28);
  // bf16 rows of 4095 elements starting 2 bytes off, into pitches of 8192
  // bytes at offset 256: 16-bit elements, strides in elements.
  RepitchCopy bf16 =
      stagingCopy(kAligned + 2, ScalarType::BF16, 4096, 8190, 8190, 8192, 256);
  std::optional<StagingCopyLaunch> in =
      stagingCopyLaunch(bf16, kStaging, false);
  ASSERT_TRUE(in);
  EXPECT_EQ(in->elementBytes, 2u);
  EXPECT_EQ(in->from.type, ScalarType::I16);
  EXPECT_EQ(in->from.data, kAligned + 2);
  EXPECT_EQ(in->from.rank, 2u);
  EXPECT_EQ(in->from.sizes[0], 4096);
  EXPECT_EQ(in->from.sizes[1], 4095);
  EXPECT_EQ(in->from.strides[0], 4095);
  EXPECT_EQ(in->from.strides[1], 1);
  EXPECT_EQ(in->to.data, kStaging + 256);
  EXPECT_EQ(in->to.sizes[1], 4095);
  EXPECT_EQ(in->to.strides[0], 4096);
  // Back out: the same views, swapped.
  std::optional<StagingCopyLaunch> out =
      stagingCopyLaunch(bf16, kStaging, true);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->from.data, kStaging + 256);
  EXPECT_EQ(out->from.strides[0], 4096);
  EXPECT_EQ(out->to.data, kAligned + 2);
  EXPECT_EQ(out->to.strides[0], 4095);
  // f32 rows of 3 elements: 32-bit elements.
  std::optional<StagingCopyLaunch> f32 = stagingCopyLaunch(
      stagingCopy(kAligned + 4, ScalarType::F32, 7, 12, 12, 16), kStaging,
      false);
  ASSERT_TRUE(f32);
  EXPECT_EQ(f32->elementBytes, 4u);
  EXPECT_EQ(f32->from.type, ScalarType::I32);
  EXPECT_EQ(f32->from.sizes[1], 3);
  EXPECT_EQ(f32->from.strides[0], 3);
  EXPECT_EQ(f32->to.strides[0], 4);
}

TEST(StagingCopyLaunch, LeavesToTheDriverWhatTheKernelsCannotCopy) {
  constexpr CUdeviceptr kStaging = kAligned + (1 << 28);
  // 1-byte and 8-byte elements.
  EXPECT_EQ(
      stagingCopyLaunch(stagingCopy(kAligned + 1, ScalarType::I8, 5, 7, 7, 16),
                        kStaging, false),
      std::nullopt);
  EXPECT_EQ(stagingCopyLaunch(
                stagingCopy(kAligned + 8, ScalarType::F64, 5, 24, 24, 32),
                kStaging, false),
            std::nullopt);
  // A start or pitch off the element's alignment (a byte-offset view).
  EXPECT_EQ(stagingCopyLaunch(
                stagingCopy(kAligned + 1, ScalarType::BF16, 5, 10, 10, 16),
                kStaging, false),
            std::nullopt);
  EXPECT_EQ(stagingCopyLaunch(
                stagingCopy(kAligned + 4, ScalarType::F32, 5, 12, 14, 16),
                kStaging, false),
            std::nullopt);
  // Rows longer than 65535 programs of 1024 bytes along grid y.
  uint64_t longRow = uint64_t(65536) * 1024;
  EXPECT_EQ(stagingCopyLaunch(stagingCopy(kAligned + 2, ScalarType::BF16, 1,
                                          longRow, longRow, longRow + 16),
                              kStaging, false),
            std::nullopt);
  EXPECT_TRUE(
      stagingCopyLaunch(stagingCopy(kAligned + 2, ScalarType::BF16, 1,
                                    longRow - 1024, longRow, longRow + 16),
                        kStaging, false));
}

/// Row-major element offsets of every element of `view` (relative to its
/// start), outer index first.
std::vector<int64_t> elementOffsets(const TensorView &view) {
  std::vector<int64_t> offsets = {0};
  for (unsigned d = 0; d < view.rank; ++d) {
    std::vector<int64_t> next;
    for (int64_t base : offsets)
      for (int64_t i = 0; i < view.sizes[d]; ++i)
        next.push_back(base + i * view.strides[d]);
    offsets = std::move(next);
  }
  return offsets;
}

TEST(Repitch, PlannedCopiesReproduceEveryElement) {
  // Random bf16 views of ranks 1 to 4, with or without row padding, gaps
  // between outer rows and misaligned starts, over a host image of device
  // memory. Where a plan is made, its 2-D copies, done on the host, must
  // give a staged view that TMA describes and whose every element equals
  // the source's; a plan must be made exactly where TMA rejects the view
  // and its rows fold into one pitch (0, negative or overlapping included:
  // the view is read).
  std::mt19937 rng(11);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  constexpr CUdeviceptr kBase = 0x100000;
  int planned = 0;
  for (int trial = 0; trial < 400; ++trial) {
    TensorView view;
    view.type = ScalarType::BF16;
    view.rank = unsigned(pick(1, 4));
    unsigned inner = view.rank - 1;
    view.sizes[inner] = pick(1, 40);
    view.strides[inner] = 1;
    for (unsigned d = inner; d-- > 0;) {
      view.sizes[d] = pick(1, 5);
      int64_t packed = view.strides[d + 1] * view.sizes[d + 1];
      int64_t pad = d + 1 == inner ? pick(0, 9) : (pick(0, 3) == 0 ? pick(1, 3) : 0);
      view.strides[d] = packed + pad;
      // Rows that repeat, overlap or run backwards, now and then.
      if (pick(0, 4) == 0)
        view.strides[d] = d + 1 == inner ? pick(-50, view.sizes[inner])
                                         : (pick(0, 1) ? 0 : -packed);
    }
    std::vector<int64_t> offsets = elementOffsets(view);
    int64_t lowest = *std::min_element(offsets.begin(), offsets.end());
    int64_t skip = pick(0, 9) - lowest;
    view.data = kBase + 2 * skip;
    int64_t extent = skip + *std::max_element(offsets.begin(), offsets.end()) + 1;
    std::vector<uint16_t> memory(extent);
    for (int64_t i = 0; i < extent; ++i)
      memory[i] = uint16_t(i * 40503u + 7);

    std::string box = "8";
    for (unsigned d = 1; d < view.rank; ++d)
      box += "x1";
    std::string text = "tilec-launch 1\nkernel k\nparams buffer:bf16:" +
                       std::to_string(view.rank) + "\ntensormaps 0:" + box +
                       ":0\nrepitch 0:x:1\nfallback k__t\nblock 1 1 1\n"
                       "grid - - -\n";
    LaunchMetadata m = parse(text.c_str());
    std::optional<RepitchPlan> plan = planRepitch(m, {view}, {1, 1, 1});

    // Independently: rejected by TMA, and row r of the outer dimensions
    // (row-major) starting r pitches in.
    bool rejected = !reason(m.tensorMaps[0], view).empty();
    int64_t rowLength = view.sizes[inner];
    int64_t rows = int64_t(offsets.size()) / rowLength;
    int64_t pitch = rows > 1 ? offsets[rowLength] : rowLength;
    bool folds = true;
    for (int64_t r = 0; r < rows; ++r)
      folds = folds && offsets[r * rowLength] == r * pitch;
    ASSERT_EQ(plan.has_value(), rejected && folds) << "trial " << trial;
    if (!plan)
      continue;
    ++planned;
    ASSERT_EQ(plan->copies.size(), 1u);
    const RepitchCopy &copy = plan->copies[0];
    EXPECT_EQ(copy.stagedPitch % 16, 0u);
    EXPECT_GE(plan->bytes, copy.rows * copy.stagedPitch);
    // The copy cuMemcpy2DAsync makes, on the host.
    std::vector<uint16_t> staging(plan->bytes / 2, 0xdead);
    for (uint64_t r = 0; r < copy.rows; ++r)
      std::memcpy(reinterpret_cast<char *>(staging.data()) + copy.stagedOffset +
                      r * copy.stagedPitch,
                  reinterpret_cast<const char *>(memory.data()) +
                      int64_t(copy.source.data - kBase) +
                      int64_t(r) * copy.sourcePitch,
                  copy.rowBytes);
    constexpr CUdeviceptr kStaging = 0x200000;
    TensorView staged = std::get<TensorView>(
        repitchedArguments({view}, *plan, kStaging)[0].value());
    EXPECT_EQ(reason(m.tensorMaps[0], staged), "") << "trial " << trial;
    std::vector<int64_t> stagedOffsets = elementOffsets(staged);
    ASSERT_EQ(stagedOffsets.size(), offsets.size());
    int64_t stagedSkip = int64_t(staged.data - kStaging) / 2;
    for (size_t i = 0; i < offsets.size(); ++i)
      ASSERT_EQ(staging[stagedSkip + stagedOffsets[i]], memory[skip + offsets[i]])
          << "trial " << trial << ", element " << i;
  }
  // The random views exercise both outcomes.
  EXPECT_GT(planned, 50);
}

TEST(AlignedArguments, HoldWithoutAnAlignedLine) {
  LaunchMetadata m = parse("tilec-launch 1\nkernel mm\n"
                           "params buffer:bf16:2\nblock 128 1 1\n"
                           "grid - - -\n");
  EXPECT_EQ(misalignedArgument(m, {mat(kX + 2, 3, 5, ScalarType::BF16)}),
            std::nullopt);
}
