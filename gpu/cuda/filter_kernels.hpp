#pragma once
// The denoising filters on the GPU (gpu/cuda/filter_fused.cu, filter_mma.cu): the separable
// Gaussian and bilateral of gpu/cpu/cpu_stages.hpp with both passes fused into one kernel, the
// 8.8 fixed-point intermediate kept on chip; within one level of the CPU (docs/pipeline.md).
// The launchers enqueue on the given stream and never wait for the device; images are W x H
// with row pitch W. Why these kernels: docs/decisions/0014-gaussian.md, 0015-bilateral.md; paper
// 002's two-pass versions are gpu/reference/separable_filters.hpp.
#include <cuda_runtime_api.h>

#include <array>
#include <vector>

#include "gpu/cuda/out8.hpp"

namespace sweepline::gpu::cuda {

// Tuning, measured at 4096^2 on an H100 (the decision records above).
// The Gaussian runs on the tensor cores from this radius up (sm_80+): radius 2 30.0 against
// 31.8 us with multiply-adds, sigma 1 (radius 3) 28.9 against 34.2.
inline constexpr int kGaussianMmaMinRadius = 2;
// ... with 128-row tiles from this radius up (half the row pass's apron a row): radius 9 37.3
// against 39.5 us with 64 rows, radius 6 32.1 against 31.4.
inline constexpr int kGaussianMmaTallMinRadius = 9;

// How a fused kernel walks the image, for tests and the benchmark; the pipeline passes none.
// strip_tiles: 128 x 64 tiles a block filters down a vertical strip, carrying the overlapping
// intermediate rows from one to the next. 0: the fewest that fit every strip in one wave of
// resident blocks (the fastest measured, decision 0015).
struct StripOptions {
  int strip_tiles = 0;
};

// The pipeline's Gaussian (weights: gaussian_weights(sigma), 2R + 1 taps, R <= 15): the
// tensor-core kernel from kGaussianMmaMinRadius up where the GPU has one, else the
// multiply-add kernel.
void launch_gaussian(const uint8_t* d_in, Out8 out, int w, int h, const std::vector<float>& weights,
                     cudaStream_t stream);
// The multiply-add kernel: a block filters a vertical strip of 128 x 64 tiles; the
// pipeline's below kGaussianMmaMinRadius and on GPUs without tensor cores (sm_75).
void launch_gaussian_fused(const uint8_t* d_in, Out8 out, int w, int h,
                           const std::vector<float>& weights, cudaStream_t stream,
                           StripOptions strips = {});
// The tensor-core kernel (integer mma, sm_80+): both passes as banded Toeplitz products, the
// weights rounded to 2^-16 and summing to 1 exactly; a block filters a 128 x 64 tile (128 x 128
// from kGaussianMmaTallMinRadius up). Throws where gaussian_mma_available() is false.
// Weights whose off-centre taps all round to 0 go to launch_gaussian_fused.
bool gaussian_mma_available();
void launch_gaussian_mma(const uint8_t* d_in, Out8 out, int w, int h,
                         const std::vector<float>& weights, cudaStream_t stream);

// The pipeline's bilateral (spatial: bilateral_spatial_weights(sigma_s), R <= 10; range:
// bilateral_range_weights(sigma_r)): both passes in one kernel, each tap pair's range weight
// computed once for the two outputs that share it, the CPU's sums term for term.
void launch_bilateral(const uint8_t* d_in, Out8 out, int w, int h,
                      const std::vector<float>& spatial, const std::array<float, 256>& range,
                      cudaStream_t stream, StripOptions strips = {});

}  // namespace sweepline::gpu::cuda
