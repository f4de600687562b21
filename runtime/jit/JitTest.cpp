//===- JitTest.cpp - The JIT and its disk cache ---------------------------===//
//
// The cache tests run the cache with a fake compiler (detail::
// compileCachedWith), so that they check the cache alone, exactly and fast;
// the JitCompiler tests run the real one.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CubinInfo.h"
#include "tilec/Runtime/Jit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tilec;
using namespace tilec::rt;
namespace fs = std::filesystem;

namespace {

//===----------------------------------------------------------------------===//
// Tile sources for the real compiler: adjust here if the syntax changes.
//===----------------------------------------------------------------------===//

/// y[i] = x[i] for a 1-D f32 buffer, 256 elements per program.
constexpr const char *kCopySource = R"(
tile.kernel @copy(%x: memref<?xf32>, %y: memref<?xf32>) attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>], num_warps = 2} {
  %pid = tile.program_id x : index
  %c256 = arith.constant 256 : index
  %off = arith.muli %pid, %c256 : index
  %t = tile.load %x[%off] : memref<?xf32> -> tensor<256xf32>
  tile.store %t, %y[%off] : tensor<256xf32>, memref<?xf32>
  tile.return
}
)";
constexpr const char *kCopyKernel = "copy";
constexpr unsigned kCopyThreads = 64; // num_warps = 2
constexpr const char *kInvalidSource = "tile.kernel @bad(";

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

CompileOptions opts(std::string arch = "sm_90a", int optLevel = 3) {
  CompileOptions o;
  o.arch = std::move(arch);
  o.optLevel = optLevel;
  return o;
}

/// Points TILEC_CACHE_DIR at a fresh directory for one test and restores
/// the environment afterwards.
class CacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    saveEnv("TILEC_CACHE_DIR", savedCacheDir_);
    saveEnv("HOME", savedHome_);
    saveEnv("TILEC_CACHE_MAX_BYTES", savedMaxBytes_);
    std::string tmpl = (fs::temp_directory_path() / "tilec-jit-test.XXXXXX");
    ASSERT_TRUE(::mkdtemp(tmpl.data()));
    dir_ = tmpl;
    ::setenv("TILEC_CACHE_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    restoreEnv("TILEC_CACHE_DIR", savedCacheDir_);
    restoreEnv("HOME", savedHome_);
    restoreEnv("TILEC_CACHE_MAX_BYTES", savedMaxBytes_);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  static void saveEnv(const char *name, std::optional<std::string> &out) {
    if (const char *v = std::getenv(name))
      out = v;
  }
  static void restoreEnv(const char *name,
                         const std::optional<std::string> &value) {
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }

  /// Files in the cache directory.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const fs::directory_entry &e : fs::directory_iterator(dir_))
      names.push_back(e.path().filename());
    return names;
  }
  std::string entryPath(std::string_view source,
                        const CompileOptions &options) const {
    return dir_ + "/" + jitCacheKey(source, options) + ".cubin";
  }

  /// The entry files in the cache directory, sorted.
  std::vector<std::string> entrySet() const {
    std::vector<std::string> names = entries();
    std::sort(names.begin(), names.end());
    return names;
  }
  std::vector<std::string> entryNames(std::vector<std::string> sources) const {
    std::vector<std::string> names;
    for (const std::string &source : sources)
      names.push_back(jitCacheKey(source, opts()) + ".cubin");
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string dir_;
  std::optional<std::string> savedCacheDir_, savedHome_, savedMaxBytes_;
};

/// Sets the mtime of `path` to `secondsAgo` seconds before now.
void setAge(const std::string &path, int secondsAgo) {
  timespec now;
  ::clock_gettime(CLOCK_REALTIME, &now);
  timespec times[2] = {now, now};
  times[1].tv_sec -= secondsAgo;
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

/// The mtime of `path`, in nanoseconds.
int64_t mtimeOf(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return -1;
  return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

/// A stand-in compiler: the "cubin" names its inputs; `@bad(` fails.
struct FakeCompiler {
  std::atomic<int> calls{0};
  std::chrono::milliseconds delay{0};

  detail::CompileFn fn() {
    return [this](std::string_view source, const CompileOptions &options) {
      ++calls;
      std::this_thread::sleep_for(delay);
      CompileResult r;
      if (source.find("@bad(") != std::string_view::npos) {
        r.diagnostics = options.bufferName + ":1:18: error: expected ')'\n";
        return r;
      }
      r.ok = true;
      r.output = "CUBIN " + options.arch + " O" +
                 std::to_string(options.optLevel) + " " + std::string(source);
      return r;
    };
  }
};

/// The Error message of `fn()`, or "" if it threw none.
template <typename Fn> std::string errorOf(Fn fn) {
  try {
    fn();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

/// Runs `fn(i)` on `n` threads released together, so that they overlap.
template <typename Fn> void onThreads(int n, Fn fn) {
  std::mutex m;
  std::condition_variable cv;
  bool go = false;
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return go; });
      }
      fn(i);
    });
  {
    std::lock_guard<std::mutex> lock(m);
    go = true;
  }
  cv.notify_all();
  for (std::thread &t : threads)
    t.join();
}

//===----------------------------------------------------------------------===//
// Keys and directories
//===----------------------------------------------------------------------===//

