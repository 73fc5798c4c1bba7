#pragma once
// Limits and fixed-point conversions shared by the CPU stages and the CUDA kernels.
#include <cstdint>
#include <vector>

#include "gpu/pipeline_types.hpp"
#include "gpu/scan_math.hpp"

namespace sweepline::gpu {

inline constexpr int kMaxGaussianRadius = 15;   // sigma 5 -> ceil(3 sigma)
inline constexpr int kMaxBilateralRadius = 10;  // sigma_s 5 -> ceil(2 sigma_s)
inline constexpr int kMaxCfarCells = 256;       // guard + train, each side
inline constexpr int kFftWindow = 32;
inline constexpr int kFftStep = 16;
// The separable filters keep their intermediate image in 8.8 fixed point (uint16): a quarter
// of the traffic of float, a rounding error of 1/512 of a level.
inline constexpr float kFixedScale = 256.0f;

// k[N] = alpha(N) / N for N = 0..2*train training cells (k[0] unused): a cell is a detection when
// value > k[N] * sum of its N training cells.
std::vector<float> cfar_scale_table(int train, double pfa);

// 1 where a frequency of the 32 x 32 spectrum is kept, 0 where cut; row-major [fy][fx] over the
// full complex spectrum (fx, fy = 0..31 with 16..31 meaning -16..-1).
std::vector<float> fft_keep_mask(const FftEnhanceParams& p);

// Fixed-point conversions shared by both backends.
SWL_HD uint16_t to_fixed(float v) {
  float f = v * kFixedScale + 0.5f;
  if (f < 0.0f) f = 0.0f;
  if (f > 65535.0f) f = 65535.0f;
  return uint16_t(f);
}
SWL_HD uint8_t fixed_to_level(float v_fixed) {  // v in fixed units -> rounded level
  float f = v_fixed * (1.0f / kFixedScale) + 0.5f;
  if (f < 0.0f) f = 0.0f;
  if (f > 255.0f) f = 255.0f;
  return uint8_t(f);
}
SWL_HD uint8_t to_level(float v) {
  float f = v + 0.5f;
  if (f < 0.0f) f = 0.0f;
  if (f > 255.0f) f = 255.0f;
  return uint8_t(f);
}

}  // namespace sweepline::gpu
