//===- Runtime.cpp - Devices, memory, modules and launches ----------------===//

#include "tilec/Runtime/Runtime.h"
#include "tilec/Runtime/Driver.h"

#ifdef TILEC_EMBEDDED_STAGING_COPY
// kStagingCopyCubin, kStagingCopyCubinSize (runtime/CMakeLists.txt).
#include "kStagingCopyCubin.inc"
#endif

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <variant>

namespace tilec::rt {

namespace detail {

struct ContextState {
  Device device;
  CUdevice handle = 0;
  CUcontext ctx = nullptr;

  ContextState(const ContextState &) = delete;
  ContextState &operator=(const ContextState &) = delete;

  explicit ContextState(int ordinal) : device(Device::get(ordinal)) {
    const DriverApi &api = driver();
    check(api.deviceGet(&handle, ordinal), "cuDeviceGet");
    check(api.devicePrimaryCtxRetain(&ctx, handle), "cuDevicePrimaryCtxRetain");
  }
  ~ContextState() {
    // Errors are ignored: a destructor cannot report them, and at process
    // exit the driver may already be shutting down.
    driver().devicePrimaryCtxRelease(handle);
  }
  void makeCurrent() const {
    check(driver().ctxSetCurrent(ctx), "cuCtxSetCurrent");
  }
  /// For destructors: best effort, no exceptions.
  void makeCurrentNoThrow() const { driver().ctxSetCurrent(ctx); }
};

struct ModuleState {
  std::shared_ptr<ContextState> ctx;
  CUmodule module = nullptr;
  /// Set by Module::setKernelImages: the module holding a kernel this one
  /// lacks (a variant compiled on first need), sharing this resolver.
  std::function<std::shared_ptr<ModuleState>(const std::string &)> resolveKernel;

  ModuleState(std::shared_ptr<ContextState> ctx, CUmodule module)
      : ctx(std::move(ctx)), module(module) {}
  ModuleState(const ModuleState &) = delete;
  ModuleState &operator=(const ModuleState &) = delete;
  ~ModuleState() {
    ctx->makeCurrentNoThrow();
    driver().moduleUnload(module);
  }
};

/// A kernel's device buffers of one kind, one per stream: its scratch
/// buffers (see `scratch` in LaunchMetadata.h), or the staging buffers its
/// `repitch` copies go to. Launches on one stream run in order, so they can
/// share a buffer (that each zero-fills first, where asked); launches on two
/// streams may overlap, so they cannot.
struct ScratchCache {
  struct Allocation {
    CUdeviceptr ptr = 0;
    ScratchState state;
  };

  std::shared_ptr<ContextState> ctx;
  /// Held from looking a buffer up until its launch is queued, so that no
  /// other thread frees it in between (by growing it).
  std::mutex mutex;
  /// Keyed by handle. A destroyed stream's entry stays until the kernel
  /// dies. A stream's handle is its driver object, which cuStreamDestroy
  /// releases only once the stream's work is done, so a new stream that gets
  /// the same handle inherits an idle buffer.
  std::unordered_map<CUstream, Allocation> byStream;

  explicit ScratchCache(std::shared_ptr<ContextState> ctx)
      : ctx(std::move(ctx)) {}
  ScratchCache(const ScratchCache &) = delete;
  ScratchCache &operator=(const ScratchCache &) = delete;
  ~ScratchCache() {
    if (byStream.empty())
      return;
    // Launches still queued may use the buffers, the user cannot know to
    // wait for them (the buffers are hidden), and cuMemFree only "may"
    // synchronize. Errors are ignored, as in the other destructors.
    ctx->makeCurrentNoThrow();
    driver().ctxSynchronize();
    for (auto &entry : byStream)
      if (entry.second.ptr)
        driver().memFree(entry.second.ptr);
  }