TEST(JitCacheKey, HashesVersionArchOptLevelAndSource) {
  std::string key = jitCacheKey("src", opts());
  EXPECT_EQ(key.size(), 16u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(jitCacheKey("src", opts()), key);
  EXPECT_NE(jitCacheKey("src ", opts()), key);
  EXPECT_NE(jitCacheKey("src", opts("sm_90")), key);
  EXPECT_NE(jitCacheKey("src", opts("sm_80")), key);
  EXPECT_NE(jitCacheKey("src", opts("sm_90a", 2)), key);
  // Field boundaries matter: moving a character between fields changes it.
  EXPECT_NE(jitCacheKey("0src", opts("sm_8")), jitCacheKey("src", opts("sm_80")));
}

TEST(JitCacheKey, CoversEveryOptionThatReachesTheCubin) {
  CompileOptions base = opts();
  std::string key = jitCacheKey("src", base);
  auto keyWith = [](auto change) {
    CompileOptions o = opts();
    change(o);
    return jitCacheKey("src", o);
  };
  std::string lineInfo = keyWith([](CompileOptions &o) { o.lineInfo = true; });
  EXPECT_NE(lineInfo, key);
  EXPECT_NE(keyWith([](CompileOptions &o) { o.ptxasOptions = "-v"; }), key);
  EXPECT_NE(keyWith([](CompileOptions &o) { o.alignedCopyKernels = true; }),
            key);
  EXPECT_NE(keyWith([](CompileOptions &o) { o.producerWarp = false; }), key);
  EXPECT_NE(keyWith([](CompileOptions &o) { o.producerWarp = false; }),
            keyWith([](CompileOptions &o) { o.alignedCopyKernels = true; }));
  EXPECT_NE(
      keyWith([](CompileOptions &o) { o.ptxasOptions = "--maxrregcount=128"; }),
      keyWith([](CompileOptions &o) { o.ptxasOptions = "--maxrregcount=64"; }));
  EXPECT_NE(keyWith([](CompileOptions &o) { o.emit = EmitKind::PTX; }), key);
  EXPECT_NE(keyWith([](CompileOptions &o) { o.emit = EmitKind::LLVM; }),
            keyWith([](CompileOptions &o) { o.emit = EmitKind::PTX; }));
  // The buffer name reaches the cubin only through line info's .file.
  EXPECT_EQ(keyWith([](CompileOptions &o) { o.bufferName = "a.mlir"; }), key);
  EXPECT_NE(keyWith([](CompileOptions &o) {
              o.lineInfo = true;
              o.bufferName = "a.mlir";
            }),
            lineInfo);
  // The kernels the cubin holds: all, the main ones, or named ones.
  std::string mainOnly =
      keyWith([](CompileOptions &o) { o.mainKernelsOnly = true; });
  EXPECT_NE(mainOnly, key);
  std::string named =
      keyWith([](CompileOptions &o) { o.kernels = {"mm__small_grid"}; });
  EXPECT_NE(named, key);
  EXPECT_NE(named, mainOnly);
  EXPECT_NE(keyWith([](CompileOptions &o) { o.kernels = {"a", "b"}; }),
            keyWith([](CompileOptions &o) { o.kernels = {"ab"}; }));
  // Stable: the same options give the same key, call after call.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(jitCacheKey("src", base), key);
    EXPECT_EQ(keyWith([](CompileOptions &o) { o.lineInfo = true; }), lineInfo);
  }
}

TEST(JitCacheKey, IsTheSameInAnotherProcess) {
  // What the key takes from the build and from ptxas must not vary from
  // one process to the next, or no process would hit another's entries.
  CompileOptions o = opts();
  o.lineInfo = true;
  o.ptxasOptions = "-v";
  std::string key = jitCacheKey("src", o);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string childKey = jitCacheKey("src", o);
    ssize_t n = ::write(fds[1], childKey.data(), childKey.size());
    ::_exit(n == static_cast<ssize_t>(childKey.size()) ? 0 : 1);
  }
  ::close(fds[1]);
  char buffer[64] = {};
  ssize_t n = ::read(fds[0], buffer, sizeof buffer);
  ::close(fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(std::string(buffer, n > 0 ? n : 0), key);
}

TEST_F(CacheTest, DirectoryComesFromTheEnvironment) {
  EXPECT_EQ(jitCacheDirectory(), dir_);
  ::setenv("TILEC_CACHE_DIR", "off", 1);
  EXPECT_EQ(jitCacheDirectory(), "");
  ::unsetenv("TILEC_CACHE_DIR");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(jitCacheDirectory(), "/home/someone/.cache/tilec");
  ::unsetenv("HOME");
  EXPECT_EQ(jitCacheDirectory(), "/tmp/tilec-cache");
}

//===----------------------------------------------------------------------===//
// The cache, with a fake compiler
//===----------------------------------------------------------------------===//

TEST_F(CacheTest, MissesThenHits) {
  FakeCompiler fake;
  JitCacheStats before = jitCacheStats();
  std::string first = detail::compileCachedWith("k1", opts(), fake.fn());
  EXPECT_EQ(first, "CUBIN sm_90a O3 k1");
  EXPECT_EQ(fake.calls, 1);
  std::string second = detail::compileCachedWith("k1", opts(), fake.fn());
  EXPECT_EQ(second, first);
  EXPECT_EQ(fake.calls, 1);
  JitCacheStats after = jitCacheStats();
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 1u);
  // One entry under its key, and no temporary files left behind.
  EXPECT_EQ(entries(), std::vector<std::string>{jitCacheKey("k1", opts()) +
                                                ".cubin"});
}

// TILEC_JIT_FORCE_RECOMPILE compiles again and replaces the entry.
TEST_F(CacheTest, ForceRecompileSkipsTheEntry) {
  FakeCompiler fake;
  detail::compileCachedWith("k1", opts(), fake.fn());
  ::setenv("TILEC_JIT_FORCE_RECOMPILE", "1", 1);
  detail::compileCachedWith("k1", opts(), fake.fn());
  ::unsetenv("TILEC_JIT_FORCE_RECOMPILE");
  EXPECT_EQ(fake.calls, 2);
  detail::compileCachedWith("k1", opts(), fake.fn());
  EXPECT_EQ(fake.calls, 2);
  EXPECT_EQ(entries().size(), 1u);
}

