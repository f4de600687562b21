//===- TestKernels.cpp - The hand-written test kernels --------------------===//

#include "TestKernels.h"

#include "kAlignedKernelsPtx.inc"
#include "kDependentKernelsPtx.inc"
#include "kFaultKernelsPtx.inc"
#include "kNarrowKernelsPtx.inc"
#include "kScratchKernelsPtx.inc"
#include "kSmallGridKernelsPtx.inc"
#include "kTestKernelsPtx.inc"
#include "kTmaKernelsPtx.inc"
#ifdef TILEC_TEST_HAVE_CUBINS
#include "kTestKernelsSm80.inc"
#include "kTestKernelsSm90.inc"
#endif

namespace tilec::rt::test {

namespace {
std::string_view bytesOf(const unsigned char *data, unsigned long size) {
  return std::string_view(reinterpret_cast<const char *>(data), size);
}

ParamInfo buffer(ScalarType type, unsigned rank) {
  return {ParamInfo::Kind::Buffer, type, rank, {}};
}
ParamInfo scalar(ScalarType type) {
  return {ParamInfo::Kind::Scalar, type, 0, {}};
}
} // namespace

std::string_view kernelsPtx() {
  return bytesOf(kTestKernelsPtx, kTestKernelsPtxSize);
}

std::string_view tmaKernelsPtx() {
  return bytesOf(kTmaKernelsPtx, kTmaKernelsPtxSize);
}

std::string_view smallGridKernelsPtx() {
  return bytesOf(kSmallGridKernelsPtx, kSmallGridKernelsPtxSize);
}

std::string_view scratchKernelsPtx() {
  return bytesOf(kScratchKernelsPtx, kScratchKernelsPtxSize);
}

std::string_view dependentKernelsPtx() {
  return bytesOf(kDependentKernelsPtx, kDependentKernelsPtxSize);
}

std::string_view narrowKernelsPtx() {
  return bytesOf(kNarrowKernelsPtx, kNarrowKernelsPtxSize);
}

std::string_view faultKernelsPtx() {
  return bytesOf(kFaultKernelsPtx, kFaultKernelsPtxSize);
}

std::string_view alignedKernelsPtx() {
  return bytesOf(kAlignedKernelsPtx, kAlignedKernelsPtxSize);
}

std::optional<std::string_view> kernelsCubin(int arch) {
#ifdef TILEC_TEST_HAVE_CUBINS
  if (arch == 80)
    return bytesOf(kTestKernelsSm80, kTestKernelsSm80Size);
  if (arch == 90)
    return bytesOf(kTestKernelsSm90, kTestKernelsSm90Size);
#endif
  (void)arch;
  return std::nullopt;
}

LaunchMetadata saxpyMetadata() {
  LaunchMetadata m;
  m.kernel = "saxpy";
  m.params = {scalar(ScalarType::F32), buffer(ScalarType::F32, 1),
              buffer(ScalarType::F32, 1), buffer(ScalarType::F32, 1)};
  m.block = {256, 1, 1};
  m.grid[0] = {GridTerm{1, 0, 256}};
  return m;
}

LaunchMetadata iota2dMetadata() {
  LaunchMetadata m;
  m.kernel = "iota2d";
  m.params = {buffer(ScalarType::I32, 2)};
  m.block = {32, 8, 1};
  m.grid[0] = {GridTerm{0, 1, 32}};
  m.grid[1] = {GridTerm{0, 0, 8}};
  m.sharedBytes = 65536;
  return m;
}

LaunchMetadata fillMetadata() {
  LaunchMetadata m;
  m.kernel = "fill";
  m.params = {scalar(ScalarType::I64), scalar(ScalarType::F32),
              buffer(ScalarType::F32, 1)};
  m.block = {128, 1, 1};
  m.grid[0] = {GridTerm{0, std::nullopt, 128}};
  return m;
}

LaunchMetadata scratchCountMetadata() {
  LaunchMetadata m;
  m.kernel = "scratch_count";
  m.params = {scalar(ScalarType::I64), buffer(ScalarType::I32, 1)};
  m.block = {64, 1, 1};
  m.grid[0] = {GridTerm{0, std::nullopt, 64}};
  m.scratch = {16, 4};
  return m;
}

LaunchMetadata thenWriteMetadata() {
  LaunchMetadata m;
  m.kernel = "then_write";
  m.params = {scalar(ScalarType::I64), buffer(ScalarType::I32, 1)};
  m.block = {32, 1, 1};
  m.grid[0] = {GridTerm{0, std::nullopt, 32}};
  m.scratch = {0, 128};
  m.then = "then_read";
  return m;
}

LaunchMetadata thenReadMetadata() {
  LaunchMetadata m = thenWriteMetadata();
  m.kernel = "then_read";
  m.scratch = {4, 0};
  m.then.clear();
  return m;
}

LaunchMetadata depWriteMetadata() {
  LaunchMetadata m = thenWriteMetadata();
  m.kernel = "dep_write";
  m.scratch = {0, 128, ScratchFill::None};
  m.then = "dep_read";
  return m;
}

LaunchMetadata depReadMetadata() {
  LaunchMetadata m = depWriteMetadata();
  m.kernel = "dep_read";
  m.scratch = {4, 0, ScratchFill::None};
  m.then.clear();
  m.waitsForPrevious = true;
  return m;
}

LaunchMetadata scratchHugeMetadata() {
  LaunchMetadata m;
  m.kernel = "scratch_huge";
  m.params = {scalar(ScalarType::I64)};
  m.grid[0] = {GridTerm{0, std::nullopt, 1}};
  m.scratch = {4, uint64_t(1) << 63};
  return m;
}

namespace {
/// A narrow.ptx kernel over one i32 matrix: x blocks of `columnsPerProgram`
/// threads over its columns, one y block per row; or, with 0, a kernel that
/// is never launched (one thread, one block).
LaunchMetadata matrixKernel(const char *name, unsigned columnsPerProgram) {
  LaunchMetadata m;
  m.kernel = name;
  m.params = {buffer(ScalarType::I32, 2)};
  if (columnsPerProgram == 0)
    return m;
  m.block = {columnsPerProgram, 1, 1};
  m.grid[0] = {GridTerm{0, 1, columnsPerProgram}};
  m.grid[1] = {GridTerm{0, 0, 1}};
  return m;
}

/// `m` with a narrow variant on the columns (dimension 1) of its matrix.
LaunchMetadata narrowing(LaunchMetadata m, const char *variant,
                         uint64_t atMost) {
  m.narrow = {{variant, 0, 1, atMost}};
  return m;
}

/// A narrow.ptx kernel over one i32 matrix followed by a scalar:i32 and a
/// scalar:i64, with a narrow variant on the value of scalar `arg` (1 or 2)
/// if `variant` is given.
LaunchMetadata scalarKernel(const char *name, unsigned columnsPerProgram,
                            const char *variant = nullptr, unsigned arg = 0,
                            uint64_t atMost = 0) {
  LaunchMetadata m = matrixKernel(name, columnsPerProgram);
  m.params.push_back(scalar(ScalarType::I32));
  m.params.push_back(scalar(ScalarType::I64));
  if (variant)
    m.narrow = {{variant, arg, std::nullopt, atMost}};
  return m;
}
} // namespace

std::vector<LaunchMetadata> narrowKernelsMetadata() {
  LaunchMetadata twoParams = matrixKernel("nw_two_params", 0);
  twoParams.params.push_back(scalar(ScalarType::I64));
  LaunchMetadata sg = matrixKernel("nw_sg", 32);
  sg.smallGrid = {"nw_tiny", 100};
  LaunchMetadata backNarrow = matrixKernel("nw_back_narrow", 32);
  backNarrow.smallGrid = {"nw_back", 100};
  // On the rows first, then on the columns.
  LaunchMetadata lines =
      narrowing(matrixKernel("nw_lines", 128), "nw_narrow", 8);
  lines.narrow.insert(lines.narrow.begin(), {"nw_lines_rows", 0, 0, 2});
  LaunchMetadata loopA = matrixKernel("nw_loop_a", 0);
  loopA.narrow = {{"nw_loop_b", 0, 0, 4}};
  return {
      narrowing(matrixKernel("nw_wide", 128), "nw_narrow", 8),
      narrowing(matrixKernel("nw_narrow", 32), "nw_tiny", 2),
      matrixKernel("nw_tiny", 32),
      narrowing(matrixKernel("nw_grid", 128), "nw_sg", 8),
      sg,
      narrowing(matrixKernel("nw_back", 128), "nw_back_narrow", 8),
      backNarrow,
      narrowing(matrixKernel("nw_other_params", 0), "nw_two_params", 8),
      twoParams,
      narrowing(matrixKernel("nw_cycle_a", 0), "nw_cycle_b", 8),
      narrowing(matrixKernel("nw_cycle_b", 0), "nw_cycle_a", 8),
      narrowing(matrixKernel("nw_wider", 0), "nw_narrow", 1),
      narrowing(matrixKernel("nw_deep", 0), "nw_cycle_a", 16),
      narrowing(matrixKernel("nw_missing", 0), "nw_nonexistent", 8),
      scalarKernel("nw_scalar", 128, "nw_scalar_narrow", 1, 8),
      scalarKernel("nw_scalar_narrow", 32, "nw_scalar_tiny", 2, 4),
      scalarKernel("nw_scalar_tiny", 32),
      lines,
      matrixKernel("nw_lines_rows", 32),
      loopA,
      narrowing(matrixKernel("nw_loop_b", 0), "nw_loop_a", 4),
  };
}

LaunchMetadata narrowKernelMetadata(std::string_view kernel) {
  for (LaunchMetadata &m : narrowKernelsMetadata())
    if (m.kernel == kernel)
      return m;
  return {};
}

std::optional<std::string> ptxGlobalText(std::string_view ptx,
                                         std::string_view symbol) {
  size_t at = ptx.find(".b8 " + std::string(symbol) + "[");
  if (at == std::string_view::npos)
    return std::nullopt;
  size_t open = ptx.find('{', at), close = ptx.find('}', at);
  if (open == std::string_view::npos || close == std::string_view::npos ||
      close < open)
    return std::nullopt;
  std::string text;
  std::string list(ptx.substr(open + 1, close - open - 1));
  for (size_t pos = 0; pos < list.size();) {
    size_t used = 0;
    int byte = std::stoi(list.substr(pos), &used);
    if (byte == 0)
      return text;
    text += static_cast<char>(byte);
    pos += used;
    pos = list.find(',', pos);
    pos = pos == std::string::npos ? list.size() : pos + 1;
  }
  return text;
}

} // namespace tilec::rt::test
