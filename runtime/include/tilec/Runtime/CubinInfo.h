//===- CubinInfo.h - Inspect a cubin without a GPU --------------*- C++ -*-===//
//
// Reads the ELF64 container of a cubin to list its kernels with their register
// count and static shared memory, and the tilec launch metadata it carries, so
// that tools can describe compiled kernels on machines without a driver.
//
// Two cubin layouts exist (both seen with ptxas 13.0). For sm_80 the register
// count is the top byte of sh_info of `.text.<kernel>` and `.nv.shared.<kernel>`
// is the kernel's own static shared memory. For sm_90 and later that byte is
// 0, the count is an EIATTR_REGCOUNT attribute in `.nv.info`, and the cubin
// has a `.nv.shared.reserved.0` section: every `.nv.shared.<kernel>` then also
// holds the 1 KiB the driver reserves per block (ptxas -v reports 40000 bytes
// smem for a 41024-byte section).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_CUBININFO_H
#define TILEC_RUNTIME_CUBININFO_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::rt {

struct CubinKernel {
  std::string name;
  /// Registers per thread: EIATTR_REGCOUNT, else sh_info >> 24 of
  /// `.text.<name>`.
  unsigned registers = 0;
  /// The kernel's static shared memory, as ptxas -v reports it: the size of
  /// `.nv.shared.<name>` less the reserved part; 0 when absent.
  uint64_t staticSharedBytes = 0;
  /// The size of `.nv.shared.<name>` itself.
  uint64_t sharedSectionBytes = 0;
  /// Whether the cubin defines `__tilec_launch_<name>`.
  bool hasLaunchMetadata = false;
};

struct CubinLaunchSymbol {
  /// The full symbol name, `__tilec_launch_<kernel>`.
  std::string symbol;
  /// The symbol's initial bytes up to the first NUL, when they lie in the
  /// file (an initialised global); empty otherwise.
  std::string text;
};

struct CubinInfo {
  /// Per-block shared memory reserved by the system that the `.nv.shared.*`
  /// sections include (1024 for sm_90 and later, else 0).
  static constexpr uint64_t kReservedSharedBytes = 1024;

  std::vector<CubinKernel> kernels;
  std::vector<CubinLaunchSymbol> launchSymbols;

  const CubinKernel *findKernel(std::string_view name) const;
};

/// Parses `bytes` as a little-endian ELF64 cubin. Never reads out of bounds:
/// malformed input yields nullopt and, if `error` is given, the reason.
std::optional<CubinInfo> parseCubin(std::string_view bytes,
                                    std::string *error = nullptr);

/// Reads and parses a file; a read failure is reported like a parse failure.
std::optional<CubinInfo> parseCubinFile(const std::string &path,
                                        std::string *error = nullptr);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_CUBININFO_H