// TILEC_JIT_DUMP_DIR compiles even a cached source, into a subfolder named
// by its key, and leaves the key as it was.
TEST_F(CacheTest, DumpDirectoryCompilesIntoAFolderPerKey) {
  std::string seen;
  int calls = 0;
  detail::CompileFn record = [&](std::string_view, const CompileOptions &o) {
    ++calls;
    seen = o.dumpDirectory;
    CompileResult r;
    r.ok = true;
    r.output = "CUBIN";
    return r;
  };
  detail::compileCachedWith("k1", opts(), record);
  EXPECT_EQ(seen, "");
  ::setenv("TILEC_JIT_DUMP_DIR", "/tmp/dumps", 1);
  detail::compileCachedWith("k1", opts(), record);
  ::unsetenv("TILEC_JIT_DUMP_DIR");
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(seen, "/tmp/dumps/" + jitCacheKey("k1", opts()));
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(CacheTest, KeysOnSourceArchAndOptLevel) {
  FakeCompiler fake;
  detail::compileCachedWith("k", opts(), fake.fn());
  EXPECT_EQ(detail::compileCachedWith("k", opts("sm_80"), fake.fn()),
            "CUBIN sm_80 O3 k");
  EXPECT_EQ(detail::compileCachedWith("k", opts("sm_90a", 1), fake.fn()),
            "CUBIN sm_90a O1 k");
  EXPECT_EQ(detail::compileCachedWith("k2", opts(), fake.fn()),
            "CUBIN sm_90a O3 k2");
  EXPECT_EQ(fake.calls, 4);
  EXPECT_EQ(entries().size(), 4u);
  // All four are hits now.
  detail::compileCachedWith("k", opts(), fake.fn());
  detail::compileCachedWith("k", opts("sm_80"), fake.fn());
  detail::compileCachedWith("k", opts("sm_90a", 1), fake.fn());
  detail::compileCachedWith("k2", opts(), fake.fn());
  EXPECT_EQ(fake.calls, 4);
}

TEST_F(CacheTest, OffDisablesIt) {
  ::setenv("TILEC_CACHE_DIR", "off", 1);
  FakeCompiler fake;
  EXPECT_EQ(detail::compileCachedWith("k", opts(), fake.fn()),
            "CUBIN sm_90a O3 k");
  detail::compileCachedWith("k", opts(), fake.fn());
  EXPECT_EQ(fake.calls, 2);
  EXPECT_TRUE(entries().empty());
}

TEST_F(CacheTest, DamagedEntriesAreMisses) {
  FakeCompiler fake;
  std::string path = entryPath("k", opts());
  std::string good = detail::compileCachedWith("k", opts(), fake.fn());
  std::string file;
  {
    std::ifstream in(path, std::ios::binary);
    file.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::vector<std::string> damaged = {
      "", "garbage", file.substr(0, file.size() - 1), file + "x",
      file.substr(0, 24)};
  std::string flipped = file;
  flipped.back() ^= 1;
  damaged.push_back(flipped);
  int calls = fake.calls;
  for (const std::string &bad : damaged) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bad;
    EXPECT_EQ(detail::compileCachedWith("k", opts(), fake.fn()), good);
    EXPECT_EQ(fake.calls, ++calls) << "damaged entry of " << bad.size()
                                   << " bytes was used";
    // ... and repaired.
    EXPECT_EQ(detail::compileCachedWith("k", opts(), fake.fn()), good);
    EXPECT_EQ(fake.calls, calls);
  }
}

TEST_F(CacheTest, UnwritableDirectoryStillCompiles) {
  std::string file = dir_ + "/a-file";
  std::ofstream(file) << "x";
  ::setenv("TILEC_CACHE_DIR", (file + "/cache").c_str(), 1);
  FakeCompiler fake;
  JitCacheStats before = jitCacheStats();
  EXPECT_EQ(detail::compileCachedWith("k", opts(), fake.fn()),
            "CUBIN sm_90a O3 k");
  EXPECT_EQ(detail::compileCachedWith("k", opts(), fake.fn()),
            "CUBIN sm_90a O3 k");
  EXPECT_EQ(fake.calls, 2);
  EXPECT_EQ(jitCacheStats().writeFailures - before.writeFailures, 2u);
}

TEST_F(CacheTest, UnwritableDirectoryIsReportedOnce) {
  std::string file = dir_ + "/a-file";
  std::ofstream(file) << "x";
  std::string cache = file + "/cache";
  ::setenv("TILEC_CACHE_DIR", cache.c_str(), 1);
  FakeCompiler fake;
  JitCacheStats before = jitCacheStats();
  testing::internal::CaptureStderr();
  detail::compileCachedWith("k", opts(), fake.fn());
  detail::compileCachedWith("k2", opts(), fake.fn());
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(jitCacheStats().writeFailures - before.writeFailures, 2u);
  std::string expected = "tilec: cannot write to the JIT cache directory '" +
                         cache + "' (Not a directory); the JIT compiles "
                         "without caching";
  size_t at = err.find(expected);
  ASSERT_NE(at, std::string::npos) << err;
  EXPECT_EQ(err.find(expected, at + 1), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

TEST_F(CacheTest, EvictsTheLeastRecentlyUsedEntries) {
  FakeCompiler fake;
  ::setenv("TILEC_CACHE_MAX_BYTES", "0", 1); // no bound while filling
  for (const char *source : {"k0", "k1", "k2", "k3"})
    detail::compileCachedWith(source, opts(), fake.fn());
  // Entries written in one tick of the file system's clock can share an
  // mtime: give them distinct ages, k0 the oldest.
  for (int i = 0; i < 4; ++i)
    setAge(entryPath("k" + std::to_string(i), opts()), 100 - i);
  uintmax_t entrySize = fs::file_size(entryPath("k0", opts()));
  // Room for three entries: writing k4 makes five, so k0 and k1 go.
  ::setenv("TILEC_CACHE_MAX_BYTES", std::to_string(3 * entrySize).c_str(), 1);
  detail::compileCachedWith("k4", opts(), fake.fn());
  EXPECT_EQ(entrySet(), entryNames({"k2", "k3", "k4"}));
  // The survivors are still hits.
  int calls = fake.calls;
  for (const char *source : {"k2", "k3", "k4"})
    EXPECT_EQ(detail::compileCachedWith(source, opts(), fake.fn()),
              std::string("CUBIN sm_90a O3 ") + source);
  EXPECT_EQ(fake.calls, calls);
}

TEST_F(CacheTest, AHitMarksAnEntryRecentlyUsed) {
  FakeCompiler fake;
  ::setenv("TILEC_CACHE_MAX_BYTES", "0", 1);
  for (const char *source : {"k0", "k1", "k2"})
    detail::compileCachedWith(source, opts(), fake.fn());
  for (int i = 0; i < 3; ++i)
    setAge(entryPath("k" + std::to_string(i), opts()), 100 - 10 * i);
  // k0, the oldest, is hit: it becomes the newest, and k1 the oldest.
  detail::compileCachedWith("k0", opts(), fake.fn());
  EXPECT_EQ(fake.calls, 3);
  EXPECT_GT(mtimeOf(entryPath("k0", opts())), mtimeOf(entryPath("k2", opts())));
  uintmax_t entrySize = fs::file_size(entryPath("k0", opts()));
  ::setenv("TILEC_CACHE_MAX_BYTES", std::to_string(3 * entrySize).c_str(), 1);
  detail::compileCachedWith("k3", opts(), fake.fn());
  EXPECT_EQ(entrySet(), entryNames({"k0", "k2", "k3"}));
}

TEST_F(CacheTest, TheNewEntryStaysUnderATinyBound) {
  FakeCompiler fake;
  ::setenv("TILEC_CACHE_MAX_BYTES", "1", 1);
  // A writer's temporary file is not an entry: eviction leaves it alone.
  std::string temp = dir_ + "/0123456789abcdef.cubin.tmp.AbCdEf";
  std::ofstream(temp) << std::string(1000, 't');
  detail::compileCachedWith("k0", opts(), fake.fn());
  detail::compileCachedWith("k1", opts(), fake.fn());
  std::vector<std::string> expected = entryNames({"k1"});
  expected.push_back(fs::path(temp).filename());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(entrySet(), expected);
  EXPECT_EQ(detail::compileCachedWith("k1", opts(), fake.fn()),
            "CUBIN sm_90a O3 k1");
  EXPECT_EQ(fake.calls, 2);
}

TEST_F(CacheTest, TheBoundMustBeANumber) {
  FakeCompiler fake;
  for (const char *bad : {"1G", "-1", "lots", "99999999999999999999999"}) {
    ::setenv("TILEC_CACHE_MAX_BYTES", bad, 1);
    std::string what = errorOf(
        [&] { detail::compileCachedWith("k", opts(), fake.fn()); });
    EXPECT_NE(what.find("TILEC_CACHE_MAX_BYTES must be a whole number of "
                        "bytes"),
              std::string::npos)
        << bad << ": " << what;
  }
  EXPECT_EQ(fake.calls, 0);
}

TEST_F(CacheTest, CompileErrorsCarryDiagnosticsAndAreNotCached) {
  FakeCompiler fake;
  CompileOptions o = opts();
  o.bufferName = "bad.mlir";
  for (int i = 0; i < 2; ++i) {
    try {
      detail::compileCachedWith(kInvalidSource, o, fake.fn());
      FAIL() << "no error";
    } catch (const Error &e) {
      EXPECT_EQ(std::string(e.what()),
                "JIT compilation of 'bad.mlir' for sm_90a failed:\n"
                "bad.mlir:1:18: error: expected ')'\n");
    }
  }
  EXPECT_EQ(fake.calls, 2);
  EXPECT_TRUE(entries().empty());
}

TEST_F(CacheTest, ConcurrentRequestsCompileOnce) {
  FakeCompiler fake;
  fake.delay = std::chrono::milliseconds(200);
  std::vector<std::string> results(8);
  onThreads(8, [&](int i) {
    results[i] = detail::compileCachedWith("same", opts(), fake.fn());
  });
  for (const std::string &r : results)
    EXPECT_EQ(r, "CUBIN sm_90a O3 same");
  EXPECT_EQ(fake.calls, 1);
  EXPECT_EQ(entries().size(), 1u);
}

TEST_F(CacheTest, ConcurrentRequestsForDifferentKeys) {
  FakeCompiler fake;
  fake.delay = std::chrono::milliseconds(50);
  std::vector<std::string> results(8);
  onThreads(8, [&](int i) {
    std::string source = "k" + std::to_string(i % 4);
    results[i] = detail::compileCachedWith(source, opts(), fake.fn());
  });
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(results[i], "CUBIN sm_90a O3 k" + std::to_string(i % 4));
  EXPECT_EQ(fake.calls, 4);
  EXPECT_EQ(entries().size(), 4u);
}

TEST_F(CacheTest, ConcurrentFailuresAllReportTheError) {
  FakeCompiler fake;
  fake.delay = std::chrono::milliseconds(100);
  std::atomic<int> errors{0};
  onThreads(8, [&](int) {
    try {
      detail::compileCachedWith(kInvalidSource, opts(), fake.fn());
    } catch (const Error &e) {
      if (std::string(e.what()).find("error: expected ')'") !=
          std::string::npos)
        ++errors;
    }
  });
  EXPECT_EQ(errors, 8);
  EXPECT_TRUE(entries().empty());
}

TEST_F(CacheTest, ConcurrentProcessesShareIt) {
  // Several processes race to fill the same entry; each must get whole bytes
  // and the entry must end up valid.
  const int kProcesses = 6;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      FakeCompiler fake;
      fake.delay = std::chrono::milliseconds(20 * (p % 3));
      bool ok = false;
      try {
        for (int round = 0; round < 20; ++round)
          ok = detail::compileCachedWith("shared", opts(), fake.fn()) ==
               "CUBIN sm_90a O3 shared";
      } catch (...) {
      }
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  FakeCompiler fake;
  EXPECT_EQ(detail::compileCachedWith("shared", opts(), fake.fn()),
            "CUBIN sm_90a O3 shared");
  EXPECT_EQ(fake.calls, 0);
  EXPECT_EQ(entries().size(), 1u); // no temporary files left
}

//===----------------------------------------------------------------------===//
// The real compiler
//===----------------------------------------------------------------------===//

using JitCompilerTest = CacheTest;

/// Checks that `cubin` holds kernel `copy` with the expected metadata.
void expectCopyCubin(const std::string &cubin) {
  std::string error;
  std::optional<CubinInfo> info = parseCubin(cubin, &error);
  ASSERT_TRUE(info) << error;
  const CubinKernel *k = info->findKernel(kCopyKernel);
  ASSERT_TRUE(k) << "no kernel 'copy' in the cubin";
  EXPECT_TRUE(k->hasLaunchMetadata);
  EXPECT_GT(k->registers, 0u);
  ASSERT_EQ(info->launchSymbols.size(), 1u);
  std::optional<LaunchMetadata> meta =
      parseLaunchMetadata(info->launchSymbols[0].text, &error);
  ASSERT_TRUE(meta) << error;
  EXPECT_EQ(meta->kernel, kCopyKernel);
  ParamInfo buffer{ParamInfo::Kind::Buffer, ScalarType::F32, 1, {}};
  EXPECT_EQ(meta->params, (std::vector<ParamInfo>{buffer, buffer}));
  EXPECT_EQ(meta->grid[0], (std::vector<GridTerm>{GridTerm{0, 0, 256}}));
  EXPECT_TRUE(meta->grid[1].empty() && meta->grid[2].empty());
  EXPECT_EQ(meta->block[0] * meta->block[1] * meta->block[2], kCopyThreads);
}

//===----------------------------------------------------------------------===//
// The compiler in a child process
//===----------------------------------------------------------------------===//

CompileOptions named(const char *name) {
  CompileOptions o = opts();
  o.bufferName = name;
  return o;
}

TEST(ChildCompile, ReturnsTheResultAndTheDiagnostics) {
  FakeCompiler fake;
  CompileResult r = detail::compileInChild("@copy", named("a.mlir"), fake.fn(),
                                           std::chrono::seconds(60));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.output, "CUBIN sm_90a O3 @copy");
  CompileResult bad = detail::compileInChild(
      "@bad(", named("b.mlir"), fake.fn(), std::chrono::seconds(60));
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.diagnostics, "b.mlir:1:18: error: expected ')'\n");
  // The fake ran in the child: the parent's counter never moved.
  EXPECT_EQ(fake.calls, 0);
}

TEST(ChildCompile, KeepsLargeOutputsWhole) {
  std::string big(5 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<char>(i * 7919 % 251);
  auto compile = [&](std::string_view, const CompileOptions &) {
    CompileResult r;
    r.ok = true;
    r.output = big;
    r.diagnostics = std::string(200000, 'w');
    std::fputs(std::string(100000, 'e').c_str(), stderr);
    return r;
  };
  CompileResult r = detail::compileInChild("x", opts(), compile,
                                           std::chrono::seconds(60));
  EXPECT_EQ(r.output, big);
  // The diagnostics, then what the child wrote to stderr.
  EXPECT_EQ(r.diagnostics,
            std::string(200000, 'w') + std::string(100000, 'e'));
}

TEST(ChildCompile, ReportsAnAbortWithTheCompilersMessage) {
  auto compile = [](std::string_view, const CompileOptions &) -> CompileResult {
    std::fputs("LLVM ERROR: a pass broke its promise\n", stderr);
    std::abort();
  };
  std::string what = errorOf([&] {
    detail::compileInChild("x", named("crash.mlir"), compile,
                           std::chrono::seconds(60));
  });
  EXPECT_NE(what.find("JIT compilation of 'crash.mlir' for sm_90a: the "
                      "compiler crashed (signal 6"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("LLVM ERROR: a pass broke its promise"),
            std::string::npos)
      << what;
}

TEST(ChildCompile, ReportsASegmentationFault) {
  auto compile = [](std::string_view, const CompileOptions &) -> CompileResult {
    std::raise(SIGSEGV);
    return {};
  };
  std::string what = errorOf([&] {
    detail::compileInChild("x", opts(), compile, std::chrono::seconds(60));
  });
  // Under AddressSanitizer its SEGV handler reports the fault and exits
  // instead of dying by the signal; the report then is the message.
  bool bySignal = what.find("the compiler crashed (signal 11") != std::string::npos;
  bool byAsan = what.find("exited without a result") != std::string::npos &&
                what.find("AddressSanitizer: SEGV") != std::string::npos;
  EXPECT_TRUE(bySignal || byAsan) << what;
}

TEST(ChildCompile, ReportsAnExitWithoutAResult) {
  auto compile = [](std::string_view, const CompileOptions &) -> CompileResult {
    std::fputs("bye\n", stderr);
    std::fflush(stderr);
    ::_exit(3);
  };
  std::string what = errorOf([&] {
    detail::compileInChild("x", opts(), compile, std::chrono::seconds(60));
  });
  EXPECT_NE(what.find("exited without a result (status 3)"), std::string::npos)
      << what;
  EXPECT_NE(what.find("bye"), std::string::npos) << what;
}

TEST(ChildCompile, StopsACompileThatRunsPastTheLimit) {
  auto compile = [](std::string_view, const CompileOptions &) -> CompileResult {
    std::this_thread::sleep_for(std::chrono::seconds(30));
    return {};
  };
  auto start = std::chrono::steady_clock::now();
  std::string what = errorOf([&] {
    detail::compileInChild("x", named("slow.mlir"), compile,
                           std::chrono::milliseconds(300));
  });
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_NE(what.find("JIT compilation of 'slow.mlir' for sm_90a ran past"),
            std::string::npos)
      << what;
}

TEST_F(CacheTest, TheTimeoutMustBeANumber) {
  ::setenv("TILEC_JIT_TIMEOUT", "soon", 1);
  std::string what = errorOf([] { compileCached(kCopySource, opts()); });
  ::unsetenv("TILEC_JIT_TIMEOUT");
  EXPECT_NE(what.find("TILEC_JIT_TIMEOUT must be a whole number of seconds"),
            std::string::npos)
      << what;
}

TEST_F(JitCompilerTest, CompilesAndCaches) {
  JitCacheStats before = jitCacheStats();
  std::string cubin = compileCached(kCopySource, opts());
  expectCopyCubin(cubin);
  EXPECT_EQ(compileCached(kCopySource, opts()), cubin);
  JitCacheStats after = jitCacheStats();
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 1u);
  expectCopyCubin(compileCached(kCopySource, opts("sm_80")));
}

TEST_F(JitCompilerTest, ReportsDiagnostics) {
  CompileOptions o = opts();
  o.bufferName = "bad.mlir";
  try {
    compileCached(kInvalidSource, o);
    FAIL() << "no error";
  } catch (const Error &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("JIT compilation of 'bad.mlir' for sm_90a failed"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("bad.mlir:1:"), std::string::npos) << what;
    EXPECT_NE(what.find("error:"), std::string::npos) << what;
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(JitCompilerTest, EightThreadsGetIdenticalBytes) {
  std::vector<std::string> results(8);
  std::atomic<int> failures{0};
  onThreads(8, [&](int i) {
    try {
      results[i] = compileCached(kCopySource, opts());
    } catch (const Error &) {
      ++failures;
    }
  });
  ASSERT_EQ(failures, 0);
  for (const std::string &r : results)
    EXPECT_EQ(r, results[0]);
  expectCopyCubin(results[0]);
}

TEST_F(JitCompilerTest, WithTheCacheOffStillCompiles) {
  ::setenv("TILEC_CACHE_DIR", "off", 1);
  expectCopyCubin(compileCached(kCopySource, opts()));
}

TEST_F(JitCompilerTest, RunsOnTheGpu) {
  if (deviceCount() == 0)
    GTEST_SKIP() << "no GPU";
  Context ctx(0);
  Kernel copy = JitCompiler().kernel(ctx, kCopySource, kCopyKernel);
  Stream stream(ctx);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int64_t n : {1, 255, 1000, (1 << 20) + 7}) {
    std::vector<float> x(n);
    for (float &v : x)
      v = dist(rng);
    DeviceBuffer dx = DeviceBuffer::fromHost(ctx, x);
    DeviceBuffer dy(ctx, n * sizeof(float));
    dy.memset(0xff);
    copy.launch(stream, dx.view<float>({n}), dy.view<float>({n}));
    stream.synchronize();
    std::vector<float> y = dy.download<float>();
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      wrong += !(y[i] == x[i]); // NaN (unwritten) counts as wrong
    EXPECT_EQ(wrong, 0) << "n = " << n;
  }
}

// An f32 matmul's ladder of small-grid kernels, JIT-compiled on first
// need: a grid of a few tiles compiles the small-grid kernel and, its own
// grid being small too, that kernel's small-grid variant, the split-K
// kernel, which runs (splitting a long K, or not a short one); a grid of
// more tiles stops at the small-grid kernel. Every result is checked.
TEST_F(JitCompilerTest, FollowsTheSmallGridLadderOnFirstNeed) {
  if (deviceCount() == 0)
    GTEST_SKIP() << "no GPU";
  const char *source = R"mlir(
tile.matmul @sgemm a(row) b(row)
    : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
)mlir";
  Context ctx(0);
  if (ctx.device().smCount < 8)
    GTEST_SKIP() << "the grids below assume a GPU of 8 SMs or more";
  Stream stream(ctx);
  uint64_t misses = jitCacheStats().misses;
  Kernel mm = JitCompiler().kernel(ctx, source, "sgemm");
  EXPECT_EQ(jitCacheStats().misses - misses, 1u);
  // Small integers: every sum is exact in f32.
  auto check = [&](int64_t m, int64_t n, int64_t k) {
    std::vector<float> a(m * k), b(k * n);
    for (int64_t i = 0; i < m * k; ++i)
      a[i] = i % 3 ? 1.0f : 2.0f;
    for (int64_t i = 0; i < k * n; ++i)
      b[i] = i % 2 ? 1.0f : -1.0f;
    DeviceBuffer da = DeviceBuffer::fromHost(ctx, a);
    DeviceBuffer db = DeviceBuffer::fromHost(ctx, b);
    DeviceBuffer dc(ctx, m * n * sizeof(float));
    dc.memset(0xff);
    std::vector<KernelArg> args = {
        da.view<float>({m, k}), db.view<float>({k, n}), dc.view<float>({m, n})};
    std::string launched = mm.launchedFor(args).name();
    mm.launchArgs(stream, args);
    stream.synchronize();
    std::vector<float> c = dc.download<float>();
    int64_t wrong = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float want = 0;
        for (int64_t l = 0; l < k; ++l)
          want += a[i * k + l] * b[l * n + j];
        wrong += !(c[i * n + j] == want);
      }
    EXPECT_EQ(wrong, 0) << m << "x" << n << "x" << k;
    return launched;
  };
  // One 32x128 tile and K of 32 parts of 512: the split-K kernel, compiled
  // now with the small-grid kernel.
  EXPECT_EQ(check(32, 128, 16384), "sgemm__split_k");
  EXPECT_EQ(jitCacheStats().misses - misses, 3u);
  // K of 2 parts: the same kernel, unsplit; nothing more to compile.
  EXPECT_EQ(check(32, 128, 1024), "sgemm__split_k");
  EXPECT_EQ(jitCacheStats().misses - misses, 3u);
  ASSERT_TRUE(mm.smallGridKernel());
  ASSERT_TRUE(mm.smallGridKernel()->smallGridKernel());
  EXPECT_EQ(mm.smallGridKernel()->smallGridKernel()->name(), "sgemm__split_k");
  // 32 tiles of 128x128 but 128 of 32x128: the small-grid kernel.
  if (ctx.device().smCount <= 128) {
    EXPECT_EQ(check(512, 1024, 64), "sgemm__small_grid");
    EXPECT_EQ(jitCacheStats().misses - misses, 3u);
  }
}

// The 16-bit small-grid ladder: C of a few 128x128 tiles with a long K
// takes the small-grid kernel's own variant, compiled on first need with
// its sum kernel (one cubin); every split of the grid takes K steps and
// the sum kernel adds their partial tiles, accumulating onto C where asked.
TEST_F(JitCompilerTest, SumsWideSplitsInAKernelOfTheirOwn) {
  if (deviceCount() == 0)
    GTEST_SKIP() << "no GPU";
  const char *source = R"mlir(
tile.matmul @hgemm a(row) b(row) accumulate
    : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>) -> ()
)mlir";
  Context ctx(0);
  if (ctx.device().smCount < 16)
    GTEST_SKIP() << "the grids below assume a GPU of 16 SMs or more";
  Stream stream(ctx);
  uint64_t misses = jitCacheStats().misses;
  Kernel mm = JitCompiler().kernel(ctx, source, "hgemm");
  EXPECT_EQ(jitCacheStats().misses - misses, 1u);
  // Small integers: exact in f16 and f32. C starts at 3.
  auto check = [&](int64_t m, int64_t n, int64_t k) {
    std::vector<uint16_t> a(m * k), b(k * n);
    for (int64_t i = 0; i < m * k; ++i)
      a[i] = i % 3 ? 0x3c00 : 0x4000; // 1 or 2
    for (int64_t i = 0; i < k * n; ++i)
      b[i] = i % 2 ? 0x3c00 : 0xbc00; // 1 or -1
    DeviceBuffer da = DeviceBuffer::fromHost(ctx, a);
    DeviceBuffer db = DeviceBuffer::fromHost(ctx, b);
    DeviceBuffer dc =
        DeviceBuffer::fromHost(ctx, std::vector<float>(m * n, 3.0f));
    std::vector<KernelArg> args = {da.view(ScalarType::F16, {m, k}),
                                   db.view(ScalarType::F16, {k, n}),
                                   dc.view<float>({m, n})};
    std::string launched = mm.launchedFor(args).name();
    mm.launchArgs(stream, args);
    stream.synchronize();
    std::vector<float> c = dc.download<float>();
    int64_t wrong = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float want = 3.0f;
        for (int64_t l = 0; l < k; ++l)
          want += ((i * k + l) % 3 ? 1.0f : 2.0f) *
                  ((l * n + j) % 2 ? 1.0f : -1.0f);
        wrong += !(c[i * n + j] == want);
      }
    EXPECT_EQ(wrong, 0) << m << "x" << n << "x" << k;
    return launched;
  };
  // One tile, K of 32 parts of 512: 32 splits and their sum.
  EXPECT_EQ(check(128, 128, 16384), "hgemm__split_k");
  EXPECT_EQ(jitCacheStats().misses - misses, 3u);
  ASSERT_TRUE(mm.smallGridKernel());
  ASSERT_TRUE(mm.smallGridKernel()->smallGridKernel());
  const Kernel &split = *mm.smallGridKernel()->smallGridKernel();
  EXPECT_EQ(split.name(), "hgemm__split_k");
  ASSERT_TRUE(split.thenKernel());
  EXPECT_EQ(split.thenKernel()->name(), "hgemm__split_k_sum");
  // Ragged: one row, and 3 x 2 tiles whose last K part is short.
  EXPECT_EQ(check(1, 8, 4097), "hgemm__split_k");
  EXPECT_EQ(check(300, 200, 9001), "hgemm__split_k");
  // C's rows not 16-byte aligned (a GEMV's one f32 column, 7 columns, 2047
  // on the main kernel's grid): the runtime copies C in for the bulk
  // stores, which read it first here, and back after the sum: no twin to
  // compile.
  EXPECT_EQ(check(1, 1, 4097), "hgemm__split_k");
  // C of one row is the wide few-rows kernel's, and of one column the
  // GEMV kernel's: each compiled to make the grid choice, which their one
  // program hands down the small-grid ladder (the wide kernel's through
  // the few-rows and the thin few-rows kernels, compiled too). (B stored
  // [K, N] has no vector-matrix kernel.)
  EXPECT_EQ(jitCacheStats().misses - misses, 7u);
  EXPECT_EQ(check(33, 7, 5000), "hgemm__split_k");
  EXPECT_EQ(check(2048, 2047, 64), "hgemm");
  {
    DeviceBuffer a(ctx, 2048 * 64 * 2), b(ctx, 64 * 2047 * 2),
        c(ctx, 2048 * 2047 * 4);
    EXPECT_TRUE(mm.repitches({a.view(ScalarType::F16, {2048, 64}),
                              b.view(ScalarType::F16, {64, 2047}),
                              c.view<float>({2048, 2047})}));
  }
  // Under 4 parts: unsplit, no sum; nothing more to compile.
  EXPECT_EQ(check(128, 128, 1024), "hgemm__split_k");
  EXPECT_EQ(jitCacheStats().misses - misses, 7u);
  // 16 tiles: the small-grid kernel and its adder.
  EXPECT_EQ(check(512, 512, 4096), "hgemm__small_grid");
  // C of 64 rows or fewer on 10 or more tiles of 64x64 (and under half
  // the SMs of 64x128): the thin few-rows kernel, compiled already; 65
  // rows are the small-grid kernel's.
  EXPECT_EQ(check(64, 2048, 2048), "hgemm__few_rows_thin");
  EXPECT_EQ(check(5, 4097, 1030), "hgemm__few_rows_thin");
  EXPECT_EQ(check(65, 2048, 2048), "hgemm__small_grid");
  EXPECT_EQ(jitCacheStats().misses - misses, 7u);
}

