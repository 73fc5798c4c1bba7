// Plot extraction: extents from a component's box as the radar sees it, the filters against the
// beam and pulse, sweep times, and the scan-to-scan correlation (a plot needs an echo within a
// vessel's reach on the previous sweep of its azimuth, or a plot on the sweep before that).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "app/common/check.hpp"
#include "gpu/plot_extractor.hpp"

namespace sweepline::gpu {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A display of 1000 x 1000 px, 10 m each, the radar in the middle.
DisplayGeometry geometry() {
  DisplayGeometry g;
  g.metres_per_pixel = 10;
  g.radar_x = 500;
  g.radar_y = 500;
  return g;
}

// A component of w x h pixels whose box starts at (x, y), its centroid in the box's middle.
ccl::Component box(int label, int x, int y, int w, int h) {
  const DisplayGeometry g = geometry();
  ccl::Component c;
  c.label = label;
  c.xmin = x;
  c.xmax = x + w - 1;
  c.ymin = y;
  c.ymax = y + h - 1;
  c.area = int64_t(w) * h;
  c.cx = x + 0.5 * w;
  c.cy = y + 0.5 * h;
  const double e = (c.cx - g.radar_x) * g.metres_per_pixel;
  const double n = (g.radar_y - c.cy) * g.metres_per_pixel;
  c.range_m = std::hypot(e, n);
  c.bearing_deg = std::atan2(e, n) * 180 / kPi;
  c.peak = 200;
  return c;
}

PolarFrame timed_frame(int rotation, double period_s) {
  PolarFrame f(360, 16, 5000);
  f.row_time_s.resize(360);
  for (int a = 0; a < 360; ++a) f.row_time_s[size_t(a)] = (rotation + (a + 0.5) / 360) * period_s;
  f.rotation = uint64_t(rotation);
  return f;
}

TEST(PlotExtractor, ExtentOfABoxDueNorth) {
  // 4 x 6 px due north from 2000 to 2060 m (40 m wide: 1.15 deg at 2 km, its near edge).
  const PolarExtent x = polar_extent(box(1, 498, 294, 4, 6), geometry());
  EXPECT_NEAR(x.range_min_m, 2000, 1e-6);
  EXPECT_NEAR(x.range_max_m, std::hypot(20.0, 2060.0), 1e-6);
  EXPECT_NEAR(x.azimuth_deg, 2 * std::atan2(20.0, 2000.0) * 180 / kPi, 1e-9);
  const PolarExtent around = polar_extent(box(1, 495, 495, 10, 10), geometry());
  EXPECT_EQ(around.azimuth_deg, 360);
  EXPECT_EQ(around.range_min_m, 0);
}

TEST(PlotExtractor, FiltersBySizeAgainstBeamAndPulse) {
  PlotParams p;
  p.confirm_scans = 1;
  p.beamwidth_deg = 1.2;
  p.pulse_m = 30;
  p.max_target_m = 300;
  PlotExtractor ex;
  const std::vector<ccl::Component> comps = {
      box(1, 480, 290, 4, 6),     // a vessel 2 km north: kept
      box(2, 700, 500, 1, 1),     // one pixel 2 km east: narrower than half the beam at 2 km
      box(3, 100, 100, 300, 80),  // land: far larger than any target
      box(4, 496, 496, 8, 8),     // small, but round the radar: own ship and the main bang
  };
  const std::vector<Plot> plots = ex.extract(comps, geometry(), timed_frame(0, 2.5), p);
  ASSERT_EQ(plots.size(), 1u);
  EXPECT_EQ(plots[0].label, 1);
  EXPECT_NEAR(plots[0].range_m, comps[0].range_m, 1e-9);
  // Its time is the sweep of its bearing's row.
  const int row = int(plots[0].bearing_deg);
  EXPECT_NEAR(plots[0].time_s, (row + 0.5) / 360 * 2.5, 1e-9);
}

TEST(PlotExtractor, AnEchoAcrossNorthTakesItsEastHalfsTime) {
  // In a frame of one whole rotation, the echo's west half was swept a period after its east
  // half; whichever side its centroid falls, the plot is timed by row 0, once a rotation.
  PlotParams p;
  p.confirm_scans = 1;
  PlotExtractor ex;
  for (int west = 0; west < 2; ++west) {
    const std::vector<ccl::Component> comps = {box(1, 494 + 2 * (1 - west), 290, 10, 6)};
    const std::vector<Plot> plots = ex.extract(comps, geometry(), timed_frame(3, 2.5), p);
    ASSERT_EQ(plots.size(), 1u);
    EXPECT_EQ(plots[0].bearing_deg > 180, west == 1) << plots[0].bearing_deg;
    EXPECT_NEAR(plots[0].time_s, (3 + 0.5 / 360) * 2.5, 1e-9);
  }
}

TEST(PlotExtractor, ConfirmsOnlyEchoesTheLastSweepSaw) {
  PlotParams p;  // confirm_scans = 2
  PlotExtractor ex;
  const double period = 2.5;
  // Sweep 0: a vessel and a clutter spike. Nothing is confirmed yet.
  auto vessel = [](int k) { return box(1, 480 + k, 290, 4, 6); };  // 10 m a sweep east
  std::vector<Plot> out =
      ex.extract({vessel(0), box(2, 300, 700, 3, 5)}, geometry(), timed_frame(0, period), p);
  EXPECT_TRUE(out.empty());
  // Sweep 1: the vessel moved 10 m; the spike is gone and another one appeared far away.
  out = ex.extract({vessel(1), box(2, 650, 650, 3, 5)}, geometry(), timed_frame(1, period), p);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].label, 1);
  // The same frame handed again (a display frame with no new rows) changes nothing.
  out = ex.extract({vessel(1), box(2, 650, 650, 3, 5)}, geometry(), timed_frame(1, period), p);
  ASSERT_EQ(out.size(), 1u);
  // Sweep 2: an echo 2 km from anything seen before is beyond a 25 m/s target's reach.
  out = ex.extract({vessel(2), box(2, 480, 700, 4, 6)}, geometry(), timed_frame(2, period), p);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].label, 1);
  EXPECT_NEAR(ex.period_s(), period, 1e-9);
}

