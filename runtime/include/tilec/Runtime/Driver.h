//===- Driver.h - The CUDA driver, loaded at run time -----------*- C++ -*-===//
//
// The runtime never links libcuda: it dlopen()s libcuda.so.1 on first use and
// resolves every entry point through cuGetProcAddress_v2 with the CUDA 12.0
// ABI, so that binaries build and run their CPU tests on machines without a
// driver, and so that the versioned variants (cuMemAlloc -> cuMemAlloc_v2) are
// the ones whose signatures are written below. The signatures are spelled out
// here rather than taken from cuda.h because CUDA 13's cuda.h maps some names
// to newer variants with different parameters (cuCtxSynchronize_v2).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DRIVER_H
#define TILEC_RUNTIME_DRIVER_H

#include <cuda.h>

#include <cstddef>
#include <string>

namespace tilec::rt {

/// The CUDA version whose entry points are requested from the driver.
constexpr int kDriverApiVersion = 12000;

struct DriverApi {
  CUresult (*init)(unsigned flags);
  CUresult (*getErrorName)(CUresult error, const char **str);
  CUresult (*getErrorString)(CUresult error, const char **str);
  CUresult (*deviceGetCount)(int *count);
  CUresult (*deviceGet)(CUdevice *device, int ordinal);
  CUresult (*deviceGetName)(char *name, int len, CUdevice device);
  CUresult (*deviceGetAttribute)(int *value, CUdevice_attribute attrib,
                                 CUdevice device);
  CUresult (*devicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
  CUresult (*devicePrimaryCtxRelease)(CUdevice device);
  CUresult (*ctxSetCurrent)(CUcontext ctx);
  CUresult (*ctxSynchronize)();
  CUresult (*streamCreate)(CUstream *stream, unsigned flags);
  CUresult (*streamDestroy)(CUstream stream);
  CUresult (*streamSynchronize)(CUstream stream);
  CUresult (*memAlloc)(CUdeviceptr *ptr, size_t bytes);
  CUresult (*memFree)(CUdeviceptr ptr);
  CUresult (*memcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*memcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*memcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes,
                              CUstream stream);
  CUresult (*memcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes,
                              CUstream stream);
  // Copies `repitch` arguments into 16-byte pitched staging buffers.
  CUresult (*memcpy2DAsync)(const CUDA_MEMCPY2D *copy, CUstream stream);
  CUresult (*memsetD8)(CUdeviceptr dst, unsigned char value, size_t count);
  // Zero-fills kernel scratch buffers in stream order before each launch.
  CUresult (*memsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                             CUstream stream);
  CUresult (*moduleLoadData)(CUmodule *module, const void *image);
  CUresult (*moduleUnload)(CUmodule module);
  CUresult (*moduleGetFunction)(CUfunction *func, CUmodule module,
                                const char *name);
  CUresult (*moduleGetGlobal)(CUdeviceptr *ptr, size_t *bytes, CUmodule module,
                              const char *name);
  CUresult (*funcSetAttribute)(CUfunction func, CUfunction_attribute attrib,
                               int value);
  CUresult (*funcGetAttribute)(int *value, CUfunction_attribute attrib,
                               CUfunction func);
  CUresult (*occupancyMaxActiveBlocksPerMultiprocessor)(int *blocks,
                                                        CUfunction func,
                                                        int blockSize,
                                                        size_t sharedBytes);
  // Since CUDA 12.0; launches in thread-block clusters.
  CUresult (*launchKernelEx)(const CUlaunchConfig *config, CUfunction func,
                             void **params, void **extra);
  CUresult (*launchKernel)(CUfunction func, unsigned gridX, unsigned gridY,
                           unsigned gridZ, unsigned blockX, unsigned blockY,
                           unsigned blockZ, unsigned sharedBytes,
                           CUstream stream, void **params, void **extra);
  CUresult (*eventCreate)(CUevent *event, unsigned flags);
  CUresult (*eventRecord)(CUevent event, CUstream stream);
  CUresult (*eventSynchronize)(CUevent event);
  CUresult (*eventElapsedTime)(float *ms, CUevent start, CUevent end);
  CUresult (*eventDestroy)(CUevent event);
  // Since CUDA 12.0; builds the TMA descriptors of sm_90 kernels.
  CUresult (*tensorMapEncodeTiled)(
      CUtensorMap *tensorMap, CUtensorMapDataType dataType, cuuint32_t rank,
      void *globalAddress, const cuuint64_t *globalDim,
      const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
      const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
      CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
      CUtensorMapFloatOOBfill oobFill);
};

/// The loaded and initialised (cuInit) driver. Loads it on first use; throws
/// Error if libcuda cannot be loaded (with dlerror's text), lacks an entry
/// point, or cuInit fails (for instance CUDA_ERROR_NO_DEVICE). The outcome is
/// remembered, so later calls are cheap and fail the same way.
const DriverApi &driver();

/// Like driver(), but returns nullptr instead of throwing; `why` receives the
/// reason.
const DriverApi *tryDriver(std::string *why = nullptr);

/// Resolves any further driver entry point (e.g. "cuTensorMapEncodeTiled")
/// with the same ABI version; nullptr if the driver or the symbol is missing.
void *driverEntryPoint(const char *name);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_DRIVER_H
