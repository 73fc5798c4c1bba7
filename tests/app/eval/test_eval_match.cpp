// The scorecard's matcher and numbers on hand-made plots and truth.
#include <gtest/gtest.h>

#include <cmath>

#include "app/eval/match.hpp"
#include "app/eval/scorecard.hpp"

namespace sweepline::eval {
namespace {

sim::VesselTruth vessel(double range_m, double bearing_deg, double length_m = 20,
                        double scr_db = 20, int id = 0) {
  sim::VesselTruth t;
  t.id = id;
  t.range_m = range_m;
  t.bearing_deg = bearing_deg;
  t.length_m = length_m;
  t.scr_db = scr_db;
  return t;
}

Detection det(double range_m, double bearing_deg) {
  return {range_m, bearing_deg, 10, 200};
}

TEST(EvalMatch, BearingDifferenceWrapsAtNorth) {
  EXPECT_DOUBLE_EQ(bearing_diff(359.5, 0.5), -1.0);
  EXPECT_DOUBLE_EQ(bearing_diff(0.5, 359.5), 1.0);
  EXPECT_DOUBLE_EQ(bearing_diff(10, 350), 20.0);
  EXPECT_DOUBLE_EQ(bearing_diff(180, 0), -180.0);  // [-180, 180)
  EXPECT_DOUBLE_EQ(bearing_diff(720.25, 0), 0.25);
}

TEST(EvalMatch, MatchesAcrossNorth) {
  const auto m = match_rotation({det(5000, 359.2)}, {vessel(5010, 0.6)});
  ASSERT_EQ(m.pairs.size(), 1u);
  EXPECT_NEAR(m.pairs[0].bearing_error_deg, -1.4, 1e-9);
  EXPECT_NEAR(m.pairs[0].range_error_m, -10, 1e-9);
  EXPECT_TRUE(m.unmatched_detections.empty());
  EXPECT_TRUE(m.missed_vessels.empty());
}

TEST(EvalMatch, Gates) {
  // Range gate: max(60 m, hull length); bearing gate: 2 deg; both inclusive.
  const std::vector<sim::VesselTruth> truth = {vessel(3000, 90, 20), vessel(9000, 200, 150)};
  EXPECT_EQ(match_rotation({det(3060, 90)}, truth).pairs.size(), 1u);
  EXPECT_EQ(match_rotation({det(3061, 90)}, truth).pairs.size(), 0u);
  EXPECT_EQ(match_rotation({det(3000, 92)}, truth).pairs.size(), 1u);
  EXPECT_EQ(match_rotation({det(3000, 92.01)}, truth).pairs.size(), 0u);
  // A long hull widens its range gate to its length.
  EXPECT_EQ(match_rotation({det(8855, 200)}, truth).pairs.size(), 1u);
  EXPECT_EQ(match_rotation({det(8849, 200)}, truth).pairs.size(), 0u);
  // Custom gates.
  MatchGates tight;
  tight.min_range_m = 10;
  tight.bearing_deg = 0.5;
  EXPECT_EQ(match_rotation({det(3015, 90)}, truth, tight).pairs.size(), 1u);  // hull 20 m
  EXPECT_EQ(match_rotation({det(3000, 90.6)}, truth, tight).pairs.size(), 0u);
}

TEST(EvalMatch, OneToOneClosestFirst) {
  // Two plots near one vessel: the closer one (in gate units) takes it, the other is unmatched.
  {
    const auto m = match_rotation({det(4040, 45), det(4005, 45.1)}, {vessel(4000, 45)});
    ASSERT_EQ(m.pairs.size(), 1u);
    EXPECT_EQ(m.pairs[0].detection, 1);
    EXPECT_EQ(m.unmatched_detections, std::vector<int>{0});
    EXPECT_TRUE(m.missed_vessels.empty());
  }
  // One plot between two vessels: it takes the closer one, the other vessel is missed.
  {
    const auto m = match_rotation({det(6000, 10)}, {vessel(6050, 10), vessel(5980, 10.2)});
    ASSERT_EQ(m.pairs.size(), 1u);
    EXPECT_EQ(m.pairs[0].vessel, 1);
    EXPECT_EQ(m.missed_vessels, std::vector<int>{0});
  }
  // Greedy by cost: plot A is closest to vessel 0, plot B can only take vessel 1.
  {
    const auto m =
        match_rotation({det(7000, 30), det(7050, 30)}, {vessel(7010, 30), vessel(7055, 30.5)});
    ASSERT_EQ(m.pairs.size(), 2u);
    for (const auto& p : m.pairs) EXPECT_EQ(p.detection, p.vessel);
  }
  // Nothing at all.
  const auto m = match_rotation({}, {});
  EXPECT_TRUE(m.pairs.empty());
}

TEST(EvalMatch, DetectionsFromPlotsElseComponents) {
  gpu::FrameResult r;
  ccl::Component c;
  c.range_m = 100;
  c.bearing_deg = 5;
  c.area = 7;
  r.components.push_back(c);
  DetectionKind kind = DetectionKind::Plots;
  auto d = detections(r, &kind);
  EXPECT_EQ(kind, DetectionKind::Components);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].range_m, 100);
  EXPECT_EQ(d[0].area_px, 7);
  gpu::Plot p;
  p.range_m = 200;
  p.bearing_deg = 6;
  r.plots = {p, p};
  d = detections(r, &kind);
  EXPECT_EQ(kind, DetectionKind::Plots);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[1].range_m, 200);
}

