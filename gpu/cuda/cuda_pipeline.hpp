#pragma once
// CUDA-specific side of the pipeline: one stream, and display targets written in place.
#include <cuda_runtime_api.h>

#include <memory>

#include "gpu/pipeline.hpp"

namespace sweepline::gpu::cuda {

// cudaSurfaceObject_t values of mapped OpenGL textures (W x H) to write into, 0 = not wanted.
// scan, denoised, binary: R8 (uint8); label_colour: RGBA8 (uchar4, gpu::label_colour()).
// The textures must stay mapped until the frame's work on stream() has finished: unmap them with
// cudaGraphicsUnmapResources(..., stream()), which orders after the frame without a host wait.
struct DisplayTargets {
  unsigned long long scan = 0;
  unsigned long long denoised = 0;
  unsigned long long binary = 0;
  unsigned long long label_colour = 0;
};

class CudaPipeline : public Pipeline {
 public:
  // The same frame, also written into `targets` (this frame only).
  virtual void process(const PolarFrame& frame, const PipelineParams& params,
                       const DisplayTargets& targets) = 0;
  using Pipeline::process;
  virtual cudaStream_t stream() const = 0;
  // Device images of the last frame (W x H, pitch W), valid until the next process() or a size
  // change; for consumers on stream() (e.g. the labeller).
  virtual const uint8_t* d_scan() const = 0;
  virtual const uint8_t* d_denoised() const = 0;
  virtual const uint8_t* d_binary() const = 0;
};

// Throws sweepline::Error when no device can be used.
std::unique_ptr<CudaPipeline> make_cuda_pipeline();

}  // namespace sweepline::gpu::cuda
