// The IMO ARPA test scenarios and the sensor errors of the standard: the geometry of imo1..imo4,
// the statistics of the error model, and the plot-level generator agreeing with the video.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/common/check.hpp"
#include "app/sim/imo_plots.hpp"
#include "app/sim/own_ship.hpp"
#include "app/sim/scene.hpp"
#include "app/sim/sensor_errors.hpp"

namespace sweepline::sim {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;
constexpr double kKnot = 1852.0 / 3600.0;

double wrap180(double d) {
  d = std::fmod(d, 360.0);
  if (d < -180) d += 360;
  if (d >= 180) d -= 360;
  return d;
}

struct Stats {
  double n = 0, sum = 0, sum2 = 0;
  void add(double x) {
    ++n;
    sum += x;
    sum2 += x * x;
  }
  double mean() const { return sum / n; }
  double sigma() const { return std::sqrt(sum2 / n - mean() * mean()); }
};

TEST(SimImo, ScenariosAreListed) {
  const auto names = scenario_names();
  for (const char* n : {"imo1", "imo2", "imo3", "imo4"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  EXPECT_THROW(make_scenario("imo5"), sweepline::Error);
  EXPECT_THROW(make_scenario("imo"), sweepline::Error);
}

// A.823(19) Annex 2: own course/speed, target range/bearing and relative course/speed, met at
// the prediction time (kImoPredictionS).
TEST(SimImo, GeometryMatchesTheDefinition) {
  struct Def {
    const char* name;
    double own_kn, range_nm, bearing, rel_course, rel_kn;
  };
  const Def defs[] = {{"imo1", 10, 8, 0, 180, 20},
                      {"imo2", 10, 1, 0, 90, 10},
                      {"imo3", 5, 8, 45, 225, 20},
                      {"imo4", 25, 8, 45, 225, 20}};
  for (const Def& d : defs) {
    const Scenario s = make_scenario(d.name);
    EXPECT_TRUE(s.own.enabled);
    EXPECT_TRUE(s.errors.enabled);
    EXPECT_EQ(s.vessels.count, 0);
    EXPECT_GE(s.radar.range_nm, 9.5) << "the target starts at 9 NM at most";
    OwnShipTrack own(s.own);
    const auto targets = resolve_targets(s, own);
    ASSERT_EQ(targets.size(), 1u);
    const GroundTarget& g = targets[0];
    const OwnState o = own.at(kImoPredictionS);
    EXPECT_NEAR(o.course_deg, 0, 1e-12) << d.name;
    EXPECT_NEAR(o.speed_mps, d.own_kn * kKnot, 1e-12) << d.name;
    const double rx = g.x_at(kImoPredictionS) - o.x_m, ry = g.y_at(kImoPredictionS) - o.y_m;
    EXPECT_NEAR(std::hypot(rx, ry), d.range_nm * 1852, 1e-6) << d.name;
    EXPECT_NEAR(wrap180(std::atan2(rx, ry) / kDeg - d.bearing), 0, 1e-9) << d.name;
    const double rvx = g.vx_mps - o.vx_mps(), rvy = g.vy_mps - o.vy_mps();
    EXPECT_NEAR(std::hypot(rvx, rvy), d.rel_kn * kKnot, 1e-9) << d.name;
    EXPECT_NEAR(wrap180(std::atan2(rvx, rvy) / kDeg - d.rel_course), 0, 1e-9) << d.name;

    // The plot-level generator's truth agrees, scan by scan.
    const auto m = imo_measurements(s, 7, 200);
    // 200 s of 2.5 s scans; imo2's target crosses the bow clockwise at 3 min: the scan after the
    // crossing has no meeting of its own (its pass was at the end of the scan before).
    const bool crosses = std::string(d.name) == "imo2";
    ASSERT_EQ(m.size(), crosses ? 79u : 80u) << d.name;
    // The plot nearest the prediction time (imo2's crossing scan is the one without a plot).
    const auto it =
        std::min_element(m.begin(), m.end(), [](const ImoMeasurement& a, const ImoMeasurement& b) {
          return std::abs(a.t_s - kImoPredictionS) < std::abs(b.t_s - kImoPredictionS);
        });
    ASSERT_LT(std::abs(it->t_s - kImoPredictionS), 2.5) << d.name;
    const ImoMeasurement& at = *it;
    EXPECT_NEAR(at.rel_speed_mps, d.rel_kn * kKnot, 1e-9);
    EXPECT_NEAR(wrap180(at.rel_course_deg - d.rel_course), 0, 1e-9);
    EXPECT_NEAR(at.true_range_m, d.range_nm * 1852, 30) << "within the beam's offset in time";
  }
}

TEST(SimImo, CpaOfTheScenarios) {
  // imo1: head on, CPA 0 after 8 NM at 20 kn = 24 min; imo2: crossing ahead, CPA 1 NM now.
  const auto m1 = imo_measurements(make_scenario("imo1"), 1, 181);
  const ImoMeasurement& a = m1.back();
  EXPECT_NEAR(a.cpa_m, 0, 1e-6);
  EXPECT_NEAR(a.tcpa_s + (a.t_s - kImoPredictionS), 24 * 60, 1);
  const auto m2 = imo_measurements(make_scenario("imo2"), 1, 181);
  EXPECT_NEAR(m2.back().cpa_m, 1852, 1e-6);
}

TEST(SimImo, PlotsAreDeterministicPerSeed) {
  const Scenario s = make_scenario("imo3");
  const auto a = imo_measurements(s, 5, 60), b = imo_measurements(s, 5, 60);
  const auto c = imo_measurements(s, 6, 60);
  ASSERT_EQ(a.size(), b.size());
  int differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].range_m, b[i].range_m);
    EXPECT_EQ(a[i].rel_bearing_deg, b[i].rel_bearing_deg);
    EXPECT_EQ(a[i].nav_heading_deg, b[i].nav_heading_deg);
    differ += a[i].range_m != c[i].range_m;
  }
  EXPECT_GT(differ, int(a.size()) / 2);
}

