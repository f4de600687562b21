//===- CompilerTest.cpp - The compiler library API ------------------------===//

#include "tilec/Compiler/Compiler.h"
#include "tilec/Runtime/CubinInfo.h"
#include "tilec/Runtime/LaunchMetadata.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <cstdlib>

namespace {

constexpr const char *kScale = R"mlir(
tile.kernel @scale(%a: f32, %x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 256>],
                num_warps = 2} {
  %pid = tile.program_id x : index
  %c256 = arith.constant 256 : index
  %off = arith.muli %pid, %c256 : index
  %t = tile.load %x[%off] : memref<?xf32> -> tensor<256xf32>
  %s = tile.splat %a : f32 -> tensor<256xf32>
  %r = arith.mulf %t, %s : tensor<256xf32>
  tile.store %r, %x[%off] : tensor<256xf32>, memref<?xf32>
  tile.return
}
)mlir";

tilec::CompileOptions options(tilec::EmitKind emit,
                              std::string arch = "sm_90a") {
  tilec::CompileOptions o;
  o.emit = emit;
  o.arch = std::move(arch);
  o.bufferName = "scale.mlir";
  return o;
}

/// Compiling `source` to PTX fails with a diagnostic holding `expected`.
void expectCompileError(const std::string &source, const std::string &expected) {
  tilec::CompileResult r =
      tilec::compile(source, options(tilec::EmitKind::PTX));
  EXPECT_FALSE(r.ok) << source;
  EXPECT_NE(r.diagnostics.find(expected), std::string::npos) << r.diagnostics;
}

bool hasPtxas() {
  const char *home = std::getenv("CUDA_HOME");
  std::string path = std::string(home ? home : "/usr/local/cuda") + "/bin/ptxas";
  return std::system(("test -x " + path + " || command -v ptxas >/dev/null")
                         .c_str()) == 0;
}

TEST(Compiler, EmitsPtxWithLaunchMetadata) {
  tilec::CompileResult r = tilec::compile(kScale, options(tilec::EmitKind::PTX));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.output.find(".target sm_90a"), std::string::npos);
  EXPECT_NE(r.output.find(".visible .entry scale("), std::string::npos);
  EXPECT_NE(r.output.find("__tilec_launch_scale"), std::string::npos);
  EXPECT_NE(r.output.find(".maxntid 64, 1, 1"), std::string::npos);
}

// The dump folder keeps the IR after every pass, each PTX partition and
// ptxas's verbose log.
TEST(Compiler, LeavesItsStagesInTheDumpFolder) {
  if (!hasPtxas())
    GTEST_SKIP() << "no ptxas";
  std::string dir = ::testing::TempDir() + "tilec-dump-test";
  std::filesystem::remove_all(dir);
  tilec::CompileOptions o = options(tilec::EmitKind::Cubin);
  o.dumpDirectory = dir;
  tilec::CompileResult r = tilec::compile(kScale, o);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  auto read = [&](const std::string &name) {
    std::ifstream in(dir + "/" + name);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_NE(read("passes.mlir").find("IR Dump After TileMapWarps"),
            std::string::npos);
  EXPECT_NE(read("ptx-0.ptx").find(".entry scale"), std::string::npos);
  EXPECT_NE(read("ptxas.log").find("Used"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Compiler, HonoursTheArch) {
  tilec::CompileResult r =
      tilec::compile(kScale, options(tilec::EmitKind::PTX, "sm_80"));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.output.find(".target sm_80"), std::string::npos);
}

TEST(Compiler, EmitsLlvmIrAndMlir) {
  tilec::CompileResult llvm =
      tilec::compile(kScale, options(tilec::EmitKind::LLVM));
  ASSERT_TRUE(llvm.ok) << llvm.diagnostics;
  EXPECT_NE(llvm.output.find("define ptx_kernel void @scale("),
            std::string::npos);
  tilec::CompileResult mlir =
      tilec::compile(kScale, options(tilec::EmitKind::MLIR));
  ASSERT_TRUE(mlir.ok) << mlir.diagnostics;
  EXPECT_NE(mlir.output.find("llvm.func @scale("), std::string::npos);
  EXPECT_EQ(mlir.output.find("tile."), mlir.output.find("tile.grid"))
      << "only the grid attribute of the tile dialect may remain";
}

TEST(Compiler, CubinCarriesParsableLaunchMetadata) {
  if (!hasPtxas())
    GTEST_SKIP() << "no ptxas";
  tilec::CompileResult r =
      tilec::compile(kScale, options(tilec::EmitKind::Cubin));
  ASSERT_TRUE(r.ok) << r.diagnostics;
  std::string error;
  std::optional<tilec::rt::CubinInfo> info =
      tilec::rt::parseCubin(r.output, &error);
  ASSERT_TRUE(info) << error;
  const tilec::rt::CubinKernel *kernel = info->findKernel("scale");
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->hasLaunchMetadata);
  ASSERT_EQ(info->launchSymbols.size(), 1u);
  std::optional<tilec::LaunchMetadata> meta =
      tilec::parseLaunchMetadata(info->launchSymbols[0].text, &error);
  ASSERT_TRUE(meta) << error;
  EXPECT_EQ(meta->kernel, "scale");
  EXPECT_EQ(meta->block[0], 64u);
  ASSERT_EQ(meta->params.size(), 2u);
  EXPECT_EQ(meta->params[0].kind, tilec::ParamInfo::Kind::Scalar);
  EXPECT_EQ(meta->params[1].kind, tilec::ParamInfo::Kind::Buffer);
  ASSERT_EQ(meta->grid[0].size(), 1u);
  EXPECT_EQ(meta->grid[0][0].perProgram, 256);
}

/// A bf16 matmul description: a main kernel and its variants.
constexpr const char *kMatmul = R"mlir(
tile.matmul @mm a(row) b(col)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
)mlir";

