//===- Runtime.h - Devices, memory, modules and launches --------*- C++ -*-===//
//
// RAII wrappers over the CUDA driver (loaded at run time, see Driver.h) and
// the typed launch of tilec kernels:
//
//   tilec::rt::Context ctx(0);
//   tilec::rt::Stream stream(ctx);
//   auto x = tilec::rt::DeviceBuffer::fromHost(ctx, hostX);
//   tilec::rt::DeviceBuffer out(ctx, n * sizeof(float));
//   auto module = tilec::rt::Module::loadFile(ctx, "saxpy.cubin");
//   tilec::rt::Kernel saxpy(module, "saxpy");
//   saxpy.launch(stream, 2.0f, x.view<float>({n}), y.view<float>({n}),
//                out.view<float>({n}));
//   stream.synchronize();
//
// Objects created from a Context keep its primary context retained, so they
// may outlive the Context object, and every operation makes its context
// current first, so one thread can drive several devices.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_RUNTIME_H
#define TILEC_RUNTIME_RUNTIME_H

#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/KernelArgs.h"
#include "tilec/Runtime/LaunchMetadata.h"

#include <cuda.h>

#include <array>
#include <limits>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::rt {

/// Number of CUDA devices; 0 (never an exception) when there is no driver or
/// no GPU.
int deviceCount();

/// Static properties of one device.
struct Device {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int smCount = 0;
  /// Opt-in maximum of shared memory per block, in bytes.
  int maxSharedPerBlockOptin = 0;

  /// Queries device `ordinal`; throws Error if it does not exist.
  static Device get(int ordinal);
  static std::vector<Device> all();
  /// 90 for compute capability 9.0.
  int computeCapability() const { return ccMajor * 10 + ccMinor; }
};

namespace detail {
struct ContextState;
struct ModuleState;
struct ScratchCache;
struct StagingCopies;
} // namespace detail

/// The retained primary context of one device.
class Context {
public:
  explicit Context(int ordinal = 0);
  Context(Context &&) noexcept = default;
  Context &operator=(Context &&) noexcept = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context();

  int ordinal() const;
  const Device &device() const;
  CUcontext handle() const;
  /// Makes this context current on the calling thread.
  void makeCurrent() const;
  void synchronize() const;

  const std::shared_ptr<detail::ContextState> &state() const { return state_; }

private:
  std::shared_ptr<detail::ContextState> state_;
};

/// A CUDA stream of one context: one this object creates and destroys, or
/// one it wraps (Stream::wrap) and leaves alone.
class Stream {
public:
  /// Creates a stream in `ctx` (destroyed with this object).
  explicit Stream(const Context &ctx);
  /// A stream over `stream`, which the caller (a framework: PyTorch's
  /// current stream, cudaStream_t, which is a CUstream) created in `ctx`'s
  /// device's primary context, the one the CUDA runtime API uses, and keeps
  /// alive while this object or a launch on it is in use: tilec launches
  /// then run in that stream's order. Never destroys it. nullptr (the legacy
  /// default stream) and CU_STREAM_PER_THREAD are allowed. A stream of
  /// another context fails at the first launch with the driver's error.
  /// DeviceBuffer's synchronous copies run on the legacy default stream,
  /// which a non-blocking stream (CU_STREAM_NON_BLOCKING, as frameworks
  /// create) does not wait for: use the Async copies on this Stream.
  static Stream wrap(const Context &ctx, CUstream stream);
  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  CUstream handle() const { return stream_; }
  /// Whether this object created the stream and destroys it (false for
  /// Stream::wrap and for a moved-from object).
  bool owned() const { return owned_; }
  void synchronize() const;
  const std::shared_ptr<detail::ContextState> &context() const { return ctx_; }
  /// The device of the stream's context.
  const Device &device() const;

private:
  Stream(std::shared_ptr<detail::ContextState> ctx, CUstream stream,
         bool owned)
      : ctx_(std::move(ctx)), stream_(stream), owned_(owned) {}
  void reset() noexcept;
  std::shared_ptr<detail::ContextState> ctx_;
  CUstream stream_ = nullptr;
  bool owned_ = false;
};