TEST(SimImo, PlotsCarryTheErrors) {
  const Scenario s = make_scenario("imo3");
  Stats range, bearing, heading, speed, log;
  for (uint64_t seed = 0; seed < 40; ++seed)
    for (const ImoMeasurement& m : imo_measurements(s, seed, 100)) {
      range.add(m.range_m - m.true_range_m);
      bearing.add(wrap180(m.rel_bearing_deg - m.true_rel_bearing_deg));
      heading.add(wrap180(m.nav_heading_deg - m.own.heading_deg));
      speed.add(m.nav_sog_mps - m.own.speed_mps);
      log.add(m.nav_log_speed_mps - m.own.speed_mps);
      EXPECT_NEAR(m.nav_cog_deg, m.own.course_deg, 1e-9);
      // On the radar's grid.
      const double cell = m.range_m / s.radar.cell_m() - 0.5;
      EXPECT_NEAR(cell, std::round(cell), 1e-6);
    }
  // Target heading 225 at bearing ~045: the hull lies along the line of sight, so the glint's
  // 30 m along the hull is range: sqrt(20^2 + 30^2) = 36 m.
  EXPECT_NEAR(range.mean(), 0, 3);
  EXPECT_NEAR(range.sigma(), 36.1, 2.5);
  // Roll's mean error at 045 is -0.22 deg (towards the fore-and-aft line).
  EXPECT_NEAR(bearing.mean(), -0.218, 0.02);
  EXPECT_NEAR(heading.mean(), 0.5, 0.02);
  EXPECT_NEAR(heading.sigma(), 0.12, 0.015);
  // Speed over ground is the GNSS's (exact); the log's bias stays in the log's speed.
  EXPECT_NEAR(speed.mean(), 0, 1e-9);
  EXPECT_NEAR(speed.sigma(), 0, 1e-9);
  EXPECT_NEAR(log.mean(), 0.5 * kKnot, 0.01 * kKnot);
}

TEST(SimImo, OnePlotPerPassForATargetDeadAhead) {
  // imo1's target is dead ahead: its measured bearing jitters across 000, where the rotations
  // start. Each antenna pass still gives one plot, a period after the last (never two plots of
  // one pass, at both ends of a rotation, and then none).
  const Scenario s = make_scenario("imo1");
  const double period = s.radar.period_s();
  int across = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const auto ms = imo_measurements(s, seed, 120);
    for (size_t i = 1; i < ms.size(); ++i) {
      EXPECT_EQ(ms[i].scan, ms[i - 1].scan + 1);
      EXPECT_NEAR(ms[i].t_s - ms[i - 1].t_s, period, 0.01) << "seed " << seed << " scan " << i;
      across += (ms[i].rel_bearing_deg > 180) != (ms[i - 1].rel_bearing_deg > 180);
    }
  }
  EXPECT_GT(across, 50);  // the measured bearing did cross the bow, often
}

TEST(SimSensorErrors, OffMeansExact) {
  const SensorErrors e;  // disabled
  const TargetMeasurement m = measure_target(e, 1, 3, 7.5, 5000, 45, 10, 0);
  EXPECT_EQ(m.range_m, 5000);
  EXPECT_EQ(m.rel_bearing_deg, 45);
  const NavMeasurement n = measure_nav(e, 1, 7.5, 359.9, 12, 5);
  EXPECT_EQ(n.heading_deg, 359.9);
  EXPECT_EQ(n.sog_mps, 5);
  EXPECT_EQ(n.cog_deg, 12);
  EXPECT_EQ(n.log_speed_mps, 5);
}

