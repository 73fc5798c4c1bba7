#pragma once
// CUDA-specific side of the pipeline: one stream, and the device images of the last frame.
// Display targets written in place are gpu::DisplayTargets (gpu/pipeline.hpp), handed to the
// common process(); their handles are cudaSurfaceObject_t values.
#include <cuda_runtime_api.h>

#include <memory>
#include <type_traits>

#include "gpu/cuda/ccl_cuda.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::gpu::cuda {

static_assert(std::is_same_v<cudaSurfaceObject_t, decltype(DisplayTargets::scan)>,
              "gpu::DisplayTargets holds cudaSurfaceObject_t values");

class CudaPipeline : public Pipeline {
 public:
  virtual cudaStream_t stream() const = 0;
  void* native_stream() const final { return stream(); }
  // Device images of the last frame (W x H, pitch W), valid until the next process() or a size
  // change; for consumers on stream() (e.g. the labeller).
  virtual const uint8_t* d_scan() const = 0;
  virtual const uint8_t* d_denoised() const = 0;
  virtual const uint8_t* d_binary() const = 0;
};

// Throws sweepline::Error when no device can be used. `labellers` makes the labeller for
// params.label.algorithm (empty: the product's, `fast` only; gpu/reference's make_cuda_labeller
// adds the papers' algorithms).
std::unique_ptr<CudaPipeline> make_cuda_pipeline(LabellerFactory labellers = {});

}  // namespace sweepline::gpu::cuda
