// The truth's signal-to-clutter ratio: the vessel's rendered peak over the mean amplitude of the
// noise, clutter and rain where it is, from the scene's own tables.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/sim/scene.hpp"

namespace sweepline::sim {
namespace {

std::vector<VesselTruth> truth_of(const Scenario& s, uint64_t rotation = 0) {
  Scene scene(s);
  scene.seek(rotation);
  return scene.truth();
}

TEST(SimScr, NoiseOnlyIsPeakOverNoiseMean) {
  Scenario s = make_scenario("vessels50");  // noise only, mean amplitude 10
  s.seed = 5;
  const auto t = truth_of(s, 2);
  ASSERT_EQ(t.size(), 50u);
  // Peak = strength (200..255) x scintillation (0.85..1) x hull (0.8..1), at most 255.
  const double lo = 20 * std::log10(200 * 0.85 * 0.8 / 10), hi = 20 * std::log10(255.0 / 10);
  for (const auto& v : t) {
    EXPECT_GE(v.scr_db, lo - 1e-6) << "vessel " << v.id;
    EXPECT_LE(v.scr_db, hi + 1e-6) << "vessel " << v.id;
  }
  // Twice the noise amplitude: every vessel loses exactly 6.02 dB (the scene moves the same).
  s.noise.mean = 20;
  const auto t2 = truth_of(s, 2);
  ASSERT_EQ(t2.size(), t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    EXPECT_DOUBLE_EQ(t2[i].range_m, t[i].range_m);
    EXPECT_NEAR(t[i].scr_db - t2[i].scr_db, 20 * std::log10(2.0), 1e-9) << "vessel " << t[i].id;
  }
}

TEST(SimScr, FallsWhenTheClutterRises) {
  Scenario s = make_scenario("harbour");
  s.seed = 7;
  s.clutter.level = 40;
  const auto low = truth_of(s);
  s.clutter.level = 120;
  const auto high = truth_of(s);
  ASSERT_EQ(low.size(), high.size());
  int lower = 0;
  double sum_low = 0, sum_high = 0;
  for (size_t i = 0; i < low.size(); ++i) {
    EXPECT_LE(high[i].scr_db, low[i].scr_db + 1e-9) << "vessel " << low[i].id;
    lower += high[i].scr_db < low[i].scr_db - 0.1;
    sum_low += low[i].scr_db;
    sum_high += high[i].scr_db;
  }
  // Clutter dominates near the radar, so some vessels lose several dB and the mean falls.
  EXPECT_GT(lower, 5);
  EXPECT_GT(sum_low - sum_high, 0.5 * double(low.size()));
  // With the clutter off, only noise and rain remain: no vessel is below the noise-only ratio of
  // the weakest possible echo over the noise plus the strongest rain.
  s.clutter.enabled = false;
  for (const auto& v : truth_of(s)) {
    EXPECT_GE(v.scr_db, 20 * std::log10(170 * 0.85 * 0.8 / std::hypot(12.0, 3 * 38.0)))
        << "vessel " << v.id;
  }
}

TEST(SimScr, NearRangeVesselsInClutterBelowFarOnes) {
  Scenario s = make_scenario("harbour");
  s.seed = 3;
  s.rain.enabled = false;
  s.coast.enabled = false;
  s.clutter.ref_range_m = 3000;  // a wide flat zone, so that enough vessels are inside it
  s.vessels.count = 500;
  const auto t = truth_of(s);
  double near_max = -1e9, far_min = 1e9;
  int near = 0, far = 0;
  for (const auto& v : t) {
    if (v.range_m < 3000) {
      near_max = std::max(near_max, v.scr_db);
      ++near;
    } else if (v.range_m > 18000) {
      far_min = std::min(far_min, v.scr_db);
      ++far;
    }
  }
  ASSERT_GT(near, 0);
  ASSERT_GT(far, 0);
  EXPECT_LT(near_max, far_min);
  // In the flat zone the clutter's amplitude is 48..112 (up/downwind), so even a 255 echo is at
  // most 14.2 dB above it; beyond 18 km noise dominates and the weakest echo is still ~18 dB up.
  EXPECT_LT(near_max, 14.3);
  EXPECT_GT(far_min, 17.0);
}

TEST(SimScr, InTheTruthLine) {
  Scenario s = make_scenario("open-sea");
  const auto t = truth_of(s);
  ASSERT_FALSE(t.empty());
  const auto j = nlohmann::json::parse(truth_json(t[0]));
  EXPECT_NEAR(j.at("scr_db").get<double>(), t[0].scr_db, 0.006);
  // The earlier keys are all still there, so older readers keep working.
  for (const char* k : {"rotation", "id", "range_m", "bearing_deg", "x_m", "y_m", "length_m",
                        "heading_deg", "speed_mps"})
    EXPECT_TRUE(j.contains(k)) << k;
  // A silent background is one video level: the ratio stays finite.
  Scenario quiet = make_scenario("vessels50");
  quiet.noise.enabled = false;
  for (const auto& v : truth_of(quiet)) {
    EXPECT_TRUE(std::isfinite(v.scr_db));
    EXPECT_LE(v.scr_db, 20 * std::log10(255.0) + 1e-9);
  }
}

}  // namespace
}  // namespace sweepline::sim
