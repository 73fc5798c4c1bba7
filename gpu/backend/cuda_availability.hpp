#pragma once
#include <string>

namespace sweepline::gpu {

// Whether this build has the CUDA backend at all.
bool cuda_built();
// Empty when a CUDA device can be used now; otherwise why not (not built, no device, driver
// error), phrased for the user and for test skips.
std::string cuda_unavailable_reason();

}  // namespace sweepline::gpu