TEST(EvalScore, Percentiles) {
  EXPECT_TRUE(std::isnan(percentile({}, 50)));
  EXPECT_DOUBLE_EQ(percentile({7}, 95), 7);
  EXPECT_DOUBLE_EQ(percentile({3, 1, 2}, 50), 2);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4}, 50), 2.5);
  // numpy: percentile(arange(1, 21), 95) = 19.05
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  EXPECT_NEAR(percentile(v, 95), 19.05, 1e-12);
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 20);
}

// A tiny case worked by hand: two rotations of four vessels (one below 10 dB).
TEST(EvalScore, SceneNumbers) {
  const std::vector<sim::VesselTruth> truth = {vessel(1000, 10, 20, 25), vessel(2000, 20, 20, 15),
                                               vessel(3000, 30, 20, 12), vessel(4000, 40, 20, 5)};
  // Rotation 0: all four found (errors 10, -20, 30, 40 m; 0.1, -0.2, 0.3, 0.4 deg), 2 false plots.
  const std::vector<Detection> d0 = {det(1010, 10.1), det(1980, 19.8), det(3030, 30.3),
                                     det(4040, 40.4), det(8000, 100),  det(9000, 200)};
  // Rotation 1: the weak vessel and one detectable one missed; errors 0 m, 0 deg; no false plot.
  const std::vector<Detection> d1 = {det(1000, 10), det(2000, 20)};
  const auto r0 = score_rotation(0, match_rotation(d0, truth), truth, int(d0.size()));
  const auto r1 = score_rotation(1, match_rotation(d1, truth), truth, int(d1.size()));
  EXPECT_EQ(r0.found, 4);
  EXPECT_EQ(r0.detectable, 3);
  EXPECT_EQ(r0.detectable_found, 3);
  EXPECT_EQ(r0.unmatched, 2);
  EXPECT_EQ(r1.found, 2);
  EXPECT_EQ(r1.detectable_found, 2);
  EXPECT_EQ(r1.unmatched, 0);

  sim::RadarConfig radar;  // beamwidth 1.2 deg, pulse 30 m
  const SceneScore s = score_scene({r0, r1}, radar);
  EXPECT_EQ(s.rotations, 2);
  EXPECT_EQ(s.vessels, 8);
  EXPECT_EQ(s.found, 6);
  EXPECT_DOUBLE_EQ(s.found_pct, 75);
  EXPECT_DOUBLE_EQ(s.worst_found_pct, 50);
  EXPECT_EQ(s.detectable, 6);
  EXPECT_EQ(s.detectable_found, 5);
  EXPECT_NEAR(s.detectable_pct, 500.0 / 6, 1e-12);
  EXPECT_NEAR(s.worst_detectable_pct, 200.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(s.unmatched_mean, 1);
  EXPECT_EQ(s.unmatched_max, 2);
  EXPECT_EQ(s.pairs, 6);
  // |range errors| 0, 0, 10, 20, 30, 40: median 15, p95 = 30 + 0.75 x 10 = 37.5.
  EXPECT_NEAR(s.range_error_median_m, 15, 1e-9);
  EXPECT_NEAR(s.range_error_p95_m, 37.5, 1e-9);
  EXPECT_NEAR(s.bearing_error_median_deg, 0.15, 1e-9);
  EXPECT_NEAR(s.bearing_error_p95_deg, 0.375, 1e-9);
  // Targets: detectable every rotation (66.7 < 99) fails, all found (75 < 90) fails, unmatched
  // (2 <= 5) passes, range (15 <= 30 m) passes, bearing (0.15 <= 0.6 deg) passes.
  ASSERT_EQ(s.targets.size(), 5u);
  EXPECT_FALSE(s.targets[0].pass);
  EXPECT_FALSE(s.targets[1].pass);
  EXPECT_TRUE(s.targets[2].pass);
  EXPECT_TRUE(s.targets[3].pass);
  EXPECT_DOUBLE_EQ(s.targets[3].limit, 30);
  EXPECT_TRUE(s.targets[4].pass);
  EXPECT_DOUBLE_EQ(s.targets[4].limit, 0.6);
  EXPECT_FALSE(s.pass);

  // Only rotation 0: every target passes.
  EXPECT_TRUE(score_scene({r0}, radar).pass);
  // No rotations at all is no pass; no matched pairs leaves the errors unmeasured (NaN), failing.
  EXPECT_FALSE(score_scene({}, radar).pass);
  const auto none = score_rotation(0, match_rotation({}, truth), truth, 0);
  const SceneScore empty = score_scene({none}, radar);
  EXPECT_TRUE(std::isnan(empty.range_error_median_m));
  EXPECT_FALSE(empty.targets[3].pass);
  EXPECT_DOUBLE_EQ(empty.found_pct, 0);
}

}  // namespace
}  // namespace sweepline::eval
