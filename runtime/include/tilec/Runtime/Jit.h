//===- Jit.h - Compile tile source at run time ------------------*- C++ -*-===//
//
// Compiles tile source in-process with tilec::compile and loads the cubin.
// Cubins are cached on disk so that a program pays for a compilation once:
//
//   directory  $TILEC_CACHE_DIR, else $HOME/.cache/tilec, else
//              /tmp/tilec-cache; TILEC_CACHE_DIR=off disables the cache
//   key        64-bit FNV-1a (16 hex digits) over everything that makes
//              the cubin, so that no entry outlives what made it:
//                - versionString() and the build of the compiler: the GNU
//                  build-id of the ELF object holding tilec::compile (and
//                  of the one holding the JIT, if another), else that
//                  file's path, size and mtime; so a rebuilt compiler
//                  misses even at the same version
//                - the ptxas it runs (findCudaToolkit()/bin/ptxas): path,
//                  size and mtime, so a CUDA upgrade misses
//                - arch, optLevel, emit, lineInfo, ptxasOptions, the
//                  kernels selected (all, the main ones, or named ones),
//                  and bufferName with lineInfo (PTX's .file names it)
//                - the source
//              The first two are computed once per process from memory and
//              stat(), so that a hit costs no process start and no hashing
//              of large files. The file is <dir>/<key>.cubin
//   writes     to a unique temporary file in the same directory, then
//              rename(): readers in any process see a whole entry or none
//   entries    carry their length and checksum; a damaged one is a miss
//   bound      TILEC_CACHE_MAX_BYTES (default 1 GiB; 0: none) over the
//              entries' sizes. A hit sets the entry's mtime to now; after
//              writing an entry, the least recently used others are
//              removed until the rest fit (the new one always stays)
//   failures   an entry that cannot be written (a read-only or missing
//              directory, a full disk) still returns the cubin and counts
//              in writeFailures; the first failure for a directory prints
//              one line on stderr, naming it and the OS error
//
// Within a process, concurrent requests for the same key compile once and
// share the result; different keys compile in parallel.
//
// Each compilation runs in a child process (fork()), so that a crash, an
// abort or a hang inside the compiler becomes an Error carrying the
// compiler's message rather than the end of the caller:
//   TILEC_JIT_TIMEOUT      seconds a compilation may run (default 600; 0:
//                          no limit); past it the child is killed
//   TILEC_JIT_IN_PROCESS=1 compiles in the caller's process instead (for a
//                          debugger)
//
// Debugging a compile:
//   TILEC_JIT_DUMP_DIR=D       each compile leaves D/<cache key>/ holding
//                              passes.mlir (the IR after every pass), the
//                              PTX (ptx-N.ptx, one per partition) and
//                              ptxas.log (ptxas -v); it compiles even what
//                              the cache holds
//   TILEC_JIT_FORCE_RECOMPILE=1  compile even what the cache holds (the
//                              new cubin replaces the entry)
//   JitOptions::lineInfo       source lines in PTX and SASS (profilers)
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_JIT_H
#define TILEC_RUNTIME_JIT_H

#include "tilec/Compiler/Compiler.h"
#include "tilec/Runtime/Runtime.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tilec::rt {

/// The cache key of `source` compiled with `options` by this build of the
/// compiler and the ptxas it runs (see the top of this file).
std::string jitCacheKey(std::string_view source, const CompileOptions &options);

/// The cache directory the environment selects; empty when disabled.
std::string jitCacheDirectory();

/// Process-wide counters, for tests and tools.
struct JitCacheStats {
  /// Served from disk.
  uint64_t hits = 0;
  /// Not on disk (or disabled): compiled here.
  uint64_t misses = 0;
  /// Waited for the same key being compiled by another thread.
  uint64_t joined = 0;
  /// Entries that could not be written (the result was still returned;
  /// the first failure for a directory is reported on stderr).
  uint64_t writeFailures = 0;
};
JitCacheStats jitCacheStats();

/// Compiles `source` to a cubin (options.emit is ignored) through the disk
/// cache. Needs no GPU. Throws Error with the compiler's diagnostics if the
/// source does not compile (compile errors are not cached), or if
/// TILEC_CACHE_MAX_BYTES or TILEC_JIT_TIMEOUT is not a whole number.
std::string compileCached(std::string_view source,
                          const CompileOptions &options);

/// The arch tilec compiles for on `device`: sm_90a for compute capability
/// 9.0, sm_80 for 8.x. Throws Error for devices tilec has no target for.
std::string archForDevice(const Device &device);

struct JitOptions {
  /// Empty: archForDevice() of the context's device.
  std::string arch;
  int optLevel = 3;
  /// The name diagnostics use for the source (and, with lineInfo, PTX's
  /// .file directive).
  std::string bufferName = "<jit>";
  /// Source line numbers in PTX and SASS, for Nsight Compute's source view.
  bool lineInfo = false;
  /// Further ptxas options, space-separated.
  std::string ptxasOptions;
  /// Element-copy twins and every cp.async width for kernels copied by the
  /// threads (tilec --aligned-copy-kernels).
  bool alignedCopyKernels = false;
  /// Warpgroup-MMA matmuls get a producer warp and walk their tiles
  /// persistently in clusters of two blocks (tilec --producer-warp, on by
  /// default).
  bool producerWarp = true;
  /// Compile a description's main kernels at load and each variant
  /// (per-thread-copy twins, small-grid, narrow and decode kernels) when a
  /// launch first selects it, each through the cache
  /// (Module::setKernelImages): a launch pays for the code it runs.
  bool lazyVariants = true;
};

/// Compiles (through the cache) and loads `source` on `ctx`.
Module jitLoad(const Context &ctx, std::string_view source,
               const JitOptions &options = {});

/// jitLoad with fixed options, for code that compiles many sources.
class JitCompiler {
public:
  explicit JitCompiler(JitOptions options = {}) : options_(std::move(options)) {}

  const JitOptions &options() const { return options_; }
  Module load(const Context &ctx, std::string_view source) const {
    return jitLoad(ctx, source, options_);
  }
  /// Loads `source` and looks up its kernel `name`.
  Kernel kernel(const Context &ctx, std::string_view source,
                const std::string &name) const {
    return Kernel(load(ctx, source), name);
  }

private:
  JitOptions options_;
};

namespace detail {
using CompileFn =
    std::function<CompileResult(std::string_view, const CompileOptions &)>;
/// compileCached with another compiler, so that the cache can be tested on
/// its own.
std::string compileCachedWith(std::string_view source,
                              const CompileOptions &options,
                              const CompileFn &compile);
/// Runs `compile` in a child process and returns its result. Throws Error
/// if the child crashes or exits without a result (with what it wrote to
/// stderr), or runs past `limit` (then it is killed; 0: no limit).
CompileResult compileInChild(std::string_view source,
                             const CompileOptions &options,
                             const CompileFn &compile,
                             std::chrono::milliseconds limit);
} // namespace detail

} // namespace tilec::rt

#endif // TILEC_RUNTIME_JIT_H
