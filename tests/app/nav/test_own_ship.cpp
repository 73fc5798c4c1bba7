// The own-ship estimate: position in the local plane, extrapolation, staleness and the warnings
// that tell the tracker to stay relative.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "app/nav/nmea_parser.hpp"
#include "app/nav/nmea_writer.hpp"
#include "app/nav/own_ship.hpp"

namespace sweepline::nav {
namespace {

constexpr double kMpsPerKnot = 1852.0 / 3600.0;
constexpr double kDeg = std::numbers::pi / 180.0;

// Feeds what a receiver would send for `f` (through the writer and the parser) at time t.
void feed(OwnShipEstimator& est, const NavFix& f, double t) {
  NmeaParser parser;
  parser.parse_buffer(format_nav_update(f), [&](const NmeaSentence& s) { est.update(s, t); });
  ASSERT_EQ(parser.counters().refused_total(), 0u);
}

NavFix fix_at(double lat, double lon, double sog_kn, double cog_deg) {
  NavFix f;
  f.lat_deg = lat;
  f.lon_deg = lon;
  f.sog_kn = sog_kn;
  f.cog_deg = cog_deg;
  return f;
}

TEST(OwnShip, NothingReceivedIsInvalidWithAWarning) {
  const OwnShipEstimator est;
  const OwnShipState s = est.state(100);
  EXPECT_FALSE(s.valid);
  EXPECT_FALSE(s.heading_valid);
  EXPECT_NE(s.warning.find("no position received"), std::string::npos) << s.warning;
  EXPECT_EQ(est.plane(), nullptr);
}

TEST(OwnShip, FirstFixIsTheOriginAndHeadingComesFromTheSensor) {
  OwnShipEstimator est;
  NavFix f = fix_at(54.3, 10.1, 12.0, 45.0);
  f.has_heading = true;
  f.heading_deg = 40.0;
  feed(est, f, 1000.0);
  const OwnShipState s = est.state(1000.0);
  EXPECT_TRUE(s.valid);
  EXPECT_TRUE(s.heading_valid);
  EXPECT_FALSE(s.heading_from_cog);
  EXPECT_TRUE(s.warning.empty()) << s.warning;
  EXPECT_NEAR(s.x_m, 0, 1e-6);
  EXPECT_NEAR(s.y_m, 0, 1e-6);
  EXPECT_NEAR(s.speed_mps, 12 * kMpsPerKnot, 1e-9);
  EXPECT_NEAR(s.course_deg, 45, 1e-9);
  EXPECT_NEAR(s.heading_deg, 40, 1e-9);
  EXPECT_NEAR(s.vx_mps, 12 * kMpsPerKnot * std::sin(45 * kDeg), 1e-9);
  EXPECT_NEAR(est.plane()->origin_lat_deg(), 54.3, 1e-7);
}

TEST(OwnShip, ExtrapolatesAlongCourseAndSpeedForAFewSeconds) {
  OwnShipConfig cfg;
  cfg.origin = LatLon{54.3, 10.1};
  cfg.stale_after_s = 5.0;
  cfg.max_extrapolation_s = 3.0;
  OwnShipEstimator est(cfg);
  feed(est, fix_at(54.3, 10.1, 20.0, 90.0), 50.0);
  const double v = 20 * kMpsPerKnot;
  OwnShipState s = est.state(52.0);
  ASSERT_TRUE(s.valid);
  EXPECT_NEAR(s.x_m, 2 * v, 1e-6);
  EXPECT_NEAR(s.y_m, 0, 1e-6);
  EXPECT_NEAR(s.fix_age_s, 2.0, 1e-12);
  // The geodetic position follows the extrapolated one.
  EXPECT_NEAR(est.plane()->to_local(s.lat_deg, s.lon_deg).x_m, 2 * v, 1e-4);
  // Capped at max_extrapolation_s while still fresh.
  s = est.state(54.5);
  ASSERT_TRUE(s.valid);
  EXPECT_NEAR(s.x_m, 3 * v, 1e-6);
  // Asking for an earlier time does not run backwards past the fix.
  EXPECT_NEAR(est.state(49.0).x_m, 0, 1e-6);
  // No heading sensor: heading is the course, flagged, with a warning.
  EXPECT_FALSE(s.heading_valid);
  EXPECT_TRUE(s.heading_from_cog);
  EXPECT_NEAR(s.heading_deg, 90, 1e-9);
  EXPECT_NE(s.warning.find("course over ground"), std::string::npos) << s.warning;
}

TEST(OwnShip, MovingShipIsTrackedInThePlane) {
  // A ship at 15 kn on 030 deg for 10 minutes, fixes every second: its local position follows
  // the straight line within centimetres (the plane is equidistant from the origin).
  OwnShipConfig cfg;
  cfg.origin = LatLon{-33.85, 151.2};
  OwnShipEstimator est(cfg);
  const LocalTangentPlane& plane = *est.plane();
  const double v = 15 * kMpsPerKnot;
  for (int t = 0; t <= 600; ++t) {
    const double x = v * t * std::sin(30 * kDeg), y = v * t * std::cos(30 * kDeg);
    const LatLon g = plane.to_geodetic(x, y);
    NavFix f = fix_at(g.lat_deg, g.lon_deg, 15.0, 30.0);
    f.utc_s_of_day = t;
    feed(est, f, t);
    const OwnShipState s = est.state(t + 0.5);
    ASSERT_TRUE(s.valid) << s.warning;
    // 1e-5 minutes of arc in the sentence: about 2 cm.
    EXPECT_NEAR(s.x_m, x + 0.5 * s.vx_mps, 0.05);
    EXPECT_NEAR(s.y_m, y + 0.5 * s.vy_mps, 0.05);
  }
}

TEST(OwnShip, StaleFeedAndNoFixAreInvalid) {
  OwnShipEstimator est;
  NavFix f = fix_at(10, 20, 5, 180);
  f.has_heading = true;
  f.heading_deg = 181;
  feed(est, f, 0.0);
  EXPECT_TRUE(est.state(4.9).valid);
  OwnShipState s = est.state(5.5);
  EXPECT_FALSE(s.valid);
  EXPECT_FALSE(s.heading_valid);
  EXPECT_NE(s.warning.find("stale"), std::string::npos) << s.warning;
  // The last known position is still reported (not extrapolated).
  EXPECT_NEAR(s.x_m, 0, 1e-6);
  // Fresh again.
  feed(est, f, 6.0);
  EXPECT_TRUE(est.state(6.5).valid);
  // The receiver loses its fix: RMC V and GGA quality 0.
  f.has_fix = false;
  feed(est, f, 7.0);
  s = est.state(7.1);
  EXPECT_FALSE(s.valid);
  EXPECT_NE(s.warning.find("reports no fix"), std::string::npos) << s.warning;
  EXPECT_TRUE(s.heading_valid);  // the gyro still works
  f.has_fix = true;
  feed(est, f, 8.0);
  EXPECT_TRUE(est.state(8.0).valid);
}

TEST(OwnShip, HeadingSensorInvalidFallsBackToCourse) {
  OwnShipEstimator est;
  NmeaParser p;
  const auto in = [&](const std::string& line, double t) {
    p.parse_buffer(line, [&](const NmeaSentence& s) { est.update(s, t); });
  };
  feed(est, fix_at(10, 20, 5, 100), 0.0);
  in(nmea_sentence("HETHS,123.0,A"), 0.0);
  EXPECT_NEAR(est.state(0.5).heading_deg, 123.0, 1e-9);
  EXPECT_TRUE(est.state(0.5).heading_valid);
  in(nmea_sentence("HETHS,,V"), 1.0);
  const OwnShipState s = est.state(1.0);
  EXPECT_TRUE(s.valid);
  EXPECT_FALSE(s.heading_valid);
  EXPECT_TRUE(s.heading_from_cog);
  EXPECT_NEAR(s.heading_deg, 100.0, 1e-9);
  EXPECT_NE(s.warning.find("heading sensor reports invalid"), std::string::npos) << s.warning;
}

TEST(OwnShip, PositionWithoutCourseAndSpeedIsNotValid) {
  // GGA alone gives no course or speed: the tracker cannot use own motion.
  OwnShipEstimator est;
  NmeaParser p;
  p.parse_buffer(format_gga(fix_at(10, 20, 5, 100)),
                 [&](const NmeaSentence& s) { est.update(s, 0.0); });
  const OwnShipState s = est.state(0.1);
  EXPECT_FALSE(s.valid);
  EXPECT_NE(s.warning.find("no course and speed"), std::string::npos) << s.warning;
}

TEST(OwnShip, RepeatedEpochKeepsTheFirstArrival) {
  OwnShipConfig cfg;
  cfg.origin = LatLon{10, 20};
  OwnShipEstimator est(cfg);
  NavFix f = fix_at(10, 20, 10, 0);
  f.utc_s_of_day = 3600;
  NmeaParser p;
  p.parse_buffer(format_rmc(f), [&](const NmeaSentence& s) { est.update(s, 100.0); });
  p.parse_buffer(format_gga(f), [&](const NmeaSentence& s) { est.update(s, 100.3); });
  EXPECT_NEAR(est.state(101.0).fix_age_s, 1.0, 1e-12);
  EXPECT_NEAR(est.state(101.0).y_m, 10 * kMpsPerKnot, 1e-3);
}

TEST(OwnShip, ConvergenceFarFromTheOrigin) {
  OwnShipConfig cfg;
  cfg.origin = LatLon{60, 5};
  OwnShipEstimator est(cfg);
  const double dlon = 30e3 / (prime_vertical_radius_m(60) * std::cos(60 * kDeg)) / kDeg;
  feed(est, fix_at(60, 5 + dlon, 10, 0), 0.0);
  const OwnShipState s = est.state(0.0);
  ASSERT_TRUE(s.valid);
  EXPECT_NEAR(s.true_to_grid_deg, -dlon * std::sin(60 * kDeg), 0.01);
  // Sailing true north there moves the ship along the grid bearing true_to_grid_deg.
  EXPECT_NEAR(std::atan2(s.vx_mps, s.vy_mps) / kDeg, s.true_to_grid_deg, 1e-9);
}

}  // namespace
}  // namespace sweepline::nav
