//===- LaunchMetadataTest.cpp - The launch metadata text format -----------===//

#include "TestKernels.h"
#include "tilec/Runtime/LaunchMetadata.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

TEST(LaunchMetadata, RoundTripsEveryField) {
  LaunchMetadata m;
  m.kernel = "matmul_bf16";
  m.params = {{ParamInfo::Kind::Buffer, ScalarType::BF16, 2},
              {ParamInfo::Kind::Buffer, ScalarType::BF16, 2},
              {ParamInfo::Kind::Buffer, ScalarType::F32, 2},
              {ParamInfo::Kind::Scalar, ScalarType::I64, 0},
              {ParamInfo::Kind::Scalar, ScalarType::F16, 0}};
  m.block = {128, 2, 1};
  m.grid[0] = {GridTerm{2, 0, 128}, GridTerm{3, std::nullopt, 4}};
  m.grid[1] = {GridTerm{2, 1, 256}};
  m.sharedBytes = 196608;
  std::string text = serialize(m);
  std::string error;
  std::optional<LaunchMetadata> parsed = parseLaunchMetadata(text, &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(*parsed, m);
  EXPECT_EQ(serialize(*parsed), text);
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
        Malformed{"unknown line", HEAD "block 1 1 1\ngrid - - -\ncluster 2\n"}));
#undef HEAD

} // namespace