TEST(PlotExtractor, APlotThatFadedForOneSweepIsContinued) {
  PlotParams p;  // confirm_scans = 2
  PlotExtractor ex;
  const double period = 2.5;
  auto vessel = [](int k) { return box(1, 480 + k, 290, 4, 6); };  // 10 m a sweep east
  const ccl::Component spike = box(2, 300, 700, 3, 5);
  EXPECT_TRUE(ex.extract({vessel(0)}, geometry(), timed_frame(0, period), p).empty());
  // Sweep 1: the vessel is a plot; a lone spike appears (nothing there the sweep before).
  std::vector<Plot> out = ex.extract({vessel(1), spike}, geometry(), timed_frame(1, period), p);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].label, 1);
  // Sweep 2: the vessel's echo is under the threshold, the spike gone.
  EXPECT_TRUE(ex.extract({}, geometry(), timed_frame(2, period), p).empty());
  // Sweep 3: the vessel is back, 20 m on from its plot two sweeps ago: continued. The spike
  // comes back at its old place, but it was never a plot.
  out = ex.extract({vessel(3), spike}, geometry(), timed_frame(3, period), p);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].label, 1);
  // Two sweeps without it (4 and 5): at sweep 6 its last plot is three sweeps old.
  EXPECT_TRUE(ex.extract({}, geometry(), timed_frame(4, period), p).empty());
  EXPECT_TRUE(ex.extract({}, geometry(), timed_frame(5, period), p).empty());
  EXPECT_TRUE(ex.extract({vessel(6)}, geometry(), timed_frame(6, period), p).empty());
}

TEST(PlotExtractor, NearLandAPlotIsNotContinuedThroughAFadedSweep) {
  PlotParams p;  // confirm_scans = 2
  PlotExtractor ex;
  const double period = 2.5;
  // Land everywhere, known: every echo is near land.
  const int per_row = land_words_per_row(16);
  std::vector<uint32_t> words(size_t(360) * size_t(per_row), ~uint32_t(0));
  std::vector<uint8_t> age(360, 255);
  const LandView land{words.data(), age.data(), 360, 16, per_row};
  auto vessel = [](int k) { return box(1, 480 + k, 290, 4, 6); };
  EXPECT_TRUE(ex.extract({vessel(0)}, geometry(), timed_frame(0, period), p, &land).empty());
  std::vector<Plot> out = ex.extract({vessel(1)}, geometry(), timed_frame(1, period), p, &land);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].near_land);
  EXPECT_TRUE(ex.extract({}, geometry(), timed_frame(2, period), p, &land).empty());
  EXPECT_TRUE(ex.extract({vessel(3)}, geometry(), timed_frame(3, period), p, &land).empty());
  // The same echoes at sea are continued.
  PlotExtractor sea;
  EXPECT_TRUE(sea.extract({vessel(0)}, geometry(), timed_frame(0, period), p).empty());
  EXPECT_EQ(sea.extract({vessel(1)}, geometry(), timed_frame(1, period), p).size(), 1u);
  EXPECT_TRUE(sea.extract({}, geometry(), timed_frame(2, period), p).empty());
  EXPECT_EQ(sea.extract({vessel(3)}, geometry(), timed_frame(3, period), p).size(), 1u);
}

