#pragma once
// Paper 002's separable filters on the GPU, for comparison with the product's fused kernels
// (gpu/cuda/filter_kernels.hpp): two passes through an 8.8 fixed-point intermediate image in
// global memory, the sums over taps -R..R in the CPU's order (the same numbers as the CPU,
// within one level). The row pass either loads each 512-pixel segment of a row with its apron
// from global memory (Tiled, the paper's baseline) or walks the row keeping the last 32 pixels
// in shared memory (SlidingWindow, the paper's). The product never calls these
// (docs/decisions/0014-gaussian.md, 0015-bilateral.md); tests and the benchmark do.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <vector>

#include "gpu/cuda/out8.hpp"

namespace sweepline::gpu::reference {

enum class RowPass { Tiled, SlidingWindow };

// How the benchmark and the tests run the separable Gaussian.
struct SeparableGaussian {
  RowPass row_pass = RowPass::SlidingWindow;
};

// The Gaussian's row pass into d_mid (8.8 fixed point, W x H) and its column pass from there.
void launch_gaussian_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                          const std::vector<float>& weights, const SeparableGaussian& how,
                          cudaStream_t stream);
void launch_gaussian_cols(const uint16_t* d_mid, cuda::Out8 out, int w, int h,
                          const std::vector<float>& weights, cudaStream_t stream);

// The bilateral's two passes (the row pass walks the row as SlidingWindow does).
void launch_bilateral_rows(const uint8_t* d_in, uint16_t* d_mid, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream);
void launch_bilateral_cols(const uint16_t* d_mid, cuda::Out8 out, int w, int h,
                           const std::vector<float>& spatial, const std::array<float, 256>& range,
                           cudaStream_t stream);

}  // namespace sweepline::gpu::reference