  /// A buffer of at least `bytes` for `stream`, zero-filled as `info.fill`
  /// says (ScratchFill), once the work queued on `stream` so far is done.
  /// With `mutex` held and the context current.
  CUdeviceptr get(CUstream stream, uint64_t bytes, const ScratchInfo &info,
                  const std::string &kernel);

private:
  void grow(CUstream stream, Allocation &a, uint64_t bytes,
            const std::string &kernel);
};

/// The runtime's staging-copy kernels (runtime/kernels/staging-copy.mlir)
/// loaded into one context, shared by every kernel there that stages; both
/// empty where the cubin does not load.
struct StagingKernels {
  std::optional<Kernel> bits16;
  std::optional<Kernel> bits32;
};

/// A kernel's hold on its context's staging kernels, taken on its first
/// staged launch.
struct StagingCopies {
  std::once_flag loaded;
  std::shared_ptr<const StagingKernels> kernels;
};

namespace {
/// Capacities grow in steps, so that a grid growing launch by launch does
/// not reallocate every time: a power of two from 256 bytes (cuMemAlloc's
/// alignment) up to 1 MiB, whole MiB beyond.
uint64_t scratchCapacity(uint64_t bytes) {
  constexpr uint64_t kMiB = uint64_t(1) << 20;
  if (bytes >= kMiB)
    // Sizes this close to 2^64 fail to allocate anyway.
    return bytes > ~uint64_t(0) - kMiB ? bytes
                                       : (bytes + kMiB - 1) / kMiB * kMiB;
  uint64_t capacity = 256;
  while (capacity < bytes)
    capacity *= 2;
  return capacity;
}

/// Scratch sizes are multiples of 4 in parsed metadata; a hand-made object's
/// are rounded up.
uint64_t scratchWords(uint64_t bytes) { return bytes / 4 + (bytes % 4 != 0); }
} // namespace

void ScratchCache::grow(CUstream stream, Allocation &a, uint64_t bytes,
                        const std::string &kernel) {
  const DriverApi &api = driver();
  if (a.ptr) {
    // Launches queued on `stream` may still use the old buffer, and
    // cuMemFree is not ordered on any stream (it only "may" synchronize).
    check(api.streamSynchronize(stream), "cuStreamSynchronize", kernel);
    check(api.memFree(std::exchange(a.ptr, 0)), "cuMemFree", kernel);
    a.state = {};
  }
  uint64_t capacity = scratchCapacity(bytes);
  CUdeviceptr ptr = 0;
  check(api.memAlloc(&ptr, capacity), "cuMemAlloc(scratch)", kernel);
  a.ptr = ptr;
  a.state.capacityBytes = capacity;
}

CUdeviceptr ScratchCache::get(CUstream stream, uint64_t bytes,
                              const ScratchInfo &info,
                              const std::string &kernel) {
  Allocation &a = byStream[stream];
  bool allocated = a.state.capacityBytes < bytes;
  if (allocated)
    grow(stream, a, bytes, kernel);
  if (uint64_t zero = scratchBytesToZero(info, allocated, bytes, a.state))
    check(driver().memsetD32Async(a.ptr, 0, scratchWords(zero), stream),
          "cuMemsetD32Async(scratch)", kernel);
  return a.ptr;
}

} // namespace detail

using detail::ContextState;

//===----------------------------------------------------------------------===//
// Devices and contexts
//===----------------------------------------------------------------------===//

int deviceCount() {
  const DriverApi *api = tryDriver();
  int count = 0;
  if (!api || api->deviceGetCount(&count) != CUDA_SUCCESS)
    return 0;
  return count;
}

namespace {
int attribute(CUdevice device, CUdevice_attribute attr) {
  int value = 0;
  check(driver().deviceGetAttribute(&value, attr, device),
        "cuDeviceGetAttribute");
  return value;
}
} // namespace

Device Device::get(int ordinal) {
  const DriverApi &api = driver();
  CUdevice handle;
  check(api.deviceGet(&handle, ordinal), "cuDeviceGet");
  Device dev;
  dev.ordinal = ordinal;
  char name[256] = {};
  check(api.deviceGetName(name, sizeof(name) - 1, handle), "cuDeviceGetName");
  dev.name = name;
  dev.ccMajor =
      attribute(handle, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  dev.ccMinor =
      attribute(handle, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  dev.smCount = attribute(handle, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  dev.maxSharedPerBlockOptin =
      attribute(handle, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  return dev;
}

std::vector<Device> Device::all() {
  std::vector<Device> devices;
  for (int i = 0, n = deviceCount(); i < n; ++i)
    devices.push_back(get(i));
  return devices;
}

Context::Context(int ordinal)
    : state_(std::make_shared<ContextState>(ordinal)) {}
Context::~Context() = default;

int Context::ordinal() const { return state_->device.ordinal; }
const Device &Context::device() const { return state_->device; }
CUcontext Context::handle() const { return state_->ctx; }
void Context::makeCurrent() const { state_->makeCurrent(); }

void Context::synchronize() const {
  state_->makeCurrent();
  check(driver().ctxSynchronize(), "cuCtxSynchronize");
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

Stream::Stream(const Context &ctx) : ctx_(ctx.state()) {
  ctx_->makeCurrent();
  // A blocking stream (not CU_STREAM_NON_BLOCKING), so that the synchronous
  // copies of DeviceBuffer, which run on the legacy default stream, wait for
  // kernels launched here.
  check(driver().streamCreate(&stream_, CU_STREAM_DEFAULT), "cuStreamCreate");
  owned_ = true;
}

Stream Stream::wrap(const Context &ctx, CUstream stream) {
  return Stream(ctx.state(), stream, /*owned=*/false);
}

Stream::Stream(Stream &&other) noexcept
    : ctx_(std::move(other.ctx_)),
      stream_(std::exchange(other.stream_, nullptr)),
      owned_(std::exchange(other.owned_, false)) {}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    reset();
    ctx_ = std::move(other.ctx_);
    stream_ = std::exchange(other.stream_, nullptr);
    owned_ = std::exchange(other.owned_, false);
  }
  return *this;
}

Stream::~Stream() { reset(); }

void Stream::reset() noexcept {
  // A wrapped stream belongs to the caller, and may be nullptr (the legacy
  // default stream) while in use.
  if (owned_ && stream_) {
    ctx_->makeCurrentNoThrow();
    driver().streamDestroy(stream_);
  }
  stream_ = nullptr;
  owned_ = false;
}

const Device &Stream::device() const { return ctx_->device; }

void Stream::synchronize() const {
  ctx_->makeCurrent();
  check(driver().streamSynchronize(stream_), "cuStreamSynchronize");
}

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(const Context &ctx, size_t bytes)
    : ctx_(ctx.state()), bytes_(bytes) {
  // cuMemAlloc rejects 0 bytes; an empty buffer is still a valid argument.
  if (bytes == 0)
    return;
  ctx_->makeCurrent();
  check(driver().memAlloc(&ptr_, bytes), "cuMemAlloc");
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : ctx_(std::move(other.ctx_)), ptr_(std::exchange(other.ptr_, 0)),
      bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    ctx_ = std::move(other.ctx_);
    ptr_ = std::exchange(other.ptr_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { reset(); }

void DeviceBuffer::reset() noexcept {
  if (ptr_) {
    ctx_->makeCurrentNoThrow();
    driver().memFree(ptr_);
    ptr_ = 0;
  }
  bytes_ = 0;
}

void DeviceBuffer::checkRange(size_t bytes, size_t offset,
                              const char *what) const {
  if (offset > bytes_ || bytes > bytes_ - offset)
    throw Error(std::string(what) + ": " + std::to_string(bytes) +
                " bytes at offset " + std::to_string(offset) +
                " exceed a buffer of " + std::to_string(bytes_) + " bytes");
}

void DeviceBuffer::copyFromHost(const void *src, size_t bytes, size_t offset) {
  checkRange(bytes, offset, "copy to device");
  if (bytes == 0)
    return;
  ctx_->makeCurrent();
  check(driver().memcpyHtoD(ptr_ + offset, src, bytes), "cuMemcpyHtoD");
}

void DeviceBuffer::copyToHost(void *dst, size_t bytes, size_t offset) const {
  checkRange(bytes, offset, "copy to host");
  if (bytes == 0)
    return;
  ctx_->makeCurrent();
  check(driver().memcpyDtoH(dst, ptr_ + offset, bytes), "cuMemcpyDtoH");
}

void DeviceBuffer::copyFromHostAsync(const Stream &stream, const void *src,
                                     size_t bytes, size_t offset) {
  checkRange(bytes, offset, "copy to device");
  if (bytes == 0)
    return;
  ctx_->makeCurrent();
  check(driver().memcpyHtoDAsync(ptr_ + offset, src, bytes, stream.handle()),
        "cuMemcpyHtoDAsync");
}

void DeviceBuffer::copyToHostAsync(const Stream &stream, void *dst,
                                   size_t bytes, size_t offset) const {
  checkRange(bytes, offset, "copy to host");
  if (bytes == 0)
    return;
  ctx_->makeCurrent();
  check(driver().memcpyDtoHAsync(dst, ptr_ + offset, bytes, stream.handle()),
        "cuMemcpyDtoHAsync");
}

void DeviceBuffer::memset(uint8_t value) {
  if (bytes_ == 0)
    return;
  ctx_->makeCurrent();
  check(driver().memsetD8(ptr_, value, bytes_), "cuMemsetD8");
}

TensorView DeviceBuffer::view(ScalarType type,
                              const std::vector<int64_t> &sizes) const {
  TensorView v = TensorView::contiguous(ptr_, type, sizes);
  // numElements() saturates, so a huge shape cannot wrap around to a small
  // byte count.
  uint64_t elements = static_cast<uint64_t>(v.numElements());
  if (elements > bytes_ / scalarTypeSize(type)) {
    std::string shape;
    for (int64_t size : sizes)
      shape += (shape.empty() ? "" : "x") + std::to_string(size);
    throw Error("a " + shape + " " + scalarTypeName(type) +
                " view does not fit in a buffer of " + std::to_string(bytes_) +
                " bytes");
  }
  return v;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

Event::Event(const Context &ctx) : ctx_(ctx.state()) {
  ctx_->makeCurrent();
  check(driver().eventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate");
}

Event::Event(Event &&other) noexcept
    : ctx_(std::move(other.ctx_)), event_(std::exchange(other.event_, nullptr)) {}

Event &Event::operator=(Event &&other) noexcept {
  if (this != &other) {
    reset();
    ctx_ = std::move(other.ctx_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

Event::~Event() { reset(); }

void Event::reset() noexcept {
  if (event_) {
    ctx_->makeCurrentNoThrow();
    driver().eventDestroy(event_);
    event_ = nullptr;
  }
}

void Event::record(const Stream &stream) {
  ctx_->makeCurrent();
  check(driver().eventRecord(event_, stream.handle()), "cuEventRecord");
}

void Event::synchronize() const {
  ctx_->makeCurrent();
  check(driver().eventSynchronize(event_), "cuEventSynchronize");
}

float Event::elapsedMs(const Event &start, const Event &end) {
  end.synchronize();
  float ms = 0;
  check(driver().eventElapsedTime(&ms, start.event_, end.event_),
        "cuEventElapsedTime");
  return ms;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

namespace {
std::shared_ptr<detail::ModuleState>
loadModuleState(const std::shared_ptr<ContextState> &ctx,
                std::string_view image, const std::string &operation) {
  // The driver reads the image through a plain pointer: give it 8-byte
  // aligned storage (ELF headers are read as 64-bit words) and a terminating
  // NUL (a PTX image is a C string).
  std::vector<uint64_t> aligned(image.size() / 8 + 1, 0);
  std::memcpy(aligned.data(), image.data(), image.size());
  ctx->makeCurrent();
  CUmodule module = nullptr;
  CUresult result = driver().moduleLoadData(&module, aligned.data());
  if (result == CUDA_ERROR_NO_BINARY_FOR_GPU) {
    // A cubin for another architecture: say which one the device needs.
    const Device &device = ctx->device;
    int cc = device.computeCapability();
    throw Error(result, operation + " (the image has no code for " +
                            device.name + ", compute capability " +
                            std::to_string(cc / 10) + "." +
                            std::to_string(cc % 10) + ": compile it for sm_" +
                            std::to_string(cc) + (cc == 90 ? "a" : "") + ")");
  }
  check(result, operation.c_str());
  return std::make_shared<detail::ModuleState>(ctx, module);
}

/// Where a module's missing kernels come from (Module::setKernelImages).
struct KernelImages {
  std::shared_ptr<ContextState> ctx;
  std::function<std::string(const std::string &)> imageFor;
};

/// Loads the image `images` gives for a kernel into its context; the module
/// resolves its own missing kernels the same way.
std::function<std::shared_ptr<detail::ModuleState>(const std::string &)>
kernelResolver(std::shared_ptr<const KernelImages> images) {
  return [images](const std::string &name) {
    std::shared_ptr<detail::ModuleState> state =
        loadModuleState(images->ctx, images->imageFor(name),
                        "cuModuleLoadData(kernel '" + name + "')");
    state->resolveKernel = kernelResolver(images);
    return state;
  };
}
} // namespace

Module Module::load(const Context &ctx, std::string_view image,
                    const std::string &operation) {
  return Module(loadModuleState(ctx.state(), image, operation));
}

void Module::setKernelImages(
    std::function<std::string(const std::string &name)> imageFor) {
  state_->resolveKernel = kernelResolver(std::make_shared<const KernelImages>(
      KernelImages{state_->ctx, std::move(imageFor)}));
}

Module Module::loadFile(const Context &ctx, const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("cannot open module '" + path + "': " + std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  if (in.bad())
    throw Error("cannot read module '" + path + "'");
  return load(ctx, bytes, "cuModuleLoadData('" + path + "')");
}

Module Module::loadData(const Context &ctx, std::string_view image) {
  return load(ctx, image, "cuModuleLoadData");
}

CUmodule Module::handle() const { return state_->module; }

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

namespace {
/// Shared memory a kernel may use without opting in.
constexpr unsigned kDefaultSharedLimit = 48 * 1024;

std::string readMetadataText(CUmodule module, const std::string &kernel) {
  const DriverApi &api = driver();
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  std::string symbol = launchMetadataSymbol(kernel);
  CUresult result = api.moduleGetGlobal(&ptr, &bytes, module, symbol.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    throw Error("cubin has no tilec launch metadata for kernel '" + kernel +
                    "' (no global " + symbol + ")",
                kernel);
  check(result, "cuModuleGetGlobal", kernel);
  std::string text(bytes, '\0');
  if (bytes)
    check(api.memcpyDtoH(text.data(), ptr, bytes), "cuMemcpyDtoH", kernel);
  // The global is a NUL-terminated byte array; its size may include padding.
  text.resize(std::strlen(text.c_str()));
  return text;
}
} // namespace

Kernel::Kernel(const Module &module, const std::string &name)
    : Kernel(module.state(), name, /*loadFallback=*/true,
             /*loadSmallGrid=*/true, /*loadNarrow=*/true) {}

Kernel::Kernel(std::shared_ptr<detail::ModuleState> module,
               const std::string &name, bool loadFallback, bool loadSmallGrid,
               bool loadNarrow)
    : module_(std::move(module)), name_(name) {
  const DriverApi &api = driver();
  module_->ctx->makeCurrent();
  check(api.moduleGetFunction(&func_, module_->module, name.c_str()),
        "cuModuleGetFunction", name);
  std::string why;
  std::optional<LaunchMetadata> meta =
      parseLaunchMetadata(readMetadataText(module_->module, name), &why);
  if (!meta)
    throw Error("kernel '" + name + "': " + why, name);
  // The context asked the driver for it when it was created
  // (CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT of its device): small-grid
  // choices and persistent grids depend on it.
  multiprocessors_ = module_->ctx->device.smCount;
  if (meta->kernel != name)
    throw Error("kernel '" + name + "': its launch metadata describes kernel '" +
                    meta->kernel + "'",
                name);
  meta_ = std::move(*meta);
  if (meta_.scratch.needed())
    scratch_ = std::make_shared<detail::ScratchCache>(module_->ctx);
  if (!meta_.repitch.empty()) {
    staging_ = std::make_shared<detail::ScratchCache>(module_->ctx);
    stagingCopies_ = std::make_shared<detail::StagingCopies>();
  }
  // A module that resolves missing kernels compiles variants on demand:
  // they load on first need (fallbackKernel, ...), not here.
  if (module_->resolveKernel) {
    lazy_ = std::make_shared<LazyVariants>();
    lazy_->narrowLoaded.resize(meta_.narrow.size());
    lazy_->narrow.resize(meta_.narrow.size());
  }

  uint64_t threads = uint64_t(meta_.block[0]) * meta_.block[1] * meta_.block[2];
  int maxThreads = attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  if (threads > static_cast<uint64_t>(maxThreads))
    throw Error("kernel '" + name + "': its block of " +
                    std::to_string(threads) +
                    " threads exceeds the kernel's limit of " +
                    std::to_string(maxThreads),
                name);
  // The driver would only say "invalid argument".
  uint64_t staticShared = attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  const Device &device = module_->ctx->device;
  if (meta_.sharedBytes + staticShared >
      static_cast<uint64_t>(device.maxSharedPerBlockOptin))
    throw Error("kernel '" + name + "': it needs " +
                    std::to_string(meta_.sharedBytes) +
                    " bytes of dynamic shared memory" +
                    (staticShared ? " (and " + std::to_string(staticShared) +
                                        " static)"
                                  : std::string()) +
                    ", more than the " +
                    std::to_string(device.maxSharedPerBlockOptin) +
                    " a block of " + device.name + " can have",
                name);
  // Beyond 48 KiB a block (static and dynamic together), dynamic shared
  // memory must be requested explicitly; doing it once here keeps it off
  // the launch path.
  if (meta_.sharedBytes + staticShared > kDefaultSharedLimit)
    check(api.funcSetAttribute(func_,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(meta_.sharedBytes)),
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", name);
  // After the shared-memory request, which the occupancy depends on.
  if (meta_.splitBlocksPerSm || meta_.persistentBlocksPerSm)
    residentPerSm_ = residentBlocksPerSm();
  // Eagerly, so that a broken fallback fails here rather than on the first
  // launch with unaligned buffers. A fallback's own fallback (for copy
  // sources not 4-byte aligned) is loaded down the chain; loadFallback rules
  // out cycles.
  if (loadFallback && !meta_.fallback.empty() && !lazy_)
    this->loadFallback({name});
  // Eagerly too. The variant is a full kernel with its fallback; it may not
  // name a variant itself, so there are no cycles. A fallback's variant is
  // never loaded: the choice of grid is made before the choice of fallback.
  if (loadSmallGrid && !meta_.smallGrid.kernel.empty() && !lazy_)
    this->loadSmallGrid();
  // Eagerly too. Each variant is a full kernel; loadNarrow checks its
  // bound and the ladder above it before loading its own variants. Neither
  // a fallback's nor a small-grid variant's narrow variants are loaded: the
  // narrow choice is made first.
  if (loadNarrow && !meta_.narrow.empty() && !lazy_)
    this->loadNarrow({name});
  // Always: launches of this kernel are followed by it (all but a split
  // kernel's unsplit ones, thenRuns). It names no then kernel itself, so
  // there are no cycles.
  if (!meta_.then.empty())
    loadThen();
}

namespace {
/// "(buffer:f32:2 scalar:i32)"
std::string describeParams(const std::vector<ParamInfo> &params) {
  std::string out;
  for (const ParamInfo &p : params)
    out += (out.empty() ? "" : " ") + describeParam(p);
  return "(" + out + ")";
}
} // namespace

namespace {
/// The module that holds kernel `name`: `module`, or where it lacks the
/// kernel and resolves missing ones, the module its resolver loads.
std::shared_ptr<detail::ModuleState>
moduleHolding(const std::shared_ptr<detail::ModuleState> &module,
              const std::string &name) {
  if (!module->resolveKernel)
    return module;
  module->ctx->makeCurrent();
  CUfunction func = nullptr;
  if (driver().moduleGetFunction(&func, module->module, name.c_str()) ==
      CUDA_ERROR_NOT_FOUND)
    return module->resolveKernel(name);
  return module;
}
} // namespace

void Kernel::loadFallback(std::vector<std::string> chain) const {
  std::string prefix =
      "kernel '" + name_ + "': its fallback '" + meta_.fallback + "' ";
  for (const std::string &before : chain)
    if (before == meta_.fallback)
      throw Error(prefix + "falls back to it again", name_);
  auto fallback = std::shared_ptr<Kernel>(
      new Kernel(moduleHolding(module_, meta_.fallback), meta_.fallback,
                 /*loadFallback=*/false, /*loadSmallGrid=*/false,
                 /*loadNarrow=*/false));
  const LaunchMetadata &other = fallback->metadata();
  if (!(other.params == meta_.params))
    throw Error(prefix + "takes " + describeParams(other.params) +
                    ", not the kernel's " + describeParams(meta_.params),
                name_);
  if (!other.tensorMaps.empty())
    throw Error(prefix + "has tensor maps itself", name_);
  // A resolved fallback loads its own on first need.
  if (!other.fallback.empty() && !fallback->lazy_) {
    chain.push_back(meta_.fallback);
    fallback->loadFallback(std::move(chain));
  }
  fallback_ = std::move(fallback);
}

namespace {
/// Whether `e` is the driver's "not found" for kernel `name`.
bool isMissingKernel(const Error &e, const std::string &name) {
  return e.result() == CUDA_ERROR_NOT_FOUND &&
         e.operation() == "cuModuleGetFunction" && e.kernel() == name;
}
} // namespace

std::shared_ptr<Kernel> Kernel::loadVariant(const std::string &name,
                                            const std::string &prefix,
                                            bool loadSmallGrid) const {
  std::shared_ptr<Kernel> variant;
  try {
    // Never with its own narrow variant: loadNarrow checks the bound first,
    // so that a cycle is reported rather than loaded forever.
    variant = std::shared_ptr<Kernel>(
        new Kernel(moduleHolding(module_, name), name, /*loadFallback=*/true,
                   loadSmallGrid, /*loadNarrow=*/false));
  } catch (const Error &e) {
    // Not the driver's "not found" for the variant's name: a caller that
    // treats that as "no such kernel" (the matmul bench's SKIP) must see
    // that this kernel exists but cannot be used.
    if (isMissingKernel(e, name))
      throw Error(prefix + "is not in the module", name_);
    throw;
  }
  const LaunchMetadata &other = variant->metadata();
  if (!(other.params == meta_.params))
    throw Error(prefix + "takes " + describeParams(other.params) +
                    ", not the kernel's " + describeParams(meta_.params),
                name_);
  return variant;
}

void Kernel::loadSmallGrid() const {
  const std::string &name = meta_.smallGrid.kernel;
  std::string prefix =
      "kernel '" + name_ + "': its small-grid variant '" + name + "' ";
  std::vector<std::string> chain = smallGridAbove_;
  chain.push_back(name_);
  for (const std::string &before : chain)
    if (before == name)
      throw Error(prefix + "is above it on the small-grid ladder", name_);
  std::shared_ptr<Kernel> variant =
      loadVariant(name, prefix, /*loadSmallGrid=*/false);
  // The variant's own variant, taken on the variant's grid: a ladder, each
  // rung loaded with the names above it, so that a cycle is an error.
  variant->smallGridAbove_ = std::move(chain);
  if (!variant->metadata().smallGrid.kernel.empty() && !variant->lazy_)
    variant->loadSmallGrid();
  smallGrid_ = std::move(variant);
}

std::shared_ptr<Kernel> Kernel::loadNarrowLine(size_t line) const {
  const NarrowVariant &narrow = meta_.narrow[line];
  std::string prefix =
      "kernel '" + name_ + "': its narrow variant '" + narrow.kernel + "' ";
  std::shared_ptr<Kernel> variant =
      loadVariant(narrow.kernel, prefix, /*loadSmallGrid=*/true);
  // On the same ARG[.DIM], each rung of the ladder has a smaller bound.
  for (const NarrowVariant &next : variant->metadata().narrow)
    if (next.arg == narrow.arg && next.dim == narrow.dim &&
        next.atMost >= narrow.atMost)
      throw Error(prefix + "names a narrow variant itself ('" + next.kernel +
                      "', at most " + std::to_string(next.atMost) +
                      " elements) whose bound is not below the kernel's " +
                      std::to_string(narrow.atMost),
                  name_);
  return variant;
}

void Kernel::loadNarrow(std::vector<std::string> chain) const {
  narrow_.clear();
  for (size_t line = 0; line < meta_.narrow.size(); ++line) {
    const std::string &name = meta_.narrow[line].kernel;
    // Lines on different arguments could lead back up the ladder, where
    // following it would never end.
    for (const std::string &before : chain)
      if (before == name)
        throw Error("kernel '" + name_ + "': its narrow variant '" + name +
                        "' is above it on the narrow ladder",
                    name_);
    std::shared_ptr<Kernel> variant = loadNarrowLine(line);
    if (!variant->metadata().narrow.empty() && !variant->lazy_) {
      std::vector<std::string> below = chain;
      below.push_back(name);
      variant->loadNarrow(std::move(below));
    }
    narrow_.push_back(std::move(variant));
  }
}

void Kernel::loadThen() {
  const std::string &name = meta_.then;
  std::string prefix = "kernel '" + name_ + "': its then kernel '" + name + "' ";
  // Same user parameters, checked there.
  std::shared_ptr<Kernel> then =
      loadVariant(name, prefix, /*loadSmallGrid=*/false);
  const LaunchMetadata &other = then->metadata();
  if (!other.scratch.needed())
    throw Error(prefix + "takes no scratch buffer", name_);
  if (!other.fallback.empty() || !other.smallGrid.kernel.empty() ||
      !other.narrow.empty() || !other.then.empty() || !other.tensorMaps.empty())
    throw Error(prefix + "has a fallback, small-grid, narrow or then kernel "
                         "or tensor maps itself",
                name_);
  then_ = std::move(then);
}

namespace {
/// A variant that loads on first need: `load()` gives it the first time
/// (under `mutex`); an error leaves it to be tried again.
template <typename Flag, typename Load>
const Kernel *loadOnce(std::mutex &mutex, Flag &loaded,
                       std::shared_ptr<const Kernel> &slot, Load load) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!loaded) {
    slot = load();
    loaded = true;
  }
  return slot.get();
}
} // namespace

const Kernel *Kernel::fallbackKernel() const {
  if (!lazy_)
    return fallback_.get();
  return loadOnce(lazy_->mutex, lazy_->fallbackLoaded, lazy_->fallback, [&] {
    if (!meta_.fallback.empty())
      loadFallback({name_});
    return fallback_;
  });
}

const Kernel *Kernel::smallGridKernel() const {
  if (!lazy_)
    return smallGrid_.get();
  return loadOnce(lazy_->mutex, lazy_->smallGridLoaded, lazy_->smallGrid, [&] {
    if (!meta_.smallGrid.kernel.empty())
      loadSmallGrid();
    return smallGrid_;
  });
}

const Kernel *Kernel::narrowKernel(size_t line) const {
  if (line >= meta_.narrow.size())
    return nullptr;
  // A rung loaded below another (a small-grid variant, a fallback) has
  // its narrow variants unloaded: the narrow choice was made above it.
  if (!lazy_)
    return line < narrow_.size() ? narrow_[line].get() : nullptr;
  // Its own variants load on their first need too; narrowest rules out a
  // ladder that comes back.
  return loadOnce(lazy_->mutex, lazy_->narrowLoaded[line], lazy_->narrow[line],
                  [&] { return loadNarrowLine(line); });
}

int Kernel::attribute(CUfunction_attribute attribute) const {
  module_->ctx->makeCurrent();
  int value = 0;
  check(driver().funcGetAttribute(&value, attribute, func_),
        "cuFuncGetAttribute", name_);
  return value;
}

Kernel::Quantisation
Kernel::quantisationFor(const std::vector<KernelArg> &args) const {
  const Kernel &launched = launchedFor(args);
  const LaunchMetadata &meta = launched.meta_;
  std::array<uint64_t, 3> grid = computeGrid(meta, args);
  std::array<uint64_t, 3> blocks = launchGrid(
      meta, grid, launched.multiprocessors_, launched.residentPerSm_);
  Quantisation q;
  q.kernel = launched.name_;
  q.blocks = blocks[0] * blocks[1] * blocks[2];
  q.programs = meta.splitBlocksPerSm ? q.blocks : grid[0] * grid[1] * grid[2];
  // Split and persistent kernels asked the driver at load.
  q.residentPerSm = launched.residentPerSm_ ? launched.residentPerSm_
                                            : launched.residentBlocksPerSm();
  uint64_t atOnce = std::min<uint64_t>(
      q.blocks, uint64_t(q.residentPerSm) * uint64_t(launched.multiprocessors_));
  if (atOnce)
    q.waves = double(q.programs) / double(atOnce);
  return q;
}

int Kernel::residentBlocksPerSm() const {
  module_->ctx->makeCurrent();
  int blocks = 0;
  check(driver().occupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, func_, int(meta_.block[0] * meta_.block[1] * meta_.block[2]),
            meta_.sharedBytes),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor", name_);
  return blocks;
}

namespace {
/// A tensor map that TMA cannot describe for the arguments given.
struct TensorMapFailure {
  unsigned arg;
  std::string reason;
};

/// The encode request of every tensor map of `meta` over the (validated)
/// `args`, or the first that cannot be described.
std::variant<std::vector<TensorMapRequest>, TensorMapFailure>
describeTensorMaps(const LaunchMetadata &meta,
                   const std::vector<KernelArg> &args) {
  std::vector<TensorMapRequest> requests;
  for (const TensorMapInfo &info : meta.tensorMaps) {
    // The metadata parser made `arg` a buffer, validation made it a view.
    const auto &view = std::get<TensorView>(args[info.arg].value());
    auto described = describeTensorMap(info, view);
    if (auto *why = std::get_if<std::string>(&described))
      return TensorMapFailure{info.arg, std::move(*why)};
    requests.push_back(std::get<TensorMapRequest>(described));
  }
  return requests;
}

CUtensorMap encodeTensorMap(const TensorMapRequest &r, unsigned arg,
                            const std::string &kernel) {
  CUtensorMap map;
  std::string operation =
      "cuTensorMapEncodeTiled(argument " + std::to_string(arg) + ")";
  check(driver().tensorMapEncodeTiled(
            &map, r.dataType, r.rank, reinterpret_cast<void *>(r.address),
            r.globalDim.data(), r.globalStrides.data(), r.boxDim.data(),
            r.elementStrides.data(), r.interleave, r.swizzle, r.l2Promotion,
            r.oobFill),
        operation.c_str(), kernel);
  return map;
}
} // namespace

namespace {
/// Whether narrow line `narrow` holds for the (validated) `args`.
bool narrowLineHolds(const NarrowVariant &narrow,
                     const std::vector<KernelArg> &args) {
  const KernelArg &arg = args[narrow.arg];
  if (narrow.dim) {
    // The parser made `arg` a buffer of rank above `dim`, validation made it
    // a view of that rank with no negative size.
    const auto &view = std::get<TensorView>(arg.value());
    return prefersNarrow(narrow,
                         static_cast<uint64_t>(view.sizes[*narrow.dim]));
  }
  // The parser made `arg` an i32 or i64 scalar, validation an argument of
  // that type. A negative value is no extent: it never selects the variant.
  int64_t extent = *arg.integer();
  return extent >= 0 && prefersNarrow(narrow, static_cast<uint64_t>(extent));
}
} // namespace

std::optional<size_t>
Kernel::narrowLineFor(const std::vector<KernelArg> &args) const {
  for (size_t line = 0; line < meta_.narrow.size(); ++line)
    if (narrowLineHolds(meta_.narrow[line], args))
      return line;
  return std::nullopt;
}

const Kernel &Kernel::narrowest(const std::vector<KernelArg> &args) const {
  const Kernel *kernel = this;
  std::vector<const Kernel *> above;
  while (std::optional<size_t> line = kernel->narrowLineFor(args)) {
    const Kernel *next = kernel->narrowKernel(*line);
    if (!next)
      break;
    above.push_back(kernel);
    kernel = next;
    for (const Kernel *before : above)
      if (before->name_ == kernel->name_)
        throw Error("kernel '" + name_ +
                        "': its narrow ladder comes back to '" + kernel->name_ +
                        "'",
                    name_);
  }
  return *kernel;
}

const Kernel &Kernel::selectFor(const std::vector<KernelArg> &args) const {
  validateArguments(meta_, args);
  // The rungs take the same user parameters, so the arguments are valid for
  // them too; the narrowest makes the small-grid choice.
  const Kernel *chosen = &narrowest(args);
  // Down the small-grid ladder, each rung on its own grid. Without a
  // variant the grid does not matter (and computing it could fail on grids
  // that launchArgs would reject anyway).
  while (!chosen->meta_.smallGrid.kernel.empty()) {
    std::array<uint64_t, 3> grid = computeGrid(chosen->meta_, args);
    if (!chosen->smallGridTakes(args, grid))
      break;
    chosen = chosen->smallGridKernel();
  }
  return *chosen;
}

bool Kernel::smallGridTakes(const std::vector<KernelArg> &args,
                            const std::array<uint64_t, 3> &grid) const {
  if (meta_.smallGrid.kernel.empty() ||
      !prefersSmallGrid(meta_, grid, multiprocessors_))
    return false;
  std::array<uint64_t, 3> own = computeGrid(smallGridKernel()->meta_, args);
  return own[0] != 0 && own[1] != 0 && own[2] != 0;
}

bool Kernel::usesFallback(const std::vector<KernelArg> &args) const {
  // The variant takes the same user parameters, so the arguments that
  // selectFor validated are valid for it too.
  const Kernel &selected = selectFor(args);
  return &selected.downTheFallbacks(args) != &selected;
}

const Kernel &Kernel::launchedFor(const std::vector<KernelArg> &args) const {
  return selectFor(args).downTheFallbacks(args);
}

const Kernel &
Kernel::downTheFallbacks(const std::vector<KernelArg> &args) const {
  const Kernel *chosen = this;
  while (!chosen->meta_.fallback.empty() && chosen->needsFallback(args))
    chosen = chosen->fallbackKernel();
  return *chosen;
}

bool Kernel::needsFallback(const std::vector<KernelArg> &args) const {
  return misalignedArgument(meta_, args) ||
         (std::holds_alternative<TensorMapFailure>(
              describeTensorMaps(meta_, args)) &&
          !planRepitch(meta_, args, computeGrid(meta_, args)));
}

bool Kernel::repitches(const std::vector<KernelArg> &args) const {
  const Kernel &launched = launchedFor(args);
  // The fallbacks passed over are those whose failures no copy mends.
  return std::holds_alternative<TensorMapFailure>(
      describeTensorMaps(launched.meta_, args));
}

void Kernel::launchArgs(const Stream &stream,
                        const std::vector<KernelArg> &args) const {
  // Before the grid: the narrow choice is made on the arguments, once down
  // the whole ladder, and the rung chosen computes its own grid.
  if (!meta_.narrow.empty()) {
    validateArguments(meta_, args);
    if (const Kernel &chosen = narrowest(args); &chosen != this)
      return chosen.launchOnOwnGrid(stream, args);
  }
  launchOnOwnGrid(stream, args);
}

void Kernel::launchOnOwnGrid(const Stream &stream,
                             const std::vector<KernelArg> &args) const {
  std::array<uint64_t, 3> grid = computeGrid(meta_, args);
  bool empty = isEmptyGrid(grid);
  // An empty grid still has a then kernel to run: a split-key attention
  // over no keys leaves no partial result, and its combine writes the
  // output of rows that saw no key.
  if (empty && !then_)
    return;
  if (!empty && smallGridTakes(args, grid))
    return smallGridKernel()->launchOnOwnGrid(stream, args);
  if (stream.context()->ctx != module_->ctx->ctx)
    throw Error("kernel '" + name_ + "' is loaded on device " +
                    std::to_string(module_->ctx->device.ordinal) +
                    " but the stream belongs to device " +
                    std::to_string(stream.context()->device.ordinal),
                name_);
  if (empty)
    return launchWithScratch(stream, grid, grid, args, {});
  if (auto misaligned = misalignedArgument(meta_, args)) {
    if (const Kernel *fallback = fallbackKernel())
      return fallback->launchArgs(stream, args);
    // The metadata parser requires a fallback with an aligned line.
    throw Error("kernel '" + name_ + "': argument " +
                    std::to_string(misaligned->first) + " is misaligned (" +
                    misaligned->second + ") and there is no fallback kernel",
                name_);
  }
  auto described = describeTensorMaps(meta_, args);
  if (auto *failure = std::get_if<TensorMapFailure>(&described)) {
    if (std::optional<RepitchPlan> plan = planRepitch(meta_, args, grid);
        plan && launchRepitched(stream, grid, args, *plan))
      return;
    if (const Kernel *fallback = fallbackKernel())
      return fallback->launchArgs(stream, args);
    // What planRepitch leaves: a buffer the kernel does not list, a
    // written one whose rows overlap, sizes TMA rejects even staged.
    throw Error(
        "kernel '" + name_ + "': argument " + std::to_string(failure->arg) +
            " cannot be described by a TMA tensor map (" + failure->reason +
            "), nor copied into rows that can be (not a buffer the "
            "kernel stages, written rows that overlap, or 2^32 rows "
            "or more), and there is no fallback kernel",
        name_);
  }
  launchDescribed(stream, grid, args,
                  std::get<std::vector<TensorMapRequest>>(described));
}

bool Kernel::launchRepitched(const Stream &stream,
                             const std::array<uint64_t, 3> &grid,
                             const std::vector<KernelArg> &args,
                             const RepitchPlan &plan) const {
  module_->ctx->makeCurrent();
  // Before any copy is queued: one that neither the copy kernels nor the
  // driver can make leaves the launch to the fallback, or is refused.
  for (const RepitchCopy &copy : plan.copies) {
    if ((!copy.in && !copy.out) || canStage(copy))
      continue;
    if (fallbackKernel())
      return false;
    throw Error("kernel '" + name_ + "': argument " + std::to_string(copy.arg) +
                    " (rows of " + std::to_string(copy.rowBytes) + " bytes, " +
                    std::to_string(copy.sourcePitch) +
                    " bytes apart) must be staged for TMA, and no copy "
                    "here can: the runtime's copy kernels (2- or 4-byte "
                    "elements, rows up to 64 MiB) load on sm_90 in a "
                    "runtime built with the compiler, and the driver's "
                    "cuMemcpy2D takes only rows that neither repeat, "
                    "overlap nor run backwards, under 2^31 bytes apart",
                name_);
  }
  // Held until the kernel is queued: another thread's launch could grow
  // (free) the buffer in between.
  std::lock_guard<std::mutex> lock(staging_->mutex);
  CUdeviceptr staging = 0;
  try {
    staging = staging_->get(stream.handle(), plan.bytes,
                            ScratchInfo{0, 0, ScratchFill::None}, name_);
  } catch (const Error &error) {
    // Too large to stage: a fallback reads the buffers where they are;
    // without one, the allocation's error stands.
    if (error.result() == CUDA_ERROR_OUT_OF_MEMORY && fallbackKernel())
      return false;
    throw;
  }
  for (const RepitchCopy &copy : plan.copies)
    if (copy.in)
      copyStaged(stream, copy, staging, /*out=*/false);
  std::vector<KernelArg> staged = repitchedArguments(args, plan, staging);
  auto described =
      describeTensorMaps(meta_, tensorMapArguments(args, plan, staging));
  // planRepitch checked each staged view at an aligned address.
  if (auto *failure = std::get_if<TensorMapFailure>(&described))
    throw Error("kernel '" + name_ + "': staged argument " +
                    std::to_string(failure->arg) +
                    " cannot be described by a TMA tensor map: " +
                    failure->reason,
                name_);
  launchDescribed(stream, grid, staged,
                  std::get<std::vector<TensorMapRequest>>(described));
  // After the then kernel too (queued by launchDescribed): a split-K sum
  // writes the staged C.
  for (const RepitchCopy &copy : plan.copies)
    if (copy.out)
      copyStaged(stream, copy, staging, /*out=*/true);
  return true;
}

void Kernel::copyStaged(const Stream &stream, const RepitchCopy &copy,
                        CUdeviceptr staging, bool out) const {
  // The copy kernels move 1.6-2.1x the driver's 2-D copy on the H200 at
  // large rows off 16-byte alignment (runtime/kernels/staging-copy.mlir).
  if (std::optional<StagingCopyLaunch> launch =
          stagingCopyLaunch(copy, staging, out))
    if (const Kernel *kernel = stagingCopyKernel(launch->elementBytes))
      return kernel->launchArgs(stream, {launch->from, launch->to});
  // launchRepitched checked canStage: the driver copies these rows.
  CUdeviceptr source = copy.source.data;
  CUdeviceptr staged = staging + copy.stagedOffset;
  CUDA_MEMCPY2D region{};
  region.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  region.srcDevice = out ? staged : source;
  region.srcPitch = out ? copy.stagedPitch : uint64_t(copy.sourcePitch);
  region.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  region.dstDevice = out ? source : staged;
  region.dstPitch = out ? uint64_t(copy.sourcePitch) : copy.stagedPitch;
  region.WidthInBytes = copy.rowBytes;
  region.Height = copy.rows;
  std::string operation = "cuMemcpy2DAsync(repitch argument " +
                          std::to_string(copy.arg) +
                          (out ? " back)" : ")");
  check(driver().memcpy2DAsync(&region, stream.handle()), operation.c_str(),
        name_);
}

bool Kernel::canStage(const RepitchCopy &copy) const {
  if (std::optional<StagingCopyLaunch> launch =
          stagingCopyLaunch(copy, /*staging=*/0, /*out=*/false))
    if (stagingCopyKernel(launch->elementBytes))
      return true;
  return driverCanCopy(copy);
}

const Kernel *Kernel::stagingCopyKernel(unsigned elementBytes) const {
#ifdef TILEC_EMBEDDED_STAGING_COPY
  if (elementBytes != 2 && elementBytes != 4)
    return nullptr;
  detail::StagingCopies &copies = *stagingCopies_;
  std::call_once(copies.loaded, [&] {
    // One module a context, kept while a kernel that stages holds it.
    static std::mutex mutex;
    static std::unordered_map<CUcontext,
                              std::weak_ptr<const detail::StagingKernels>>
        loaded;
    std::lock_guard<std::mutex> lock(mutex);
    std::weak_ptr<const detail::StagingKernels> &shared =
        loaded[module_->ctx->ctx];
    copies.kernels = shared.lock();
    if (copies.kernels)
      return;
    auto kernels = std::make_shared<detail::StagingKernels>();
    std::string_view image(reinterpret_cast<const char *>(kStagingCopyCubin),
                           kStagingCopyCubinSize);
    try {
      auto module = loadModuleState(module_->ctx, image,
                                    "cuModuleLoadData(staging copies)");
      kernels->bits16.emplace(
          Kernel(module, "tilec_stage_16", false, false, false));
      kernels->bits32.emplace(
          Kernel(module, "tilec_stage_32", false, false, false));
    } catch (const Error &) {
      // An sm_90a cubin loads on sm_90 only; cuMemcpy2DAsync stages
      // elsewhere.
      kernels->bits16.reset();
      kernels->bits32.reset();
    }
    copies.kernels = kernels;
    shared = kernels;
  });
  const std::optional<Kernel> &kernel =
      elementBytes == 2 ? copies.kernels->bits16 : copies.kernels->bits32;
  return kernel ? &*kernel : nullptr;
#else
  (void)elementBytes;
  return nullptr;
#endif
}

void Kernel::launchDescribed(const Stream &stream,
                             std::array<uint64_t, 3> grid,
                             const std::vector<KernelArg> &args,
                             const std::vector<TensorMapRequest> &requests)
    const {
  // A persistent kernel walks the tiles with the blocks that fit at once;
  // its scratch buffer holds a status a tile.
  std::array<uint64_t, 3> tiles = grid;
  grid = launchGrid(meta_, grid, multiprocessors_, residentPerSm_);
  std::vector<CUtensorMap> tensorMaps;
  for (size_t i = 0; i < requests.size(); ++i)
    tensorMaps.push_back(
        encodeTensorMap(requests[i], meta_.tensorMaps[i].arg, name_));
  if (scratch_)
    return launchWithScratch(stream, grid, scratchGrid(meta_, tiles, grid),
                             args, std::move(tensorMaps));
  PackedArgs packed = packArguments(meta_, args);
  packed.tensorMaps = std::move(tensorMaps);
  launchPacked(stream, grid, packed);
}

void Kernel::launchWithScratch(const Stream &stream,
                               const std::array<uint64_t, 3> &grid,
                               const std::array<uint64_t, 3> &sizedFor,
                               const std::vector<KernelArg> &args,
                               std::vector<CUtensorMap> tensorMaps) const {
  uint64_t bytes = scratchBytes(meta_, sizedFor);
  // Parsed metadata never yields this value otherwise (not a multiple of 4).
  if (bytes == ~uint64_t(0))
    throw Error("kernel '" + name_ + "': its scratch buffer of " +
                    std::to_string(meta_.scratch.fixedBytes) + " + " +
                    std::to_string(meta_.scratch.bytesPerProgram) + " * " +
                    std::to_string(sizedFor[0]) + "x" +
                    std::to_string(sizedFor[1]) + "x" +
                    std::to_string(sizedFor[2]) +
                    " bytes does not fit in 64 bits",
                name_);
  module_->ctx->makeCurrent();
  std::lock_guard<std::mutex> lock(scratch_->mutex);
  ScratchBuffer scratch{scratch_->get(stream.handle(), bytes, meta_.scratch,
                                      name_),
                        detail::scratchWords(bytes)};
  if (!isEmptyGrid(grid)) {
    PackedArgs packed = packArguments(meta_, args, scratch);
    packed.tensorMaps = std::move(tensorMaps);
    launchPacked(stream, grid, packed);
  }
  if (!then_ || !thenRuns(meta_, grid))
    return;
  // Same stream, so it reads what this launch left; the lock keeps the
  // buffer from the next launch's zero-fill until both are queued.
  std::array<uint64_t, 3> thenGrid = computeGrid(then_->meta_, args);
  if (isEmptyGrid(thenGrid))
    return;
  PackedArgs thenPacked = packArguments(then_->meta_, args, scratch);
  then_->launchPacked(stream, thenGrid, thenPacked);
}

void Kernel::launchPacked(const Stream &stream,
                          const std::array<uint64_t, 3> &grid,
                          PackedArgs &packed) const {
  std::vector<void *> params = packed.pointers();
  module_->ctx->makeCurrent();
  CUlaunchAttribute attributes[2] = {};
  unsigned count = 0;
  if (meta_.clusterX > 1) {
    CUlaunchAttribute &cluster = attributes[count++];
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = meta_.clusterX;
    cluster.value.clusterDim.y = 1;
    cluster.value.clusterDim.z = 1;
  }
  // The kernel waits for the grid before it itself (launch metadata
  // `waits`), so it may start while that grid ends.
  if (meta_.waitsForPrevious) {
    CUlaunchAttribute &overlap = attributes[count++];
    overlap.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    overlap.value.programmaticStreamSerializationAllowed = 1;
  }
  if (count) {
    CUlaunchConfig config{};
    config.gridDimX = static_cast<unsigned>(grid[0]);
    config.gridDimY = static_cast<unsigned>(grid[1]);
    config.gridDimZ = static_cast<unsigned>(grid[2]);
    config.blockDimX = meta_.block[0];
    config.blockDimY = meta_.block[1];
    config.blockDimZ = meta_.block[2];
    config.sharedMemBytes = meta_.sharedBytes;
    config.hStream = stream.handle();
    config.attrs = attributes;
    config.numAttrs = count;
    check(driver().launchKernelEx(&config, func_, params.data(), nullptr),
          "cuLaunchKernelEx", name_);
    return;
  }
  check(driver().launchKernel(func_, static_cast<unsigned>(grid[0]),
                              static_cast<unsigned>(grid[1]),
                              static_cast<unsigned>(grid[2]), meta_.block[0],
                              meta_.block[1], meta_.block[2], meta_.sharedBytes,
                              stream.handle(), params.data(), nullptr),
        "cuLaunchKernel", name_);
}

} // namespace tilec::rt