class DeviceBuffer {
public:
  /// An allocation of `bytes` (0 is allowed and allocates nothing).
  DeviceBuffer(const Context &ctx, size_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  CUdeviceptr data() const { return ptr_; }
  size_t size() const { return bytes_; }

  /// Synchronous copies; `offset` is in bytes. Throw Error when out of range.
  void copyFromHost(const void *src, size_t bytes, size_t offset = 0);
  void copyToHost(void *dst, size_t bytes, size_t offset = 0) const;
  void copyFromHostAsync(const Stream &stream, const void *src, size_t bytes,
                         size_t offset = 0);
  void copyToHostAsync(const Stream &stream, void *dst, size_t bytes,
                       size_t offset = 0) const;
  /// Sets every byte to `value` (0xFF poisons f32 data with NaN).
  void memset(uint8_t value);

  template <typename T>
  static DeviceBuffer fromHost(const Context &ctx, const std::vector<T> &host) {
    DeviceBuffer buffer(ctx, host.size() * sizeof(T));
    buffer.copyFromHost(host.data(), buffer.size());
    return buffer;
  }
  template <typename T> void upload(const std::vector<T> &host) {
    copyFromHost(host.data(), host.size() * sizeof(T));
  }
  /// The first `count` elements (all of them by default).
  template <typename T> std::vector<T> download(size_t count = size_t(-1)) const {
    if (count == size_t(-1))
      count = bytes_ / sizeof(T);
    std::vector<T> host(count);
    copyToHost(host.data(), count * sizeof(T));
    return host;
  }

  /// A contiguous row-major view; throws Error if it does not fit.
  TensorView view(ScalarType type, const std::vector<int64_t> &sizes) const;
  /// The same, typed (a TensorView too): what generated kernel wrappers
  /// take for a buffer argument.
  template <typename T>
  TypedView<T> view(const std::vector<int64_t> &sizes) const {
    return TypedView<T>(view(scalarTypeOf<T>(), sizes));
  }

private:
  void checkRange(size_t bytes, size_t offset, const char *what) const;
  void reset() noexcept;
  std::shared_ptr<detail::ContextState> ctx_;
  CUdeviceptr ptr_ = 0;
  size_t bytes_ = 0;
};

class Event {
public:
  explicit Event(const Context &ctx);
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  CUevent handle() const { return event_; }
  void record(const Stream &stream);
  void synchronize() const;
  /// Milliseconds between two recorded events (waits for `end`).
  static float elapsedMs(const Event &start, const Event &end);

private:
  void reset() noexcept;
  std::shared_ptr<detail::ContextState> ctx_;
  CUevent event_ = nullptr;
};

/// A loaded cubin (or fatbin / PTX image).
class Module {
public:
  static Module loadFile(const Context &ctx, const std::string &path);
  static Module loadData(const Context &ctx, std::string_view image);

  Module(Module &&) noexcept = default;
  Module &operator=(Module &&) noexcept = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  CUmodule handle() const;
  const std::shared_ptr<detail::ModuleState> &state() const { return state_; }

  /// Where the kernels this module lacks come from: a kernel's fallback,
  /// small-grid or narrow variant that is not in the module is loaded, when
  /// a launch first needs it, from the image (a cubin) `imageFor(name)`
  /// returns, into a module of its own that resolves its missing kernels
  /// the same way; the kernels of such modules load their variants on first
  /// need too. The JIT compiles a description's main kernels first and each
  /// variant when it is first selected. A kernel asked for by name
  /// (Kernel's constructor) must be in this module. `imageFor` may be
  /// called from any thread that launches, and may throw Error.
  void setKernelImages(std::function<std::string(const std::string &name)> imageFor);

private:
  explicit Module(std::shared_ptr<detail::ModuleState> state)
      : state_(std::move(state)) {}
  static Module load(const Context &ctx, std::string_view image,
                     const std::string &operation);
  std::shared_ptr<detail::ModuleState> state_;
};

/// A kernel of a loaded module with its launch metadata. A cheap handle: it
/// keeps the module loaded and may be copied.
class Kernel {
public:
  /// Throws Error if the module has no such kernel, or no tilec launch
  /// metadata for it. Loads the metadata's fallback kernel too, and throws if
  /// it is missing, takes other user parameters or has tensor maps itself.
  /// Likewise loads the metadata's small-grid variant (with its own
  /// fallback and, down the ladder, its own small-grid variant), and throws
  /// if it is missing, takes other user parameters or leads back to a kernel
  /// above it on the ladder. Likewise loads the metadata's narrow variant
  /// (with its own fallback, small-grid and narrow variants), and throws if
  /// it is missing, takes other user parameters or names a narrow variant
  /// itself whose bound is not strictly smaller. Likewise loads the
  /// metadata's then kernel, and throws if it is missing, takes other user
  /// parameters, has no scratch line or names a fallback, small-grid,
  /// narrow or then kernel or tensor maps itself.
  Kernel(const Module &module, const std::string &name);

