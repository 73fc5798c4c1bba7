#pragma once
// CFAR (polar), threshold, the plain copy and label colouring on the GPU
// (gpu/cuda/detect_kernels.cu), the same values as the CPU's (gpu/cpu/cpu_stages.hpp). The
// launchers enqueue on the given stream and never wait for the device; images are W x H with row
// pitch W, the polar frame azimuths x bins with row pitch bins. Why these kernels:
// docs/decisions/0018-detect-and-display-stores.md.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpu/cuda/out8.hpp"

namespace sweepline::gpu::cuda {

// Tuning.
// CFAR builds a row's prefix sums in shared memory up to this many bins ((bins + 1) ints within
// the 48 KB a block gets without opting in); longer rows slide two sums a thread.
inline constexpr int kCfarPrefixMaxBins = 12000;

// mask (azimuths x bins) = 255 at CFAR detections (gpu::PipelineParams' definition), else 0.
void launch_cfar(const uint8_t* d_polar, uint8_t* d_mask, int azimuths, int bins, int guard,
                 int train, double pfa, cudaStream_t stream);

// out = in > t ? 255 : 0.
void launch_threshold(const uint8_t* d_in, Out8 out, int w, int h, uint8_t t, cudaStream_t stream);

// out = in (DenoiseMode::None), also into out's surface.
void launch_copy(const uint8_t* d_in, Out8 out, int w, int h, cudaStream_t stream);

// RGBA8 label colours into a surface (cudaSurfaceObject_t; 0: nothing): label l as
// gpu::label_colour(d_ids[l]), background and labels >= n_ids transparent
// (gpu::identity_colour).
void launch_label_colour(const int32_t* d_labels, const int32_t* d_ids, int n_ids,
                         unsigned long long surf, int w, int h, cudaStream_t stream);

}  // namespace sweepline::gpu::cuda
