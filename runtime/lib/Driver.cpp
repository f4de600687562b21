//===- Driver.cpp - Loading libcuda at run time ---------------------------===//

#include "tilec/Runtime/Driver.h"
#include "tilec/Runtime/Error.h"

#include <dlfcn.h>

#include <mutex>

namespace tilec::rt {

namespace {

// cuGetProcAddress_v2 (CUDA >= 12.0), declared here so that we do not depend on
// how cuda.h maps the name.
using GetProcAddressFn = CUresult (*)(const char *symbol, void **pfn,
                                      int cudaVersion, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult *status);

struct LoadedDriver {
  DriverApi api{};
  GetProcAddressFn getProcAddress = nullptr;
  bool ok = false;
  /// Why loading failed, as the message of the Error thrown by driver().
  std::string failure;
  /// The CUresult of a failed cuInit (CUDA_SUCCESS if it failed earlier).
  CUresult initResult = CUDA_SUCCESS;
};

void *resolve(GetProcAddressFn getProcAddress, const char *name,
              CUresult *resultOut = nullptr) {
  void *fn = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  CUresult result = getProcAddress(name, &fn, kDriverApiVersion,
                                   CU_GET_PROC_ADDRESS_DEFAULT, &status);
  if (resultOut)
    *resultOut = result;
  if (result != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS)
    return nullptr;
  return fn;
}

/// Why cuGetProcAddress could not resolve `name`.
std::string missingEntryPoint(const char *name, CUresult result) {
  // The error names are not available yet, so spell out the likely case.
  if (result == CUDA_ERROR_STUB_LIBRARY)
    return "libcuda.so.1 is the CUDA toolkit's stub library, not a driver "
           "(CUDA_ERROR_STUB_LIBRARY)";
  if (result != CUDA_SUCCESS)
    return std::string("cuGetProcAddress(\"") + name + "\") failed with "
           "CUresult " + std::to_string(static_cast<int>(result));
  return std::string("the CUDA driver has no entry point ") + name;
}

/// Resolves every entry point of DriverApi; on failure returns why.
std::string resolveAll(GetProcAddressFn getProcAddress, DriverApi &api) {
  struct Entry {
    const char *name;
    void **slot;
  };
  // The base names: cuGetProcAddress picks the variant (e.g. cuMemAlloc_v2)
  // that CUDA 12.0 headers would have called.
  const Entry entries[] = {
      {"cuInit", (void **)&api.init},
      {"cuGetErrorName", (void **)&api.getErrorName},
      {"cuGetErrorString", (void **)&api.getErrorString},
      {"cuDeviceGetCount", (void **)&api.deviceGetCount},
      {"cuDeviceGet", (void **)&api.deviceGet},
      {"cuDeviceGetName", (void **)&api.deviceGetName},
      {"cuDeviceGetAttribute", (void **)&api.deviceGetAttribute},
      {"cuDevicePrimaryCtxRetain", (void **)&api.devicePrimaryCtxRetain},
      {"cuDevicePrimaryCtxRelease", (void **)&api.devicePrimaryCtxRelease},
      {"cuCtxSetCurrent", (void **)&api.ctxSetCurrent},
      {"cuCtxSynchronize", (void **)&api.ctxSynchronize},
      {"cuStreamCreate", (void **)&api.streamCreate},
      {"cuStreamDestroy", (void **)&api.streamDestroy},
      {"cuStreamSynchronize", (void **)&api.streamSynchronize},
      {"cuMemAlloc", (void **)&api.memAlloc},
      {"cuMemFree", (void **)&api.memFree},
      {"cuMemcpyHtoD", (void **)&api.memcpyHtoD},
      {"cuMemcpyDtoH", (void **)&api.memcpyDtoH},
      {"cuMemcpyHtoDAsync", (void **)&api.memcpyHtoDAsync},
      {"cuMemcpyDtoHAsync", (void **)&api.memcpyDtoHAsync},
      {"cuMemcpy2DAsync", (void **)&api.memcpy2DAsync},
      {"cuMemsetD8", (void **)&api.memsetD8},
      {"cuMemsetD32Async", (void **)&api.memsetD32Async},
      {"cuModuleLoadData", (void **)&api.moduleLoadData},
      {"cuModuleUnload", (void **)&api.moduleUnload},
      {"cuModuleGetFunction", (void **)&api.moduleGetFunction},
      {"cuModuleGetGlobal", (void **)&api.moduleGetGlobal},
      {"cuFuncSetAttribute", (void **)&api.funcSetAttribute},
      {"cuFuncGetAttribute", (void **)&api.funcGetAttribute},
      {"cuOccupancyMaxActiveBlocksPerMultiprocessor",
       (void **)&api.occupancyMaxActiveBlocksPerMultiprocessor},
      {"cuLaunchKernelEx", (void **)&api.launchKernelEx},
      {"cuLaunchKernel", (void **)&api.launchKernel},
      {"cuEventCreate", (void **)&api.eventCreate},
      {"cuEventRecord", (void **)&api.eventRecord},
      {"cuEventSynchronize", (void **)&api.eventSynchronize},
      {"cuEventElapsedTime", (void **)&api.eventElapsedTime},
      {"cuEventDestroy", (void **)&api.eventDestroy},
      {"cuTensorMapEncodeTiled", (void **)&api.tensorMapEncodeTiled},
  };
  for (const Entry &e : entries) {
    CUresult result;
    *e.slot = resolve(getProcAddress, e.name, &result);
    if (!*e.slot)
      return missingEntryPoint(e.name, result);
  }
  return {};
}

LoadedDriver load() {
  LoadedDriver d;
  // Never dlclose'd: function pointers into it live as long as the process.
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    d.failure = std::string("cannot load the CUDA driver: ") +
                (why ? why : "dlopen(libcuda.so.1) failed");
    return d;
  }
  d.getProcAddress =
      reinterpret_cast<GetProcAddressFn>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!d.getProcAddress) {
    d.failure = "cannot load the CUDA driver: libcuda.so.1 has no "
                "cuGetProcAddress_v2 (a CUDA 12 driver or newer is needed)";
    return d;
  }
  std::string missing = resolveAll(d.getProcAddress, d.api);
  if (!missing.empty()) {
    d.failure = "cannot load the CUDA driver: " + missing;
    return d;
  }
  d.initResult = d.api.init(0);
  // On failure, driver() reports cuInit's result as a driver error; getting
  // the name still works without a successful cuInit.
  d.ok = d.initResult == CUDA_SUCCESS;
  return d;
}