  const std::string &name() const { return name_; }
  const LaunchMetadata &metadata() const { return meta_; }
  CUfunction handle() const { return func_; }
  /// Registers per thread, static shared bytes, ... (CU_FUNC_ATTRIBUTE_*).
  int attribute(CUfunction_attribute attribute) const;
  /// How many blocks of this kernel fit on a multiprocessor at once, with
  /// its block size and dynamic shared memory (the driver's occupancy
  /// calculator): what a wave of the grid holds per multiprocessor.
  int residentBlocksPerSm() const;
  /// The device's multiprocessors.
  int multiprocessors() const { return multiprocessors_; }

  /// Wave quantisation of a launch: the kernel launchedFor(args) picks, its
  /// programs (the grid line's product; a split grid's capped z counts), the
  /// blocks launched (fewer where a persistent kernel walks the programs),
  /// the blocks resident a multiprocessor, and the waves (programs over the
  /// blocks running at once; a partly empty last wave leaves the GPU partly
  /// idle). Validates the arguments first.
  struct Quantisation {
    std::string kernel;
    uint64_t programs = 0, blocks = 0;
    int residentPerSm = 0;
    /// NaN where no block fits on a multiprocessor.
    double waves = std::numeric_limits<double>::quiet_NaN();
  };
  Quantisation quantisationFor(const std::vector<KernelArg> &args) const;

  std::array<uint64_t, 3> gridFor(const std::vector<KernelArg> &args) const {
    return computeGrid(meta_, args);
  }
  template <typename... Args>
  std::array<uint64_t, 3> gridFor(const Args &...args) const {
    return computeGrid(meta_, {KernelArg(args)...});
  }

  /// Checks the arguments, computes the grid and launches asynchronously on
  /// `stream`. First, when the buffer dimension or integer scalar the narrow
  /// variant names is small (prefersNarrow; a negative scalar never is),
  /// hands the launch to the narrow variant, which then decides everything
  /// below for itself. A grid with a zero dimension launches nothing. When the
  /// grid would leave most of the device idle (prefersSmallGrid), hands the
  /// launch to the small-grid variant, which then decides as here for itself
  /// but for the narrow choice, made once (its own grid may hand it on down
  /// the ladder). Encodes the metadata's
  /// tensor maps from the buffer arguments; when one cannot be described (TMA
  /// alignment rules), launches the fallback kernel instead, or throws Error
  /// naming the argument if there is none. A kernel with a `scratch` line gets
  /// this kernel's scratch buffer of `stream`, grown when the grid needs more
  /// and zero-filled on `stream` first; a size that overflows 64 bits throws
  /// Error. A kernel with a `then` line launches its then kernel right after
  /// itself on `stream`, with the same scratch buffer as this launch left it.
  /// A kernel with a `waits` line is launched with programmatic stream
  /// serialization (it may start while the grid before it on `stream` ends;
  /// it waits for that grid itself).
  void launchArgs(const Stream &stream,
                  const std::vector<KernelArg> &args) const;
  template <typename... Args>
  void launch(const Stream &stream, const Args &...args) const {
    launchArgs(stream, {KernelArg(args)...});
  }

