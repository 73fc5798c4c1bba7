// The video stage (Gain, Sea, Rain, clutter map, land) against a plain oracle written from the
// rules in gpu/video_math.hpp (direct loops: no prefix sums, no run tables), frame after frame so
// that the clutter map's state is checked too; and what the stage is for: land blanked, a small
// steady echo kept, receiver noise brought to the auto gain's level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "app/common/check.hpp"
#include "gpu/cpu/video_stage.hpp"
#include "gpu/video_control.hpp"
#include "gpu/video_tuning.hpp"
#include "tests/support/frames.hpp"

namespace sweepline::gpu {
namespace {

// The oracle's clutter map and its processing of one frame's dirty rows.
struct Oracle {
  int A = 0, B = 0;
  std::vector<int> mean, dev, age;
  std::vector<uint8_t> video;
  std::vector<uint32_t> stats;  // per row: kVideoBands x (sum, count, dev sum, dev count)
  Oracle(int a, int b)
      : A(a),
        B(b),
        mean(size_t(a) * b),
        dev(size_t(a) * b),
        age(size_t(a)),
        video(size_t(a) * b),
        stats(size_t(a) * kVideoBands * 4) {}

  static int away(int diff, int n) {  // diff / n rounded away from zero
    if (diff == 0) return 0;
    const int q = (std::abs(diff) + n - 1) / n;
    return diff > 0 ? q : -q;
  }

