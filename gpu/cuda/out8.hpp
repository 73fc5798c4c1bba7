#pragma once
// Where a stage writes its 8-bit image.
#include <cstdint>

namespace sweepline::gpu::cuda {

// A device image (W x H, row pitch W), optionally also written into a display surface
// (the cudaSurfaceObject_t of an 8-bit array, W x H; 0 = none) by the same kernel.
struct Out8 {
  uint8_t* d = nullptr;
  unsigned long long surf = 0;
};

}  // namespace sweepline::gpu::cuda
