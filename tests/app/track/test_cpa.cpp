#include <gtest/gtest.h>

#include <cmath>

#include "app/track/cpa.hpp"

using sweepline::track::compute_cpa;

TEST(TrackCpa, HeadOn) {
  // Own north at 5 m/s, target 1 km ahead coming south at 5 m/s: meet in 100 s.
  const auto c = compute_cpa(0, 0, 0, 5, 0, 1000, 0, -5);
  EXPECT_NEAR(c.cpa_m, 0.0, 1e-9);
  EXPECT_NEAR(c.tcpa_s, 100.0, 1e-9);
  EXPECT_TRUE(c.moving);
}

TEST(TrackCpa, Crossing) {
  // Relative position (1000, 500), relative velocity (-10, -10): tcpa = 15000 / 200 = 75 s,
  // then relative position (250, -250).
  const auto c = compute_cpa(0, 0, 0, 10, 1000, 500, -10, 0);
  EXPECT_NEAR(c.tcpa_s, 75.0, 1e-9);
  EXPECT_NEAR(c.cpa_m, std::hypot(250.0, 250.0), 1e-9);
}

TEST(TrackCpa, ParallelSlower) {
  // Abeam 300 m to starboard, slower: closest now, then opening.
  const auto c = compute_cpa(0, 0, 0, 10, 300, 0, 0, 5);
  EXPECT_NEAR(c.tcpa_s, 0.0, 1e-9);
  EXPECT_NEAR(c.cpa_m, 300.0, 1e-9);
}

TEST(TrackCpa, DivergingIsInThePast) {
  // Target ahead pulling away: the closest point was 100 s ago, at zero distance.
  const auto c = compute_cpa(0, 0, 0, 10, 0, 1000, 0, 20);
  EXPECT_NEAR(c.tcpa_s, -100.0, 1e-9);
  EXPECT_NEAR(c.cpa_m, 0.0, 1e-9);
}

TEST(TrackCpa, NoRelativeMotion) {
  const auto c = compute_cpa(10, 20, 3, 4, 310, 420, 3, 4);
  EXPECT_FALSE(c.moving);
  EXPECT_NEAR(c.cpa_m, 500.0, 1e-9);
  EXPECT_EQ(c.tcpa_s, 0.0);
}

TEST(TrackCpa, OffsetOwnShip) {
  // The same crossing as above, everything shifted and moving together with a current.
  const auto c = compute_cpa(5000, -3000, 2, 12, 6000, -2500, -8, 2);
  EXPECT_NEAR(c.tcpa_s, 75.0, 1e-9);
  EXPECT_NEAR(c.cpa_m, std::hypot(250.0, 250.0), 1e-9);
}
