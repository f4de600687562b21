//===- TestKernels.cpp - The hand-written test kernels --------------------===//

#include "TestKernels.h"

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
  return {ParamInfo::Kind::Buffer, type, rank};
}
ParamInfo scalar(ScalarType type) { return {ParamInfo::Kind::Scalar, type, 0}; }
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

} // namespace tilec::rt::test
