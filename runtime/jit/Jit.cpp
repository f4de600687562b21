//===- Jit.cpp - Compile tile source at run time --------------------------===//

#include "tilec/Runtime/Jit.h"

#include "Descriptors.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilec::rt {

namespace {

//===----------------------------------------------------------------------===//
// Keys and entries
//===----------------------------------------------------------------------===//

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t fnv1a(std::string_view bytes, uint64_t hash = kFnvOffset) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= kFnvPrime;
  }
  return hash;
}

std::string hex16(uint64_t value) {
  static const char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4)
    out[i] = digits[value & 15];
  return out;
}

// An entry is: magic, payload size (u64), FNV-1a of the payload (u64),
// payload. rename() already makes entries whole; the checksum also catches
// files damaged later (a full disk, a crashed copy) so that they are
// recompiled instead of handed to the driver.
constexpr char kMagic[8] = {'T', 'I', 'L', 'E', 'C', 'J', 'T', '1'};
constexpr size_t kHeaderSize = 24;

std::string encodeEntry(const std::string &payload) {
  std::string out(kHeaderSize, '\0');
  uint64_t size = payload.size(), sum = fnv1a(payload);
  std::memcpy(&out[0], kMagic, 8);
  std::memcpy(&out[8], &size, 8);
  std::memcpy(&out[16], &sum, 8);
  return out + payload;
}

std::optional<std::string> decodeEntry(const std::string &file) {
  if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, 8) != 0)
    return std::nullopt;
  uint64_t size, sum;
  std::memcpy(&size, &file[8], 8);
  std::memcpy(&sum, &file[16], 8);
  if (size != file.size() - kHeaderSize)
    return std::nullopt;
  std::string payload = file.substr(kHeaderSize);
  if (fnv1a(payload) != sum)
    return std::nullopt;
  return payload;
}

std::optional<std::string> readEntry(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string file((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  return decodeEntry(file);
}

/// Writes `payload` as the entry `path` in `dir`; false if it could not.
bool writeEntry(const std::string &dir, const std::string &path,
                const std::string &payload) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // mkstemp makes a name no other thread or process uses; being in the same
  // directory as the entry keeps rename() atomic (same file system).
  std::string temp = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0)
    return false;
  ::fchmod(fd, 0644);
  bool ok = detail::writeAll(fd, encodeEntry(payload));
  ok = ::close(fd) == 0 && ok;
  ok = ok && ::rename(temp.c_str(), path.c_str()) == 0;
  if (!ok)
    ::unlink(temp.c_str());
  return ok;
}

//===----------------------------------------------------------------------===//
// The process-wide cache state
//===----------------------------------------------------------------------===//

struct Counters {
  std::atomic<uint64_t> hits{0}, misses{0}, joined{0}, writeFailures{0};
};

struct CacheState {
  std::mutex mutex;
  /// Compilations in progress, by entry path.
  std::map<std::string, std::shared_future<std::string>> inFlight;
  Counters counters;
};

CacheState &cacheState() {
  static CacheState state;
  return state;
}

