// Probe: can the driver's 2-D copy (cuMemcpy2DAsync) move a bf16 matrix
// whose rows are not 16-byte aligned (odd K) into a buffer of 16-byte
// pitched rows, and how fast, next to a plain device copy of the same bytes.
// Built and run on the GPU machine by repitch-probe.sh.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <vector>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s; cuGetErrorString(r_, &s); printf("%s: %s\n", #x, s); return 1; } } while (0)

static int probe(size_t rows, size_t cols, size_t offsetElems) {
  size_t elt = 2, srcPitch = cols * elt, dstPitch = (cols * elt + 15) / 16 * 16;
  CUdeviceptr src, dst;
  CK(cuMemAlloc(&src, rows * srcPitch + 64));
  CK(cuMemAlloc(&dst, rows * dstPitch));
  std::vector<uint16_t> host(rows * cols);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint16_t(i * 2654435761u >> 7);
  CUdeviceptr base = src + offsetElems * elt;
  CK(cuMemcpyHtoD(base, host.data(), host.size() * 2));
  CUDA_MEMCPY2D c{};
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE; c.srcDevice = base; c.srcPitch = srcPitch;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE; c.dstDevice = dst; c.dstPitch = dstPitch;
  c.WidthInBytes = cols * elt; c.Height = rows;
  CUstream s; CK(cuStreamCreate(&s, 0));
  CUresult r = cuMemcpy2DAsync(&c, s);
  if (r != CUDA_SUCCESS) { const char *m; cuGetErrorString(r, &m); printf("%zux%zu+%zu: cuMemcpy2DAsync fails: %s\n", rows, cols, offsetElems, m); return 0; }
  CK(cuStreamSynchronize(s));
  std::vector<uint16_t> back(rows * dstPitch / 2);
  CK(cuMemcpyDtoH(back.data(), dst, back.size() * 2));
  size_t bad = 0;
  for (size_t i = 0; i < rows; ++i) for (size_t j = 0; j < cols; ++j) bad += back[i * dstPitch / 2 + j] != host[i * cols + j];
  CUevent a, b; CK(cuEventCreate(&a, 0)); CK(cuEventCreate(&b, 0));
  int reps = 20;
  CK(cuEventRecord(a, s));
  for (int i = 0; i < reps; ++i) CK(cuMemcpy2DAsync(&c, s));
  CK(cuEventRecord(b, s)); CK(cuEventSynchronize(b));
  float ms; CK(cuEventElapsedTime(&ms, a, b));
  double us2d = ms * 1000 / reps;
  CK(cuEventRecord(a, s));
  for (int i = 0; i < reps; ++i) CK(cuMemcpyDtoDAsync(dst, src, rows * srcPitch, s));
  CK(cuEventRecord(b, s)); CK(cuEventSynchronize(b));
  CK(cuEventElapsedTime(&ms, a, b));
  double us1d = ms * 1000 / reps;
  double gb = 2.0 * rows * cols * elt / 1e9;
  printf("%zux%zu bf16, start +%zu elems: %s, 2-D copy %.1f us (%.0f GB/s), flat copy %.1f us (%.0f GB/s)\n",
         rows, cols, offsetElems, bad ? "WRONG" : "exact", us2d, gb / us2d * 1e6, us1d, gb / us1d * 1e6);
  cuMemFree(src); cuMemFree(dst); cuStreamDestroy(s);
  return 0;
}

int main() {
  CK(cuInit(0)); CUdevice d; CK(cuDeviceGet(&d, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, d)); CK(cuCtxSetCurrent(ctx));
  size_t shapes[][3] = {{4095, 4095, 0}, {4097, 4097, 0}, {4096, 4095, 0}, {4096, 4098, 0}, {4096, 4100, 0}, {8191, 6001, 0}, {3001, 4001, 1}, {128, 100001, 1}, {100001, 7, 0}, {1, 1, 1}};
  for (auto &s : shapes) if (probe(s[0], s[1], s[2])) return 1;
  return 0;
}
