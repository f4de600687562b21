// Probe (not tilec output): does a single-pass 1-D f32 sum that stages its
// tile in workgroup memory with a bulk copy, so that registers no longer
// bound the programs resident on an SM, beat the register-held schedule
// that tile-tiling emits today and CUB? Measured against CUB in the same
// process; every run checked against a float64 scan on the host.
//   build here:  bash bench/scan/tuning/staged-probe.sh build
//   run there:   bash bench/scan/tuning/staged-probe.sh run
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                   \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

// Status word: high 32 bits the flag (0 none, 1 total, 2 inclusive), low 32
// bits the value's bits.
constexpr unsigned long long kTotal = 1ull << 32;
constexpr unsigned long long kInclusive = 2ull << 32;

__device__ unsigned long long loadStatus(const unsigned long long *p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];"
               : "=l"(v)
               : "l"(p)
               : "memory");
  return v;
}
__device__ void storeStatus(unsigned long long *p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v)
               : "memory");
}
__device__ unsigned long long pack(unsigned long long flag, float v) {
  return flag | __float_as_uint(v);
}

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ float warpInclusive(float v, int lane) {
  for (int o = 1; o < 32; o <<= 1) {
    float u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o)
      v += u;
  }
  return v;
}

// One warp walks back from tile `tile` in windows of 32 predecessors until
// it meets an inclusive prefix; returns the exclusive prefix on every lane.
// kInitialNs: a sleep before the first read (CUB sleeps about an L2 write
// latency there); kPollNs: the sleep between reads of a status not yet set.
template <int kInitialNs = 0, int kPollNs = 100>
__device__ float lookback(const unsigned long long *status, int tile,
                          int lane) {
  float carry = 0.f;
  if (kInitialNs > 0)
    __nanosleep(kInitialNs);
  int end = tile; // window covers [end - 32, end)
  while (end > 0) {
    int mine = end - 1 - lane;
    unsigned long long s = kInclusive; // below tile 0: nothing to add
    if (mine >= 0) {
      s = loadStatus(status + mine);
      while ((s >> 32) == 0) {
        if (kPollNs > 0)
          __nanosleep(kPollNs);
        s = loadStatus(status + mine);
      }
    }
    unsigned inclusive = __ballot_sync(0xffffffffu, (s >> 32) == 2);
    // Lanes up to and including the nearest inclusive prefix contribute.
    int stop = inclusive ? __ffs(inclusive) - 1 : 31;
    float v = (lane <= stop && mine >= 0) ? __uint_as_float(unsigned(s)) : 0.f;
    carry += warpSum(v);
    if (inclusive)
      break;
    end -= 32;
  }
  return carry;
}

__device__ void mbarInit(unsigned long long *bar) {
  unsigned a = unsigned(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(a) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ void mbarExpectAndCopy(unsigned long long *bar, void *dst,
                                  const void *src, unsigned bytes) {
  unsigned b = unsigned(__cvta_generic_to_shared(bar));
  unsigned d = unsigned(__cvta_generic_to_shared(dst));
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b),
      "r"(bytes)
      : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
      "[%0], [%1], %2, [%3];" ::"r"(d),
      "l"(src), "r"(bytes), "r"(b)
      : "memory");
}
__device__ void mbarWait(unsigned long long *bar) {
  unsigned b = unsigned(__cvta_generic_to_shared(bar));
  asm volatile("{\n .reg .pred p;\n W: "
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
               " @!p bra W;\n}" ::"r"(b)
               : "memory");
}

