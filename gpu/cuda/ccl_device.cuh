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
