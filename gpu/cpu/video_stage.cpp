#include "gpu/cpu/video_stage.hpp"

#include <algorithm>

#include "gpu/video_control.hpp"
#include "gpu/video_math.hpp"

namespace sweepline::gpu::cpu {

void VideoState::reset(int az, int b) {
  azimuths = az;
  bins = b;
  const size_t n = size_t(az) * size_t(b);
  video.assign(n, 0);
  map_mean.assign(n, 0);
  map_dev.assign(n, 0);
  row_age.assign(size_t(az), 0);
  row_stats.assign(size_t(az) * kVideoBands * kVideoStatFields, 0);
  land.assign(size_t(az) * size_t(land_words_per_row(b)), 0);
}

void video_row(const uint8_t* prev, const uint8_t* cur, const uint8_t* next, int bins,
               const VideoSetup& setup, const uint8_t* sea_row, uint8_t* map_mean, uint8_t* map_dev,
               int age, uint8_t* out, uint32_t* band_stats) {
  // Smoothed and gained levels, their prefix sums for the rain window, the map update.
  const bool mature = video_mature(setup.clutter_map, age);
  thread_local std::vector<int> s, pre, pre_raw, brk_lo, brk_hi;
  s.resize(size_t(bins));
  pre.assign(size_t(bins) + 1, 0);
  pre_raw.assign(size_t(bins) + 1, 0);
  auto col = [&](int c) { return int(prev[c]) + int(cur[c]) + int(next[c]); };
  for (int c = 0; c < bins; ++c) {
    int sum = col(c), n = 3;
    if (c > 0) sum += col(c - 1), n += 3;
    if (c + 1 < bins) sum += col(c + 1), n += 3;
    s[size_t(c)] = video_smooth(sum, n);
    const int clip = mature ? int(sea_row[kVideoClipPlane + c / setup.band_bins]) : 255;
    const int g = video_gain(s[size_t(c)], setup.gain_q8);
    pre[size_t(c) + 1] = pre[size_t(c)] + std::min(g, clip);
    pre_raw[size_t(c) + 1] = pre_raw[size_t(c)] + g;
    if (setup.clutter_map) map_update(s[size_t(c)], age, map_mean[c], map_dev[c]);
  }
  // Runs of steady cells: the nearest non-steady cell on each side.
  brk_lo.resize(size_t(bins));
  brk_hi.resize(size_t(bins));
  if (setup.clutter_map) {
    auto steady = [&](int c) {
      return map_is_steady(map_mean[c], map_dev[c], age + 1, setup.land_min);
    };
    int last = -1;
    for (int c = 0; c < bins; ++c) {
      if (!steady(c)) last = c;
      brk_lo[size_t(c)] = last;
    }
    last = bins;
    for (int c = bins - 1; c >= 0; --c) {
      if (brk_lo[size_t(c)] == c) last = c;
      brk_hi[size_t(c)] = last;
    }
  }
  std::fill(band_stats, band_stats + kVideoBands * kVideoStatFields, 0u);
  const bool settled = setup.clutter_map && age + 1 >= kMapSettle;
  const int G = setup.rain_guard, H = G + (1 << setup.rain_log2), L2 = setup.rain_log2 + 1;
  for (int c = 0; c < bins; ++c) {
    const int sc = s[size_t(c)];
    const int g = video_gain(sc, setup.gain_q8);
    const int l0 = std::max(0, c - H), l1 = std::max(0, c - G);                // [l0, l1)
    const int r0 = std::min(bins, c + G + 1), r1 = std::min(bins, c + H + 1);  // [r0, r1)
    auto window = [&](const std::vector<int>& p) {
      return p[size_t(l1)] - p[size_t(l0)] + p[size_t(r1)] - p[size_t(r0)];
    };
    // The rain level from the clipped levels (both sides: 2^(rain_log2 + 1) cells); the
    // censoring from the levels as they are, so that it does not depend on the table it feeds.
    const int sum = window(pre_raw), n = l1 - l0 + r1 - r0;
    const int rain = setup.rain_q8 > 0 ? video_rain(window(pre), L2, setup.rain_q8) : 0;
    const bool land = setup.clutter_map && brk_lo[size_t(c)] != c &&
                      brk_hi[size_t(c)] - brk_lo[size_t(c)] - 1 >= setup.land_run;
    if (!land && !(mature && video_censored(g, sum, n))) {
      uint32_t* f = band_stats + (c / setup.band_bins) * kVideoStatFields;
      f[kStatSum] += uint32_t(sc);
      ++f[kStatCount];
      if (settled && !(mature && video_censored(video_gain(map_mean[c], setup.gain_q8), sum, n))) {
        f[kStatDevSum] += map_dev[c];
        ++f[kStatDevCount];
      }
    }
    out[c] = uint8_t(video_out(g, sea_row[c / setup.band_bins], rain, land));
  }
}

void video_stage(ThreadPool& pool, const PolarFrame& frame, const VideoSetup& setup,
                 const std::vector<uint8_t>& sea_table, VideoState& st) {
  const int A = frame.azimuths, B = frame.range_bins;
  if (st.azimuths != A || st.bins != B || st.video.size() != size_t(A) * size_t(B)) st.reset(A, B);
  const int count = std::min(frame.dirty.count, A);
  if (count <= 0) return;
  pool.parallel_for(count, [&](int i0, int i1) {
    for (int i = i0; i < i1; ++i) {
      const int a = (frame.dirty.first + i) % A;
      const size_t off = size_t(a) * size_t(B);
      const int age = st.row_age[size_t(a)];
      video_row(frame.row((a + A - 1) % A), frame.row(a), frame.row((a + 1) % A), B, setup,
                sea_table.data() + size_t(a / setup.sector_rows) * kVideoBands,
                st.map_mean.data() + off, st.map_dev.data() + off, age, st.video.data() + off,
                st.row_stats.data() + size_t(a) * kVideoBands * kVideoStatFields);
      land_words_row(st.video.data() + off, B,
                     st.land.data() + size_t(a) * size_t(land_words_per_row(B)));
      if (age < 255) st.row_age[size_t(a)] = uint8_t(age + 1);
    }
  });
}

}  // namespace sweepline::gpu::cpu
