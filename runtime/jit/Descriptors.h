//===- Descriptors.h - File descriptors of the JIT -------------*- C++ -*-===//
//
// What the JIT's cache files and its compiler's pipes share: writing a
// whole buffer through a descriptor. Private to tilec_jit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_JIT_DESCRIPTORS_H
#define TILEC_RUNTIME_JIT_DESCRIPTORS_H

#include <cerrno>
#include <string_view>

#include <unistd.h>

namespace tilec::rt::detail {

/// Writes all of `bytes` to `fd`, resuming after signals; false if a write
/// fails.
inline bool writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

} // namespace tilec::rt::detail

#endif // TILEC_RUNTIME_JIT_DESCRIPTORS_H
