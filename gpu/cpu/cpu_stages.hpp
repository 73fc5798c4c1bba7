#pragma once
// The CPU backend's stages as free functions, so tests can check each one against its oracle.
// Each runs its rows on `pool`. Definitions (borders, rounding) are those of docs/pipeline.md
// and the CUDA kernels follow them.
#include <cstdint>
#include <vector>

#include "app/common/image.hpp"
#include "app/common/polar_frame.hpp"
#include "gpu/pipeline.hpp"
#include "gpu/scan_math.hpp"
#include "gpu/cpu/thread_pool.hpp"

namespace sweepline::gpu::cpu {

// The max-hold pyramid of an azimuths x bins image (gpu/scan_math.hpp) into out
// (az_pyramid_cells() bytes).
void az_pyramid(ThreadPool& pool, const uint8_t* polar, int azimuths, int bins, uint8_t* out);
// `polar` is setup.azimuths x setup.bins; out becomes setup.width x setup.height.
void scan_convert(ThreadPool& pool, const ScanSetup& setup, const uint8_t* polar, ScanMode mode,
                  Image8& out);
// Separable Gaussian, borders clamped to the edge, intermediate in 8.8 fixed point.
void gaussian(ThreadPool& pool, const Image8& in, float sigma, Image8& out,
              std::vector<uint16_t>& scratch);
// Separable bilateral approximation (row pass, then column pass on the row result).
void bilateral(ThreadPool& pool, const Image8& in, float sigma_s, float sigma_r, Image8& out,
               std::vector<uint16_t>& scratch);
// Paper 004's block FFT enhancement with a radix-2 FFT.
void fft_enhance(ThreadPool& pool, const Image8& in, const FftEnhanceParams& params, Image8& out);
// Cell-averaging CFAR along range: mask (azimuths x bins) gets 255 at detections, else 0.
void cfar_polar(ThreadPool& pool, const PolarFrame& frame, int guard, int train, double pfa,
                std::vector<uint8_t>& mask);
void threshold(ThreadPool& pool, const Image8& in, uint8_t t, Image8& out);

}  // namespace sweepline::gpu::cpu
