//===- LaunchMetadataTest.cpp - The launch metadata text format -----------===//

#include "TestKernels.h"
#include "tilec/Runtime/LaunchMetadata.h"

#include <gtest/gtest.h>

#include <limits>

using namespace tilec;

namespace {

/// Parses `text`, expecting `m`, which serializes back to `text`.
void expectRoundTrip(const LaunchMetadata &m, const std::string &text) {
  std::string error;
  std::optional<LaunchMetadata> parsed = parseLaunchMetadata(text, &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(*parsed, m);
  EXPECT_EQ(serialize(*parsed), text);
}

TEST(LaunchMetadata, RoundTripsEveryField) {
  LaunchMetadata m;
  m.kernel = "matmul_bf16";
  m.params = {{ParamInfo::Kind::Buffer, ScalarType::BF16, 2, {}},
              {ParamInfo::Kind::Buffer, ScalarType::BF16, 2, {}},
              {ParamInfo::Kind::Buffer, ScalarType::F32, 2, {}},
              {ParamInfo::Kind::Scalar, ScalarType::I64, 0, {}},
              {ParamInfo::Kind::Scalar, ScalarType::F16, 0, {}}};
  m.block = {128, 2, 1};
  m.grid[0] = {GridTerm{2, 0, 128}, GridTerm{3, std::nullopt, 4}};
  m.grid[1] = {GridTerm{2, 1, 256}};
  m.sharedBytes = 196608;
  std::string text = serialize(m);
  expectRoundTrip(m, text);
}

TEST(LaunchMetadata, SerializesTheDocumentedFormat) {
  EXPECT_EQ(serialize(rt::test::saxpyMetadata()),
            "tilec-launch 1\n"
            "kernel saxpy\n"
            "params scalar:f32 buffer:f32:1 buffer:f32:1 buffer:f32:1\n"
            "block 256 1 1\n"
            "grid 1.0/256 - -\n"
            "shared 0\n");
}

// A buffer's fixed strides follow its rank, `?` where the kernel reads the
// view's; a buffer without them fixes none (text written before them).
TEST(LaunchMetadata, RoundTripsFixedStrides) {
  std::string text = "tilec-launch 1\n"
                     "kernel k\n"
                     "params buffer:f16:4:?,?,64,1 buffer:f32:2 scalar:i32\n"
                     "block 128 1 1\n"
                     "grid 0.0/1 - -\n"
                     "shared 0\n";
  std::optional<LaunchMetadata> m = parseLaunchMetadata(text);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->params[0].strides,
            (std::vector<int64_t>{ParamInfo::kDynamicStride,
                                  ParamInfo::kDynamicStride, 64, 1}));
  EXPECT_TRUE(m->params[1].strides.empty());
  EXPECT_EQ(serialize(*m), text);
}

LaunchMetadata tmaMatmul() {
  LaunchMetadata m;
  m.kernel = "matmul_bf16";
  m.params = {{ParamInfo::Kind::Buffer, ScalarType::BF16, 2, {}},
              {ParamInfo::Kind::Buffer, ScalarType::BF16, 2, {}},
              {ParamInfo::Kind::Buffer, ScalarType::F32, 2, {}}};
  m.block = {128, 1, 1};
  m.grid[0] = {GridTerm{2, 1, 128}};
  m.grid[1] = {GridTerm{2, 0, 128}};
  m.tensorMaps = {TensorMapInfo{0, {64, 128}, 128},
                  TensorMapInfo{1, {64, 64}, 128}};
  m.fallback = "matmul_bf16__unaligned";
  return m;
}

TEST(LaunchMetadata, RoundTripsTensorMapsAndFallback) {
  LaunchMetadata m = tmaMatmul();
  std::string text = serialize(m);
  EXPECT_EQ(text, "tilec-launch 1\n"
                  "kernel matmul_bf16\n"
                  "params buffer:bf16:2 buffer:bf16:2 buffer:f32:2\n"
                  "tensormaps 0:64x128:128 1:64x64:128\n"
                  "fallback matmul_bf16__unaligned\n"
                  "block 128 1 1\n"
                  "grid 2.1/128 2.0/128 -\n"
                  "shared 0\n");
  expectRoundTrip(m, text);
}

TEST(LaunchMetadata, RoundTripsAFittedTensorMap) {
  LaunchMetadata m = tmaMatmul();
  m.tensorMaps[0].fitDim = 1;
  std::string text = serialize(m);
  EXPECT_NE(text.find("tensormaps 0:64x128:128:fit1 1:64x64:128\n"),
            std::string::npos)
      << text;
  expectRoundTrip(m, text);
  EXPECT_FALSE(m == tmaMatmul());
}

TEST(LaunchMetadata, TensorMapsAndFallbackTakePartInEquality) {
  LaunchMetadata a = tmaMatmul(), b = tmaMatmul();
  b.tensorMaps[1].swizzleBytes = 64;
  EXPECT_FALSE(a == b);
  b = tmaMatmul();
  b.tensorMaps[0].box = {64, 64};
  EXPECT_FALSE(a == b);
  b = tmaMatmul();
  b.fallback.clear();
  EXPECT_FALSE(a == b);
}

TEST(LaunchMetadata, RoundTripsAnAlignedLine) {
  LaunchMetadata m = tmaMatmul();
  m.tensorMaps.clear();
  m.alignedArgs = {0, 1};
  std::string text = serialize(m);
  EXPECT_EQ(text, "tilec-launch 1\n"
                  "kernel matmul_bf16\n"
                  "params buffer:bf16:2 buffer:bf16:2 buffer:f32:2\n"
                  "aligned 0 1\n"
                  "fallback matmul_bf16__unaligned\n"
                  "block 128 1 1\n"
                  "grid 2.1/128 2.0/128 -\n"
                  "shared 0\n");
  expectRoundTrip(m, text);
  LaunchMetadata other = m;
  other.alignedArgs = {0};
  EXPECT_FALSE(m == other);
}

TEST(LaunchMetadata, RoundTripsARepitchLine) {
  LaunchMetadata m = tmaMatmul();
  m.repitch = {{0, 0, 2}, {1, 1, 3}};
  std::string text = serialize(m);
  EXPECT_NE(
      text.find("\nrepitch 0:x:2 1:y:3\nfallback matmul_bf16__unaligned\n"),
      std::string::npos)
      << text;
  expectRoundTrip(m, text);
  for (RepitchArg changed : {RepitchArg{0, 2, 2}, RepitchArg{0, 0, 1}}) {
    LaunchMetadata other = m;
    other.repitch[0] = changed;
    EXPECT_FALSE(m == other);
  }
}

TEST(LaunchMetadata, RoundTripsWrittenRepitchEntries) {
  LaunchMetadata m = tmaMatmul();
  m.tensorMaps.push_back(TensorMapInfo{2, {32, 8}, 128});
  for (auto [use, word] :
       {std::pair{RepitchArg::Use::Write, "2:out"},
        std::pair{RepitchArg::Use::ReadWrite, "2:inout"}}) {
    m.repitch = {{0, 0, 2}, {2, 0, 1, use}};
    std::string text = serialize(m);
    EXPECT_NE(text.find(std::string("\nrepitch 0:x:2 ") + word + "\n"),
              std::string::npos)
        << text;
    expectRoundTrip(m, text);
  }
  EXPECT_TRUE(m.repitch[1].copiedIn() && m.repitch[1].copiedOut());
  LaunchMetadata written = m;
  written.repitch[1].use = RepitchArg::Use::Write;
  EXPECT_FALSE(m == written);
  EXPECT_FALSE(written.repitch[1].copiedIn());
  EXPECT_FALSE(m.repitch[0].copiedOut());
}

/// Why the parser rejects a kernel `k` taking a bf16 matrix and an i32,
/// with one block and grid, followed by `lines`.
std::string rejection(const char *lines) {
  std::string why;
  EXPECT_FALSE(parseLaunchMetadata(
      std::string("tilec-launch 1\nkernel k\nparams buffer:bf16:2 "
                  "scalar:i32\nblock 1 1 1\ngrid - - -\n") +
          lines,
      &why));
  return why;
}

TEST(LaunchMetadataRejects, RepitchLinesWithTheirReason) {
  auto error = [](const char *lines) {
    std::string why;
    EXPECT_FALSE(parseLaunchMetadata(
        std::string("tilec-launch 1\nkernel k\nparams buffer:bf16:2 "
                    "buffer:bf16:2 scalar:i32\ntensormaps 0:64x128:128\n"
                    "block 1 1 1\ngrid - - -\n") +
            lines,
        &why));
    return why;
  };
  EXPECT_EQ(error("repitch\nfallback f"),
            "malformed launch metadata: repitch line 'repitch' is not one "
            "'repitch ENTRY...'");
  EXPECT_EQ(error("repitch 0:x:2\nrepitch 0:x:2\nfallback f"),
            "malformed launch metadata: repitch line 'repitch 0:x:2' is not "
            "one 'repitch ENTRY...'");
  for (const char *entry :
       {"0", "0:x", "y:x:2", "0:w:2", "0:xy:2", "0:x:0", "0:x:-1", "0:x:2:1",
        "0:in", "0:outs", "0:out:1", "x:out", "0:inout:2"})
    EXPECT_EQ(error((std::string("repitch ") + entry + "\nfallback f").c_str()),
              std::string("malformed launch metadata: bad repitch entry '") +
                  entry +
                  "' (ARG:AXIS:MIN with AXIS x, y or z and MIN >= 1, ARG:out "
                  "or ARG:inout)");
  EXPECT_EQ(error("repitch 2:x:2\nfallback f"),
            "malformed launch metadata: repitch argument 2 is not a buffer "
            "argument");
  EXPECT_EQ(error("repitch 0:x:2 0:y:2\nfallback f"),
            "malformed launch metadata: repitch argument 0 is listed twice");
  // No fallback is needed: a launch no copy mends is refused.
  std::string why;
  EXPECT_TRUE(parseLaunchMetadata(
      "tilec-launch 1\nkernel k\nparams buffer:bf16:2 buffer:bf16:2 "
      "scalar:i32\ntensormaps 0:64x128:128\nrepitch 0:x:2\nblock 1 1 1\n"
      "grid - - -\n",
      &why))
      << why;
  // Argument 1 is a buffer, but TMA never reads or writes it.
  EXPECT_EQ(error("repitch 1:z:2\nfallback f"),
            "malformed launch metadata: repitch argument 1 has no tensor map");
  EXPECT_EQ(error("repitch 1:out\nfallback f"),
            "malformed launch metadata: repitch argument 1 has no tensor map");
}

TEST(LaunchMetadataRejects, AlignedLinesWithTheirReason) {
  auto error = rejection;
  EXPECT_EQ(error("aligned\nfallback f"),
            "malformed launch metadata: aligned line 'aligned' is not one "
            "'aligned ARG...'");
  EXPECT_EQ(error("aligned 0\naligned 0\nfallback f"),
            "malformed launch metadata: aligned line 'aligned 0' is not one "
            "'aligned ARG...'");
  EXPECT_EQ(error("aligned x\nfallback f"),
            "malformed launch metadata: bad aligned argument 'x'");
  EXPECT_EQ(error("aligned 1\nfallback f"),
            "malformed launch metadata: aligned argument 1 is not a buffer "
            "argument");
  EXPECT_EQ(error("aligned 2\nfallback f"),
            "malformed launch metadata: aligned argument 2 is not a buffer "
            "argument");
  EXPECT_EQ(error("aligned 0 0\nfallback f"),
            "malformed launch metadata: aligned argument 0 is listed twice");
  EXPECT_EQ(error("aligned 0"),
            "malformed launch metadata: aligned line without a fallback line");
}

TEST(LaunchMetadata, RoundTripsASmallGridVariant) {
  LaunchMetadata m = tmaMatmul();
  m.smallGrid = {"matmul_bf16__small_grid", 50};
  std::string text = serialize(m);
  // After `fallback`, before `block`.
  EXPECT_EQ(text, "tilec-launch 1\n"
                  "kernel matmul_bf16\n"
                  "params buffer:bf16:2 buffer:bf16:2 buffer:f32:2\n"
                  "tensormaps 0:64x128:128 1:64x64:128\n"
                  "fallback matmul_bf16__unaligned\n"
                  "smallgrid matmul_bf16__small_grid 50\n"
                  "block 128 1 1\n"
                  "grid 2.1/128 2.0/128 -\n"
                  "shared 0\n");
  expectRoundTrip(m, text);
  // Without a fallback, and at both ends of the percentage's range.
  for (unsigned percent : {1u, 100u}) {
    LaunchMetadata plain = rt::test::fillMetadata();
    plain.smallGrid = {"fill_small", percent};
    expectRoundTrip(plain, serialize(plain));
  }
}

TEST(LaunchMetadata, ParsesTextWithoutASmallGridLine) {
  // Text written before the line existed (kernels.ptx's, say) still parses,
  // as naming no variant.
  std::string error;
  std::optional<LaunchMetadata> parsed =
      parseLaunchMetadata(serialize(tmaMatmul()), &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(parsed->smallGrid, SmallGridVariant{});
  EXPECT_TRUE(parsed->smallGrid.kernel.empty());
  EXPECT_EQ(serialize(*parsed).find("smallgrid"), std::string::npos);
}

TEST(LaunchMetadata, SmallGridTakesPartInEquality) {
  LaunchMetadata a = tmaMatmul(), b = tmaMatmul();
  a.smallGrid = b.smallGrid = {"small", 50};
  EXPECT_TRUE(a == b);
  b.smallGrid.percentOfSms = 25;
  EXPECT_FALSE(a == b);
  b.smallGrid = {"other", 50};
  EXPECT_FALSE(a == b);
  b.smallGrid = {};
  EXPECT_FALSE(a == b);
}

TEST(LaunchMetadata, RoundTripsAScratchLine) {
  LaunchMetadata m = tmaMatmul();
  m.smallGrid = {"matmul_bf16__small_grid", 50};
  m.scratch = {16, 8};
  std::string text = serialize(m);
  // After `smallgrid`, before `block`.
  EXPECT_EQ(text, "tilec-launch 1\n"
                  "kernel matmul_bf16\n"
                  "params buffer:bf16:2 buffer:bf16:2 buffer:f32:2\n"
                  "tensormaps 0:64x128:128 1:64x64:128\n"
                  "fallback matmul_bf16__unaligned\n"
                  "smallgrid matmul_bf16__small_grid 50\n"
                  "scratch 16 8\n"
                  "block 128 1 1\n"
                  "grid 2.1/128 2.0/128 -\n"
                  "shared 0\n");
  expectRoundTrip(m, text);
  // Without the other optional lines, one size 0, and the largest sizes.
  for (ScratchInfo scratch :
       {ScratchInfo{4, 0}, ScratchInfo{0, 4},
        ScratchInfo{~uint64_t(0) - 3, ~uint64_t(0) - 3}}) {
    LaunchMetadata plain = rt::test::fillMetadata();
    plain.scratch = scratch;
    EXPECT_TRUE(plain.scratch.needed());
    text = serialize(plain);
    EXPECT_NE(
        text.find("\nparams scalar:i64 scalar:f32 buffer:f32:1\nscratch " +
                  std::to_string(scratch.fixedBytes) + " " +
                  std::to_string(scratch.bytesPerProgram) + "\nblock "),
        std::string::npos)
        << text;
    expectRoundTrip(plain, text);
  }
}

TEST(LaunchMetadata, ParsesTextWithoutAScratchLine) {
  // Text written before the line existed still parses, as needing none.
  std::string error;
  std::optional<LaunchMetadata> parsed =
      parseLaunchMetadata(serialize(tmaMatmul()), &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(parsed->scratch, ScratchInfo{});
  EXPECT_FALSE(parsed->scratch.needed());
  EXPECT_EQ(serialize(*parsed).find("scratch"), std::string::npos);
}

TEST(LaunchMetadata, RoundTripsAThenLine) {
  LaunchMetadata m = rt::test::fillMetadata();
  m.scratch = {0, 8};
  m.then = "fill__combine";
  std::string text = serialize(m);
  // Right after `scratch`, which it needs.
  EXPECT_NE(text.find("\nscratch 0 8\nthen fill__combine\nblock "),
            std::string::npos)
      << text;
  expectRoundTrip(m, text);
  LaunchMetadata other = m;
  other.then = "fill__other";
  EXPECT_FALSE(other == m);
  other.then.clear();
  EXPECT_FALSE(other == m);
  EXPECT_EQ(serialize(other).find("then"), std::string::npos);
}

TEST(LaunchMetadata, RoundTripsAWaitsLine) {
  LaunchMetadata m = rt::test::fillMetadata();
  m.scratch = {0, 8};
  m.waitsForPrevious = true;
  std::string text = serialize(m);
  EXPECT_NE(text.find("\nscratch 0 8\nwaits\nblock "), std::string::npos)
      << text;
  expectRoundTrip(m, text);
  LaunchMetadata other = m;
  other.waitsForPrevious = false;
  EXPECT_FALSE(other == m);
  EXPECT_EQ(serialize(other).find("waits"), std::string::npos);
}

TEST(LaunchMetadata, RoundTripsEveryScratchFill) {
  // Each fill with its line; a fill takes part in equality.
  const std::pair<ScratchInfo, std::string> cases[] = {
      {{16, 8}, "scratch 16 8"},
      {{0, 8448, ScratchFill::None}, "scratch 0 8448 unzeroed"},
      {{4096, 65536, ScratchFill::Counters}, "scratch 4096 65536 counters"},
      {{16, 16, ScratchFill::Epochs}, "scratch 16 16 epochs"}};
  for (const auto &[scratch, line] : cases) {
    LaunchMetadata m = rt::test::fillMetadata();
    m.scratch = scratch;
    std::string text = serialize(m);
    EXPECT_NE(text.find("\n" + line + "\nblock "), std::string::npos) << text;
    std::string error;
    std::optional<LaunchMetadata> parsed = parseLaunchMetadata(text, &error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(*parsed, m);
    EXPECT_EQ(parsed->scratch.fill, scratch.fill) << line;
    for (const auto &[other, otherLine] : cases) {
      ScratchInfo refilled = scratch;
      refilled.fill = other.fill;
      EXPECT_EQ(refilled == scratch, other.fill == scratch.fill)
          << line << " against " << otherLine;
    }
  }
}

TEST(LaunchMetadata, ScratchTakesPartInEquality) {
  LaunchMetadata a = tmaMatmul(), b = tmaMatmul();
  a.scratch = b.scratch = {16, 8};
  EXPECT_TRUE(a == b);
  b.scratch.fixedBytes = 20;
  EXPECT_FALSE(a == b);
  b.scratch = {16, 4};
  EXPECT_FALSE(a == b);
  b.scratch = {};
  EXPECT_FALSE(a == b);
}

TEST(ScratchBytesToZero, FillsEachLaunchsBytesEveryLaunch) {
  ScratchInfo info{16, 8, ScratchFill::EachLaunch};
  ScratchState state{1024, 0};
  EXPECT_EQ(scratchBytesToZero(info, /*allocated=*/true, 600, state), 600u);
  // Only the launch's bytes, not the buffer's, and nothing for none.
  EXPECT_EQ(scratchBytesToZero(info, false, 40, state), 40u);
  EXPECT_EQ(scratchBytesToZero(info, false, 0, state), 0u);
}

TEST(ScratchBytesToZero, FillsNothingUnzeroed) {
  ScratchInfo info{0, 8448, ScratchFill::None};
  ScratchState state{16384, 0};
  EXPECT_EQ(scratchBytesToZero(info, true, 8448, state), 0u);
  EXPECT_EQ(scratchBytesToZero(info, false, 8448, state), 0u);
}

TEST(ScratchBytesToZero, FillsCountersOnlyWhenAllocated) {
  ScratchInfo info{4096, 65536, ScratchFill::Counters};
  ScratchState state{1 << 20, 0};
  EXPECT_EQ(scratchBytesToZero(info, true, 4096 + 2 * 65536, state), 4096u);
  for (int launch = 0; launch < 3; ++launch)
    EXPECT_EQ(scratchBytesToZero(info, false, 4096 + 2 * 65536, state), 0u);
  // A larger grid grows the buffer: its counters are zeroed again.
  state.capacityBytes = 1 << 21;
  EXPECT_EQ(scratchBytesToZero(info, true, 4096 + 20 * 65536, state), 4096u);
}

TEST(ScratchBytesToZero, FillsAnEpochsBufferWholeEveryTwoToTheThirtyLaunches) {
  ScratchInfo info{16, 16, ScratchFill::Epochs};
  ScratchState state{4096, 0};
  // All of the buffer when allocated, whatever the launch uses.
  EXPECT_EQ(scratchBytesToZero(info, true, 64, state), 4096u);
  EXPECT_EQ(state.launchesSinceFill, 1u);
  EXPECT_EQ(scratchBytesToZero(info, false, 64, state), 0u);
  // The launch before the refill still finds the epochs usable...
  state.launchesSinceFill = ScratchInfo::kEpochsPerZeroFill - 1;
  EXPECT_EQ(scratchBytesToZero(info, false, 64, state), 0u);
  EXPECT_EQ(state.launchesSinceFill, ScratchInfo::kEpochsPerZeroFill);
  // ...and the 2^30th after the last fill zeroes the whole buffer first,
  // before the epoch's 30-bit tag could come round to a stale status.
  EXPECT_EQ(scratchBytesToZero(info, false, 64, state), 4096u);
  EXPECT_EQ(state.launchesSinceFill, 1u);
  EXPECT_EQ(scratchBytesToZero(info, false, 64, state), 0u);
  // Growing starts over with a whole fill.
  state.capacityBytes = 8192;
  EXPECT_EQ(scratchBytesToZero(info, true, 5000, state), 8192u);
  EXPECT_EQ(state.launchesSinceFill, 1u);
}

TEST(LaunchMetadata, TheScratchFixturesCarryTheirDocumentedMetadata) {
  // What scratch.ptx holds is checked here, without a GPU, so that a GPU run
  // tests the runtime rather than the fixture.
  for (const LaunchMetadata &m :
       {rt::test::scratchCountMetadata(), rt::test::scratchHugeMetadata(),
        rt::test::thenWriteMetadata(), rt::test::thenReadMetadata()}) {
    std::optional<std::string> text = rt::test::ptxGlobalText(
        rt::test::scratchKernelsPtx(), launchMetadataSymbol(m.kernel));
    ASSERT_TRUE(text) << m.kernel;
    EXPECT_EQ(*text, serialize(m));
    std::string error;
    std::optional<LaunchMetadata> parsed = parseLaunchMetadata(*text, &error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(*parsed, m);
  }
}

TEST(LaunchMetadata, RoundTripsANarrowLine) {
  LaunchMetadata m = tmaMatmul();
  m.smallGrid = {"matmul_bf16__small_grid", 50};
  m.narrow = {{"matmul_bf16__narrow_8", 2, 1, 8}};
  m.scratch = {16, 8};
  std::string text = serialize(m);
  // After `smallgrid`, before `scratch`.
  EXPECT_EQ(text, "tilec-launch 1\n"
                  "kernel matmul_bf16\n"
                  "params buffer:bf16:2 buffer:bf16:2 buffer:f32:2\n"
                  "tensormaps 0:64x128:128 1:64x64:128\n"
                  "fallback matmul_bf16__unaligned\n"
                  "smallgrid matmul_bf16__small_grid 50\n"
                  "narrow matmul_bf16__narrow_8 2.1 8\n"
                  "scratch 16 8\n"
                  "block 128 1 1\n"
                  "grid 2.1/128 2.0/128 -\n"
                  "shared 0\n");
  expectRoundTrip(m, text);
  // Without the other optional lines, and at both ends of the bound's range.
  for (uint64_t atMost : {uint64_t(1), ~uint64_t(0)}) {
    LaunchMetadata plain = rt::test::fillMetadata();
    plain.narrow = {{"fill_narrow", 2, 0, atMost}};
    text = serialize(plain);
    EXPECT_NE(text.find("\nparams scalar:i64 scalar:f32 buffer:f32:1\n"
                        "narrow fill_narrow 2.0 " +
                        std::to_string(atMost) + "\nblock "),
              std::string::npos)
        << text;
    expectRoundTrip(plain, text);
  }
}

TEST(LaunchMetadata, ParsesTextWithoutANarrowLine) {
  // Text written before the line existed still parses, as naming no variant.
  std::string error;
  std::optional<LaunchMetadata> parsed =
      parseLaunchMetadata(serialize(tmaMatmul()), &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_TRUE(parsed->narrow.empty());
  EXPECT_EQ(serialize(*parsed).find("narrow"), std::string::npos);
}

TEST(LaunchMetadata, RoundTripsANarrowLineOnAScalar) {
  // fill's parameters are scalar:i64 scalar:f32 buffer:f32:1: on the i64
  // the line names the argument alone, without `.DIM`.
  LaunchMetadata m = rt::test::fillMetadata();
  m.narrow = {{"fill__decode", 0, std::nullopt, 16}};
  m.scratch = {16, 8};
  std::string text = serialize(m);
  // After `params`, before `scratch`.
  EXPECT_NE(text.find("\nparams scalar:i64 scalar:f32 buffer:f32:1\n"
                      "narrow fill__decode 0 16\nscratch 16 8\nblock "),
            std::string::npos)
      << text;
  expectRoundTrip(m, text);
  // On an i32 too, at both ends of the bound's range; each form is written
  // back as it was read.
  for (uint64_t atMost : {uint64_t(1), ~uint64_t(0)}) {
    std::string i32 = "tilec-launch 1\n"
                      "kernel attn\n"
                      "params buffer:bf16:3 buffer:bf16:3 scalar:i32\n"
                      "narrow attn__decode 2 " +
                      std::to_string(atMost) +
                      "\n"
                      "block 128 1 1\n"
                      "grid 0.0/64 - -\n"
                      "shared 0\n";
    std::string error;
    std::optional<LaunchMetadata> parsed = parseLaunchMetadata(i32, &error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(parsed->narrow, (std::vector<NarrowVariant>{
                                  {"attn__decode", 2, std::nullopt, atMost}}));
    EXPECT_EQ(serialize(*parsed), i32);
  }
}

TEST(LaunchMetadata, NarrowTakesPartInEquality) {
  LaunchMetadata a = tmaMatmul(), b = tmaMatmul();
  a.narrow = b.narrow = {{"narrow", 2, 1, 8}};
  EXPECT_TRUE(a == b);
  b.narrow[0].kernel = "other";
  EXPECT_FALSE(a == b);
  b.narrow = {{"narrow", 0, 1, 8}};
  EXPECT_FALSE(a == b);
  b.narrow = {{"narrow", 2, 0, 8}};
  EXPECT_FALSE(a == b);
  b.narrow = {{"narrow", 2, 1, 16}};
  EXPECT_FALSE(a == b);
  b.narrow = {};
  EXPECT_FALSE(a == b);
  // A scalar's value is not dimension 0 of the same argument.
  b.narrow = {{"narrow", 2, std::nullopt, 8}};
  EXPECT_FALSE(a == b);
  a.narrow = {{"narrow", 2, std::nullopt, 8}};
  EXPECT_TRUE(a == b);
  // Lines in another order are other metadata: the first that holds wins.
  a.narrow = {{"rows", 2, 0, 2}, {"narrow", 2, 1, 8}};
  b.narrow = {{"narrow", 2, 1, 8}, {"rows", 2, 0, 2}};
  EXPECT_FALSE(a == b);
}

TEST(LaunchMetadata, RoundTripsSeveralNarrowLinesInOrder) {
  LaunchMetadata m = tmaMatmul();
  m.narrow = {{"matmul_bf16__vecmat", 2, 0, 2},
              {"matmul_bf16__small_grid", 2, 1, 128},
              {"matmul_bf16__short_k", 0, 1, 64}};
  std::string text = serialize(m);
  EXPECT_NE(text.find("\nnarrow matmul_bf16__vecmat 2.0 2\n"
                      "narrow matmul_bf16__small_grid 2.1 128\n"
                      "narrow matmul_bf16__short_k 0.1 64\n"),
            std::string::npos)
      << text;
  expectRoundTrip(m, text);
}

TEST(LaunchMetadata, RejectsTwoNarrowLinesOnOneExtent) {
  // Lines on the same ARG[.DIM]: the ladder of variants says that.
  std::string text = "tilec-launch 1\n"
                     "kernel mm\n"
                     "params buffer:f32:2 buffer:f32:2 buffer:f32:2\n"
                     "narrow mm__small 2.1 128\n"
                     "narrow mm__gemv 2.1 2\n"
                     "block 128 1 1\n"
                     "grid 2.1/128 2.0/128 -\n"
                     "shared 0\n";
  std::string error;
  EXPECT_FALSE(parseLaunchMetadata(text, &error));
  EXPECT_NE(error.find("two narrow lines choose on argument 2.1"),
            std::string::npos)
      << error;
  // On a scalar's value too.
  text = "tilec-launch 1\n"
         "kernel attn\n"
         "params buffer:bf16:3 scalar:i32\n"
         "narrow attn__decode 1 16\n"
         "narrow attn__tiny 1 2\n"
         "block 128 1 1\n"
         "grid 0.0/64 - -\n"
         "shared 0\n";
  EXPECT_FALSE(parseLaunchMetadata(text, &error));
  EXPECT_NE(error.find("two narrow lines choose on argument 1"),
            std::string::npos)
      << error;
}

TEST(LaunchMetadata, TheNarrowFixturesCarryTheirDocumentedMetadata) {
  // As for scratch.ptx: a GPU run then tests the runtime, not the fixture.
  std::vector<LaunchMetadata> all = rt::test::narrowKernelsMetadata();
  EXPECT_EQ(all.size(), 21u);
  for (const LaunchMetadata &m : all) {
    std::optional<std::string> text = rt::test::ptxGlobalText(
        rt::test::narrowKernelsPtx(), launchMetadataSymbol(m.kernel));
    ASSERT_TRUE(text) << m.kernel;
    EXPECT_EQ(*text, serialize(m));
    std::string error;
    std::optional<LaunchMetadata> parsed = parseLaunchMetadata(*text, &error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(*parsed, m);
    // Each kernel is an entry of the module.
    EXPECT_NE(rt::test::narrowKernelsPtx().find(".visible .entry " + m.kernel +
                                                "("),
              std::string::npos)
        << m.kernel;
  }
  using Lines = std::vector<NarrowVariant>;
  EXPECT_EQ(rt::test::narrowKernelMetadata("nw_wide").narrow,
            (Lines{{"nw_narrow", 0, 1, 8}}));
  EXPECT_EQ(rt::test::narrowKernelMetadata("nw_scalar").narrow,
            (Lines{{"nw_scalar_narrow", 1, std::nullopt, 8}}));
  EXPECT_EQ(rt::test::narrowKernelMetadata("nw_scalar_narrow").narrow,
            (Lines{{"nw_scalar_tiny", 2, std::nullopt, 4}}));
  EXPECT_EQ(rt::test::narrowKernelMetadata("nw_lines").narrow,
            (Lines{{"nw_lines_rows", 0, 0, 2}, {"nw_narrow", 0, 1, 8}}));
  EXPECT_EQ(rt::test::narrowKernelMetadata("nw_unknown"), LaunchMetadata{});
}

TEST(LaunchMetadata, RoundTripsOtherRanksAndNoSwizzle) {
  LaunchMetadata m;
  m.kernel = "k";
  m.params = {{ParamInfo::Kind::Buffer, ScalarType::F32, 1, {}},
              {ParamInfo::Kind::Scalar, ScalarType::I32, 0, {}},
              {ParamInfo::Kind::Buffer, ScalarType::F16, 5, {}}};
  m.tensorMaps = {TensorMapInfo{0, {256}, 0},
                  TensorMapInfo{2, {8, 1, 2, 3, 256}, 0},
                  TensorMapInfo{0, {32}, 128}};
  std::string error;
  std::optional<LaunchMetadata> parsed =
      parseLaunchMetadata(serialize(m), &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(*parsed, m);
  // Without tensor maps or a fallback neither line is written.
  m.tensorMaps.clear();
  EXPECT_EQ(serialize(m).find("tensormaps"), std::string::npos);
  EXPECT_EQ(serialize(m).find("fallback"), std::string::npos);
}

TEST(LaunchMetadata, ToleratesBlankLinesAndExtraSpaces) {
  std::optional<LaunchMetadata> m = parseLaunchMetadata(
      "\n tilec-launch  1\nkernel k\n\nparams   scalar:i32\nblock 64 1 1\n"
      "grid 0/64 - -\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->kernel, "k");
  EXPECT_EQ(m->block[0], 64u);
  EXPECT_EQ(m->sharedBytes, 0u);
}

TEST(LaunchMetadata, ScalarTypeNamesRoundTrip) {
  for (ScalarType t : {ScalarType::I1, ScalarType::I8, ScalarType::I16,
                       ScalarType::I32, ScalarType::I64, ScalarType::F16,
                       ScalarType::BF16, ScalarType::F32, ScalarType::F64})
    EXPECT_EQ(parseScalarType(scalarTypeName(t)), t);
  EXPECT_FALSE(parseScalarType("f8"));
  EXPECT_EQ(scalarTypeSize(ScalarType::BF16), 2u);
  EXPECT_EQ(launchMetadataSymbol("saxpy"), "__tilec_launch_saxpy");
}

struct Malformed {
  const char *why;
  const char *text;
};

class LaunchMetadataRejects : public ::testing::TestWithParam<Malformed> {};

TEST_P(LaunchMetadataRejects, WithAReason) {
  std::string error;
  EXPECT_FALSE(parseLaunchMetadata(GetParam().text, &error))
      << GetParam().why;
  EXPECT_EQ(error.rfind("malformed launch metadata: ", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

#define HEAD "tilec-launch 1\nkernel k\n"
INSTANTIATE_TEST_SUITE_P(
    Cases, LaunchMetadataRejects,
    ::testing::Values(
        Malformed{"empty", ""},
        Malformed{"garbage", "\x01\x02 hello"},
        Malformed{"no header", "kernel k\nblock 1 1 1\ngrid - - -\n"},
        Malformed{"future version", "tilec-launch 2\nkernel k\nblock 1 1 1\n"
                                    "grid - - -\n"},
        Malformed{"no block", HEAD "params\ngrid - - -\n"},
        Malformed{"no grid", HEAD "params\nblock 1 1 1\n"},
        Malformed{"zero block", HEAD "block 0 1 1\ngrid - - -\n"},
        Malformed{"negative block", HEAD "block -1 1 1\ngrid - - -\n"},
        Malformed{"short block", HEAD "block 32 1\ngrid - - -\n"},
        Malformed{"unknown type", HEAD "params scalar:f8\nblock 1 1 1\n"
                                       "grid - - -\n"},
        Malformed{"rank 0 buffer", HEAD "params buffer:f32:0\nblock 1 1 1\n"
                                        "grid - - -\n"},
        Malformed{"strides of another rank",
                  HEAD "params buffer:f32:2:1\nblock 1 1 1\ngrid - - -\n"},
        Malformed{"negative stride",
                  HEAD "params buffer:f32:2:?,-1\nblock 1 1 1\ngrid - - -\n"},
        Malformed{"empty stride",
                  HEAD "params buffer:f32:2:?,\nblock 1 1 1\ngrid - - -\n"},
        Malformed{"stride not a number",
                  HEAD "params buffer:f32:1:x\nblock 1 1 1\ngrid - - -\n"},
        Malformed{"a fifth field",
                  HEAD "params buffer:f32:1:1:1\nblock 1 1 1\ngrid - - -\n"},
        Malformed{"bad kind", HEAD "params tensor:f32:1\nblock 1 1 1\n"
                                   "grid - - -\n"},
        Malformed{"grid arg out of range",
                  HEAD "params buffer:f32:1\nblock 1 1 1\ngrid 1.0/4 - -\n"},
        Malformed{"grid dim out of range",
                  HEAD "params buffer:f32:1\nblock 1 1 1\ngrid 0.1/4 - -\n"},
        Malformed{"dim of a scalar",
                  HEAD "params scalar:i32\nblock 1 1 1\ngrid 0.0/4 - -\n"},
        Malformed{"scalar term on a buffer",
                  HEAD "params buffer:f32:1\nblock 1 1 1\ngrid 0/4 - -\n"},
        Malformed{"zero per-program",
                  HEAD "params buffer:f32:1\nblock 1 1 1\ngrid 0.0/0 - -\n"},
        Malformed{"no divisor",
                  HEAD "params buffer:f32:1\nblock 1 1 1\ngrid 0.0 - -\n"},
        Malformed{"two grid fields",
                  HEAD "params buffer:f32:1\nblock 1 1 1\ngrid 0.0/4 -\n"},
        Malformed{"bad shared", HEAD "block 1 1 1\ngrid - - -\nshared lots\n"},
        Malformed{"unknown line", HEAD "block 1 1 1\ngrid - - -\ncluster 2\n"},
        Malformed{"fallback without a name", HEAD "block 1 1 1\ngrid - - -\n"
                                                  "fallback\n"},
        Malformed{"two fallbacks", HEAD "block 1 1 1\ngrid - - -\n"
                                        "fallback a b\n"},
        Malformed{"own fallback", HEAD "block 1 1 1\ngrid - - -\n"
                                       "fallback k\n"},
        Malformed{"smallgrid without a name or percentage",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid\n"},
        Malformed{"smallgrid without a percentage",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small\n"},
        Malformed{"smallgrid with an extra word",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small 50 1\n"},
        Malformed{"smallgrid of 0 percent",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small 0\n"},
        Malformed{"smallgrid above 100 percent",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small 101\n"},
        Malformed{"smallgrid of negative percent",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small -5\n"},
        Malformed{"smallgrid with a % sign",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small 50%\n"},
        Malformed{"smallgrid with a fraction",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small 0.5\n"},
        Malformed{"smallgrid percentage not a number",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k_small half\n"},
        Malformed{"own smallgrid",
                  HEAD "block 1 1 1\ngrid - - -\nsmallgrid k 50\n"},
        Malformed{"scratch without sizes",
                  HEAD "block 1 1 1\ngrid - - -\nscratch\n"},
        Malformed{"scratch without a per-program size",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16\n"},
        Malformed{"scratch with an extra word",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4 4\n"},
        Malformed{"scratch size not a number",
                  HEAD "block 1 1 1\ngrid - - -\nscratch lots 4\n"},
        Malformed{"scratch per-program size not a number",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 four\n"},
        Malformed{"scratch size in hex",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 0x10 4\n"},
        Malformed{"scratch size with a fraction",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4.0\n"},
        Malformed{"scratch size with a plus sign",
                  HEAD "block 1 1 1\ngrid - - -\nscratch +16 4\n"},
        Malformed{"negative scratch size",
                  HEAD "block 1 1 1\ngrid - - -\nscratch -16 4\n"},
        Malformed{"negative scratch per-program size",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 -4\n"},
        Malformed{"scratch size beyond 64 bits",
                  HEAD "block 1 1 1\ngrid - - -\n"
                       "scratch 18446744073709551616 4\n"},
        Malformed{"scratch size not a multiple of 4",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 18 4\n"},
        Malformed{"scratch per-program size not a multiple of 4",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 6\n"},
        Malformed{"scratch of no bytes",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 0 0\n"},
        Malformed{"scratch with another fourth word",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4 zeroed\n"},
        Malformed{"then without a scratch line",
                  HEAD "block 1 1 1\ngrid - - -\nthen k2\n"},
        Malformed{"then without a kernel",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4\nthen\n"},
        Malformed{"then with two kernels",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4\n"
                       "then k2 k3\n"},
        Malformed{"two then lines",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4\n"
                       "then k2\nthen k3\n"},
        Malformed{"waits with an argument",
                  HEAD "block 1 1 1\ngrid - - -\nwaits 1\n"},
        Malformed{"two waits lines",
                  HEAD "block 1 1 1\ngrid - - -\nwaits\nwaits\n"},
        Malformed{"then naming the kernel itself",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4\nthen k\n"},
        Malformed{"two scratch lines",
                  HEAD "block 1 1 1\ngrid - - -\nscratch 16 4\n"
                       "scratch 16 4\n"},
        Malformed{"a bad scratch line after a good one",
                  HEAD "scratch 16 4\nblock 1 1 1\ngrid - - -\n"
                       "scratch 0 0\n"},
        Malformed{"narrow without a kernel",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow\n"},
        Malformed{"narrow without a bound",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1\n"},
        Malformed{"narrow with an extra word",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1 8 1\n"},
        Malformed{"narrow argument without a dot out of range",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 1 8\n"},
        Malformed{"narrow on a buffer without a dimension",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0 8\n"},
        Malformed{"narrow on a float scalar",
                  HEAD "params scalar:f32\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0 8\n"},
        Malformed{"narrow on an f64 scalar",
                  HEAD "params scalar:f64\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0 8\n"},
        Malformed{"narrow on an i16 scalar, which no launch passes",
                  HEAD "params scalar:i16\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0 8\n"},
        Malformed{"narrow on a dimension of an i32 scalar",
                  HEAD "params scalar:i32\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.0 8\n"},
        Malformed{"narrow scalar argument out of range",
                  HEAD "params scalar:i32\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 1 8\n"},
        Malformed{"narrow scalar argument negative",
                  HEAD "params scalar:i32\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n -1 8\n"},
        Malformed{"narrow scalar argument not a number",
                  HEAD "params scalar:i32\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n a 8\n"},
        Malformed{"narrow scalar bound 0",
                  HEAD "params scalar:i32\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0 0\n"},
        Malformed{"own scalar narrow",
                  HEAD "params scalar:i64\nblock 1 1 1\ngrid - - -\n"
                       "narrow k 0 8\n"},
        Malformed{"narrow dimension with two dots",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1.0 8\n"},
        Malformed{"narrow dimension with an empty DIM",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0. 8\n"},
        Malformed{"narrow dimension with an empty ARG",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n .1 8\n"},
        Malformed{"narrow dimension negative",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.-1 8\n"},
        Malformed{"narrow argument not a number",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n a.1 8\n"},
        Malformed{"narrow argument out of range",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 1.0 8\n"},
        Malformed{"narrow without parameters",
                  HEAD "block 1 1 1\ngrid - - -\nnarrow k_n 0.0 8\n"},
        Malformed{"narrow on a scalar",
                  HEAD "params scalar:i64\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.0 8\n"},
        Malformed{"narrow dimension beyond the rank",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.2 8\n"},
        Malformed{"narrow bound 0",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1 0\n"},
        Malformed{"narrow bound negative",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1 -8\n"},
        Malformed{"narrow bound not a number",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1 eight\n"},
        Malformed{"narrow bound with a fraction",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1 8.5\n"},
        Malformed{"narrow bound beyond 64 bits",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1 18446744073709551616\n"},
        Malformed{"own narrow",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k 0.1 8\n"},
        Malformed{"two narrow lines",
                  HEAD "params buffer:f32:2\nblock 1 1 1\ngrid - - -\n"
                       "narrow k_n 0.1 8\nnarrow k_n 0.1 8\n"},
        Malformed{"a bad narrow line after a good one",
                  HEAD "params buffer:f32:2\nnarrow k_n 0.1 8\n"
                       "block 1 1 1\ngrid - - -\nnarrow k_n 0.1 0\n"},
        Malformed{"tensor map of rank 6",
                  HEAD "params buffer:f32:6\ntensormaps 0:4x1x1x1x1x1:0\n"
                       "block 1 1 1\ngrid - - -\n"}));

// Each case is the `tensormaps` line of a kernel whose parameters are
// buffer:bf16:2 scalar:i32 buffer:f32:1.
class TensorMapRejects : public ::testing::TestWithParam<Malformed> {};

TEST_P(TensorMapRejects, WithAReason) {
  std::string text = std::string("tilec-launch 1\nkernel k\n"
                                 "params buffer:bf16:2 scalar:i32 "
                                 "buffer:f32:1\n"
                                 "tensormaps ") +
                     GetParam().text + "\nblock 1 1 1\ngrid - - -\n";
  std::string error;
  EXPECT_FALSE(parseLaunchMetadata(text, &error)) << GetParam().why;
  EXPECT_EQ(error.rfind("malformed launch metadata: ", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(TensorMapRejects, ButAcceptsTheirValidNeighbours) {
  std::string error;
  EXPECT_TRUE(parseLaunchMetadata("tilec-launch 1\nkernel k\n"
                                  "params buffer:bf16:2 scalar:i32 "
                                  "buffer:f32:1\n"
                                  "tensormaps 0:64x256:128 0:8x1:0 2:32:128 "
                                  "0:16x8:32 0:64x64:128:fit1\n"
                                  "block 1 1 1\ngrid - - -\n",
                                  &error))
      << error;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TensorMapRejects,
    ::testing::Values(
        Malformed{"two fields", "0:64x64"},
        Malformed{"four fields", "0:64x64:128:1"},
        Malformed{"empty box", "0::128"},
        Malformed{"empty extent", "0:64x:128"},
        Malformed{"negative extent", "0:64x-1:128"},
        Malformed{"non-numeric arg", "a:64x64:128"},
        Malformed{"non-numeric swizzle", "0:64x64:big"},
        Malformed{"arg out of range", "3:64x64:128"},
        Malformed{"arg is a scalar", "1:64:0"},
        Malformed{"box rank below buffer rank", "0:64:128"},
        Malformed{"box rank above buffer rank", "0:64x64x1:128"},
        Malformed{"box extent 0", "0:64x0:128"},
        Malformed{"box extent 257", "0:64x257:128"},
        Malformed{"swizzle 16", "0:64x64:16"},
        Malformed{"swizzle 256", "0:64x64:256"},
        Malformed{"inner box wider than the swizzle", "0:128x64:128"},
        Malformed{"inner box wider than a 32B swizzle", "2:16:32"},
        Malformed{"inner box not a multiple of 16 bytes", "0:4x64:0"},
        Malformed{"one bad entry among good ones", "0:64x64:128 0:64x64:48"},
        Malformed{"fitted inner dimension", "0:64x64:128:fit0"},
        Malformed{"fitted dimension beyond the box", "0:64x64:128:fit2"},
        Malformed{"fit without a dimension", "0:64x64:128:fit"},
        Malformed{"fit of a negative dimension", "0:64x64:128:fit-1"},
        Malformed{"fit misspelt", "0:64x64:128:fits1"},
        Malformed{"five fields", "0:64x64:128:fit1:1"}));
#undef HEAD

TEST(LaunchMetadataRejects, SmallGridLinesWithTheirReason) {
  auto error = [](const char *line) {
    std::string why;
    EXPECT_FALSE(parseLaunchMetadata(std::string("tilec-launch 1\nkernel k\n"
                                                 "block 1 1 1\ngrid - - -\n") +
                                         line,
                                     &why));
    return why;
  };
  EXPECT_EQ(error("smallgrid k_small"),
            "malformed launch metadata: smallgrid line 'smallgrid k_small' is "
            "not 'smallgrid KERNEL PERCENT'");
  EXPECT_EQ(error("smallgrid k_small 0"),
            "malformed launch metadata: smallgrid percentage '0' is not in "
            "1..100");
  EXPECT_EQ(error("smallgrid k_small 101"),
            "malformed launch metadata: smallgrid percentage '101' is not in "
            "1..100");
  EXPECT_EQ(error("smallgrid k 50"),
            "malformed launch metadata: kernel 'k' is its own smallgrid "
            "variant");
}

TEST(LaunchMetadataRejects, ScratchLinesWithTheirReason) {
  auto error = [](const char *lines) {
    std::string why;
    EXPECT_FALSE(parseLaunchMetadata(std::string("tilec-launch 1\nkernel k\n"
                                                 "block 1 1 1\ngrid - - -\n") +
                                         lines,
                                     &why));
    return why;
  };
  EXPECT_EQ(error("scratch 16"),
            "malformed launch metadata: scratch line 'scratch 16' is not "
            "'scratch FIXED PER_PROGRAM [unzeroed|counters|epochs]'");
  EXPECT_EQ(error("scratch 16 4 zeroed"),
            "malformed launch metadata: scratch line 'scratch 16 4 zeroed' is "
            "not 'scratch FIXED PER_PROGRAM [unzeroed|counters|epochs]'");
  EXPECT_EQ(error("scratch 16 x"),
            "malformed launch metadata: scratch size 'x' is not a decimal "
            "byte count");
  EXPECT_EQ(error("scratch -16 4"),
            "malformed launch metadata: scratch size '-16' is not a decimal "
            "byte count");
  EXPECT_EQ(error("scratch 16 6"),
            "malformed launch metadata: scratch size '6' is not a multiple "
            "of 4");
  EXPECT_EQ(error("scratch 0 0"),
            "malformed launch metadata: scratch line 'scratch 0 0' asks for "
            "no bytes");
  EXPECT_EQ(error("scratch 16 4\nscratch 8 4"),
            "malformed launch metadata: duplicate scratch line 'scratch 8 "
            "4'");
}

TEST(LaunchMetadataRejects, NarrowLinesWithTheirReason) {
  auto error = [](const char *lines) {
    std::string why;
    EXPECT_FALSE(parseLaunchMetadata(
        std::string("tilec-launch 1\nkernel k\n"
                    "params buffer:f32:2 scalar:i32 scalar:f32\n"
                    "block 1 1 1\ngrid - - -\n") +
            lines,
        &why));
    return why;
  };
  EXPECT_EQ(error("narrow k_n 0.1"),
            "malformed launch metadata: narrow line 'narrow k_n 0.1' is not "
            "'narrow KERNEL ARG[.DIM] MAX'");
  EXPECT_EQ(error("narrow k_n 0.x 8"),
            "malformed launch metadata: narrow argument '0.x' is not 'ARG' "
            "or 'ARG.DIM'");
  EXPECT_EQ(error("narrow k_n 0.1.0 8"),
            "malformed launch metadata: narrow argument '0.1.0' is not 'ARG' "
            "or 'ARG.DIM'");
  EXPECT_EQ(error("narrow k_n x 8"),
            "malformed launch metadata: narrow argument 'x' is not 'ARG' or "
            "'ARG.DIM'");
  EXPECT_EQ(error("narrow k_n 3.0 8"),
            "malformed launch metadata: narrow line refers to argument 3 of "
            "3");
  EXPECT_EQ(error("narrow k_n 3 8"),
            "malformed launch metadata: narrow line refers to argument 3 of "
            "3");
  // A dimension of a scalar.
  EXPECT_EQ(error("narrow k_n 1.0 8"),
            "malformed launch metadata: narrow line refers to argument 1, "
            "which is not a buffer");
  // The value of a buffer, or of a float.
  EXPECT_EQ(error("narrow k_n 0 8"),
            "malformed launch metadata: narrow line refers to argument 0, "
            "which is not an integer scalar");
  EXPECT_EQ(error("narrow k_n 2 8"),
            "malformed launch metadata: narrow line refers to argument 2, "
            "which is not an integer scalar");
  EXPECT_EQ(error("narrow k_n 1 0"),
            "malformed launch metadata: narrow bound '0' is not a decimal "
            "element count of at least 1");
  EXPECT_EQ(error("narrow k 1 8"),
            "malformed launch metadata: kernel 'k' is its own narrow "
            "variant");
  EXPECT_EQ(error("narrow k_n 0.2 8"),
            "malformed launch metadata: narrow line refers to dimension 2 of "
            "argument 0, a rank-2 buffer");
  EXPECT_EQ(error("narrow k_n 0.1 0"),
            "malformed launch metadata: narrow bound '0' is not a decimal "
            "element count of at least 1");
  EXPECT_EQ(error("narrow k_n 0.1 eight"),
            "malformed launch metadata: narrow bound 'eight' is not a "
            "decimal element count of at least 1");
  EXPECT_EQ(error("narrow k 0.1 8"),
            "malformed launch metadata: kernel 'k' is its own narrow "
            "variant");
  // Several lines are each on their own extent (a ladder of variants
  // narrows one extent further).
  EXPECT_EQ(error("narrow k_n 0.1 8\nnarrow k_m 0.1 4"),
            "malformed launch metadata: two narrow lines choose on argument "
            "0.1");
  EXPECT_EQ(error("narrow k_n 0.0 8\nnarrow k_m 0.1 4\nnarrow k_l 0.0 2"),
            "malformed launch metadata: two narrow lines choose on argument "
            "0.0");
  // The second line is checked as the first is.
  EXPECT_EQ(error("narrow k_n 0.0 8\nnarrow k_m 0.2 4"),
            "malformed launch metadata: narrow line refers to dimension 2 of "
            "argument 0, a rank-2 buffer");
}

//===----------------------------------------------------------------------===//
// scratchBytes
//===----------------------------------------------------------------------===//

LaunchMetadata withScratch(uint64_t fixed, uint64_t perProgram) {
  LaunchMetadata m = rt::test::fillMetadata();
  m.scratch = {fixed, perProgram};
  return m;
}

TEST(ScratchBytes, IsFixedPlusPerProgramTimesBlocks) {
  using G = std::array<uint64_t, 3>;
  EXPECT_EQ(scratchBytes(withScratch(16, 4), G{1, 1, 1}), 20u);
  EXPECT_EQ(scratchBytes(withScratch(16, 4), G{100, 1, 1}), 416u);
  EXPECT_EQ(scratchBytes(withScratch(16, 4), G{5, 3, 2}), 16u + 4 * 30);
  EXPECT_EQ(scratchBytes(withScratch(0, 8), G{7, 1, 1}), 56u);
  EXPECT_EQ(scratchBytes(withScratch(12, 0), G{1 << 20, 1, 1}), 12u);
  // The largest grid CUDA launches has just under 2^63 blocks.
  uint64_t blocks = uint64_t(2147483647) * 65535 * 65535;
  EXPECT_EQ(scratchBytes(withScratch(4, 2), G{2147483647u, 65535u, 65535u}),
            4 + 2 * blocks);
}

TEST(ScratchBytes, IsZeroWithoutAScratchLine) {
  EXPECT_EQ(scratchBytes(rt::test::fillMetadata(), {1000, 1, 1}), 0u);
}

TEST(ScratchBytes, CountsNoBlocksOnAnEmptyGrid) {
  using G = std::array<uint64_t, 3>;
  EXPECT_EQ(scratchBytes(withScratch(16, 4), G{0, 1, 1}), 16u);
  // However large the other dimensions: no overflow.
  EXPECT_EQ(scratchBytes(withScratch(16, 4), G{~uint64_t(0), ~uint64_t(0), 0}),
            16u);
}

TEST(ScratchBytes, SaturatesOnOverflow) {
  using G = std::array<uint64_t, 3>;
  constexpr uint64_t kMax = ~uint64_t(0);
  // PER_PROGRAM * blocks overflows.
  EXPECT_EQ(scratchBytes(withScratch(0, uint64_t(1) << 63), G{2, 1, 1}), kMax);
  EXPECT_EQ(scratchBytes(withScratch(4, 4),
                         G{uint64_t(1) << 32, uint64_t(1) << 30, 1}),
            kMax);
  // The grid product alone overflows (2^32 * 2^32 wraps to 0).
  EXPECT_EQ(scratchBytes(withScratch(4, 4),
                         G{uint64_t(1) << 32, uint64_t(1) << 32, 1}),
            kMax);
  EXPECT_EQ(scratchBytes(withScratch(4, 4), G{kMax, kMax, kMax}), kMax);
  EXPECT_EQ(scratchBytes(withScratch(4, 4), G{2147483647u, 65535u, 65535u}),
            kMax);
  // The sum overflows.
  EXPECT_EQ(scratchBytes(withScratch(kMax - 3, 4), G{1, 1, 1}), kMax);
  EXPECT_EQ(scratchBytes(withScratch(uint64_t(1) << 63, uint64_t(1) << 61),
                         G{4, 1, 1}),
            kMax);
  // Just below: no overflow.
  EXPECT_EQ(scratchBytes(withScratch(kMax - 7, 4), G{1, 1, 1}), kMax - 3);
  EXPECT_EQ(scratchBytes(withScratch(0, uint64_t(1) << 62), G{2, 1, 1}),
            uint64_t(1) << 63);
  // A per-program size of 0 never overflows.
  EXPECT_EQ(scratchBytes(withScratch(8, 0), G{kMax, kMax, kMax}), 8u);
}

//===----------------------------------------------------------------------===//
// prefersSmallGrid
//===----------------------------------------------------------------------===//

LaunchMetadata withSmallGrid(unsigned percent) {
  LaunchMetadata m = rt::test::fillMetadata();
  m.smallGrid = {"fill_small", percent};
  return m;
}

using Grid = std::array<uint64_t, 3>;

TEST(PrefersSmallGrid, BelowThePercentageOfTheSms) {
  // 50% of 132 SMs is 66 blocks: 65 is below it, 66 is not.
  LaunchMetadata m = withSmallGrid(50);
  EXPECT_TRUE(prefersSmallGrid(m, Grid{1, 1, 1}, 132));
  EXPECT_TRUE(prefersSmallGrid(m, Grid{65, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{66, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{67, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{4096, 1, 1}, 132));
}

TEST(PrefersSmallGrid, CountsTheBlocksOfAllThreeDimensions) {
  LaunchMetadata m = withSmallGrid(50);
  EXPECT_TRUE(prefersSmallGrid(m, Grid{5, 13, 1}, 132));  // 65
  EXPECT_TRUE(prefersSmallGrid(m, Grid{1, 5, 13}, 132));  // 65
  EXPECT_FALSE(prefersSmallGrid(m, Grid{2, 3, 11}, 132)); // 66
  EXPECT_FALSE(prefersSmallGrid(m, Grid{1, 66, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{1, 1, 66}, 132));
}

TEST(PrefersSmallGrid, CountsASplitGridsXAndYOnly) {
  // z splits the work of the x * y programs: a few tiles with a long K
  // (many splits) are still a few tiles.
  LaunchMetadata m = withSmallGrid(7);
  m.splitBlocksPerSm = 1;
  // 7% of 132 SMs is 9.24 blocks: 9 tiles are below it, 10 are not.
  EXPECT_TRUE(prefersSmallGrid(m, Grid{1, 1, 128}, 132));
  EXPECT_TRUE(prefersSmallGrid(m, Grid{3, 3, 1 << 20}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{5, 2, 1}, 132));
  // An empty split launches nothing.
  EXPECT_FALSE(prefersSmallGrid(m, Grid{1, 1, 0}, 132));
  // Without a split line, z counts.
  m.splitBlocksPerSm = 0;
  EXPECT_FALSE(prefersSmallGrid(m, Grid{1, 1, 128}, 132));
  EXPECT_TRUE(prefersSmallGrid(m, Grid{1, 1, 9}, 132));
}

TEST(PrefersSmallGrid, EqualIsNotBelowWhereTheBoundIsNotWhole) {
  // 33% of 10 SMs is 3.3 blocks: 3 is below, 4 is not.
  EXPECT_TRUE(prefersSmallGrid(withSmallGrid(33), Grid{3, 1, 1}, 10));
  EXPECT_FALSE(prefersSmallGrid(withSmallGrid(33), Grid{4, 1, 1}, 10));
  // 1% of 132 SMs is 1.32 blocks; 100% of 1 SM is 1 block, which 1 is not
  // below.
  EXPECT_TRUE(prefersSmallGrid(withSmallGrid(1), Grid{1, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(withSmallGrid(1), Grid{2, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(withSmallGrid(100), Grid{1, 1, 1}, 1));
  EXPECT_TRUE(prefersSmallGrid(withSmallGrid(100), Grid{131, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(withSmallGrid(100), Grid{132, 1, 1}, 132));
}

TEST(PrefersSmallGrid, NeverForEmptyGrids) {
  LaunchMetadata m = withSmallGrid(50);
  EXPECT_FALSE(prefersSmallGrid(m, Grid{0, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{1, 0, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{1, 1, 0}, 132));
  // However large the other dimensions.
  EXPECT_FALSE(prefersSmallGrid(m, Grid{uint64_t(1) << 40, 1 << 20, 0}, 132));
}

TEST(PrefersSmallGrid, NeverWithoutAVariantOrMultiprocessors) {
  EXPECT_FALSE(prefersSmallGrid(rt::test::fillMetadata(), Grid{1, 1, 1}, 132));
  EXPECT_FALSE(prefersSmallGrid(withSmallGrid(50), Grid{1, 1, 1}, 0));
  EXPECT_FALSE(prefersSmallGrid(withSmallGrid(50), Grid{1, 1, 1}, -1));
  // A hand-made metadata object with a percentage the parser rejects.
  EXPECT_FALSE(prefersSmallGrid(withSmallGrid(0), Grid{1, 1, 1}, 132));
}

TEST(PrefersSmallGrid, DoesNotOverflow) {
  LaunchMetadata m = withSmallGrid(100);
  uint64_t max = ~uint64_t(0);
  EXPECT_FALSE(prefersSmallGrid(m, Grid{max, max, max}, 132));
  EXPECT_FALSE(prefersSmallGrid(m, Grid{(uint64_t(1) << 31) - 1, 65535, 65535},
                                132));
  // 2^32 * 2^32 wraps to 0 in 64 bits, which would be below any bound.
  EXPECT_FALSE(
      prefersSmallGrid(m, Grid{uint64_t(1) << 32, uint64_t(1) << 32, 1}, 132));
  // The largest values a caller can pass.
  LaunchMetadata huge = withSmallGrid(~0u);
  EXPECT_TRUE(prefersSmallGrid(huge, Grid{1 << 20, 1 << 10, 1},
                               std::numeric_limits<int>::max()));
  EXPECT_FALSE(prefersSmallGrid(huge, Grid{max, 2, 1},
                                std::numeric_limits<int>::max()));
}

//===----------------------------------------------------------------------===//
// prefersNarrow
//===----------------------------------------------------------------------===//

NarrowVariant withNarrow(uint64_t atMost) {
  return {"fill_narrow", 2, 0, atMost};
}

TEST(PrefersNarrow, AtMostTheBound) {
  NarrowVariant m = withNarrow(8);
  EXPECT_TRUE(prefersNarrow(m, 1));
  EXPECT_TRUE(prefersNarrow(m, 7));
  EXPECT_TRUE(prefersNarrow(m, 8));
  EXPECT_FALSE(prefersNarrow(m, 9));
  EXPECT_FALSE(prefersNarrow(m, ~uint64_t(0)));
  // An empty buffer is narrow too; the variant's own grid then decides
  // whether anything runs.
  EXPECT_TRUE(prefersNarrow(m, 0));
  // The largest bound takes every extent.
  EXPECT_TRUE(prefersNarrow(withNarrow(~uint64_t(0)), ~uint64_t(0)));
}

TEST(PrefersNarrow, ComparesAScalarsValueTheSameWay) {
  // The runtime passes a non-negative scalar's value as the extent.
  NarrowVariant m{"fill__decode", 0, std::nullopt, 16};
  EXPECT_TRUE(prefersNarrow(m, 0));
  EXPECT_TRUE(prefersNarrow(m, 16));
  EXPECT_FALSE(prefersNarrow(m, 17));
  EXPECT_FALSE(prefersNarrow(m, uint64_t(std::numeric_limits<int64_t>::max())));
}

TEST(PrefersNarrow, NeverWithoutAVariant) {
  EXPECT_FALSE(prefersNarrow(NarrowVariant{}, 0));
  EXPECT_FALSE(prefersNarrow(NarrowVariant{}, 1));
  // A bound without a kernel names no variant.
  NarrowVariant m = withNarrow(8);
  m.kernel.clear();
  EXPECT_FALSE(prefersNarrow(m, 1));
}

} // namespace

namespace {

TEST(LaunchMetadata, RoundTripsAPersistentLine) {
  LaunchMetadata m = tmaMatmul();
  m.persistentBlocksPerSm = 1;
  std::string text = serialize(m);
  EXPECT_NE(text.find("\npersistent 1\n"), std::string::npos) << text;
  expectRoundTrip(m, text);
  LaunchMetadata other = m;
  other.persistentBlocksPerSm = 2;
  EXPECT_FALSE(m == other);
}

TEST(LaunchMetadataRejects, PersistentLinesWithTheirReason) {
  auto error = rejection;
  for (const char *bad : {"persistent", "persistent 0", "persistent 33",
                          "persistent x", "persistent 1 2"})
    EXPECT_EQ(error(bad), std::string("malformed launch metadata: persistent "
                                      "line '") +
                              bad + "' is not 'persistent N' with N in 1..32");
  EXPECT_EQ(error("persistent 1\npersistent 2"),
            "malformed launch metadata: duplicate persistent line "
            "'persistent 2'");
}

TEST(LaunchGrid, IsTheGridItselfWithoutAPersistentLine) {
  LaunchMetadata m = tmaMatmul();
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 132), (Grid{16, 32, 1}));
}

TEST(LaunchGrid, CapsTheTilesOfAllDimensionsAtTheResidentBlocks) {
  LaunchMetadata m = tmaMatmul();
  m.persistentBlocksPerSm = 1;
  // 512 tiles on 132 multiprocessors: 132 blocks in x.
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 132), (Grid{132, 1, 1}));
  // Fewer tiles than blocks: one block a tile.
  EXPECT_EQ(launchGrid(m, Grid{5, 7, 3}, 132), (Grid{105, 1, 1}));
  m.persistentBlocksPerSm = 2;
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 132), (Grid{264, 1, 1}));
  EXPECT_EQ(launchGrid(m, Grid{0, 32, 1}, 132), (Grid{0, 1, 1}));
  // An unknown device: every tile a block.
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 0), (Grid{512, 1, 1}));
}

TEST(ScratchGrid, IsATileAStatusForPersistentKernels) {
  LaunchMetadata m = tmaMatmul();
  m.scratch.fixedBytes = 16;
  m.scratch.bytesPerProgram = 16;
  Grid tiles{65536, 1, 1};
  // Launched: a block a tile.
  Grid launched = launchGrid(m, tiles, 132);
  EXPECT_EQ(scratchGrid(m, tiles, launched), tiles);
  // Persistent: 924 blocks walk 65536 tiles, each tile with its status.
  m.persistentBlocksPerSm = 7;
  launched = launchGrid(m, tiles, 132);
  EXPECT_EQ(launched, (Grid{924, 1, 1}));
  EXPECT_EQ(scratchGrid(m, tiles, launched), tiles);
  EXPECT_EQ(scratchBytes(m, scratchGrid(m, tiles, launched)),
            16u + 16u * 65536u);
  // A split grid (no persistent line) is sized for the splits launched.
  m.persistentBlocksPerSm = 0;
  EXPECT_EQ(scratchGrid(m, Grid{4, 8, 16}, Grid{4, 8, 2}), (Grid{4, 8, 2}));
}

} // namespace

namespace {

TEST(LaunchMetadata, RoundTripsAClusterLine) {
  LaunchMetadata m = tmaMatmul();
  m.persistentBlocksPerSm = 1;
  m.clusterX = 2;
  std::string text = serialize(m);
  EXPECT_NE(text.find("\ncluster 2\n"), std::string::npos) << text;
  expectRoundTrip(m, text);
}

TEST(LaunchMetadataRejects, ClusterLinesWithTheirReason) {
  for (const char *bad : {"persistent 1\ncluster", "persistent 1\ncluster 1",
                          "persistent 1\ncluster 9", "persistent 1\ncluster x"}) {
    std::string line = std::string(bad).substr(std::string(bad).find('\n') + 1);
    EXPECT_EQ(rejection(bad), "malformed launch metadata: cluster line '" +
                                  line +
                                  "' is not 'cluster X' with X in 2..8");
  }
  EXPECT_EQ(rejection("persistent 1\ncluster 2\ncluster 2"),
            "malformed launch metadata: duplicate cluster line 'cluster 2'");
  EXPECT_EQ(rejection("cluster 2"),
            "malformed launch metadata: cluster line without a persistent "
            "line");
}

TEST(LaunchGrid, RoundsPersistentGridsToWholeClusters) {
  LaunchMetadata m = tmaMatmul();
  m.persistentBlocksPerSm = 1;
  m.clusterX = 2;
  // Down from the multiprocessors: 133 SMs hold 66 clusters.
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 133), (Grid{132, 1, 1}));
  // Up from the tiles: 3 tiles take 2 clusters, 1 tile one.
  EXPECT_EQ(launchGrid(m, Grid{3, 1, 1}, 132), (Grid{4, 1, 1}));
  EXPECT_EQ(launchGrid(m, Grid{1, 1, 1}, 132), (Grid{2, 1, 1}));
  // A device with fewer multiprocessors than a cluster still gets one.
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 1), (Grid{2, 1, 1}));
  EXPECT_EQ(launchGrid(m, Grid{0, 1, 1}, 132), (Grid{0, 1, 1}));
}

} // namespace

namespace {

TEST(LaunchMetadata, RoundTripsASplitLine) {
  LaunchMetadata m = tmaMatmul();
  m.splitBlocksPerSm = 1;
  std::string text = serialize(m);
  EXPECT_NE(text.find("\nsplit 1\n"), std::string::npos) << text;
  expectRoundTrip(m, text);
  LaunchMetadata other = m;
  other.splitBlocksPerSm = 2;
  EXPECT_FALSE(m == other);
  // The fewest parts: a second number, printed only above 1.
  m.splitMinParts = 4;
  text = serialize(m);
  EXPECT_NE(text.find("\nsplit 1 4\n"), std::string::npos) << text;
  expectRoundTrip(m, text);
  other = m;
  other.splitMinParts = 1;
  EXPECT_FALSE(m == other);
}

TEST(LaunchMetadataRejects, SplitLinesWithTheirReason) {
  for (const char *bad :
       {"split", "split 0", "split 33", "split x", "split 1 1", "split 1 0",
        "split 1 1025", "split 1 x", "split 1 2 3", "split 0 4"})
    EXPECT_EQ(rejection(bad),
              std::string("malformed launch metadata: split line '") + bad +
                  "' is not 'split N' or 'split N P' with N in 1..32 and P "
                  "in 2..1024");
  EXPECT_EQ(rejection("split 1\nsplit 1"),
            "malformed launch metadata: duplicate split line 'split 1'");
  EXPECT_EQ(rejection("persistent 1\nsplit 1"),
            "malformed launch metadata: split line with a persistent line");
}

TEST(LaunchGrid, CapsASplitZAtTheResidentBlocks) {
  LaunchMetadata m = tmaMatmul();
  m.splitBlocksPerSm = 1;
  // 64 tiles on 132 multiprocessors: 2 splits, not 8.
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 8}, 132), (Grid{8, 8, 2}));
  // 16 tiles: 8 splits; fewer asked for: as many as asked.
  EXPECT_EQ(launchGrid(m, Grid{4, 4, 32}, 132), (Grid{4, 4, 8}));
  EXPECT_EQ(launchGrid(m, Grid{4, 4, 3}, 132), (Grid{4, 4, 3}));
  // At least one split, however many tiles.
  EXPECT_EQ(launchGrid(m, Grid{16, 16, 4}, 132), (Grid{16, 16, 1}));
  EXPECT_EQ(launchGrid(m, Grid{uint64_t(1) << 40, uint64_t(1) << 40, 4}, 132),
            (Grid{uint64_t(1) << 40, uint64_t(1) << 40, 1}));
  // Two blocks a multiprocessor: twice the splits.
  m.splitBlocksPerSm = 2;
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 8}, 132), (Grid{8, 8, 4}));
  // Empty grids stay empty; an unknown device keeps every split.
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 0}, 132), (Grid{8, 8, 0}));
  EXPECT_EQ(launchGrid(m, Grid{0, 8, 8}, 132), (Grid{0, 8, 8}));
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 8}, 0), (Grid{8, 8, 8}));
}

TEST(LaunchGrid, RunsASplitGridUnsplitUnderItsFewestParts) {
  LaunchMetadata m = tmaMatmul();
  m.splitBlocksPerSm = 1;
  m.splitMinParts = 4;
  // Under 4 parts asked for: one split, however many would fit.
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 2}, 132), (Grid{8, 8, 1}));
  EXPECT_EQ(launchGrid(m, Grid{4, 4, 3}, 132), (Grid{4, 4, 1}));
  // 4 or more: capped as before, to 2 where 64 tiles leave room for 2.
  EXPECT_EQ(launchGrid(m, Grid{4, 4, 4}, 132), (Grid{4, 4, 4}));
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 4}, 132), (Grid{8, 8, 2}));
  EXPECT_EQ(launchGrid(m, Grid{4, 4, 32}, 132), (Grid{4, 4, 8}));
  // On an unknown device too; an empty grid stays empty.
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 3}, 0), (Grid{8, 8, 1}));
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 0}, 132), (Grid{8, 8, 0}));
  // An unsplit launch writes its results itself: no then kernel.
  m.then = "combine";
  EXPECT_FALSE(thenRuns(m, launchGrid(m, Grid{8, 8, 3}, 132)));
}

TEST(LaunchGrid, AsksNoMoreBlocksAnSmThanFitThere) {
  LaunchMetadata m = tmaMatmul();
  // Split 2 where one block fits (a GPU with less shared memory): the
  // splits of split 1.
  m.splitBlocksPerSm = 2;
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 8}, 132, 1), (Grid{8, 8, 2}));
  // Two or more fit: as the metadata asks; unknown (0): as asked too.
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 8}, 132, 2), (Grid{8, 8, 4}));
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 8}, 132, 5), (Grid{8, 8, 4}));
  EXPECT_EQ(launchGrid(m, Grid{8, 8, 8}, 132, 0), (Grid{8, 8, 4}));
  // Persistent: the blocks that fit at once, in whole clusters.
  m.splitBlocksPerSm = 0;
  m.persistentBlocksPerSm = 4;
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 132, 3), (Grid{396, 1, 1}));
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 132, 8), (Grid{512, 1, 1}));
  m.clusterX = 2;
  EXPECT_EQ(launchGrid(m, Grid{16, 32, 1}, 131, 1), (Grid{130, 1, 1}));
}

TEST(ThenRuns, AfterEveryLaunchButASplitKernelsUnsplitOne) {
  LaunchMetadata m = tmaMatmul();
  EXPECT_FALSE(thenRuns(m, Grid{8, 8, 2}));
  m.then = "combine";
  EXPECT_TRUE(thenRuns(m, Grid{8, 8, 1}));
  EXPECT_TRUE(thenRuns(m, Grid{8, 8, 0}));
  m.splitBlocksPerSm = 1;
  // The splits' partial results are the then kernel's to merge.
  EXPECT_TRUE(thenRuns(m, Grid{8, 8, 2}));
  // One split wrote its results itself.
  EXPECT_FALSE(thenRuns(m, Grid{8, 8, 1}));
  // No program ran (attention over no keys): the then kernel writes.
  EXPECT_TRUE(thenRuns(m, Grid{8, 8, 0}));
  EXPECT_TRUE(thenRuns(m, Grid{0, 8, 1}));
}

} // namespace