  /// The metadata's fallback kernel; nullptr when it names none. In a
  /// module with a kernel resolver (Module::setKernelResolver) the variants
  /// load here, on first need, rather than with the kernel.
  const Kernel *fallbackKernel() const;
  /// The metadata's small-grid variant; nullptr when it names none.
  const Kernel *smallGridKernel() const;
  /// The variant of the metadata's narrow line `line`; nullptr when there
  /// is no such line, or on a kernel loaded as another's small-grid variant
  /// or fallback (whose narrow variants are not loaded: the narrow choice
  /// is made before those).
  const Kernel *narrowKernel(size_t line = 0) const;
  /// The metadata's then kernel; nullptr when it names none.
  const Kernel *thenKernel() const { return then_.get(); }
  /// The kernel launchArgs(args) hands the launch to before the tensor map
  /// decision: the narrowest kernel of the narrow ladder that fits the
  /// arguments (this one if none), or that kernel's small-grid variant where
  /// its grid is small, and so on down the small-grid ladder (valid while
  /// this kernel or a copy of it lives).
  /// Validates the arguments first.
  const Kernel &selectFor(const std::vector<KernelArg> &args) const;
  /// Whether launchArgs(args) would launch a fallback kernel (that of the
  /// kernel selectFor(args) picks, or one further down its fallback chain),
  /// so that a benchmark can tell which kernel ran. Validates the arguments
  /// first.
  bool usesFallback(const std::vector<KernelArg> &args) const;
  /// The kernel launchArgs(args) launches: selectFor(args), or the first
  /// kernel down its fallback chain whose tensor maps and aligned arguments
  /// (see LaunchMetadata.h) hold. Validates the arguments first.
  const Kernel &launchedFor(const std::vector<KernelArg> &args) const;
  /// Whether launchArgs(args) copies some argument of launchedFor(args) into
  /// a staging buffer first (see `repitch` in LaunchMetadata.h; a staging
  /// buffer that cannot be allocated then sends the launch down the fallback
  /// chain instead). Validates the arguments first.
  bool repitches(const std::vector<KernelArg> &args) const;

private:
  Kernel(std::shared_ptr<detail::ModuleState> module, const std::string &name,
         bool loadFallback, bool loadSmallGrid, bool loadNarrow);
  /// Loads the fallback and, down the chain, its own; `chain` holds the
  /// kernels above it, so that a cycle is an error.
  void loadFallback(std::vector<std::string> chain) const;
  /// This kernel or the first down its fallback chain whose tensor maps and
  /// aligned arguments hold for `args` (validated).
  const Kernel &downTheFallbacks(const std::vector<KernelArg> &args) const;
  /// Copies `plan`'s arguments into this kernel's staging buffer of
  /// `stream`, launches on the copies over `grid` (see computeGrid) and
  /// copies the written ones back; false, launching nothing, when a copy
  /// cannot be made (see canStage) or the buffer cannot be allocated and
  /// there is a fallback to launch instead (an error without one).
  bool launchRepitched(const Stream &stream,
                       const std::array<uint64_t, 3> &grid,
                       const std::vector<KernelArg> &args,
                       const RepitchPlan &plan) const;
  /// Queues `copy` on `stream`: into the staging buffer at `staging`, or
  /// (`out`) from it back to the argument; by the runtime's copy kernels
  /// where they load and fit, by cuMemcpy2DAsync otherwise.
  void copyStaged(const Stream &stream, const RepitchCopy &copy,
                  CUdeviceptr staging, bool out) const;
  /// Whether copyStaged can make `copy`: by a copy kernel that loads here,
  /// or by the driver's 2-D copy (see driverCanCopy).
  bool canStage(const RepitchCopy &copy) const;
  /// The runtime's copy kernel for elements of `elementBytes` (2 or 4),
  /// loaded into this kernel's context on the first need there (one module
  /// a context, shared by the kernels that stage); nullptr where the
  /// runtime was built without them or they do not load on this device.
  const Kernel *stagingCopyKernel(unsigned elementBytes) const;
  /// launchArgs after the narrow choice: this kernel's grid, down the
  /// small-grid ladder (whose rungs make no narrow choice again: a rung may
  /// be the narrow variant of a kernel below it, as the GEMV kernel's
  /// small-grid variant is the kernel it narrows).
  void launchOnOwnGrid(const Stream &stream,
                       const std::vector<KernelArg> &args) const;
  /// Launches over `grid` (see computeGrid) with the tensor maps of
  /// `requests`, and the scratch buffer and then kernel if any.
  void launchDescribed(const Stream &stream, std::array<uint64_t, 3> grid,
                       const std::vector<KernelArg> &args,
                       const std::vector<TensorMapRequest> &requests) const;
  /// Whether a tensor map (that no copy into a staging buffer mends) or an
  /// aligned argument of this kernel does not hold for `args` (validated).
  bool needsFallback(const std::vector<KernelArg> &args) const;
  void loadSmallGrid() const;
  /// Loads the variant of every narrow line and, down the ladder, their
  /// own; `chain` holds the kernels above this one, so that a cycle is an
  /// error.
  void loadNarrow(std::vector<std::string> chain) const;
  /// The variant of narrow line `line`, checked to take the same user
  /// parameters and, on the line's ARG[.DIM], to narrow further only to a
  /// smaller bound (not its own variants).
  std::shared_ptr<Kernel> loadNarrowLine(size_t line) const;
  void loadThen();
  /// The variant `name` of this kernel, with its fallback (and small-grid
  /// variant if asked), checked to take the same user parameters; `prefix`
  /// starts the errors.
  std::shared_ptr<Kernel> loadVariant(const std::string &name,
                                      const std::string &prefix,
                                      bool loadSmallGrid) const;
  /// Whether the small-grid variant takes a launch on the (validated)
  /// `args`, this kernel's grid being `grid`: where that grid is small and
  /// the variant's own grid is not empty (a split-K variant has no program
  /// along an empty K, where this kernel still stores C).
  bool smallGridTakes(const std::vector<KernelArg> &args,
                      const std::array<uint64_t, 3> &grid) const;
  /// The first narrow line whose variant takes a launch on the (validated)
  /// `args`; nullopt when none does.
  std::optional<size_t> narrowLineFor(const std::vector<KernelArg> &args) const;
  /// The last rung of the narrow ladder from this kernel that fits the
  /// (validated) arguments: this kernel when none does. Throws Error when
  /// the ladder comes back to a kernel on it (possible only where variants
  /// load on first need; loadNarrow rules cycles out otherwise).
  const Kernel &narrowest(const std::vector<KernelArg> &args) const;
  /// Launches this kernel with `packed` (tensor maps included) on `grid`.
  void launchPacked(const Stream &stream, const std::array<uint64_t, 3> &grid,
                    PackedArgs &packed) const;
  /// launchPacked with the scratch buffer (sized for `sizedFor`: the
  /// tiles of a persistent kernel, else `grid`) appended to `args` (not on
  /// an empty grid), then the then kernel with the same buffer.
  void launchWithScratch(const Stream &stream,
                         const std::array<uint64_t, 3> &grid,
                         const std::array<uint64_t, 3> &sizedFor,
                         const std::vector<KernelArg> &args,
                         std::vector<CUtensorMap> tensorMaps) const;

