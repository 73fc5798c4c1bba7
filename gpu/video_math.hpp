#pragma once
// The video stage's per-cell arithmetic, shared verbatim by the CPU stage (gpu/cpu/video_stage.cpp)
// and the CUDA kernel (gpu/cuda/video_kernels.cu): integers only, so the two agree exactly.
//
// Per cell of a processed row (docs/detection.md):
//   s    = 3 x 3 mean of the raw video (rows wrap through north; cells past either end of the
//          range are left out of the mean)
//   g    = min(255, s * gain)
//   sea  = the sea table's level for the cell's sector and band
//   rain = rain multiple x the mean of g over rain_len cells each side along range, beyond a gap
//          of rain_guard cells (cells past either end of the range count as 0; rain_len is a
//          power of two, so the mean is a shift)
//   land = the clutter map says strong and steady (map_is_steady), in a run of such cells along
//          range of at least setup.land_run cells
//   out  = land ? kVideoLand : the excess g - max(sea, rain), where an excess of 0 or 1 is 0
//          (level 1 marks land, so the display can draw it in its own colour and the
//          threshold, well above it, never takes it for a target)
// and the clutter map cell is updated with s (map_update).
#include <cstdint>

#include "gpu/pipeline_types.hpp"
#include "gpu/scan_math.hpp"
#include "gpu/video_tuning.hpp"

namespace sweepline::gpu {

// n is 9 inside the range and 6 at its ends: constant divisors, which the compilers turn into
// multiplies on both sides.
SWL_HD int video_smooth(int sum, int n) {
  return n == 9 ? (sum + 4) / 9 : (sum + 3) / 6;
}
SWL_HD int video_gain(int s, int gain_q8) {
  const int g = (s * gain_q8 + 128) >> 8;
  return g > 255 ? 255 : g;
}
// rain multiple (8.8) x sum / 2^log2n, rounded.
SWL_HD int video_rain(int sum, int log2n, int rain_q8) {
  return (sum * rain_q8 + (128 << log2n)) >> (8 + log2n);
}
// The statistics behind auto Sea describe the clutter, not the targets in it: a cell whose level
// is more than kCensorMultiple times the mean of its rain window (the cells a few hundred metres
// either side along range) is left out of them (a censored mean, as in censored CFAR).
SWL_HD bool video_censored(int level, int window_sum, int window_cells) {
  return level * window_cells > kCensorMultiple * window_sum;
}
// Whether a row's censoring and rain-window clipping apply: once its clutter map is old enough
// to blank land (before, a coast's edge, bright against the sea beside it, would be censored and
// clipped, and the Sea and Rain levels over it lowered).
SWL_HD bool video_mature(bool clutter_map, int age) {
  return clutter_map && age + 1 >= kLandMinAge;
}
inline constexpr int kVideoLand = 1;
SWL_HD int video_out(int g, int sea, int rain, bool land) {
  if (land) return kVideoLand;
  const int b = sea > rain ? sea : rain;
  return g - b <= kVideoLand ? 0 : g - b;
}

// x / n for 0 <= x < 512 and 1 <= n <= 16, as a multiply by ceil(2^16 / n) and a shift: the
// product's error is under 512 / 2^16 < 1 / 16 <= 1 / n, so the floor is exact (a runtime
// integer division costs tens of instructions on the GPU).
SWL_HD int div_small(int x, int n) {
  return int((uint32_t(x) * ((65536u + uint32_t(n) - 1) / uint32_t(n))) >> 16);
}
// One step of a running mean of weight 1/n that always moves at least one level towards the
// target (an 8-bit mean updated by truncation would stop short by up to n - 1 levels).
SWL_HD int map_step(int diff, int n) {
  if (diff > 0) return div_small(diff + n - 1, n);
  if (diff < 0) return -div_small(-diff + n - 1, n);
  return 0;
}
// Updates a clutter map cell (mean and mean deviation, 8-bit) with the smoothed level s; `age`
// is the number of earlier updates (saturating). The first rotations form a cumulative mean,
// later ones an exponential mean (video_tuning.hpp).
SWL_HD void map_update(int s, int age, uint8_t& mean, uint8_t& dev) {
  if (age == 0) {
    mean = uint8_t(s);
    dev = 0;
    return;
  }
  const int n = age < kMapFastUpdates ? age + 1 : kMapWeight;
  const int m = mean, d = dev;
  const int dv = s > m ? s - m : m - s;
  mean = uint8_t(m + map_step(s - m, n));
  dev = uint8_t(d + map_step(dv - d, n));
}
SWL_HD bool map_is_steady(int mean, int dev, int age, int land_min) {
  return age >= kLandMinAge && mean >= land_min && dev * kLandSteady <= mean;
}

}  // namespace sweepline::gpu
