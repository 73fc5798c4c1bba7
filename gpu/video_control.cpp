#include "gpu/video_control.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "app/common/check.hpp"
#include "gpu/video_tuning.hpp"

namespace sweepline::gpu {

namespace {

void check_knob(const char* name, float v) {
  if (!std::isfinite(v) || v < 0 || v > 100)
    throw Error(std::string("video.") + name + " must be 0..100 (got " + std::to_string(v) + ")");
}

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

}  // namespace

void validate(const VideoParams& p) {
  check_knob("gain", p.gain);
  check_knob("sea", p.sea);
  check_knob("rain", p.rain);
}

SectorSums sector_sums(const std::vector<uint32_t>& row_stats, int azimuths) {
  constexpr size_t kRow = size_t(kVideoBands) * kVideoStatFields;
  SectorSums s;
  s.v.assign(size_t(kVideoSectors) * kRow, 0);
  if (azimuths <= 0) return s;
  const int rows = ceil_div(azimuths, kVideoSectors);
  for (int a = 0; a < azimuths; ++a) {
    const size_t sec = size_t(a / rows) * kRow, row = size_t(a) * kRow;
    for (size_t i = 0; i < kRow; ++i) s.v[sec + i] += row_stats[row + i];
  }
  return s;
}

VideoStats video_stats(const SectorSums& sums) {
  VideoStats st;
  const size_t n = size_t(kVideoSectors) * kVideoBands;
  if (sums.v.size() != n * kVideoStatFields) return st;
  st.mean.assign(n, -1.0f);
  st.dev.assign(n, -1.0f);
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t* f = sums.v.data() + i * kVideoStatFields;
    if (f[kStatCount] > 0) {
      st.mean[i] = float(double(f[kStatSum]) / double(f[kStatCount]));
      any = true;
    }
    if (f[kStatDevCount] > 0) st.dev[i] = float(double(f[kStatDevSum]) / double(f[kStatDevCount]));
  }
  if (!any) st = VideoStats{};
  return st;
}

double noise_floor(const VideoStats& stats) {
  std::vector<float> v;
  v.reserve(stats.mean.size());
  for (float m : stats.mean)
    if (m >= 0) v.push_back(m);
  if (v.empty()) return kNoiseTarget;
  const size_t k = std::min(v.size() - 1, size_t(kNoiseQuantile * double(v.size())));
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
  return std::max(1.0, double(v[k]));
}

VideoSetup resolve_video(const VideoParams& p, const PolarFrame& frame, const VideoStats& stats,
                         std::vector<uint8_t>& sea_table) {
  validate(p);
  VideoSetup s;
  s.enabled = p.enabled;
  s.azimuths = frame.azimuths;
  s.bins = frame.range_bins;
  s.sector_rows = ceil_div(std::max(1, frame.azimuths), kVideoSectors);
  s.band_bins = ceil_div(std::max(1, frame.range_bins), kVideoBands);
  const double floor = noise_floor(stats);
  const double gain = p.gain_auto ? std::clamp(kNoiseTarget / floor, kGainMin, kGainMax)
                                  : std::exp2((double(p.gain) - 50.0) / 12.5);
  s.gain_q8 = int(std::lround(gain * 256));

  sea_table.assign(size_t(kVideoTableSize), 0);
  const double band_m = frame.range_m / kVideoBands;
  for (int sec = 0; sec < kVideoSectors; ++sec) {
    for (int b = 0; b < kVideoBands; ++b) {
      double level = 0;
      if (p.sea_auto) {
        // The clutter's mean plus a multiple of its spread from rotation to rotation where the
        // clutter map has settled (spiky sea gets a high level, rain and noise a low one);
        // before that a fixed multiple of the mean.
        const size_t i = size_t(sec) * kVideoBands + size_t(b);
        const float m = stats.empty() || stats.mean[i] < 0 ? float(floor) : stats.mean[i];
        const float d = stats.empty() ? -1.0f : stats.dev[i];
        level = (d >= 0 ? m + kSeaDevMultiple * d : kSeaAutoMargin * m) * gain;
      } else {
        const double r = (b + 0.5) * band_m;
        const double shape = r <= kSeaFlatM ? 1.0 : std::pow(kSeaFlatM / r, kSeaFalloff);
        level = double(p.sea) / 100.0 * 255.0 * shape;
      }
      const size_t i = size_t(sec) * kVideoBands + size_t(b);
      sea_table[i] = uint8_t(std::clamp(std::lround(level), 0L, 255L));
      // The rain window's clip: a few times the clutter's mean, and never under the sea level
      // (a cell the sea level lets through is not clutter to be averaged).
      const float m = stats.empty() || stats.mean[i] < 0 ? float(floor) : stats.mean[i];
      const double clip = std::max(level, kRainClipMultiple * m * gain);
      sea_table[size_t(kVideoClipPlane) + i] = uint8_t(std::clamp(std::lround(clip), 1L, 255L));
    }
  }
  const double rain = p.rain_auto ? kRainAutoMultiple : double(p.rain) / 100.0 * kRainMaxMultiple;
  s.rain_q8 = int(std::lround(rain * 256));
  const double cell_m = frame.range_m / std::max(1, frame.range_bins);
  const double len_cells = std::max(1.0, kRainLengthM / cell_m);
  s.rain_log2 = std::clamp(int(std::lround(std::log2(len_cells))), 0, 6);  // 1..64 cells
  s.rain_guard = int(std::clamp(std::lround(kRainGuardM / cell_m), 1L,
                                long(kRainHalfMaxCells - (1 << s.rain_log2))));
  s.clutter_map = p.clutter_map;
  s.land_run = int(std::clamp(std::lround(kLandMinRunM / cell_m), 1L, long(kRainHalfMaxCells)));
  s.land_min = int(std::min(255.0, std::lround(floor) + double(kLandMinLevel)));
  return s;
}

}  // namespace sweepline::gpu