TEST(Compiler, ProducerWarpMakesMatmulsPersistentWithWarpRoles) {
  if (!hasPtxas())
    GTEST_SKIP() << "no ptxas";
  auto mainKernel = [&](bool producerWarp) {
    tilec::CompileOptions o = options(tilec::EmitKind::Cubin);
    o.producerWarp = producerWarp;
    tilec::CompileResult r = tilec::compile(kMatmul, o);
    EXPECT_TRUE(r.ok) << r.diagnostics;
    std::optional<tilec::rt::CubinInfo> info = tilec::rt::parseCubin(r.output);
    EXPECT_TRUE(info);
    std::optional<tilec::LaunchMetadata> meta;
    for (const tilec::rt::CubinLaunchSymbol &sym : info->launchSymbols)
      if (sym.symbol == tilec::launchMetadataSymbol("mm"))
        meta = tilec::parseLaunchMetadata(sym.text);
    EXPECT_TRUE(meta);
    return meta.value_or(tilec::LaunchMetadata());
  };
  tilec::LaunchMetadata plain = mainKernel(false);
  EXPECT_EQ(plain.block[0], 256u);
  EXPECT_EQ(plain.persistentBlocksPerSm, 0u);
  // The 256 tile threads and a producer warp; one block a multiprocessor
  // walks the tiles.
  tilec::LaunchMetadata roles = mainKernel(true);
  EXPECT_EQ(roles.block[0], 288u);
  EXPECT_EQ(roles.persistentBlocksPerSm, 1u);
  EXPECT_EQ(roles.grid, plain.grid);
}

/// The kernels of a cubin, sorted.
std::vector<std::string> kernelsOf(const std::string &cubin) {
  std::optional<tilec::rt::CubinInfo> info = tilec::rt::parseCubin(cubin);
  EXPECT_TRUE(info);
  std::vector<std::string> names;
  if (info)
    for (const tilec::rt::CubinKernel &k : info->kernels)
      names.push_back(k.name);
  std::sort(names.begin(), names.end());
  return names;
}

