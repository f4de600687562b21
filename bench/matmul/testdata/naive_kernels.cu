// naive_kernels.cu - the kernel interface of tilec-matmul-bench, in plain
// CUDA, to test the harness itself (its reference, layouts, poisoning,
// sampling, cuBLAS call and timing) before tilec can compile a matmul.
//
// It defines all 72 kernels mm_<in>_<out>_<la><lb>[_acc] with the tilec ABI
// (each 2-D buffer as allocated ptr, aligned ptr, offset, sizes[2],
// strides[2]) and a __tilec_launch_<name> global holding the launch metadata
// the runtime reads. One thread per element of C, f32 accumulation, rounded
// once to the output type. Built by bench/matmul/make-test-cubins.sh:
//   naive.cubin              correct: --check must pass
//   naive-broken-row.cubin   -DBROKEN=1: the last row of C is never written
//   naive-broken-k.cubin     -DBROKEN=2: the last k term is dropped
// The broken ones must fail.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#ifndef BROKEN
#define BROKEN 0
#endif

__device__ float toFloat(float x) { return x; }
__device__ float toFloat(__half x) { return __half2float(x); }
__device__ float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T> __device__ T fromFloat(float x);
template <> __device__ float fromFloat<float>(float x) { return x; }
template <> __device__ __half fromFloat<__half>(float x) {
  return __float2half_rn(x);
}
template <> __device__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

// C {M, N} = A x B (+ C): A is {M, K} (row-major) or {K, M} (ACOL), B is
// {K, N} or {N, K} (BCOL). The sizes come from the buffer arguments.
template <typename TI, typename TO, bool ACOL, bool BCOL, bool ACC>
__device__ void matmul(const TI *a, int64_t aSize0, int64_t aSize1,
                       const TI *b, TO *c, int64_t M, int64_t N) {
  int64_t K = ACOL ? aSize0 : aSize1;
  (void)aSize0;
  (void)aSize1;
  int64_t n = int64_t(blockIdx.x) * 16 + threadIdx.x;
  int64_t m = int64_t(blockIdx.y) * 16 + threadIdx.y;
  if (m >= M || n >= N)
    return;
  if (BROKEN == 1 && M > 1 && m == M - 1)
    return;
  int64_t kEnd = BROKEN == 2 && K > 1 ? K - 1 : K;
  float acc = 0.0f;
  for (int64_t k = 0; k < kEnd; ++k) {
    float x = toFloat(a[ACOL ? k * M + m : m * K + k]);
    float y = toFloat(b[BCOL ? n * K + k : k * N + n]);
    acc = fmaf(x, y, acc);
  }
  if (ACC)
    acc += toFloat(c[m * N + n]);
  c[m * N + n] = fromFloat<TO>(acc);
}

#define BUFFER(T, name)                                                        \
  T *name##Allocated, T *name, int64_t name##Offset, int64_t name##Size0,      \
      int64_t name##Size1, int64_t name##Stride0, int64_t name##Stride1

#define STR2(x) #x
#define STR(x) STR2(x)

// One kernel and its launch metadata: block 16x16, grid x over N (dim 1 of
// C, argument 2), y over M (dim 0 of C).
#define KERNEL(name, TI, TO, ti, to, ACOL, BCOL, ACC)                          \
  extern "C" __global__ void __launch_bounds__(256)                            \
      name(BUFFER(const TI, a), BUFFER(const TI, b), BUFFER(TO, c)) {          \
    matmul<TI, TO, ACOL, BCOL, ACC>(a, aSize0, aSize1, b, c, cSize0, cSize1);  \
  }                                                                            \
  extern "C" __device__ const char __tilec_launch_##name[] =                   \
      "tilec-launch 1\nkernel " STR(name) "\nparams buffer:" ti                \
      ":2 buffer:" ti ":2 buffer:" to ":2\nblock 16 16 1\n"                    \
      "grid 2.1/16 2.0/16 -\nshared 0\n";

#define LAYOUTS(in, out, TI, TO)                                               \
  KERNEL(mm_##in##_##out##_rr, TI, TO, #in, #out, false, false, false)         \
  KERNEL(mm_##in##_##out##_rr_acc, TI, TO, #in, #out, false, false, true)      \
  KERNEL(mm_##in##_##out##_rc, TI, TO, #in, #out, false, true, false)          \
  KERNEL(mm_##in##_##out##_rc_acc, TI, TO, #in, #out, false, true, true)       \
  KERNEL(mm_##in##_##out##_cr, TI, TO, #in, #out, true, false, false)          \
  KERNEL(mm_##in##_##out##_cr_acc, TI, TO, #in, #out, true, false, true)       \
  KERNEL(mm_##in##_##out##_cc, TI, TO, #in, #out, true, true, false)           \
  KERNEL(mm_##in##_##out##_cc_acc, TI, TO, #in, #out, true, true, true)

#define OUTPUTS(in, TI)                                                        \
  LAYOUTS(in, f32, TI, float)                                                  \
  LAYOUTS(in, f16, TI, __half)                                                 \
  LAYOUTS(in, bf16, TI, __nv_bfloat16)

OUTPUTS(f32, float)
OUTPUTS(f16, __half)
OUTPUTS(bf16, __nv_bfloat16)
