#pragma once
// A warp's inclusive prefix sum, shared by the kernels that scan counts (CFAR's row sums, the
// max-hold table's tile order).
#include <cuda_runtime.h>

namespace sweepline::gpu::cuda {

// v summed over lanes 0 .. lane of the (full) warp, by shuffles.
__device__ __forceinline__ int warp_inclusive_sum(int v, int lane) {
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const int n = __shfl_up_sync(0xFFFFFFFFu, v, o);
    if (lane >= o) v += n;
  }
  return v;
}

}  // namespace sweepline::gpu::cuda