  void run(const PolarFrame& f, const VideoSetup& su, const std::vector<uint8_t>& sea) {
    for (int k = 0; k < f.dirty.count; ++k) {
      const int a = (f.dirty.first + k) % A;
      std::vector<int> s(static_cast<size_t>(B)), g(static_cast<size_t>(B));
      for (int c = 0; c < B; ++c) {
        int sum = 0, n = 0;
        for (int da = -1; da <= 1; ++da)
          for (int dc = -1; dc <= 1; ++dc) {
            const int cc = c + dc;
            if (cc < 0 || cc >= B) continue;
            sum += f.row((a + da + A) % A)[cc];
            ++n;
          }
        s[size_t(c)] = (sum + n / 2) / n;
        g[size_t(c)] = std::min(255, (s[size_t(c)] * su.gain_q8 + 128) >> 8);
      }
      const int ag = age[size_t(a)];
      // Censoring and clipping once the map can blank land (kLandMinAge rotations).
      const bool mature = su.clutter_map && ag + 1 >= kLandMinAge;
      std::fill_n(stats.begin() + std::ptrdiff_t(size_t(a) * kVideoBands * 4), kVideoBands * 4, 0u);
      std::vector<bool> steady(size_t(B), false);
      for (int c = 0; c < B; ++c) {
        if (!su.clutter_map) break;
        int& m = mean[size_t(a) * B + c];
        int& d = dev[size_t(a) * B + c];
        if (ag == 0) {
          m = s[size_t(c)];
          d = 0;
        } else {
          const int n = ag < kMapFastUpdates ? ag + 1 : kMapWeight;
          const int old = m;
          m += away(s[size_t(c)] - old, n);
          d += away(std::abs(s[size_t(c)] - old) - d, n);
        }
        steady[size_t(c)] = ag + 1 >= kLandMinAge && m >= su.land_min && d * kLandSteady <= m;
      }
      for (int c = 0; c < B; ++c) {
        bool land = false;
        if (steady[size_t(c)]) {
          int lo = c, hi = c;
          while (lo > 0 && steady[size_t(lo - 1)]) --lo;
          while (hi + 1 < B && steady[size_t(hi + 1)]) ++hi;
          land = hi - lo + 1 >= su.land_run;
        }
        // The window: 2^rain_log2 cells each side beyond the gap; the rain mean takes each
        // clipped to its band's clip level (cells past the range count as 0), the censoring
        // their plain mean (cells past the range not counted).
        const size_t sec = size_t(a / su.sector_rows) * kVideoBands;
        const int len = 1 << su.rain_log2, n = 2 * len;
        int clipped = 0, sum = 0, cells = 0;
        for (int d = su.rain_guard + 1; d <= su.rain_guard + len; ++d)
          for (int cc : {c - d, c + d})
            if (cc >= 0 && cc < B) {
              const int clip =
                  mature ? int(sea[kVideoClipPlane + sec + size_t(cc / su.band_bins)]) : 255;
              clipped += std::min(g[size_t(cc)], clip);
              sum += g[size_t(cc)];
              ++cells;
            }
        const int rain = su.rain_q8 > 0 ? (clipped * su.rain_q8 + n * 128) / (n * 256) : 0;
        const int seal = sea[sec + size_t(c / su.band_bins)];
        const int bg = std::max(seal, rain);
        const int excess = g[size_t(c)] - bg;
        video[size_t(a) * B + c] = uint8_t(land ? 1 : excess > 1 ? excess : 0);
        // The band statistics: cells not land and (mature) not 3x above their window's mean;
        // the map's deviation once settled, where (mature) its mean is not 3x above either.
        auto above = [&](int level) { return level * cells > kCensorMultiple * sum; };
        uint32_t* f4 = &stats[(size_t(a) * kVideoBands + size_t(c / su.band_bins)) * 4];
        const bool settled = su.clutter_map && ag + 1 >= kMapSettle;
        if (!land && !(mature && above(g[size_t(c)]))) {
          f4[0] += uint32_t(s[size_t(c)]);
          ++f4[1];
          const int m = mean[size_t(a) * B + c];
          if (settled && !(mature && above(std::min(255, (m * su.gain_q8 + 128) >> 8)))) {
            f4[2] += uint32_t(dev[size_t(a) * B + c]);
            ++f4[3];
          }
        }
      }
      if (ag < 255) age[size_t(a)] = ag + 1;
    }
  }
};

// A frame with speckle, a static strong block (land, 600 m deep), a short static echo (a vessel at
// rest) and, each frame, random spikes.
PolarFrame scene(int A, int B, double range_m, uint32_t frame_seed) {
  PolarFrame f = testing::structured_frame(A, B, range_m, 7);  // the same background each time
  std::mt19937 rng(frame_seed);
  for (auto& c : f.cells)
    c = uint8_t(std::min<uint32_t>(255u, uint32_t(c) + uint32_t(rng() & 15u)));
  const double cell_m = range_m / B;
  const int land0 = B / 2, land1 = land0 + int(600 / cell_m);
  for (int a = A / 4; a < A / 4 + A / 16; ++a)
    for (int c = land0; c < std::min(B, land1); ++c) f.row(a)[c] = 170;
  for (int a = A / 2; a < A / 2 + 6; ++a)
    for (int c = B / 4; c < B / 4 + int(60 / cell_m); ++c) f.row(a)[c] = 200;
  return f;
}

TEST(VideoStage, MatchesTheOracleFrameAfterFrame) {
  const int A = 256, B = 700;
  const double range_m = 6000;  // 8.6 m cells: land runs of 33 cells, rain window 52 cells
  cpu::VideoState st;
  ThreadPool pool(2);
  Oracle o(A, B);
  VideoStats stats;
  std::vector<uint8_t> sea;
  VideoParams vp;
  vp.enabled = true;
  // The land words of the processed rows (gpu/land_words.hpp) from the oracle's video; other
  // rows keep theirs. The row ages the plots read with them are the oracle's.
  const int wpr = land_words_per_row(B);
  std::vector<uint32_t> want(size_t(A) * size_t(wpr), 0);
  for (int k = 0; k < 12; ++k) {
    PolarFrame f = scene(A, B, range_m, 100 + uint32_t(k));
    // Full frames, then spans that wrap through north, then a manual-knob frame.
    if (k >= 8) f.dirty = {A - 40 + k, 90};
    if (k == 10) {
      vp.gain_auto = vp.sea_auto = vp.rain_auto = false;
      vp.gain = 63;
      vp.sea = 20;
      vp.rain = 35;
    }
    const VideoSetup su = resolve_video(vp, f, stats, sea);
    cpu::video_stage(pool, f, su, sea, st);
    o.run(f, su, sea);
    stats = video_stats(sector_sums(st.row_stats, A));
    ASSERT_EQ(st.video, o.video) << "frame " << k;
    ASSERT_EQ(st.row_stats, o.stats) << "frame " << k;
    for (int i = 0; i < std::min(f.dirty.count, A); ++i) {
      const int a = (f.dirty.first + i) % A;
      land_words_row(o.video.data() + size_t(a) * B, B, want.data() + size_t(a) * wpr);
    }
    ASSERT_EQ(st.land, want) << "frame " << k;
    for (int a = 0; a < A; ++a) ASSERT_EQ(int(st.row_age[size_t(a)]), o.age[size_t(a)]) << a;
    for (size_t i = 0; i < o.mean.size(); ++i) {
      ASSERT_EQ(int(st.map_mean[i]), o.mean[i]) << "frame " << k << " cell " << i;
      ASSERT_EQ(int(st.map_dev[i]), o.dev[i]) << "frame " << k << " cell " << i;
    }
  }
}

// The row's passes (vector loops, prefix sums, the rain window split at the range's ends, land
// words eight cells at a time) on frames that hit their edges: all 0, all 255 (land everywhere
// once the map is old enough), random bytes, a bright block against a dark one; range lengths not
// a multiple of 8, shorter than the rain window, and partial spans across north.
TEST(VideoStage, MatchesTheOracleOnAdversarialFrames) {
  ThreadPool pool(2);
  for (auto [A, B, range_m] : {std::tuple{64, 4, 200.0}, std::tuple{96, 37, 300.0},
                               std::tuple{128, 1027, 9000.0}, std::tuple{33, 260, 40000.0}}) {
    for (int kind = 0; kind < 4; ++kind) {
      cpu::VideoState st;
      Oracle o(A, B);
      VideoStats stats;
      std::vector<uint8_t> sea;
      VideoParams vp;
      vp.enabled = true;
      std::mt19937 rng(uint32_t(kind * 1000 + B));
      for (int k = 0; k < 10; ++k) {
        PolarFrame f(A, B, range_m);
        for (int a = 0; a < A; ++a)
          for (int c = 0; c < B; ++c) {
            uint8_t& v = f.row(a)[c];
            switch (kind) {
              case 0:
                v = 0;
                break;
              case 1:
                v = 255;
                break;
              case 2:
                v = uint8_t(rng());
                break;
              default:
                v = (c < B / 2 && a < A / 2) ? 250 : uint8_t(rng() % 8);
                break;
            }
          }
        if (k >= 7) f.dirty = {A - 5, 9};  // through north
        if (k == 8) vp.rain = 100, vp.rain_auto = false;
        const VideoSetup su = resolve_video(vp, f, stats, sea);
        cpu::video_stage(pool, f, su, sea, st);
        o.run(f, su, sea);
        stats = video_stats(sector_sums(st.row_stats, A));
        const std::string what = std::to_string(A) + "x" + std::to_string(B) + " kind " +
                                 std::to_string(kind) + " frame " + std::to_string(k);
        ASSERT_EQ(st.video, o.video) << what;
        ASSERT_EQ(st.row_stats, o.stats) << what;
        const int wpr = land_words_per_row(B);
        std::vector<uint32_t> want(static_cast<size_t>(wpr));
        for (int i = 0; i < std::min(f.dirty.count, A); ++i) {
          const int a = (f.dirty.first + i) % A;
          land_words_row(o.video.data() + size_t(a) * B, B, want.data());
          ASSERT_TRUE(std::equal(want.begin(), want.end(), st.land.begin() + size_t(a) * wpr))
              << what << " row " << a;
        }
        for (size_t i = 0; i < o.mean.size(); ++i) {
          ASSERT_EQ(int(st.map_mean[i]), o.mean[i]) << what << " cell " << i;
          ASSERT_EQ(int(st.map_dev[i]), o.dev[i]) << what << " cell " << i;
        }
      }
      if (kind == 1) {  // all 255: the map calls it land, and the video says so
        EXPECT_NE(std::count(st.video.begin(), st.video.end(), uint8_t(1)), 0) << A << "x" << B;
      }
    }
  }
}

TEST(VideoStage, BlanksLandButKeepsASmallSteadyEcho) {
  const int A = 256, B = 700;
  const double range_m = 6000;
  cpu::VideoState st;
  ThreadPool pool(2);
  VideoStats stats;
  std::vector<uint8_t> sea;
  VideoParams vp;
  vp.enabled = true;
  PolarFrame f;
  for (int k = 0; k < kLandMinAge + 1; ++k) {
    f = scene(A, B, range_m, 200 + uint32_t(k));
    const VideoSetup su = resolve_video(vp, f, stats, sea);
    cpu::video_stage(pool, f, su, sea, st);
    stats = video_stats(sector_sums(st.row_stats, A));
  }
  // Inside the land block: the land level (1). On the resting vessel (60 m, shorter than a land
  // run): video.
  const int land_row = A / 4 + A / 32, land_cell = B / 2 + 30;
  EXPECT_EQ(st.video[size_t(land_row) * B + land_cell], 1);
  const int boat_row = A / 2 + 3, boat_cell = B / 4 + 3;
  EXPECT_GT(st.video[size_t(boat_row) * B + boat_cell], 48);
  // In the first rotations, before the map knows it, the land shows.
  cpu::VideoState fresh;
  VideoStats none;
  const VideoSetup su0 = resolve_video(vp, f, none, sea);
  cpu::video_stage(pool, f, su0, sea, fresh);
  EXPECT_GT(fresh.video[size_t(land_row) * B + B / 2 + 1], 0);
}

TEST(VideoControl, AutoGainBringsTheNoiseFloorToItsLevel) {
  PolarFrame f(128, 256, 5000);
  std::mt19937 rng(3);
  for (auto& c : f.cells) c = uint8_t(20 + (rng() % 9));  // a noise floor of 24
  cpu::VideoState st;
  ThreadPool pool(1);
  VideoParams vp;
  vp.enabled = true;
  std::vector<uint8_t> sea;
  VideoSetup su = resolve_video(vp, f, VideoStats{}, sea);
  EXPECT_EQ(su.gain_q8, 256);  // no statistics yet: unity
  cpu::video_stage(pool, f, su, sea, st);
  const VideoStats stats = video_stats(sector_sums(st.row_stats, 128));
  EXPECT_NEAR(noise_floor(stats), 24.0, 0.6);
  su = resolve_video(vp, f, stats, sea);
  EXPECT_NEAR(su.gain_q8, 256.0 * kNoiseTarget / 24.0, 4);
  // The auto Sea level there is the margin times the gained mean.
  EXPECT_NEAR(sea[0], kSeaAutoMargin * kNoiseTarget, 2);
}

TEST(VideoControl, RefusesKnobsOutOfRangeNamingThem) {
  PolarFrame f(64, 64, 1000);
  std::vector<uint8_t> sea;
  for (float bad : {-1.0f, 101.0f, 1e30f}) {
    VideoParams vp;
    vp.sea = bad;
    try {
      resolve_video(vp, f, VideoStats{}, sea);
      FAIL() << "accepted sea " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("video.sea"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace sweepline::gpu
