#pragma once
// Stores of 8-bit pixels into a display surface (an 8-bit CUDA array, e.g. a mapped GL_R8
// texture), as few and as wide as the position allows. One surface store a byte, with the lanes of
// a warp 4 or 16 bytes apart, leaves every 32-byte sector partly written by each instruction:
// the console's threshold took twice as long with them (docs/decisions/0018). A surface's x is in
// bytes; a wider store needs its own alignment.
#include <cuda_runtime.h>

#include <cstdint>

namespace sweepline::gpu::cuda {

// Bytes lo and hi at x and x + 1 of row y (hi dropped from w on): one 2-byte store where aligned.
__device__ __forceinline__ void surf_store2(unsigned long long surf, int x, int y, int w,
                                            uint8_t lo, uint8_t hi) {
  const cudaSurfaceObject_t s = cudaSurfaceObject_t(surf);
  if ((x & 1) == 0 && x + 1 < w) {
    surf2Dwrite(uint16_t(lo | hi << 8), s, x, y);
    return;
  }
  surf2Dwrite(lo, s, x, y);
  if (x + 1 < w) surf2Dwrite(hi, s, x + 1, y);
}

// Bytes i = 0 .. n - 1 of `packed` (n <= 4) at x + i, row y; the columns from w on are dropped.
__device__ __forceinline__ void surf_store4(unsigned long long surf, int x, int y, int w,
                                            uint32_t packed) {
  const cudaSurfaceObject_t s = cudaSurfaceObject_t(surf);
  if ((x & 3) == 0 && x + 4 <= w) {
    surf2Dwrite(packed, s, x, y);
    return;
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
    if (x + i < w) surf2Dwrite(uint8_t(packed >> (8 * i)), s, x + i, y);
}

// 16 bytes (v.x holds x .. x + 3, and so on) at x .. x + 15 of row y, clipped at w.
__device__ __forceinline__ void surf_store16(unsigned long long surf, int x, int y, int w,
                                             uint4 v) {
  if ((x & 15) == 0 && x + 16 <= w) {
    surf2Dwrite(v, cudaSurfaceObject_t(surf), x, y);
    return;
  }
  surf_store4(surf, x, y, w, v.x);
  surf_store4(surf, x + 4, y, w, v.y);
  surf_store4(surf, x + 8, y, w, v.z);
  surf_store4(surf, x + 12, y, w, v.w);
}

}  // namespace sweepline::gpu::cuda