const LoadedDriver &loaded() {
  // A function-local static: initialised once, thread-safely, on first use.
  static const LoadedDriver d = load();
  return d;
}

} // namespace

const DriverApi *tryDriver(std::string *why) {
  const LoadedDriver &d = loaded();
  if (d.ok)
    return &d.api;
  if (why) {
    if (d.initResult != CUDA_SUCCESS)
      *why = Error(d.initResult, "cuInit").what();
    else
      *why = d.failure;
  }
  return nullptr;
}

const DriverApi &driver() {
  const LoadedDriver &d = loaded();
  if (d.ok)
    return d.api;
  if (d.initResult != CUDA_SUCCESS)
    throw Error(d.initResult, "cuInit");
  throw Error(d.failure);
}

void *driverEntryPoint(const char *name) {
  const LoadedDriver &d = loaded();
  if (!d.getProcAddress)
    return nullptr;
  return resolve(d.getProcAddress, name);
}

namespace detail {
/// Error name and description lookup that works whenever the entry points
/// were resolved, even if cuInit failed.
bool describeResult(CUresult result, std::string &name,
                    std::string &description) {
  const LoadedDriver &d = loaded();
  if (!d.api.getErrorName || !d.api.getErrorString)
    return false;
  const char *n = nullptr, *s = nullptr;
  if (d.api.getErrorName(result, &n) != CUDA_SUCCESS || !n)
    return false;
  name = n;
  if (d.api.getErrorString(result, &s) == CUDA_SUCCESS && s)
    description = s;
  return true;
}
} // namespace detail

} // namespace tilec::rt