// A thread's run of kRun elements of the staged tile, summed. Runs are read
// rotated by thread so that a quarter warp's 16-byte reads fall in
// different bank groups.
template <int kRun> __device__ float runSum(const float *tileMem, int tid) {
  const float4 *run =
      reinterpret_cast<const float4 *>(tileMem) + tid * (kRun / 4);
  float sum = 0.f;
#pragma unroll
  for (int j = 0; j < kRun / 4; ++j) {
    float4 v = run[(j + tid) % (kRun / 4)];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  return sum;
}

// A thread's run total scanned over its warp (inclusive); each warp's
// total lands in warpTotals, visible to the block on return.
__device__ float warpScanOfRuns(float sum, float *warpTotals, int lane,
                                int warp) {
  float w = warpInclusive(sum, lane);
  if (lane == 31)
    warpTotals[warp] = w;
  __syncthreads();
  return w;
}

// Scans a thread's run from `before` on, into `dst` (the run in place, or
// the thread's run of the output).
template <int kRun>
__device__ void scanRun(const float *tileMem, float4 *dst, int tid,
                        float before) {
  const float4 *run =
      reinterpret_cast<const float4 *>(tileMem) + tid * (kRun / 4);
#pragma unroll
  for (int j = 0; j < kRun / 4; ++j) {
    float4 v = run[j];
    v.x += before;
    v.y += v.x;
    v.z += v.y;
    v.w += v.z;
    before = v.w;
    dst[j] = v;
  }
}

// The staged tile, scanned in place, stored by one bulk copy.
__device__ void bulkStore(float *dst, const float *tileMem, unsigned bytes) {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = unsigned(__cvta_generic_to_shared(tileMem));
    asm volatile(
        "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
            dst),
        "r"(s), "r"(bytes)
        : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

// Staged: ticket, bulk copy of the tile into workgroup memory, per-thread
// sums of contiguous runs from workgroup memory, block total published,
// look-back by warp 0, then each thread's run re-read and scanned.
// kBulkStore: results written back in place and stored by one bulk copy;
// otherwise each thread stores its run with 16-byte stores.
// kParts: kFull; kNoTicket takes blockIdx.x as the tile (CUB's order, which
// relies on blocks starting in index order); kNoLookback skips the
// look-back (wrong results: it measures what the look-back costs).
enum Parts { kFull = 0, kNoTicket = 1, kNoLookback = 2 };
template <int kTile, int kThreads, bool kBulkStore, int kMinBlocks,
          int kParts = kFull, int kInitialNs = 0, int kPollNs = 100>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    stagedScan(const float *in, float *out, unsigned long long *status,
               unsigned *counter) {
  constexpr int kWarps = kThreads / 32;
  constexpr int kRun = kTile / kThreads; // elements a thread
  static_assert(kRun % 4 == 0, "runs of float4");
  extern __shared__ __align__(128) float tileMem[];
  __shared__ unsigned long long bar;
  __shared__ int ticket;
  __shared__ float warpTotals[kWarps];
  __shared__ float carryShared;
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (tid == 0) {
    ticket =
        (kParts & kNoTicket) ? int(blockIdx.x) : int(atomicAdd(counter, 1u));
    mbarInit(&bar);
  }
  __syncthreads();
  int tile = ticket;
  if (tid == 0)
    mbarExpectAndCopy(&bar, tileMem, in + size_t(tile) * kTile, kTile * 4);
  mbarWait(&bar);
  float sum = runSum<kRun>(tileMem, tid);
  float w = warpScanOfRuns(sum, warpTotals, lane, warp);
  if (warp == 0) {
    float t = lane < kWarps ? warpTotals[lane] : 0.f;
    float total = warpSum(t);
    if (lane == 0)
      storeStatus(status + tile, pack(tile == 0 ? kInclusive : kTotal, total));
    float carry = (tile == 0 || (kParts & kNoLookback))
                      ? 0.f
                      : lookback<kInitialNs, kPollNs>(status, tile, lane);
    if (lane == 0) {
      if (tile != 0)
        storeStatus(status + tile, pack(kInclusive, carry + total));
      carryShared = carry;
    }
  }
  __syncthreads();
  float before = carryShared + (w - sum);
  for (int k = 0; k < warp; ++k)
    before += warpTotals[k];
  float4 *dst = kBulkStore
                    ? reinterpret_cast<float4 *>(tileMem)
                    : reinterpret_cast<float4 *>(out + size_t(tile) * kTile);
  scanRun<kRun>(tileMem, dst + tid * (kRun / 4), tid, before);
  if (kBulkStore)
    bulkStore(out + size_t(tile) * kTile, tileMem, kTile * 4);
}

// Early look-back: warp 0 looks back over the predecessors while the tile
// is still on its way; the other warps wait for it, sum it and publish its
// total. The inclusive prefix then needs only the later of the two.
template <int kTile, int kThreads, bool kTicket>
__global__ void __launch_bounds__(kThreads, 1)
    earlyScan(const float *in, float *out, unsigned long long *status,
              unsigned *counter) {
  constexpr int kWarps = kThreads / 32;
  constexpr int kRun = kTile / kThreads;
  constexpr int kSummers = kThreads - 32;
  static_assert(kRun % 4 == 0, "runs of float4");
  extern __shared__ __align__(128) float tileMem[];
  __shared__ unsigned long long bar;
  __shared__ int ticket;
  __shared__ float partials[kWarps];
  __shared__ float warpTotals[kWarps];
  __shared__ float carryShared;
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (tid == 0) {
    ticket = kTicket ? int(atomicAdd(counter, 1u)) : int(blockIdx.x);
    mbarInit(&bar);
  }
  __syncthreads();
  int tile = ticket;
  if (tid == 0)
    mbarExpectAndCopy(&bar, tileMem, in + size_t(tile) * kTile, kTile * 4);
  float total = 0.f;
  if (warp == 0) {
    float carry = tile == 0 ? 0.f : lookback(status, tile, lane);
    if (lane == 0)
      carryShared = carry;
  } else {
    mbarWait(&bar);
    const float4 *data = reinterpret_cast<const float4 *>(tileMem);
    float sum = 0.f;
    for (int i = tid - 32; i < kTile / 4; i += kSummers) {
      float4 v = data[i];
      sum += (v.x + v.y) + (v.z + v.w);
    }
    sum = warpSum(sum);
    if (lane == 0)
      partials[warp] = sum;
    // Named barrier 1 over the summing warps only.
    asm volatile("bar.sync 1, %0;" ::"r"(kSummers) : "memory");
    if (warp == 1) {
      float t = (lane >= 1 && lane < kWarps) ? partials[lane] : 0.f;
      total = warpSum(t);
      if (lane == 0) {
        storeStatus(status + tile,
                    pack(tile == 0 ? kInclusive : kTotal, total));
        partials[0] = total;
      }
    }
  }
  __syncthreads();
  if (tid == 0 && tile != 0)
    storeStatus(status + tile, pack(kInclusive, carryShared + partials[0]));
  if (warp == 0)
    mbarWait(&bar);
  float sum = runSum<kRun>(tileMem, tid);
  float w = warpScanOfRuns(sum, warpTotals, lane, warp);
  float before = carryShared + (w - sum);
  for (int k = 0; k < warp; ++k)
    before += warpTotals[k];
  scanRun<kRun>(tileMem, reinterpret_cast<float4 *>(tileMem) + tid * (kRun / 4),
                tid, before);
  bulkStore(out + size_t(tile) * kTile, tileMem, kTile * 4);
}

__global__ void copyKernel(const float4 *in, float4 *out, size_t n4) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

struct Variant {
  const char *name;
  int tile, threads;
  void (*kernel)(const float *, float *, unsigned long long *, unsigned *);
};

template <int T, int H, bool K> Variant early(const char *name) {
  return {name, T, H, earlyScan<T, H, K>};
}
template <int T, int H, bool B, int M, int P = kFull, int I = 0, int L = 100>
Variant make(const char *name) {
  return {name, T, H, stagedScan<T, H, B, M, P, I, L>};
}

bool check(const std::vector<float> &in, const std::vector<float> &out) {
  double acc = 0, worst = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    acc += in[i];
    double err = std::fabs(out[i] - acc) / (1.0 + std::sqrt(double(i + 1)));
    if (!(err <= worst))
      worst = err; // NaN counts as bad
  }
  return worst < 1e-2;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<int> logs = {20, 24, 28};
  int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  std::vector<Variant> variants = {
      make<4096, 256, true, 1>("s4096_t256_bulk"),
      make<4096, 256, true, 1, kFull, 1140, 688>("s4096_t256_d1140_p688"),
      make<4096, 256, true, 1, kFull, 500, 100>("s4096_t256_d500"),
      make<4096, 256, true, 1, kFull, 2000, 100>("s4096_t256_d2000"),
      make<4096, 256, true, 1, kFull, 0, 0>("s4096_t256_p0"),
      make<3072, 128, true, 1>("s3072_t128_bulk"),
      make<3072, 128, true, 1, kNoTicket>("s3072_t128_noticket"),
      make<3072, 128, true, 1, kNoTicket, 1140, 688>("s3072_t128_cublike"),
      make<3072, 128, true, 1, kFull, 1140, 688>("s3072_t128_d1140_p688"),
      make<4096, 256, true, 1, kNoLookback>("s4096_t256_nolookback"),
  };
  for (auto &v : variants)
    CHECK(cudaFuncSetAttribute(
        v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, v.tile * 4));
  size_t maxN = size_t(1) << 28;
  float *in, *out;
  unsigned long long *status;
  CHECK(cudaMalloc(&in, maxN * 4));
  CHECK(cudaMalloc(&out, maxN * 4));
  CHECK(cudaMalloc(&status, (maxN / 2048 + 1) * 8 + 64));
  std::vector<float> host(maxN), back(maxN);
  srand(1);
  for (auto &x : host)
    x = float(rand() % 2001 - 1000) / 1000.f;
  CHECK(cudaMemcpy(in, host.data(), maxN * 4, cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int round = 1; round <= rounds; ++round) {
    for (int lg : logs) {
      size_t n = size_t(1) << lg;
      double bytes = 2.0 * n * 4;
      auto time = [&](auto launch) {
        for (int i = 0; i < 3; ++i)
          launch();
        int iters = lg >= 28 ? 20 : 200;
        CHECK(cudaEventRecord(a));
        for (int i = 0; i < iters; ++i)
          launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        return ms * 1e3 / iters; // us
      };
      for (auto &v : variants) {
        size_t tiles = n / v.tile;
        // One fill zeroes the statuses and the ticket counter after them.
        size_t statusBytes = tiles * 8 + 8;
        unsigned *ticket = reinterpret_cast<unsigned *>(status + tiles);
        auto launch = [&] {
          cudaMemsetAsync(status, 0, statusBytes);
          v.kernel<<<unsigned(tiles), v.threads, v.tile * 4>>>(in, out, status,
                                                               ticket);
        };
        CHECK(cudaMemset(out, 0xff, n * 4));
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(back.data(), out, n * 4, cudaMemcpyDeviceToHost));
        // Whole tiles only (3072 does not divide 2^k): the probe has no tail.
        size_t covered = tiles * v.tile;
        std::vector<float> part(host.begin(), host.begin() + covered);
        back.resize(covered);
        bool ok = check(part, back);
        back.resize(maxN);
        int resident = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &resident, v.kernel, v.threads, v.tile * 4));
        double us = time(launch);
        std::printf(
            "round %d  2^%d  %-22s %s  %4d blocks/SM  %9.1f us  %7.0f GB/s\n",
            round, lg, v.name, ok ? "PASS" : "FAIL", resident, us,
            8.0 * covered / us / 1e3);
      }
      size_t temp = 0;
      CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp, in, out, int(n)));
      void *tempMem;
      CHECK(cudaMalloc(&tempMem, temp));
      double us = time([&] {
        cub::DeviceScan::InclusiveSum(tempMem, temp, in, out, int(n));
      });
      std::printf("round %d  2^%d  %-20s        %9.1f us  %7.0f GB/s\n", round,
                  lg, "cub", us, bytes / us / 1e3);
      CHECK(cudaFree(tempMem));
      us = time([&] {
        copyKernel<<<sms * 8, 256>>>(reinterpret_cast<const float4 *>(in),
                                     reinterpret_cast<float4 *>(out), n / 4);
      });
      std::printf("round %d  2^%d  %-20s        %9.1f us  %7.0f GB/s\n", round,
                  lg, "copy", us, bytes / us / 1e3);
    }
  }
  return 0;
}
