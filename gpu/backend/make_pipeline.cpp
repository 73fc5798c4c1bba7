#include "gpu/backend/make_pipeline.hpp"

#include "app/common/check.hpp"
#include "gpu/backend/cuda_availability.hpp"
#include "gpu/cpu/cpu_pipeline.hpp"

#ifdef SWEEPLINE_HAVE_CUDA
#include "gpu/cuda/cuda_pipeline.hpp"
#endif

namespace sweepline::gpu {

std::unique_ptr<Pipeline> make_pipeline(Backend backend, unsigned cpu_threads) {
  if (backend == Backend::Cpu) return make_cpu_pipeline(cpu_threads);
  const std::string reason = cuda_unavailable_reason();
  SWL_CHECK(reason.empty(), "the cuda pipeline backend is unavailable: " + reason);
#ifdef SWEEPLINE_HAVE_CUDA
  return cuda::make_cuda_pipeline();
#else
  throw Error("the cuda pipeline backend is unavailable: not built");
#endif
}

}  // namespace sweepline::gpu