  std::shared_ptr<detail::ModuleState> module_;
  std::string name_;
  CUfunction func_ = nullptr;
  LaunchMetadata meta_;
  /// Shared between copies; never has a fallback of its own. Mutable: in a
  /// module with a kernel resolver the variants load on first need.
  mutable std::shared_ptr<const Kernel> fallback_;
  /// Shared between copies; its own small-grid variant, if any, is not
  /// above it on the ladder (smallGridAbove_).
  mutable std::shared_ptr<const Kernel> smallGrid_;
  /// The kernels above this one on a small-grid ladder (empty unless it was
  /// loaded as a small-grid variant), so that a cycle is an error.
  std::vector<std::string> smallGridAbove_;
  /// One a narrow line, shared between copies; each one's own line on the
  /// same ARG[.DIM], if any, has a strictly smaller bound.
  mutable std::vector<std::shared_ptr<const Kernel>> narrow_;
  /// Set where the module resolves missing kernels: each variant loads once,
  /// on first need, into this state shared by the kernel's copies (the
  /// members above stay empty in the copies).
  struct LazyVariants {
    std::mutex mutex;
    bool fallbackLoaded = false, smallGridLoaded = false;
    std::shared_ptr<const Kernel> fallback, smallGrid;
    /// One a narrow line.
    std::vector<char> narrowLoaded;
    std::vector<std::shared_ptr<const Kernel>> narrow;
  };
  std::shared_ptr<LazyVariants> lazy_;
  /// Shared between copies; launched after this kernel with its scratch
  /// buffer; has no variants of its own.
  std::shared_ptr<const Kernel> then_;
  /// The device's multiprocessor count, for prefersSmallGrid and
  /// persistent grids (launchGrid).
  int multiprocessors_ = 0;
  /// The kernel's blocks that fit on a multiprocessor at once (the
  /// driver's occupancy), which caps a persistent or split grid's blocks
  /// an SM (launchGrid); 0 for other kernels.
  int residentPerSm_ = 0;
  /// One scratch buffer per stream, shared between copies (launchArgs is
  /// const) and freed with the last; set only when the metadata has a
  /// `scratch` line. Fallbacks, small-grid and narrow variants have their
  /// own.
  std::shared_ptr<detail::ScratchCache> scratch_;
  /// One staging buffer per stream for the copies of `repitch` arguments,
  /// shared between copies; set only when the metadata has a `repitch`
  /// line.
  std::shared_ptr<detail::ScratchCache> staging_;
  /// This kernel's hold on its context's staging-copy kernels, taken on
  /// the first staged launch (set with staging_).
  std::shared_ptr<detail::StagingCopies> stagingCopies_;
};

} // namespace tilec::rt

#endif // TILEC_RUNTIME_RUNTIME_H