TEST(PlotExtractor, WithoutTimesTheSweepCountIsTheClock) {
  PlotParams p;
  PlotExtractor ex;
  PolarFrame f(360, 16, 5000);  // no row times
  f.sweep_azimuth_deg = 359.9;
  for (int k = 0; k < 3; ++k) {
    f.rotation = uint64_t(k + 1);
    const std::vector<Plot> out = ex.extract({box(1, 480, 290, 4, 6)}, geometry(), f, p);
    EXPECT_EQ(out.size(), k == 0 ? 0u : 1u) << "sweep " << k;
  }
}

TEST(PlotExtractor, RefusesBadParametersNamingThem) {
  PlotParams p;
  p.pulse_m = -3;
  try {
    validate(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("plot.pulse_m"), std::string::npos);
  }
  p = PlotParams{};
  p.confirm_scans = 3;
  EXPECT_THROW(validate(p), Error);
}

}  // namespace
}  // namespace sweepline::gpu

namespace sweepline::gpu {
namespace {

// The scan-to-scan rule written out over a plain list of every remembered echo (what
// gpu/plot_extractor.cpp does through a grid): the same plots confirmed frame after frame, on
// hundreds of moving vessels and random spikes, frames handed twice included.
TEST(PlotExtractor, CorrelationMatchesAPlainListOfEchoes) {
  const double kDegree = 180.0 / kPi;  // as the extractor converts
  const double kLo = 0.5, kHi = 1.5, kSameT = 1e-6, kSameM = 1.0, kPeriod = 2.5;
  PlotParams p;  // confirm_scans = 2
  PlotParams every = p;
  every.confirm_scans = 1;  // the same plots before the correlation
  PlotExtractor ex, ex_every;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> pos(60, 930), step(-1, 1);
  std::vector<std::pair<int, int>> vessels(200);
  for (auto& v : vessels) v = {pos(rng), pos(rng)};
  struct Echo {
    double t, x, y;
    bool plotted;
  };
  std::vector<Echo> remembered;
  int confirmed_total = 0;
  for (int k = 0, frame = 0; k < 10; ++k) {
    std::vector<ccl::Component> comps;
    int label = 0;
    for (auto& v : vessels) {
      v.first += step(rng);
      v.second += step(rng);
      comps.push_back(box(++label, v.first, v.second, 6, 6));
    }
    for (int s = 0; s < 300; ++s) comps.push_back(box(++label, pos(rng), pos(rng), 6, 6));
    for (int again = 0; again < (k % 3 == 2 ? 2 : 1); ++again, ++frame) {
      const PolarFrame f = timed_frame(k, kPeriod);
      const std::vector<Plot> all = ex_every.extract(comps, geometry(), f, every);
      const std::vector<Plot> got = ex.extract(comps, geometry(), f, p);
      const double sweep_s = ex_every.period_s() > 0 ? ex_every.period_s() : kPeriod;
      std::vector<int> want;
      std::vector<Echo> seen;
      double latest = 0;
      for (const Plot& pl : all) {
        const double b = pl.bearing_deg / kDegree;
        const double x = pl.range_m * std::sin(b), y = pl.range_m * std::cos(b);
        seen.push_back({pl.time_s, x, y, false});
        latest = std::max(latest, pl.time_s);
        const double slack = std::max(p.pulse_m, pl.range_m * (p.beamwidth_deg / kDegree));
        for (const Echo& h : remembered) {
          const double dt = pl.time_s - h.t;
          // The previous sweep's echoes, or the plots of the sweep before (no land here).
          if (dt < kLo * sweep_s || dt > (kHi + 1) * sweep_s) continue;
          if (dt > kHi * sweep_s && !h.plotted) continue;
          if (std::hypot(x - h.x, y - h.y) <= p.max_speed_mps * dt / sweep_s * sweep_s + slack) {
            want.push_back(pl.label);
            seen.back().plotted = true;
            break;
          }
        }
      }
      for (const Echo& s : seen) {
        bool dup = false;
        for (Echo& h : remembered)
          if (std::abs(h.t - s.t) < kSameT && std::hypot(h.x - s.x, h.y - s.y) < kSameM) {
            dup = true;
            h.plotted = h.plotted || s.plotted;
          }
        if (!dup) remembered.push_back(s);
      }
      std::erase_if(remembered, [&](const Echo& h) { return h.t < latest - 3 * sweep_s; });
      std::vector<int> got_labels;
      for (const Plot& pl : got) got_labels.push_back(pl.label);
      EXPECT_EQ(got_labels, want) << "frame " << frame;
      confirmed_total += int(want.size());
    }
  }
  EXPECT_GT(confirmed_total, 1000) << "too few confirmations to compare";
}

}  // namespace
}  // namespace sweepline::gpu
