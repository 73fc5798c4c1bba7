#include "gpu/backend/make_pipeline.hpp"

#include "app/common/check.hpp"
#include "gpu/backend/cuda_availability.hpp"
#include "gpu/cpu/cpu_pipeline.hpp"

#ifdef SWEEPLINE_HAVE_CUDA
#include "gpu/cuda/cuda_pipeline.hpp"
#endif
#ifdef SWEEPLINE_HAVE_REFERENCE
#include "gpu/reference/ccl_reference.hpp"
#endif

namespace sweepline::gpu {

std::unique_ptr<Pipeline> make_pipeline(Backend backend, unsigned cpu_threads) {
  if (backend == Backend::Cpu) return make_cpu_pipeline(cpu_threads);
  const std::string reason = cuda_unavailable_reason();
  SWL_CHECK(reason.empty(), "the cuda pipeline backend is unavailable: " + reason);
#ifdef SWEEPLINE_HAVE_CUDA
#ifdef SWEEPLINE_HAVE_REFERENCE
  // The labeller for params.label.algorithm, the papers' algorithms included.
  return cuda::make_cuda_pipeline(reference::make_cuda_labeller);
#else
  return cuda::make_cuda_pipeline();
#endif
#else
  throw Error("the cuda pipeline backend is unavailable: not built");
#endif
}

}  // namespace sweepline::gpu
