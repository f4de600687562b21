//===- TestKernels.h - The hand-written test kernels ------------*- C++ -*-===//
//
// Access to kernels.ptx, tma.ptx, smallgrid.ptx, scratch.ptx, dependent.ptx
// and narrow.ptx (embedded at build time) and, when ptxas was found at
// configure time, to the sm_80 and sm_90 cubins of kernels.ptx. See those
// files.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_TEST_TESTKERNELS_H
#define TILEC_RUNTIME_TEST_TESTKERNELS_H

#include "tilec/Runtime/LaunchMetadata.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::rt::test {

/// The PTX text (a valid module image for cuModuleLoadData).
std::string_view kernelsPtx();
/// The PTX text of tma.ptx: kernels with tensor maps, for sm_90 and newer.
std::string_view tmaKernelsPtx();
/// The PTX text of smallgrid.ptx: kernels with small-grid variants.
std::string_view smallGridKernelsPtx();
/// The PTX text of scratch.ptx: kernels with scratch buffers.
std::string_view scratchKernelsPtx();
/// The PTX text of dependent.ptx: a then kernel that waits for the kernel
/// before it, for sm_90 and newer.
std::string_view dependentKernelsPtx();
/// The PTX text of narrow.ptx: kernels with narrow variants.
std::string_view narrowKernelsPtx();
/// The PTX text of faults.ptx: a kernel that traps, one that asks for too
/// much shared memory.
std::string_view faultKernelsPtx();
/// Kernels with aligned arguments and a fallback chain (aligned.ptx).
std::string_view alignedKernelsPtx();
/// The cubin for sm_<arch> (80 or 90), if it was built.
std::optional<std::string_view> kernelsCubin(int arch);

/// The metadata that kernels.ptx embeds for each kernel.
LaunchMetadata saxpyMetadata();
LaunchMetadata iota2dMetadata();
LaunchMetadata fillMetadata();
/// The metadata that scratch.ptx embeds for each kernel.
LaunchMetadata scratchCountMetadata();
LaunchMetadata scratchHugeMetadata();
LaunchMetadata thenWriteMetadata();
LaunchMetadata thenReadMetadata();
/// The metadata that dependent.ptx embeds for each kernel.
LaunchMetadata depWriteMetadata();
LaunchMetadata depReadMetadata();
/// The metadata that narrow.ptx embeds for each of its kernels, in file
/// order.
std::vector<LaunchMetadata> narrowKernelsMetadata();
/// The element of narrowKernelsMetadata() for `kernel`; empty if none.
LaunchMetadata narrowKernelMetadata(std::string_view kernel);

/// The bytes up to the first NUL of `.global .b8 symbol[N] = {...}` in PTX
/// text, as the driver would load them; nullopt where there is no such
/// initialised array. Lets CPU tests check the metadata of the fixtures.
std::optional<std::string> ptxGlobalText(std::string_view ptx,
                                         std::string_view symbol);

} // namespace tilec::rt::test

#endif // TILEC_RUNTIME_TEST_TESTKERNELS_H