// The JIT compiles the main kernels first and each variant on first need.
TEST(Compiler, CompilesTheKernelsItIsAskedFor) {
  if (!hasPtxas())
    GTEST_SKIP() << "no ptxas";
  tilec::CompileOptions o = options(tilec::EmitKind::Cubin);
  tilec::CompileResult all = tilec::compile(kMatmul, o);
  ASSERT_TRUE(all.ok) << all.diagnostics;
  EXPECT_EQ(
      kernelsOf(all.output),
      (std::vector<std::string>{
          "mm", "mm__few_rows", "mm__few_rows_sum", "mm__few_rows_thin",
          "mm__few_rows_thin_sum", "mm__few_rows_wide", "mm__gemv",
          "mm__small_grid", "mm__split_k", "mm__split_k_sum", "mm__vecmat"}));
  o.mainKernelsOnly = true;
  tilec::CompileResult main = tilec::compile(kMatmul, o);
  ASSERT_TRUE(main.ok) << main.diagnostics;
  EXPECT_EQ(kernelsOf(main.output), (std::vector<std::string>{"mm"}));
  o.mainKernelsOnly = false;
  o.kernels = {"mm__small_grid"};
  tilec::CompileResult one = tilec::compile(kMatmul, o);
  ASSERT_TRUE(one.ok) << one.diagnostics;
  EXPECT_EQ(kernelsOf(one.output),
            (std::vector<std::string>{"mm__small_grid"}));
  // A kernel comes with its then kernel.
  o.kernels = {"mm__split_k"};
  tilec::CompileResult split = tilec::compile(kMatmul, o);
  ASSERT_TRUE(split.ok) << split.diagnostics;
  EXPECT_EQ(kernelsOf(split.output),
            (std::vector<std::string>{"mm__split_k", "mm__split_k_sum"}));
  o.kernels = {"mm__nope"};
  tilec::CompileResult none = tilec::compile(kMatmul, o);
  EXPECT_FALSE(none.ok);
  EXPECT_NE(none.diagnostics.find("no kernel named 'mm__nope' to keep"),
            std::string::npos)
      << none.diagnostics;
}

TEST(Compiler, ReportsLocatedParseErrors) {
  tilec::CompileResult r =
      tilec::compile("tile.kernel @k(\n", options(tilec::EmitKind::PTX));
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.output.empty());
  EXPECT_NE(r.diagnostics.find("scale.mlir:1:"), std::string::npos)
      << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("error:"), std::string::npos);
}

TEST(Compiler, ReportsAnInputWithNothingToCompile) {
  for (const char *source : {"", "// only a comment\n", "module {}\n"})
    expectCompileError(source, "nothing to compile");
}

TEST(Compiler, ReportsTwoDeviceModules) {
  expectCompileError("gpu.module @a {}\ngpu.module @b {}\n",
                     "expected at most one gpu.module, got 2");
}

// MLIR 22's parser would crash on it.
TEST(Compiler, ReportsAnIndexArrayAtItsLocation) {
  constexpr const char *source = R"mlir(
tile.kernel @k(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                foo = array< index: 1, 2>} {
  tile.return
}
)mlir";
  expectCompileError(source, "scale.mlir:4:23: error: array<index: ...> "
                             "attributes are not accepted");
  // Other arrays, strings and comments parse.
  tilec::CompileResult fine = tilec::compile(
      "tile.kernel @k(%x: memref<?xf32>) attributes {grid = "
      "[#tile.grid<arg = 0, dim = 0, per_program = 1>], a = array<i64: 1>, "
      "b = \"array<index: 1>\"} { // array<index: 2>\n  tile.return\n}\n",
      options(tilec::EmitKind::PTX));
  EXPECT_EQ(fine.diagnostics.find("not accepted"), std::string::npos)
      << fine.diagnostics;
}

// The lexer skips NUL bytes and comments between tokens, and so must the
// guard (found by tilec-fuzz: `array\0\0<index: 1, 2>` crashed).
TEST(Compiler, ReportsAnIndexArraySplitByWhatTheLexerSkips) {
  std::string head = "tile.kernel @k(%x: memref<?xf32>) attributes {grid = "
                     "[#tile.grid<arg = 0, dim = 0, per_program = 1>], a = ";
  std::string tail = " 1, 2>} {\n  tile.return\n}\n";
  using namespace std::string_literals; // "\0"s keeps the NULs
  for (std::string between : {"array\0\0<index:"s, "array<\0index:"s,
                              "array // <\n < // x\n index:"s}) {
    SCOPED_TRACE(between);
    expectCompileError(head + between + tail,
                       "array<index: ...> attributes are not accepted");
  }
}

