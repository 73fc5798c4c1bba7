#pragma once
// Paper 004's block FFT enhancement on the GPU (gpu/cuda/fft_warp.cu): the definition of
// gpu/pipeline_types.hpp's FftEnhanceParams, within one level of the CPU's radix-2 FFT. Batched
// cuFFT, issue 5's method, is gpu/reference/fft_cufft.hpp (9x slower: moving the padded windows
// through global memory; docs/decisions/0016-fft-enhancement.md).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpu/cuda/out8.hpp"
#include "gpu/pipeline_types.hpp"

namespace sweepline::gpu::cuda {

// One kernel, a warp per two horizontally adjacent 32 x 32 windows, the whole transform in
// registers and shared memory: the image (W x H, row pitch W) read once and written once.
// Enqueued on `stream` with no host synchronisation.
void launch_fft_enhance(const uint8_t* d_in, Out8 out, int w, int h, const FftEnhanceParams& p,
                        cudaStream_t stream);

}  // namespace sweepline::gpu::cuda
