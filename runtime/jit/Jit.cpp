//===- Jit.cpp - Compile tile source at run time --------------------------===//

#include "tilec/Runtime/Jit.h"

#include "tilec/Pipeline/Pipeline.h"

#include "Descriptors.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <system_error>
#include <vector>

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilec::rt {

namespace {

//===----------------------------------------------------------------------===//
// Hashing
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

std::string hexBytes(const unsigned char *bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

//===----------------------------------------------------------------------===//
// What produced a cubin: the compiler's build and the ptxas it runs
//===----------------------------------------------------------------------===//

/// "path size mtime" of the file at `path` (following links), or "" if it
/// cannot be stat()ed. A rebuilt or reinstalled file changes size or mtime.
std::string fileIdentity(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return {};
  return path + " " + std::to_string(st.st_size) + " " +
         std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

size_t alignUp(size_t n, size_t align) {
  return (n + align - 1) / align * align;
}

/// The NT_GNU_BUILD_ID of a note segment, as hex; "" if it has none.
std::string buildIdInNotes(const char *notes, size_t size, size_t align) {
  size_t pos = 0;
  while (pos + sizeof(ElfW(Nhdr)) <= size) {
    ElfW(Nhdr) note;
    std::memcpy(&note, notes + pos, sizeof note);
    // Offsets from the segment's start, which is aligned: the padding makes
    // the descriptor and the next note aligned, not the name's length.
    size_t name = pos + sizeof note;
    size_t desc = alignUp(name + note.n_namesz, align);
    size_t next = alignUp(desc + note.n_descsz, align);
    if (next > size)
      return {};
    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
        std::memcmp(notes + name, "GNU", 4) == 0)
      return hexBytes(reinterpret_cast<const unsigned char *>(notes + desc),
                      note.n_descsz);
    pos = next;
  }
  return {};
}

/// A loaded object's build-id, read from its mapped notes (no file I/O).
std::string buildIdOf(const dl_phdr_info &object) {
  for (ElfW(Half) i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = object.dlpi_phdr[i];
    if (ph.p_type != PT_NOTE)
      continue;
    const char *notes =
        reinterpret_cast<const char *>(object.dlpi_addr + ph.p_vaddr);
    // Notes are padded to their segment's alignment: 4, or 8 for some.
    std::string id = buildIdInNotes(notes, ph.p_memsz, ph.p_align == 8 ? 8 : 4);
    if (!id.empty())
      return id;
  }
  return {};
}

bool holdsAddress(const dl_phdr_info &object, uintptr_t address) {
  for (ElfW(Half) i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = object.dlpi_phdr[i];
    uintptr_t begin = object.dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && address >= begin &&
        address < begin + ph.p_memsz)
      return true;
  }
  return false;
}

/// The path of a loaded object's file; the main program has no name there.
std::string objectPath(const dl_phdr_info &object) {
  if (object.dlpi_name && *object.dlpi_name)
    return object.dlpi_name;
  std::error_code ec;
  std::filesystem::path exe =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "/proc/self/exe" : exe.string();
}

struct ObjectSearch {
  uintptr_t address;
  std::string identity;
};

int identifyObject(dl_phdr_info *object, size_t, void *data) {
  auto *search = static_cast<ObjectSearch *>(data);
  if (!holdsAddress(*object, search->address))
    return 0;
  std::string id = buildIdOf(*object);
  search->identity =
      !id.empty() ? "build-id " + id : fileIdentity(objectPath(*object));
  return 1; // found: stop
}

/// The build-id of the ELF object (executable or shared library) holding
/// `address`, else its file's path, size and mtime; "" if neither is known.
std::string objectIdentity(const void *address) {
  ObjectSearch search{reinterpret_cast<uintptr_t>(address), {}};
  ::dl_iterate_phdr(identifyObject, &search);
  return search.identity;
}

/// The build of the compiler that makes the cubins. A version string alone
/// would let a rebuilt compiler (same version, different code) serve
/// cubins from the old one. The object holding tilec::compile, and that
/// holding the JIT if it is another one; computed once per process, since
/// loaded objects do not change under a running function.
const std::string &compilerBuildIdentity() {
  static const std::string identity = [] {
    CompileResult (*compileFn)(std::string_view, const CompileOptions &) =
        &tilec::compile;
    std::string compiler =
        objectIdentity(reinterpret_cast<const void *>(compileFn));
    std::string jit =
        objectIdentity(reinterpret_cast<const void *>(&jitCacheKey));
    std::string id = jit == compiler ? compiler : compiler + "\n" + jit;
    // versionString(), also in the key, is then all that is left.
    return id.empty() ? std::string("unknown build") : id;
  }();
  return identity;
}

/// The ptxas the compiler runs: a CUDA upgrade changes the SASS of the same
/// PTX. Path, size and mtime, not `ptxas --version`, which would cost a
/// process start (milliseconds) per process; computed once per process.
const std::string &ptxasIdentity() {
  static const std::string identity = [] {
    std::string path = findCudaToolkit() + "/bin/ptxas";
    std::string id = fileIdentity(path);
    return id.empty() ? path + " (missing)" : id;
  }();
  return identity;
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

// An entry is: magic, payload size (u64), FNV-1a of the payload (u64),
// payload. rename() already makes entries whole; the checksum also catches
// files damaged later (a full disk, a crashed copy) so that they are
// recompiled instead of handed to the driver.
constexpr char kMagic[8] = {'T', 'I', 'L', 'E', 'C', 'J', 'T', '1'};
constexpr size_t kHeaderSize = 24;
constexpr std::string_view kEntrySuffix = ".cubin";

std::string encodeEntry(const std::string &payload) {
  std::string out(kHeaderSize, '\0');
  uint64_t size = payload.size(), sum = fnv1a(payload);
  std::memcpy(&out[0], kMagic, 8);
  std::memcpy(&out[8], &size, 8);
  std::memcpy(&out[16], &sum, 8);
  return out + payload;
}

/// The payload of the entry `file` (consumed), if it is whole.
std::optional<std::string> decodeEntry(std::string file) {
  if (file.size() < kHeaderSize || std::memcmp(file.data(), kMagic, 8) != 0)
    return std::nullopt;
  uint64_t size, sum;
  std::memcpy(&size, &file[8], 8);
  std::memcpy(&sum, &file[16], 8);
  if (size != file.size() - kHeaderSize)
    return std::nullopt;
  file.erase(0, kHeaderSize);
  if (fnv1a(file) != sum)
    return std::nullopt;
  return file;
}

/// Everything `fd` holds from its current offset; nullopt on a read error.
std::optional<std::string> readAll(int fd, size_t sizeHint) {
  std::string bytes(sizeHint + 1, '\0'); // +1: reaching EOF needs no resize
  size_t used = 0;
  for (;;) {
    if (used == bytes.size())
      bytes.resize(bytes.size() * 2);
    ssize_t n = ::read(fd, &bytes[used], bytes.size() - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return std::nullopt;
    if (n == 0)
      break;
    used += static_cast<size_t>(n);
  }
  bytes.resize(used);
  return bytes;
}

/// The payload of the entry at `path` if it is whole. A hit sets the file's
/// mtime to now, marking it used for least-recently-used eviction (atime
/// would need no write, but noatime and relatime mounts do not keep it).
std::optional<std::string> readEntry(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  struct stat st;
  std::optional<std::string> payload;
  if (::fstat(fd, &st) == 0)
    if (std::optional<std::string> file =
            readAll(fd, static_cast<size_t>(st.st_size)))
      payload = decodeEntry(std::move(*file));
  if (payload)
    ::futimens(fd, nullptr); // best effort: another user's entry may refuse
  ::close(fd);
  return payload;
}

/// Writes `payload` as the entry `path` in `dir`; 0, or the errno of what
/// failed.
int writeEntry(const std::string &dir, const std::string &path,
               const std::string &payload) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return ec.value();
  // mkstemp makes a name no other thread or process uses; being in the same
  // directory as the entry keeps rename() atomic (same file system).
  std::string temp = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0)
    return errno;
  ::fchmod(fd, 0644);
  errno = 0;
  int error = 0;
  if (!detail::writeAll(fd, encodeEntry(payload)))
    error = errno != 0 ? errno : EIO; // a write of 0 bytes sets no errno
  if (::close(fd) != 0 && error == 0)
    error = errno;
  if (error == 0 && ::rename(temp.c_str(), path.c_str()) != 0)
    error = errno;
  if (error != 0)
    ::unlink(temp.c_str());
  return error;
}

//===----------------------------------------------------------------------===//
// The size bound
//===----------------------------------------------------------------------===//

constexpr uint64_t kDefaultMaxBytes = uint64_t(1) << 30;

/// TILEC_CACHE_MAX_BYTES: 1 GiB unless set; 0, no bound.
uint64_t cacheMaxBytes() {
  const char *value = std::getenv("TILEC_CACHE_MAX_BYTES");
  if (!value || !*value)
    return kDefaultMaxBytes;
  char *end = nullptr;
  errno = 0;
  unsigned long long bytes = std::strtoull(value, &end, 10);
  if (errno != 0 || *end != '\0' || *value == '-')
    throw Error(std::string("TILEC_CACHE_MAX_BYTES must be a whole number "
                            "of bytes (0: no bound), got '") +
                value + "'");
  return bytes;
}

struct CacheFile {
  std::string path;
  uint64_t size;
  timespec mtime;
};

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

/// The entries in `dir`. Temporary files are a writer's, not entries; files
/// that vanish while listed (another process evicted them) are skipped.
std::vector<CacheFile> listEntries(const std::string &dir) {
  std::vector<CacheFile> files;
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return files;
  while (const dirent *e = ::readdir(d)) {
    if (!endsWith(e->d_name, kEntrySuffix))
      continue;
    struct stat st;
    if (::fstatat(::dirfd(d), e->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode))
      continue;
    files.push_back(
        {dir + "/" + e->d_name, static_cast<uint64_t>(st.st_size), st.st_mtim});
  }
  ::closedir(d);
  return files;
}

bool usedBefore(const CacheFile &a, const CacheFile &b) {
  if (a.mtime.tv_sec != b.mtime.tv_sec)
    return a.mtime.tv_sec < b.mtime.tv_sec;
  if (a.mtime.tv_nsec != b.mtime.tv_nsec)
    return a.mtime.tv_nsec < b.mtime.tv_nsec;
  return a.path < b.path;
}

/// Removes the least recently used entries of `dir` until they total at
/// most `maxBytes`, never `keep` (the entry just written). Other processes
/// may list and remove at the same time: at worst a few more entries go
/// than needed, and a reader that has one open still reads it whole.
void evictLeastRecentlyUsed(const std::string &dir, const std::string &keep,
                            uint64_t maxBytes) {
  std::vector<CacheFile> files = listEntries(dir);
  uint64_t total = 0;
  for (const CacheFile &f : files)
    total += f.size;
  if (total <= maxBytes)
    return;
  std::sort(files.begin(), files.end(), usedBefore);
  for (const CacheFile &f : files) {
    if (total <= maxBytes)
      break;
    if (f.path == keep)
      continue;
    if (::unlink(f.path.c_str()) == 0 || errno == ENOENT)
      total -= f.size;
  }
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
  /// Directories already reported as unwritable.
  std::set<std::string> reportedDirs;
  Counters counters;
};

CacheState &cacheState() {
  static CacheState state;
  return state;
}

/// Says once (per directory) that entries cannot be written to `dir`. Not
/// an error: the kernels still compile, but every run pays for compiling
/// them again, which the user should hear about once rather than never
/// (silence) or at each kernel (noise).
void reportUnwritable(const std::string &dir, int error) {
  CacheState &state = cacheState();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (!state.reportedDirs.insert(dir).second)
      return;
  }
  std::string line = "tilec: cannot write to the JIT cache directory '" + dir +
                     "' (" + std::generic_category().message(error) +
                     "); the JIT compiles without caching (set "
                     "TILEC_CACHE_DIR to another directory, or to off)\n";
  std::fputs(line.c_str(), stderr);
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

/// Stores a fresh entry, then keeps the directory under its bound.
void store(const std::string &dir, const std::string &path,
           const std::string &cubin, uint64_t maxBytes) {
  if (int error = writeEntry(dir, path, cubin)) {
    ++cacheState().counters.writeFailures;
    reportUnwritable(dir, error);
    return;
  }
  if (maxBytes != 0)
    evictLeastRecentlyUsed(dir, path, maxBytes);
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

std::string jitCacheKey(std::string_view source,
                        const CompileOptions &options) {
  // Each field ends with a NUL so that no two field lists hash the same
  // bytes (e.g. arch "sm_8" + "0..." vs "sm_80" + "..."). bufferName only
  // reaches the cubin with line info (PTX's .file directive); otherwise it
  // only names diagnostics, which are never cached.
  uint64_t h = kFnvOffset;
  std::string optLevel = std::to_string(options.optLevel);
  std::string emit = std::to_string(static_cast<int>(options.emit));
  std::string_view lineInfo = options.lineInfo ? "lineinfo" : "";
  std::string_view alignedCopies =
      options.alignedCopyKernels ? "aligned-copy-kernels" : "";
  std::string_view producerWarp = options.producerWarp ? "producer-warp" : "";
  // Which kernels the cubin holds: every one, the main ones, or the named
  // ones (names cannot hold a comma).
  std::string kernels = options.mainKernelsOnly ? "main-only" : "all";
  if (!options.kernels.empty()) {
    kernels = "only:";
    for (const std::string &name : options.kernels)
      kernels += name + ",";
  }
  std::string_view fileName =
      options.lineInfo ? std::string_view(options.bufferName) : "";
  for (std::string_view field :
       {std::string_view(versionString()),
        std::string_view(compilerBuildIdentity()),
        std::string_view(ptxasIdentity()), std::string_view(options.arch),
        std::string_view(optLevel), std::string_view(emit), lineInfo,
        alignedCopies, producerWarp, std::string_view(kernels),
        std::string_view(options.ptxasOptions),
        fileName,
        source}) {
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

/// TILEC_JIT_FORCE_RECOMPILE=1: compile even what the cache holds (and
/// store the new cubin).
static bool forceRecompile() {
  const char *value = std::getenv("TILEC_JIT_FORCE_RECOMPILE");
  return value && std::string_view(value) == "1";
}

/// TILEC_JIT_DUMP_DIR: each compile leaves its IR after every pass, its
/// PTX and ptxas's log in a subfolder named by its cache key.
static std::string dumpDirectory() {
  const char *value = std::getenv("TILEC_JIT_DUMP_DIR");
  return value ? value : "";
}

std::string detail::compileCachedWith(std::string_view source,
                                      const CompileOptions &options,
                                      const CompileFn &compile) {
  CompileOptions opts = options;
  opts.emit = EmitKind::Cubin;
  CacheState &state = cacheState();
  std::string dir = jitCacheDirectory();
  std::string key = jitCacheKey(source, opts);
  // A dump shows a compile, so it compiles even on a hit.
  bool recompile = forceRecompile();
  if (std::string dump = dumpDirectory(); !dump.empty()) {
    opts.dumpDirectory = dump + "/" + key;
    recompile = true;
  }
  if (dir.empty()) {
    ++state.counters.misses;
    return compileOrThrow(source, opts, compile);
  }
  uint64_t maxBytes = cacheMaxBytes(); // a bad value fails now, not later
  std::string path = dir + "/" + key + std::string(kEntrySuffix);

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
    if (std::optional<std::string> cached =
            recompile ? std::nullopt : readEntry(path)) {
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
  store(dir, path, cubin, maxBytes);
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
  compile.lineInfo = options.lineInfo;
  compile.ptxasOptions = options.ptxasOptions;
  compile.alignedCopyKernels = options.alignedCopyKernels;
  compile.producerWarp = options.producerWarp;
  compile.mainKernelsOnly = options.lazyVariants;
  Module module = Module::loadData(ctx, compileCached(source, compile));
  if (options.lazyVariants) {
    compile.mainKernelsOnly = false;
    module.setKernelImages([compile, text = std::string(source)](
                               const std::string &name) {
      CompileOptions one = compile;
      one.kernels = {name};
      return compileCached(text, one);
    });
  }
  return module;
}

} // namespace tilec::rt