/// A kernel whose body nests `depth` scf.if regions.
static std::string nestedIfs(int depth) {
  std::string source = "tile.kernel @k(%x: memref<?xf32>) attributes {grid = "
                       "[#tile.grid<arg = 0, dim = 0, per_program = 1>]} {\n"
                       "  %t = arith.constant true\n";
  for (int i = 0; i < depth; ++i)
    source += "scf.if %t {\n";
  for (int i = 0; i < depth; ++i)
    source += "}\n";
  return source + "  tile.return\n}\n";
}

// 10,000 levels overflowed the parser's stack; the bound leaves every real
// program (and 250 levels) alone.
TEST(Compiler, BoundsTheNestingDepth) {
  expectCompileError(nestedIfs(10000),
                     "scale.mlir:258:11: error: nested more than 256 levels "
                     "deep");
  tilec::CompileResult deep =
      tilec::compile(nestedIfs(250), options(tilec::EmitKind::PTX));
  EXPECT_TRUE(deep.ok) << deep.diagnostics;
  // Brackets in comments and strings do not count.
  tilec::CompileResult quoted = tilec::compile(
      "// " + std::string(300, '{') + "\ntile.kernel @k(%x: memref<?xf32>) "
      "attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>], "
      "s = \"" + std::string(300, '[') + "\"} {\n  tile.return\n}\n",
      options(tilec::EmitKind::PTX));
  EXPECT_TRUE(quoted.ok) << quoted.diagnostics;
}

// MLIR 22's canonicalizer would crash on it.
TEST(Compiler, ReportsANegativeDimIndex) {
  constexpr const char *source = R"mlir(
tile.kernel @k(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  %c = arith.constant -1 : index
  %n = memref.dim %x, %c : memref<?xf32>
  tile.return
}
)mlir";
  expectCompileError(source, "scale.mlir:5:8: error: 'memref.dim' op index "
                             "-1 is out of range for a rank-1 memref");
}

TEST(Compiler, ReportsVerifierErrorsWithTheirLine) {
  constexpr const char *source = R"mlir(
tile.kernel @bad(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 200>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : memref<?xf32> -> tensor<200xf32>
  tile.return
}
)mlir";
  tilec::CompileResult r = tilec::compile(source, options(tilec::EmitKind::PTX));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("scale.mlir:5:8: error:"), std::string::npos)
      << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("tile dimensions must be powers of two"),
            std::string::npos);
}

TEST(Compiler, ReportsLoweringErrors) {
  constexpr const char *dot = R"mlir(
tile.kernel @d(%x: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 16>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<?x?xf32> -> tensor<16x16xf32>
  %d = tile.dot %t, %t, %t : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32>, memref<?x?xf32>
  tile.return
}
)mlir";
  tilec::CompileResult r = tilec::compile(dot, options(tilec::EmitKind::PTX));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("scale.mlir:6:8: error: 'tile.dot' op cannot map a "
                               "16x16 f32 dot onto 128 threads"),
            std::string::npos)
      << r.diagnostics;
}

TEST(Compiler, RejectsBadOptions) {
  tilec::CompileResult arch =
      tilec::compile(kScale, options(tilec::EmitKind::PTX, "sm_70"));
  EXPECT_FALSE(arch.ok);
  EXPECT_NE(arch.diagnostics.find("unsupported arch 'sm_70'"),
            std::string::npos);
  tilec::CompileOptions o = options(tilec::EmitKind::PTX);
  o.optLevel = 5;
  tilec::CompileResult opt = tilec::compile(kScale, o);
  EXPECT_FALSE(opt.ok);
  EXPECT_NE(opt.diagnostics.find("optimisation level must be 0..3"),
            std::string::npos);
}

TEST(Compiler, IsDeterministic) {
  tilec::CompileResult a = tilec::compile(kScale, options(tilec::EmitKind::PTX));
  tilec::CompileResult b = tilec::compile(kScale, options(tilec::EmitKind::PTX));
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_EQ(a.output, b.output);
}

TEST(Compiler, VersionNamesMlir) {
  EXPECT_NE(std::string(tilec::versionString()).find("MLIR 22"),
            std::string::npos);
}

} // namespace