std::string compileOrThrow(std::string_view source,
                           const CompileOptions &options,
                           const detail::CompileFn &compile) {
  CompileResult result = compile(source, options);
  if (!result.ok)
    throw Error("JIT compilation of '" + options.bufferName + "' for " +
                options.arch + " failed:\n" + result.diagnostics);
  if (result.output.empty())
    throw Error("JIT compilation of '" + options.bufferName +
                "' produced no cubin");
  return std::move(result.output);
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

std::string jitCacheKey(std::string_view source,
                        const CompileOptions &options) {
  // Each field ends with a NUL so that no two field lists hash the same
  // bytes (e.g. arch "sm_8" + "0..." vs "sm_80" + "...").
  uint64_t h = kFnvOffset;
  std::string optLevel = std::to_string(options.optLevel);
  for (std::string_view field :
       {std::string_view(versionString()), std::string_view(options.arch),
        std::string_view(optLevel), source}) {
    h = fnv1a(field, h);
    h = fnv1a(std::string_view("\0", 1), h);
  }
  return hex16(h);
}

std::string jitCacheDirectory() {
  if (const char *dir = std::getenv("TILEC_CACHE_DIR"); dir && *dir) {
    if (std::string_view(dir) == "off")
      return {};
    return dir;
  }
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tilec";
  return "/tmp/tilec-cache";
}

JitCacheStats jitCacheStats() {
  const Counters &c = cacheState().counters;
  JitCacheStats stats;
  stats.hits = c.hits;
  stats.misses = c.misses;
  stats.joined = c.joined;
  stats.writeFailures = c.writeFailures;
  return stats;
}

std::string detail::compileCachedWith(std::string_view source,
                                      const CompileOptions &options,
                                      const CompileFn &compile) {
  CompileOptions opts = options;
  opts.emit = EmitKind::Cubin;
  CacheState &state = cacheState();
  std::string dir = jitCacheDirectory();
  if (dir.empty()) {
    ++state.counters.misses;
    return compileOrThrow(source, opts, compile);
  }
  std::string path = dir + "/" + jitCacheKey(source, opts) + ".cubin";

  std::promise<std::string> promise;
  {
    std::unique_lock<std::mutex> lock(state.mutex);
    auto it = state.inFlight.find(path);
    if (it != state.inFlight.end()) {
      std::shared_future<std::string> pending = it->second;
      lock.unlock();
      ++state.counters.joined;
      return pending.get(); // rethrows the compile error, if any
    }
    if (std::optional<std::string> cached = readEntry(path)) {
      ++state.counters.hits;
      return std::move(*cached);
    }
    ++state.counters.misses;
    state.inFlight.emplace(path, promise.get_future().share());
  }

  // Compile outside the lock: other keys proceed meanwhile.
  auto finish = [&] {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.inFlight.erase(path);
  };
  std::string cubin;
  try {
    cubin = compileOrThrow(source, opts, compile);
  } catch (...) {
    promise.set_exception(std::current_exception());
    finish();
    throw;
  }
  // Written before the key leaves inFlight, so that a later request finds
  // either the pending compilation or the entry.
  if (!writeEntry(dir, path, cubin))
    ++state.counters.writeFailures;
  promise.set_value(cubin);
  finish();
  return cubin;
}

/// TILEC_JIT_TIMEOUT in milliseconds: 600 s unless set; 0, no limit.
static std::chrono::milliseconds jitTimeout() {
  const char *value = std::getenv("TILEC_JIT_TIMEOUT");
  if (!value || !*value)
    return std::chrono::seconds(600);
  char *end = nullptr;
  errno = 0;
  long long seconds = std::strtoll(value, &end, 10);
  if (errno != 0 || *end != '\0' || seconds < 0 ||
      seconds > std::numeric_limits<int32_t>::max())
    throw Error(std::string("TILEC_JIT_TIMEOUT must be a whole number of "
                            "seconds (0: no limit), got '") +
                value + "'");
  return std::chrono::seconds(seconds);
}

std::string compileCached(std::string_view source,
                          const CompileOptions &options) {
  const char *inProcess = std::getenv("TILEC_JIT_IN_PROCESS");
  if (inProcess && std::string_view(inProcess) == "1")
    return detail::compileCachedWith(source, options, &tilec::compile);
  std::chrono::milliseconds limit = jitTimeout();
  return detail::compileCachedWith(
      source, options,
      [limit](std::string_view s, const CompileOptions &o) {
        return detail::compileInChild(s, o, &tilec::compile, limit);
      });
}

std::string archForDevice(const Device &device) {
  if (device.ccMajor == 9 && device.ccMinor == 0)
    return "sm_90a";
  if (device.ccMajor == 8)
    return "sm_80";
  throw Error("tilec has no target for " + device.name +
              " (compute capability " + std::to_string(device.ccMajor) + "." +
              std::to_string(device.ccMinor) +
              "); it compiles for sm_80 (8.x) and sm_90a (9.0)");
}

Module jitLoad(const Context &ctx, std::string_view source,
               const JitOptions &options) {
  CompileOptions compile;
  compile.arch =
      options.arch.empty() ? archForDevice(ctx.device()) : options.arch;
  compile.optLevel = options.optLevel;
  compile.bufferName = options.bufferName;
  return Module::loadData(ctx, compileCached(source, compile));
}

} // namespace tilec::rt
