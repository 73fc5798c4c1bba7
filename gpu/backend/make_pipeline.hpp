#pragma once
#include <memory>

#include "gpu/pipeline.hpp"

namespace sweepline::gpu {

// Backend::Cpu: a thread pool over rows (threads = 0: hardware concurrency).
// Backend::Cuda: throws sweepline::Error with cuda_unavailable_reason() when this build or this
// machine cannot run it. The CUDA pipeline is a gpu::cuda::CudaPipeline
// (gpu/cuda/cuda_pipeline.hpp) for callers that hand it display surfaces.
std::unique_ptr<Pipeline> make_pipeline(Backend backend, unsigned cpu_threads = 0);

}  // namespace sweepline::gpu
