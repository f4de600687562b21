//===- ChildCompile.cpp - The JIT's compiler in a child process -----------===//
//
// A crash, an abort or a hang inside the compiler must not take the JIT's
// caller down. Each compilation runs in a fork()ed child that writes its
// CompileResult to a pipe, with its stderr (the compiler's and ptxas's
// messages, a crash report) on a second pipe; the parent reads both until a
// deadline and turns a child that died or ran too long into an Error.
//
// fork() copies only the calling thread: a lock that another thread held
// at that moment stays held in the child. The parent never runs the
// compiler itself, so no lock of the compiler's can be held there; one held
// by the caller's own code, if the compiler needed it, would end in the
// deadline.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Jit.h"

#include "Descriptors.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tilec::rt {
namespace {

/// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }
};

std::string systemError(const std::string &what) {
  return what + ": " + std::strerror(errno);
}

void appendSize(std::string &out, uint64_t n) {
  out.append(reinterpret_cast<const char *>(&n), sizeof n);
}

/// The child's message: ok, then the diagnostics and the output, each
/// after its length.
std::string serialize(const CompileResult &r) {
  std::string out(1, r.ok ? '1' : '0');
  appendSize(out, r.diagnostics.size());
  out += r.diagnostics;
  appendSize(out, r.output.size());
  out += r.output;
  return out;
}

bool readSized(std::string_view &in, std::string &out) {
  uint64_t n;
  if (in.size() < sizeof n)
    return false;
  std::memcpy(&n, in.data(), sizeof n);
  in.remove_prefix(sizeof n);
  if (in.size() < n)
    return false;
  out.assign(in.data(), n);
  in.remove_prefix(n);
  return true;
}

bool deserialize(std::string_view in, CompileResult &r) {
  if (in.empty() || (in[0] != '0' && in[0] != '1'))
    return false;
  r.ok = in[0] == '1';
  in.remove_prefix(1);
  return readSized(in, r.diagnostics) && readSized(in, r.output) && in.empty();
}

[[noreturn]] void runChild(int resultFd, int errorFd, std::string_view source,
                           const CompileOptions &options,
                           const detail::CompileFn &compile) {
  ::dup2(errorFd, STDERR_FILENO);
  CompileResult result;
  try {
    result = compile(source, options);
  } catch (const std::exception &e) {
    result.ok = false;
    result.diagnostics = std::string("the compiler threw: ") + e.what();
  } catch (...) {
    result.ok = false;
    result.diagnostics = "the compiler threw";
  }
  detail::writeAll(resultFd, serialize(result));
  // No atexit handlers, no flush of stdio buffers copied from the parent.
  ::_exit(0);
}

/// Reads `result` and `errors` to their ends, or until `deadline`; false
/// when the deadline came first.
bool readUntil(int resultFd, int errorFd, std::string &result,
               std::string &errors,
               std::optional<std::chrono::steady_clock::time_point> deadline) {
  pollfd fds[2] = {{resultFd, POLLIN, 0}, {errorFd, POLLIN, 0}};
  std::string *sinks[2] = {&result, &errors};
  int open = 2;
  char buffer[65536];
  while (open > 0) {
    int waitMs = -1;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        return false;
      waitMs = static_cast<int>(std::min<int64_t>(left.count(), 1 << 30));
    }
    int ready = ::poll(fds, 2, waitMs);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      throw Error(systemError("poll() on the JIT compiler's pipes"));
    if (ready == 0)
      return false;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        fds[i].fd = -1; // poll() skips negative descriptors
        --open;
        continue;
      }
      sinks[i]->append(buffer, static_cast<size_t>(n));
    }
  }
  return true;
}

int waitForChild(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

} // namespace

CompileResult detail::compileInChild(std::string_view source,
                                     const CompileOptions &options,
                                     const CompileFn &compile,
                                     std::chrono::milliseconds limit) {
  std::string what = "JIT compilation of '" + options.bufferName + "' for " +
                     options.arch;
  Fd resultRead, errorRead;
  pid_t pid;
  {
    // A child inherits every descriptor of the parent: while another
    // thread's pipes still had their write ends open here, its child would
    // hold them too, and that thread would see no end of its child's output
    // before this child exited. Write ends are closed before the lock goes.
    static std::mutex forking;
    std::lock_guard<std::mutex> lock(forking);
    int resultPipe[2], errorPipe[2];
    if (::pipe2(resultPipe, O_CLOEXEC) != 0)
      throw Error(systemError(what + ": pipe()"));
    resultRead.fd = resultPipe[0];
    Fd resultWrite{resultPipe[1]};
    if (::pipe2(errorPipe, O_CLOEXEC) != 0)
      throw Error(systemError(what + ": pipe()"));
    errorRead.fd = errorPipe[0];
    Fd errorWrite{errorPipe[1]};
    pid = ::fork();
    if (pid < 0)
      throw Error(systemError(what + ": fork()"));
    if (pid == 0)
      runChild(resultWrite.fd, errorWrite.fd, source, options, compile);
  }

  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (limit.count() > 0)
    deadline = std::chrono::steady_clock::now() + limit;
  std::string message, errors;
  bool finished;
  try {
    finished = readUntil(resultRead.fd, errorRead.fd, message, errors,
                         deadline);
  } catch (...) {
    ::kill(pid, SIGKILL);
    waitForChild(pid);
    throw;
  }
  if (!finished)
    ::kill(pid, SIGKILL);
  int status = waitForChild(pid);
  if (!finished)
    throw Error(what + " ran past " + std::to_string(limit.count() / 1000) +
                " s and was stopped (TILEC_JIT_TIMEOUT sets the limit)" +
                (errors.empty() ? "" : ":\n" + errors));
  if (WIFSIGNALED(status))
    throw Error(what + ": the compiler crashed (signal " +
                std::to_string(WTERMSIG(status)) + ", " +
                strsignal(WTERMSIG(status)) + ")" +
                (errors.empty() ? "" : ":\n" + errors));
  CompileResult result;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
      !deserialize(message, result))
    throw Error(what + ": the compiler exited without a result (status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status)
                                                 : status) +
                ")" + (errors.empty() ? "" : ":\n" + errors));
  // What the compiler printed besides its diagnostics (ptxas warnings).
  if (!errors.empty())
    result.diagnostics += errors;
  return result;
}

} // namespace tilec::rt
