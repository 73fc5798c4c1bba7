#include "gpu/backend/cuda_availability.hpp"

#ifdef SWEEPLINE_HAVE_CUDA
#include "gpu/cuda/device_probe.hpp"
#endif

namespace sweepline::gpu {

bool cuda_built() {
#ifdef SWEEPLINE_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

std::string cuda_unavailable_reason() {
#ifdef SWEEPLINE_HAVE_CUDA
  return cuda::device_probe();
#else
  return "this build has no CUDA backend (configured with SWEEPLINE_CUDA=OFF or without nvcc)";
#endif
}

}  // namespace sweepline::gpu
