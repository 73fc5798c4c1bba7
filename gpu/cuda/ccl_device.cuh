#pragma once
// Device helpers shared by the CUDA labelling kernels.
#include <cuda_runtime.h>

#include "gpu/cuda/ccl_kernels.hpp"

namespace sweepline::gpu::cuda::ccl_detail {

// Follows parents to the root (a root is its own parent). Reads bypass L1: other threads write.
__device__ __forceinline__ int32_t find_root(const int32_t* uf, int32_t i) {
  int32_t p = __ldcg(uf + i);
  while (p != i) {
    i = p;
    p = __ldcg(uf + i);
  }
  return i;
}

// Find with path halving: a node's parent is replaced by its grandparent (always an ancestor,
// so concurrent unions stay correct). Parents always have smaller indices than their children.
__device__ __forceinline__ int32_t find_halving(int32_t* uf, int32_t i) {
  for (;;) {
    int32_t p = __ldcg(uf + i);
    if (p == i) return i;
    int32_t gp = __ldcg(uf + p);
    if (gp == p) return p;
    __stcg(uf + i, gp);
    i = gp;
  }
}

// Statistics slot k back to the identities of min/max/sum (ymin is the caller's: some know it).
__device__ __forceinline__ void reset_stats_slot(const Stats& st, int64_t k, bool weighted) {
  st.xmin[k] = 0xffffffffu;
  st.xmax[k] = 0;
  st.ymax[k] = 0;
  st.sum_w[k] = 0;
  st.sum_wx[k] = 0;
  st.sum_wy[k] = 0;
  if (weighted) {
    st.area[k] = 0;
    st.peak[k] = 0;
  }
}

// Links the larger root under the smaller (atomicMin), so roots stay the minimum index.
__device__ __forceinline__ void unite(int32_t* uf, int32_t a, int32_t b) {
  for (;;) {
    a = find_halving(uf, a);
    b = find_halving(uf, b);
    if (a == b) return;
    if (a > b) {
      int32_t t = a;
      a = b;
      b = t;
    }
    int32_t old = atomicMin(uf + b, a);
    if (old == b) return;
    b = old;
  }
}

// Word `seg` of row y thresholded: bit i set when pixel 32 * seg + i is above `thr`. The caller
// keeps y and seg inside the image.
__device__ __forceinline__ uint32_t threshold_word(const uint8_t* __restrict__ img, uint8_t thr,
                                                   int w, int y, int seg) {
  const int x0 = seg * 32;
  const int n = min(32, w - x0);
  const uint8_t* src = img + int64_t(y) * w + x0;
  uint32_t bits = 0;
  if (n == 32 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
    const uint4* v = reinterpret_cast<const uint4*>(src);
    uint4 a = __ldg(v), b = __ldg(v + 1);
    const uint32_t q[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    const uint32_t t4 = uint32_t(thr) * 0x01010101u;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      uint32_t m = __vcmpgtu4(q[k], t4);  // 0xff per byte above the threshold
      uint32_t nib = (m & 1u) | ((m >> 7) & 2u) | ((m >> 14) & 4u) | ((m >> 21) & 8u);
      bits |= nib << (4 * k);
    }
  } else {
    for (int i = 0; i < n; ++i) bits |= uint32_t(src[i] > thr) << i;
  }
  return bits;
}

// The lane where the run of set bits holding `lane` starts inside its 32-bit word.
__device__ __forceinline__ int run_start(uint32_t bits, int lane) {
  uint32_t below_clear = ~bits & ((1u << lane) - 1u);
  return below_clear ? 32 - __clz(below_clear) : 0;
}

// Sums `count` over the block (kScanWords threads, one per word) into block_counts[block].
__device__ __forceinline__ void block_count(uint32_t count, uint32_t* block_counts) {
  __shared__ uint32_t s_warp[kScanWords / 32];
  for (int off = 16; off > 0; off /= 2) count += __shfl_down_sync(0xffffffffu, count, off);
  if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x / 32] = count;
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t t = 0;
    for (int i = 0; i < kScanWords / 32; ++i) t += s_warp[i];
    block_counts[blockIdx.x] = t;
  }
}

}  // namespace sweepline::gpu::cuda::ccl_detail
