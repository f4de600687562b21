//===- EmbeddedKernels.cpp - Cubins compiled into a program ---------------===//

#include "tilec/Runtime/EmbeddedKernels.h"

#include <mutex>

namespace tilec::rt {

std::optional<CubinArch> CubinArch::parse(std::string_view name) {
  if (name.substr(0, 3) != "sm_")
    return std::nullopt;
  name.remove_prefix(3);
  CubinArch arch;
  if (!name.empty() && (name.back() == 'a' || name.back() == 'f')) {
    arch.suffix = name.back();
    name.remove_suffix(1);
  }
  // Two or three digits: sm_80, sm_100; no leading zero.
  if (name.size() < 2 || name.size() > 3 || name[0] == '0')
    return std::nullopt;
  int number = 0;
  for (char c : name) {
    if (c < '0' || c > '9')
      return std::nullopt;
    number = number * 10 + (c - '0');
  }
  arch.major = number / 10;
  arch.minor = number % 10;
  return arch;
}

bool CubinArch::runsOn(int ccMajor, int ccMinor) const {
  if (ccMajor != major)
    return false;
  return suffix == 'a' ? ccMinor == minor : ccMinor >= minor;
}

std::optional<size_t> selectCubin(const std::vector<std::string> &archs,
                                  int ccMajor, int ccMinor) {
  std::optional<size_t> best;
  // Higher is better: the minor, then an exact 'a' before anything else.
  auto rank = [&](const CubinArch &a) {
    return a.minor * 4 + (a.suffix == 'a' ? 2 : a.suffix == 'f' ? 0 : 1);
  };
  std::optional<CubinArch> bestArch;
  for (size_t i = 0; i < archs.size(); ++i) {
    std::optional<CubinArch> arch = CubinArch::parse(archs[i]);
    if (!arch)
      return std::nullopt;
    if (!arch->runsOn(ccMajor, ccMinor))
      continue;
    if (!bestArch || rank(*arch) > rank(*bestArch)) {
      best = i;
      bestArch = arch;
    }
  }
  return best;
}

namespace {
/// The kernels of one source loaded on one device.
struct Loaded {
  Context ctx;
  Module module;
  std::vector<Kernel> kernels;

  Loaded(int ordinal, std::string_view image,
         const std::vector<std::string> &names)
      : ctx(ordinal), module(Module::loadData(ctx, image)) {
    kernels.reserve(names.size());
    for (const std::string &name : names)
      kernels.emplace_back(module, name);
  }
};
} // namespace

struct EmbeddedKernels::State {
  std::mutex mutex;
  /// By device ordinal; null until the device's first launch.
  std::vector<std::unique_ptr<Loaded>> byDevice;
};

EmbeddedKernels::EmbeddedKernels(std::string source,
                                 const EmbeddedCubin *cubins, size_t numCubins,
                                 const char *const *kernels, size_t numKernels)
    : source_(std::move(source)), cubins_(cubins, cubins + numCubins),
      state_(std::make_unique<State>()) {
  for (size_t i = 0; i < numKernels; ++i)
    kernels_.emplace_back(kernels[i]);
}

EmbeddedKernels::~EmbeddedKernels() = default;

std::string EmbeddedKernels::archList() const {
  std::string list;
  for (const EmbeddedCubin &cubin : cubins_)
    list += (list.empty() ? "" : ", ") + std::string(cubin.arch);
  return list;
}

const EmbeddedCubin &EmbeddedKernels::cubinFor(const Device &device) const {
  std::vector<std::string> archs;
  for (const EmbeddedCubin &cubin : cubins_)
    archs.emplace_back(cubin.arch);
  if (std::optional<size_t> index =
          selectCubin(archs, device.ccMajor, device.ccMinor))
    return cubins_[*index];
  throw Error("the kernels of " + source_ + " have no cubin for device " +
              std::to_string(device.ordinal) + " (" + device.name +
              ", compute capability " + std::to_string(device.ccMajor) + "." +
              std::to_string(device.ccMinor) + "): they were compiled for " +
              (archs.empty() ? std::string("no architecture") : archList()) +
              " (the ARCHS of tilec_add_kernels)");
}

const Kernel &EmbeddedKernels::kernel(const Stream &stream,
                                      size_t index) const {
  if (index >= kernels_.size())
    throw Error("the kernels of " + source_ + " have no entry kernel " +
                std::to_string(index) + " (there are " +
                std::to_string(kernels_.size()) + ")");
  const Device &device = stream.device();
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto &byDevice = state_->byDevice;
  size_t ordinal = static_cast<size_t>(device.ordinal);
  if (ordinal >= byDevice.size())
    byDevice.resize(ordinal + 1);
  if (!byDevice[ordinal])
    byDevice[ordinal] = std::make_unique<Loaded>(
        device.ordinal, cubinFor(device).bytes(), kernels_);
  return byDevice[ordinal]->kernels[index];
}

const Kernel &EmbeddedKernels::kernel(const Stream &stream,
                                      std::string_view name) const {
  for (size_t i = 0; i < kernels_.size(); ++i)
    if (kernels_[i] == name)
      return kernel(stream, i);
  throw Error("the kernels of " + source_ + " have no entry kernel '" +
                  std::string(name) + "'",
              std::string(name));
}

} // namespace tilec::rt