TEST(SimSensorErrors, RadarStatistics) {
  const SensorErrors e = imo_sensor_errors();
  Stats r, b;
  double max_dev = 0;
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    // Dead ahead (no roll error), hull along the line of sight (glint along = range).
    const TargetMeasurement m = measure_target(e, 11, uint64_t(i), i * 2.5, 10000, 0, 0, 3);
    r.add(m.range_m - 10000);
    const double d = wrap180(m.rel_bearing_deg);
    b.add(d);
    max_dev = std::max(max_dev, std::abs(d));
    EXPECT_EQ(m.roll_error_deg, 0);
  }
  EXPECT_NEAR(r.mean(), 0, 4 * 36.06 / std::sqrt(n));
  EXPECT_NEAR(r.sigma(), std::sqrt(20.0 * 20 + 30 * 30), 0.03 * 36.06);
  // Beam 0.05, encoder 0.03, backlash +-0.05 rectangular, glint 1 m across at 10 km.
  const double across = std::atan2(1.0, 10000) / kDeg;
  const double sigma = std::sqrt(0.05 * 0.05 + 0.03 * 0.03 + 0.05 * 0.05 / 3 + across * across);
  EXPECT_NEAR(b.mean(), 0, 4 * sigma / std::sqrt(n));
  EXPECT_NEAR(b.sigma(), sigma, 0.03 * sigma);
  EXPECT_LT(max_dev, 6 * sigma);
  // The same call, the same draw; another target, another draw.
  const auto a1 = measure_target(e, 11, 5, 12.5, 10000, 30, 0, 3);
  const auto a2 = measure_target(e, 11, 5, 12.5, 10000, 30, 0, 3);
  const auto a3 = measure_target(e, 11, 5, 12.5, 10000, 30, 0, 4);
  EXPECT_EQ(a1.range_m, a2.range_m);
  EXPECT_EQ(a1.rel_bearing_deg, a2.rel_bearing_deg);
  EXPECT_NE(a1.range_m, a3.range_m);
}

TEST(SimSensorErrors, RollAsTheStandardStates) {
  // "For a 10 deg roll the mean error is 0.22 deg with a 0.22 deg peak sine wave superimposed",
  // most at 045/135/225/315, none at 0/90/180/270, at twice the roll frequency.
  const SensorErrors e = imo_sensor_errors();
  for (double b : {0.0, 90.0, 180.0, 270.0})
    EXPECT_NEAR(roll_bearing_error_deg(10, b), 0, 1e-12) << b;
  Stats s45;
  double lo = 1, hi = -1;
  for (int i = 0; i < 10000; ++i) {
    const double t = i * 0.001;  // one 10 s roll period
    const double err = roll_bearing_error_deg(roll_angle_deg(e, 3, t), 45);
    s45.add(err);
    lo = std::min(lo, err);
    hi = std::max(hi, err);
  }
  EXPECT_NEAR(s45.mean(), -0.22, 0.005);
  EXPECT_NEAR(hi - lo, 2 * 0.22, 0.01);
  EXPECT_NEAR(roll_bearing_error_deg(10, 135), -roll_bearing_error_deg(10, 45), 1e-12);
}

TEST(SimSensorErrors, GyroAndLogStatistics) {
  const SensorErrors e = imo_sensor_errors();
  Stats h, v;
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    const NavMeasurement m = measure_nav(e, 9, i * 1.0, 359.8, 47, 10 * kKnot);
    h.add(wrap180(m.heading_deg - 359.8));
    v.add((m.log_speed_mps - 10 * kKnot) / kKnot);
    EXPECT_EQ(m.sog_mps, 10 * kKnot);
    EXPECT_EQ(m.cog_deg, 47);
  }
  EXPECT_NEAR(h.mean(), 0.5, 4 * 0.12 / std::sqrt(n));
  EXPECT_NEAR(h.sigma(), 0.12, 0.004);
  EXPECT_NEAR(v.mean(), 0.5, 4 * 0.0667 / std::sqrt(n));
  EXPECT_NEAR(v.sigma(), 0.2 / 3, 0.003);
}

// The video draws the target where the plot-level generator measures it (same seed, scan).
TEST(SimImo, VideoEchoAtTheMeasuredPosition) {
  Scenario s = make_scenario("imo3");
  s.seed = 21;
  s.targets[0].length_m = 10;  // a point-like echo whose centre is easy to find
  s.clutter.enabled = false;
  Scene scene(s);
  OwnShipTrack own(s.own);
  const auto targets = resolve_targets(s, own);
  std::vector<uint8_t> video;
  for (uint64_t rot : {0u, 13u, 40u}) {
    scene.seek(rot);
    scene.render_rotation(video);
    const TargetScan o = observe_target(s, s.seed, own, targets[0], rot);
    double sw = 0, sa = 0, sr = 0;
    const int cells = s.radar.cells;
    for (int a = 0; a < s.radar.radials; ++a)
      for (int c = 0; c < cells; ++c) {
        const double p = video[size_t(a) * size_t(cells) + size_t(c)];
        if (p < 120) continue;
        sw += p;
        sa += p * (a + 0.5);
        sr += p * (c + 0.5);
      }
    ASSERT_GT(sw, 0);
    EXPECT_NEAR(sa / sw * s.radar.radial_deg(), o.measured.rel_bearing_deg, 0.05) << rot;
    EXPECT_NEAR(sr / sw * s.radar.cell_m(), o.measured.range_m, 1.5 * s.radar.cell_m()) << rot;
    // ... which differs from the truth by the errors.
    EXPECT_NE(o.measured.range_m, o.true_range_m);
  }
}

}  // namespace
}  // namespace sweepline::sim
