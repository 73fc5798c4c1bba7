#include "gpu/cpu/video_stage.hpp"

#include <algorithm>
#include <cstring>

#include "gpu/video_control.hpp"
#include "gpu/video_math.hpp"

// The row's passes are loops the compiler vectorises; on x86-64 a second copy built for AVX2,
// picked when the program loads, takes twice the lanes (about half the time on the development
// VM, docs/perf/cpu-frame.md). Integer arithmetic only, so both copies write the same bytes.
#if defined(__x86_64__) && defined(__GNUC__)
#define SWL_VIDEO_ROW_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SWL_VIDEO_ROW_CLONES
#endif

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

namespace {

// One row's working arrays, kept by each thread between rows (a row is a few thousand cells).
struct RowScratch {
  std::vector<uint16_t> col;            // prev + cur + next per cell
  std::vector<uint8_t> s, g;            // smoothed and gained levels
  std::vector<int32_t> pre, raw;        // prefix sums of the clipped and of the plain gained levels
  std::vector<uint8_t> land;            // 1 where the cell is land
  std::vector<int32_t> wraw, wpre, wn;  // rain window: plain sum, clipped sum, cells
};

// map_step(diff, n) for n fixed, as map_step computes it: the divisor's reciprocal is a constant
// of the row, so the step is a multiply, a shift and the sign, with no branch on the sign.
inline int step_fixed(int diff, int n, uint32_t recip) {
  const int mag = diff < 0 ? -diff : diff;
  const int q = int((uint32_t(mag + n - 1) * recip) >> 16);  // div_small(|diff| + n - 1, n)
  return diff < 0 ? -q : q;  // diff == 0 gives q == 0 (n <= 16: (n - 1) * recip < 2^16)
}

// land_words_row (gpu/land_words.hpp) eight cells at a time: a group holds land when one of its
// bytes equals kVideoLand, that is when the group xor'ed with kVideoLand in every byte has a zero
// byte (the has-zero-byte test, exact for "any").
void land_words_fast(const uint8_t* video, int bins, uint32_t* words) {
  static_assert(kLandGroupCells == 8 && kVideoLand == 1);
  const int wpr = land_words_per_row(bins);
  std::fill(words, words + wpr, 0u);
  const int full = bins / kLandGroupCells;
  for (int grp = 0; grp < full; ++grp) {
    uint64_t v;
    std::memcpy(&v, video + size_t(grp) * kLandGroupCells, sizeof v);
    v ^= 0x0101010101010101ull;
    const bool any = ((v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull) != 0;
    words[grp / kLandGroupsPerWord] |= uint32_t(any) << (grp % kLandGroupsPerWord);
  }
  for (int c = full * kLandGroupCells; c < bins; ++c)
    if (video[c] == kVideoLand)
      words[full / kLandGroupsPerWord] |= 1u << (full % kLandGroupsPerWord);
}

}  // namespace

// The rules are those of gpu/video_math.hpp cell by cell; the row is done in passes that each
// run over contiguous arrays (the compilers vectorise the smoothing, the gain and the map) and
// over each range band in turn, so that no cell divides by the band width.
SWL_VIDEO_ROW_CLONES void video_row(const uint8_t* prev, const uint8_t* cur, const uint8_t* next,
                                    int bins, const VideoSetup& setup, const uint8_t* sea_row,
                                    uint8_t* map_mean, uint8_t* map_dev, int age, uint8_t* out,
                                    uint32_t* band_stats) {
  thread_local RowScratch w;
  const size_t nb = size_t(bins);
  w.col.resize(nb);
  w.s.resize(nb);
  w.g.resize(nb);
  w.pre.resize(nb + 1);
  w.raw.resize(nb + 1);
  w.land.resize(nb);
  w.wraw.resize(nb);
  w.wpre.resize(nb);
  w.wn.resize(nb);
  uint16_t* col = w.col.data();
  uint8_t* s = w.s.data();
  uint8_t* g = w.g.data();
  for (int c = 0; c < bins; ++c) col[c] = uint16_t(prev[c] + cur[c] + next[c]);
  // 3 x 3 mean: 6 cells at either end of the range, 9 inside (bins >= 4).
  s[0] = uint8_t(video_smooth(col[0] + col[1], 6));
  for (int c = 1; c + 1 < bins; ++c) {
    const uint32_t sum = uint32_t(col[c - 1]) + col[c] + col[c + 1];
    s[c] = uint8_t((sum + 4u) / 9u);
  }
  s[bins - 1] = uint8_t(video_smooth(col[bins - 2] + col[bins - 1], 6));
  const int gain_q8 = setup.gain_q8;
  for (int c = 0; c < bins; ++c) {
    const int v = (int(s[c]) * gain_q8 + 128) >> 8;
    g[c] = uint8_t(v > 255 ? 255 : v);
  }
  // Prefix sums for the rain window: clipped to the band's clip level once the map is mature.
  const bool mature = video_mature(setup.clutter_map, age);
  const int bb = setup.band_bins;
  int32_t* pre = w.pre.data();
  int32_t* raw = w.raw.data();
  pre[0] = raw[0] = 0;
  for (int c0 = 0, band = 0; c0 < bins; c0 += bb, ++band) {
    const int c1 = std::min(bins, c0 + bb);
    const int clip = mature ? int(sea_row[kVideoClipPlane + band]) : 255;
    int32_t p = pre[c0], q = raw[c0];
    for (int c = c0; c < c1; ++c) {
      const int v = g[c];
      p += v < clip ? v : clip;
      q += v;
      pre[c + 1] = p;
      raw[c + 1] = q;
    }
  }
  // The clutter map, then the runs of steady cells long enough to be land.
  uint8_t* land = w.land.data();
  std::fill(land, land + bins, uint8_t(0));
  if (setup.clutter_map) {
    if (age == 0) {
      std::copy(s, s + bins, map_mean);
      std::fill(map_dev, map_dev + bins, uint8_t(0));
    } else {
      const int n = age < kMapFastUpdates ? age + 1 : kMapWeight;
      const uint32_t recip = (65536u + uint32_t(n) - 1) / uint32_t(n);
      for (int c = 0; c < bins; ++c) {
        const int m = map_mean[c], d = map_dev[c], sv = s[c];
        const int dv = sv > m ? sv - m : m - sv;
        map_mean[c] = uint8_t(m + step_fixed(sv - m, n, recip));
        map_dev[c] = uint8_t(d + step_fixed(dv - d, n, recip));
      }
    }
    if (age + 1 >= kLandMinAge) {  // map_is_steady's age test, the same for the whole row
      const int land_min = setup.land_min, run_min = setup.land_run;
      for (int c = 0; c < bins; ++c)  // steady, then cleared where its run is too short
        land[c] = uint8_t((map_mean[c] >= land_min) & (map_dev[c] * kLandSteady <= map_mean[c]));
      int c = 0;
      while (c < bins) {
        if (!land[c]) {
          ++c;
          continue;
        }
        const int lo = c;
        while (c < bins && land[c]) ++c;
        if (c - lo < run_min) std::fill(land + lo, land + c, uint8_t(0));
      }
    }
  }
  // The rain window's sums, each side of the cell beyond the gap (cells past the range left
  // out): [c - H, c - G) and [c + G + 1, c + H + 1), both whole inside [H, bins - H).
  const int G = setup.rain_guard, H = G + (1 << setup.rain_log2), L2 = setup.rain_log2 + 1;
  int32_t* wraw = w.wraw.data();
  int32_t* wpre = w.wpre.data();
  int32_t* wn = w.wn.data();
  auto clamped = [&](int c) {
    const int l0 = std::max(0, c - H), l1 = std::max(0, c - G);                // [l0, l1)
    const int r0 = std::min(bins, c + G + 1), r1 = std::min(bins, c + H + 1);  // [r0, r1)
    wraw[c] = raw[l1] - raw[l0] + raw[r1] - raw[r0];
    wpre[c] = pre[l1] - pre[l0] + pre[r1] - pre[r0];
    wn[c] = l1 - l0 + r1 - r0;
  };
  const int i0 = std::min(H, bins), i1 = std::max(i0, bins - H);
  for (int c = 0; c < i0; ++c) clamped(c);
  {
    // Separate loops over unaliased arrays, so that each vectorises.
    const int32_t* __restrict rw = raw;
    const int32_t* __restrict pr = pre;
    int32_t* __restrict o1 = wraw;
    int32_t* __restrict o2 = wpre;
    for (int c = i0; c < i1; ++c) o1[c] = rw[c - G] - rw[c - H] + rw[c + H + 1] - rw[c + G + 1];
    for (int c = i0; c < i1; ++c) o2[c] = pr[c - G] - pr[c - H] + pr[c + H + 1] - pr[c + G + 1];
    std::fill(wn + i0, wn + i1, 2 * (H - G));
  }
  for (int c = i1; c < bins; ++c) clamped(c);
  // Output and band statistics, without branches. The rain level comes from the clipped levels,
  // the censoring from the levels as they are, so that it does not depend on the table it feeds.
  // With rain_q8 == 0, video_rain is 0 whatever the sum.
  std::fill(band_stats, band_stats + kVideoBands * kVideoStatFields, 0u);
  const unsigned settled = setup.clutter_map && age + 1 >= kMapSettle;
  const unsigned censor = mature;
  const int rain_q8 = setup.rain_q8;
  for (int c0 = 0, band = 0; c0 < bins; c0 += bb, ++band) {
    const int c1 = std::min(bins, c0 + bb);
    const int sea = sea_row[band];
    uint32_t sum_s = 0, count = 0, dev_sum = 0, dev_count = 0;
    for (int c = c0; c < c1; ++c) {
      const int gc = g[c], sum = wraw[c], n = wn[c];
      const int rain = video_rain(wpre[c], L2, rain_q8);
      const unsigned is_land = land[c];
      const unsigned keep = (is_land ^ 1u) & ~(censor & unsigned(video_censored(gc, sum, n))) & 1u;
      const unsigned keep_dev =
          keep & settled &
          ~(censor & unsigned(video_censored(video_gain(map_mean[c], gain_q8), sum, n))) & 1u;
      sum_s += keep * s[c];
      count += keep;
      dev_sum += keep_dev * map_dev[c];
      dev_count += keep_dev;
      out[c] = uint8_t(video_out(gc, sea, rain, is_land != 0));
    }
    uint32_t* f = band_stats + band * kVideoStatFields;
    f[kStatSum] = sum_s;
    f[kStatCount] = count;
    f[kStatDevSum] = dev_sum;
    f[kStatDevCount] = dev_count;
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
      land_words_fast(st.video.data() + off, B,
                      st.land.data() + size_t(a) * size_t(land_words_per_row(B)));
      if (age < 255) st.row_age[size_t(a)] = uint8_t(age + 1);
    }
  });
}

}  // namespace sweepline::gpu::cpu