// A matmul description JIT-compiled with lazy variants (the default): the
// load compiles the main kernel alone; a launch whose grid is small
// compiles the small-grid kernel then, once; one whose rows TMA cannot
// describe (odd K, rows that repeat) is copied for TMA, with nothing to
// compile: matmul kernels have no per-thread-copy twin; one whose C has at
// most 128 columns takes the small-grid kernel; a view with strided rows is
// refused. Every result is checked.
TEST_F(JitCompilerTest, CompilesEachVariantOnFirstNeed) {
  if (deviceCount() == 0)
    GTEST_SKIP() << "no GPU";
  const char *source = R"mlir(
tile.matmul @mm a(row) b(col)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
)mlir";
  Context ctx(0);
  Stream stream(ctx);
  uint64_t misses = jitCacheStats().misses;
  Kernel mm = JitCompiler().kernel(ctx, source, "mm");
  EXPECT_EQ(jitCacheStats().misses - misses, 1u);
  // Small integers: exact in bf16 and f32. A's rows lie `aPitch` elements
  // apart (k unless given): 0 repeats the first row, under k overlaps the
  // next, a negative pitch runs backwards.
  auto check = [&](int64_t m, int64_t n, int64_t k,
                   std::optional<int64_t> aPitch = std::nullopt) {
    int64_t pitch = aPitch.value_or(k);
    int64_t reach = (m - 1) * (pitch < 0 ? -pitch : pitch);
    int64_t first = pitch < 0 ? reach : 0;
    std::vector<BFloat16> a(reach + k), bt(n * k);
    for (size_t i = 0; i < a.size(); ++i)
      a[i] = BFloat16{uint16_t(i % 3 ? 0x3f80 : 0x4000)}; // 1 or 2
    for (int64_t i = 0; i < n * k; ++i)
      bt[i] = BFloat16{uint16_t(i % 2 ? 0x3f80 : 0xbf80)}; // 1 or -1
    DeviceBuffer da = DeviceBuffer::fromHost(ctx, a);
    DeviceBuffer db = DeviceBuffer::fromHost(ctx, bt);
    DeviceBuffer dc(ctx, m * n * sizeof(float));
    dc.memset(0xff);
    TensorView aView =
        TensorView::contiguous(da.data() + 2 * first, ScalarType::BF16, {m, k});
    aView.strides[0] = pitch;
    mm.launch(stream, TypedView<BFloat16>(aView), db.view<BFloat16>({n, k}),
              dc.view<float>({m, n}));
    stream.synchronize();
    std::vector<float> c = dc.download<float>();
    int64_t wrong = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float want = 0;
        for (int64_t l = 0; l < k; ++l)
          want += ((first + i * pitch + l) % 3 ? 1.0f : 2.0f) *
                  ((j * k + l) % 2 ? 1.0f : -1.0f);
        wrong += !(c[i * n + j] == want);
      }
    EXPECT_EQ(wrong, 0) << m << "x" << n << "x" << k;
  };
  // 2048x2048 (128 tiles) fills the GPU: the main kernel, nothing more to
  // compile.
  check(2048, 2048, 64);
  EXPECT_EQ(jitCacheStats().misses - misses, 1u);
  // K = 71 on the same grid: rows of 142 bytes, which TMA cannot describe.
  // The runtime copies A and B into rows of 144 bytes for the main kernel
  // (launch metadata `repitch`): still no twin to compile.
  check(2048, 2048, 71);
  EXPECT_EQ(jitCacheStats().misses - misses, 1u);
  // N = 2047: C's rows of 8188 bytes are staged for the bulk stores and
  // copied back.
  check(2048, 2047, 64);
  EXPECT_EQ(jitCacheStats().misses - misses, 1u);
  // A small grid: the small-grid kernel, compiled now, then reused.
  check(640, 512, 1088);
  EXPECT_EQ(jitCacheStats().misses - misses, 2u);
  check(300, 1200, 64);
  EXPECT_EQ(jitCacheStats().misses - misses, 2u);
  ASSERT_TRUE(mm.smallGridKernel());
  EXPECT_EQ(mm.smallGridKernel()->name(), "mm__small_grid");
  // K = 70 on the small grid: copied for TMA as well.
  check(640, 512, 70);
  EXPECT_EQ(jitCacheStats().misses - misses, 2u);
  // One column of 70 tiles: each element of A is read by one program, and
  // its copy still costs less than the twin: copied, nothing to compile.
  check(8960, 256, 70);
  EXPECT_EQ(jitCacheStats().misses - misses, 2u);
  // C of 128 columns on a grid that fills the GPU (128 tiles of 128x256,
  // half of each past N): the small-grid kernel runs as the main kernel's
  // narrow variant, compiled already.
  check(16384, 128, 64);
  EXPECT_EQ(jitCacheStats().misses - misses, 2u);
  // Four tiles of 128x128: the small-grid kernel's own variant (split-K
  // with a sum kernel), compiled now with its sum kernel; K under 4 parts
  // of 512 runs unsplit.
  check(200, 136, 1088);
  EXPECT_EQ(jitCacheStats().misses - misses, 3u);
  DeviceBuffer a(ctx, 16384 * 64 * 2), b(ctx, 32768 * 64 * 2),
      c(ctx, 16384 * 2048 * 4);
  auto launched = [&](int64_t m, int64_t n) {
    std::vector<KernelArg> args = {a.view<BFloat16>({m, 64}),
                                   b.view<BFloat16>({n, 64}),
                                   c.view<float>({m, n})};
    return mm.launchedFor(args).name();
  };
  EXPECT_EQ(launched(16384, 128), "mm__small_grid");
  EXPECT_EQ(launched(16384, 132), "mm");
  // C of one or two columns: the GEMV kernel, compiled now; on a grid
  // under half the SMs, the small-grid kernel's ladder as before (no
  // narrow choice made again down it).
  EXPECT_EQ(launched(16384, 1), "mm__gemv");
  EXPECT_EQ(jitCacheStats().misses - misses, 4u);
  EXPECT_EQ(launched(16384, 2), "mm__gemv");
  EXPECT_EQ(launched(16384, 3), "mm__small_grid");
  // 64 rows: the wide few-rows kernel, compiled now, hands a column to
  // the GEMV kernel.
  EXPECT_EQ(launched(64, 1), "mm__split_k");
  check(4097, 1, 1001);
  check(4097, 2, 1001);
  check(1000, 1, 64);
  check(4096, 1, 130, /*aPitch=*/0);
  check(4096, 1, 130, /*aPitch=*/-131);
  EXPECT_EQ(jitCacheStats().misses - misses, 5u);
  // C of at most 64 rows, whatever C's columns: the wide few-rows kernel
  // (64x256 tiles) where they fill half the SMs or more, then the
  // few-rows kernel (64x128 tiles, K split), compiled now, then the thin
  // one (64x64 tiles, K split), compiled now; a grid of a few tiles goes
  // down to the split kernel.
  EXPECT_EQ(launched(64, 32768), "mm__few_rows_wide");
  EXPECT_EQ(jitCacheStats().misses - misses, 5u);
  EXPECT_EQ(launched(64, 16384), "mm__few_rows");
  EXPECT_EQ(jitCacheStats().misses - misses, 6u);
  EXPECT_EQ(launched(3, 8448), "mm__few_rows");
  EXPECT_EQ(jitCacheStats().misses - misses, 6u);
  EXPECT_EQ(launched(3, 2048), "mm__few_rows_thin");
  EXPECT_EQ(jitCacheStats().misses - misses, 7u);
  // 10 tiles of 64x64 keep the thin kernel on 132 SMs; 9 go on down.
  if (ctx.device().smCount == 132) {
    EXPECT_EQ(launched(64, 640), "mm__few_rows_thin");
    EXPECT_EQ(launched(64, 576), "mm__split_k");
  }
  EXPECT_EQ(launched(65, 16384), "mm__small_grid");
  // The thin tiles, ragged, split in 4 or unsplit (each split storing its
  // 17 rows), A's rows backwards or all one (A's boxes keep to its rows).
  check(3, 4097, 1001);
  check(17, 2000, 4097);
  check(64, 4096, 130, /*aPitch=*/-131);
  check(33, 2056, 2100, /*aPitch=*/0);
  // The 64x128 tiles, ragged: 66 tiles split in 2 (K of 4100: copied for
  // TMA), and 79 unsplit.
  check(5, 8448, 4100);
  check(33, 10000, 200, /*aPitch=*/-201);
  // The wide tiles, ragged: 79 and 67 tiles of 64x256.
  check(3, 20000, 130);
  check(17, 16897, 100, /*aPitch=*/-101);
  check(64, 17000, 72, /*aPitch=*/0);
  EXPECT_EQ(jitCacheStats().misses - misses, 7u);
  // C of one or two rows: the few-rows kernel's vector-matrix kernel (the
  // same program over B's rows), compiled now, whatever C's columns; a
  // small grid goes down the small-grid kernel's ladder.
  EXPECT_EQ(launched(1, 16384), "mm__vecmat");
  EXPECT_EQ(jitCacheStats().misses - misses, 8u);
  EXPECT_EQ(launched(2, 16384), "mm__vecmat");
  EXPECT_EQ(launched(2, 2), "mm__split_k");
  EXPECT_EQ(launched(1, 64), "mm__split_k");
  check(1, 4097, 1001);
  check(2, 4097, 1001);
  check(1, 16384, 64);
  check(1, 1, 4097);
  check(2, 4096, 130, /*aPitch=*/-131);
  check(2, 4096, 130, /*aPitch=*/0);
  EXPECT_EQ(jitCacheStats().misses - misses, 8u);
  // C's rows of 129 f32 (516 bytes) have no tensor map for the main
  // kernel's bulk store: the runtime copies C out of a staged one.
  EXPECT_EQ(launched(16384, 129), "mm");
  EXPECT_EQ(launched(2048, 2048), "mm");
  // An A whose every row is its first (stride 0): TMA takes no such rows,
  // the runtime's copy kernels do, on every grid; nothing to compile.
  check(8960, 256, 72, /*aPitch=*/0);
  check(200, 136, 72, /*aPitch=*/0);
  check(640, 512, 72, /*aPitch=*/0);
  // Rows that overlap (50 of 71 elements apart) or run backwards: copied
  // as well.
  check(2048, 2048, 71, /*aPitch=*/50);
  check(640, 512, 72, /*aPitch=*/-72);
  check(200, 136, 4095, /*aPitch=*/-4097);
  EXPECT_EQ(jitCacheStats().misses - misses, 8u);
  // A C whose rows repeat would be written twice over by the main
  // kernel's bulk stores: refused, with why.
  {
    TensorView cRepeated = c.view<float>({2048, 2048});
    cRepeated.strides[0] = 0;
    try {
      mm.launchArgs(stream, {a.view<BFloat16>({2048, 64}),
                             b.view<BFloat16>({2048, 64}), cRepeated});
      ADD_FAILURE() << "no error";
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find(
                    "argument 2 cannot be described by a TMA tensor map"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("written rows that overlap"),
                std::string::npos)
          << e.what();
    }
  }
  TensorView repeated = a.view(ScalarType::BF16, {200, 64});
  repeated.strides[0] = 0;
  std::vector<KernelArg> repeatedArgs = {repeated, b.view<BFloat16>({136, 64}),
                                         c.view<float>({200, 136})};
  EXPECT_EQ(mm.launchedFor(repeatedArgs).name(), "mm__split_k");
  EXPECT_TRUE(mm.repitches(repeatedArgs));
  EXPECT_EQ(mm.fallbackKernel(), nullptr);
  // A view with elements two apart is no row the kernels can read (their
  // rows are contiguous, launch metadata `params buffer:bf16:2:?,1`).
  TensorView everyOther = a.view(ScalarType::BF16, {200, 64});
  everyOther.strides = {128, 2};
  try {
    mm.launchedFor(
        {everyOther, b.view<BFloat16>({136, 64}), c.view<float>({200, 136})});
    ADD_FAILURE() << "a view with stride 2 in its rows was accepted";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "argument 0 has stride 2 in dimension 1; the kernel reads "
                  "it with stride 1"),
              std::string::npos)
        << e.what();
  }
  // A copy of the kernel shares what was loaded.
  Kernel copy = mm;
  EXPECT_EQ(copy.smallGridKernel(), mm.smallGridKernel());
}

} // namespace
