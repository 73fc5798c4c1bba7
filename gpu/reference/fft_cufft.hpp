#pragma once
// Paper 004's block FFT enhancement through batched cuFFT, issue 5's method, for comparison with
// the product's one-kernel version (gpu/cuda/fft_kernels.hpp): gather the 32 x 32 windows (step
// 16, zero outside the image) into a real batch, R2C, scale and cut the half spectrum, C2R, then
// one block per window finds max|v| and writes the central 16 x 16. The padded windows (4x the
// image, as floats) travel through global memory five times: about 9x slower at 4096^2
// (docs/decisions/0016-fft-enhancement.md). The product never calls it; tests and the benchmark
// do.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstddef>
#include <cstdint>

#include "gpu/cuda/cuda_resources.hpp"
#include "gpu/cuda/out8.hpp"
#include "gpu/pipeline_types.hpp"

namespace sweepline::gpu::reference {

// Owns the cuFFT plans and chunk buffers, made once per image size.
class CufftEnhancer {
 public:
  CufftEnhancer() = default;
  ~CufftEnhancer();
  CufftEnhancer(const CufftEnhancer&) = delete;
  CufftEnhancer& operator=(const CufftEnhancer&) = delete;
  // Enqueued on `stream` (the plans are bound to it); no host synchronisation.
  void run(const uint8_t* d_in, cuda::Out8 out, int w, int h, const FftEnhanceParams& p,
           cudaStream_t stream);
  // Bytes the method moves through global memory at W x H (for the benchmark's GB/s).
  static size_t bytes_moved(int w, int h);

 private:
  void prepare(int w, int h);
  void release() noexcept;
  int w_ = 0, h_ = 0, windows_ = 0, chunk_ = 0;
  cufftHandle fwd_ = 0, inv_ = 0;
  bool have_plans_ = false;
  cuda::DeviceBuffer<float> d_real_;
  cuda::DeviceBuffer<cufftComplex> d_spec_;
};

}  // namespace sweepline::gpu::reference
