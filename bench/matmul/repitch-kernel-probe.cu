// Probe: how fast could the runtime's staging copies of misaligned rows be
// with a copy kernel of its own, next to the driver's 2-D copy
// (cuMemcpy2DAsync, 1.34-1.46 TB/s in repitch-probe.cu)? 16-bit elements,
// rows of odd length, source rows 2 bytes apart from 16-byte alignment.
// Kernels: `rows` (a block a row, threads over its elements) and `flat`
// (threads over all elements, each finding its row by division).
// Built and run on the GPU machine by repitch-kernel-probe.sh.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <vector>

__global__ void rowsCopy(const uint16_t *src, size_t srcPitch, uint16_t *dst,
                         size_t dstPitch, size_t rows, size_t cols) {
  for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const uint16_t *s = src + r * srcPitch;
    uint16_t *d = dst + r * dstPitch;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
      d[c] = s[c];
  }
}

// Each thread moves 8 consecutive elements of a row: two 4-byte-or-less
// loads are not possible at a 2-byte offset, so 8 2-byte loads, one
// 16-byte store (the destination is 16-byte pitched).
__global__ void vecCopy(const uint16_t *src, size_t srcPitch, uint16_t *dst,
                        size_t dstPitch, size_t rows, size_t cols) {
  size_t vecsPerRow = (cols + 7) / 8;
  size_t total = rows * vecsPerRow;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total;
       i += size_t(gridDim.x) * blockDim.x) {
    size_t r = i / vecsPerRow, c = (i % vecsPerRow) * 8;
    const uint16_t *s = src + r * srcPitch + c;
    uint16_t v[8];
#pragma unroll
    for (int j = 0; j < 8; ++j)
      v[j] = c + j < cols ? s[j] : 0;
    uint4 out;
    out.x = v[0] | (uint32_t(v[1]) << 16);
    out.y = v[2] | (uint32_t(v[3]) << 16);
    out.z = v[4] | (uint32_t(v[5]) << 16);
    out.w = v[6] | (uint32_t(v[7]) << 16);
    *reinterpret_cast<uint4 *>(dst + r * dstPitch + c) = out;
  }
}

static void probe(size_t rows, size_t cols) {
  size_t srcPitch = cols, dstPitch = (cols * 2 + 15) / 16 * 16 / 2;
  uint16_t *src, *dst;
  cudaMalloc(&src, rows * srcPitch * 2 + 64);
  cudaMalloc(&dst, rows * dstPitch * 2);
  uint16_t *base = src + 1; // 2 bytes past alignment
  std::vector<uint16_t> host(rows * cols);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint16_t(i * 2654435761u >> 7);
  cudaMemcpy(base, host.data(), host.size() * 2, cudaMemcpyHostToDevice);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  auto check = [&](const char *name) {
    std::vector<uint16_t> back(rows * dstPitch);
    cudaMemcpy(back.data(), dst, back.size() * 2, cudaMemcpyDeviceToHost);
    size_t wrong = 0;
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols; ++c)
        wrong += back[r * dstPitch + c] != host[r * cols + c];
    if (wrong) printf("  %s: %zu wrong\n", name, wrong);
    cudaMemset(dst, 0, rows * dstPitch * 2);
  };
  auto time = [&](const char *name, auto launch) {
    launch(); cudaDeviceSynchronize(); check(name);
    launch(); cudaEventRecord(a);
    const int reps = 20;
    for (int i = 0; i < reps; ++i) launch();
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b);
    double us = ms * 1000 / reps, bytes = 2.0 * rows * cols * 2;
    printf("  %-10s %9.1f us %6.2f TB/s (read + write)\n", name, us, bytes / us / 1e6);
  };
  printf("%zux%zu bf16, source 2 bytes off:\n", rows, cols);
  time("memcpy2d", [&] {
    cudaMemcpy2DAsync(dst, dstPitch * 2, base, srcPitch * 2, cols * 2, rows,
                      cudaMemcpyDeviceToDevice);
  });
  time("rows", [&] {
    rowsCopy<<<sms * 16, 256>>>(base, srcPitch, dst, dstPitch, rows, cols);
  });
  time("vec8", [&] {
    vecCopy<<<sms * 8, 256>>>(base, srcPitch, dst, dstPitch, rows, cols);
  });
  cudaFree(src); cudaFree(dst);
}

int main() {
  probe(4095, 4095);
  probe(4096, 32767);
  probe(8191, 8191);
  probe(4096, 1);
  probe(4096, 7);
  probe(128, 4097);
  return 0;
}
