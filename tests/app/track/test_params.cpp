#include <gtest/gtest.h>

#include <string>

#include "app/common/check.hpp"
#include "app/track/params.hpp"
#include "app/track/tracker.hpp"
#include "app/track/zones.hpp"

using namespace sweepline::track;

namespace {

// The message of the Error validate() throws, or "" when it accepts.
std::string refusal(const TrackerParams& p) {
  try {
    validate(p);
  } catch (const sweepline::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TrackParams, DefaultsAreValid) {
  EXPECT_EQ(refusal(TrackerParams{}), "");
}

TEST(TrackParams, BadFieldsAreNamed) {
  TrackerParams p;
  p.confirm_hits = 6;  // more than confirm_window (5)
  EXPECT_NE(refusal(p).find("confirm_hits"), std::string::npos);
  p = {};
  p.keep_window = 40;
  EXPECT_NE(refusal(p).find("keep_window"), std::string::npos);
  p = {};
  p.max_speed_mps = -1;
  EXPECT_NE(refusal(p).find("max_speed_mps"), std::string::npos);
  p = {};
  p.gate_chi2 = 0.0 / 0.0;
  EXPECT_NE(refusal(p).find("gate_chi2"), std::string::npos);
  p = {};
  p.capacity = 0;
  EXPECT_NE(refusal(p).find("capacity"), std::string::npos);
  p = {};
  p.association_lag_deg = 120;
  EXPECT_NE(refusal(p).find("association_lag_deg"), std::string::npos);
  p = {};
  p.tcpa_limit_s = -5;
  EXPECT_NE(refusal(p).find("tcpa_limit_s"), std::string::npos);
}

TEST(TrackParams, TrackerRefusesBadParams) {
  TrackerParams p;
  p.trail_points = -1;
  EXPECT_THROW(Tracker{p}, sweepline::Error);
  Tracker t;
  EXPECT_THROW(t.set_params(p), sweepline::Error);
}

TEST(TrackParams, BadZonesAreRefused) {
  Tracker t;
  AcquisitionZone arc;
  arc.range_min_m = 500;
  arc.range_max_m = 100;
  EXPECT_THROW(t.add_zone(arc), sweepline::Error);
  AcquisitionZone poly;
  poly.kind = AcquisitionZone::Kind::Polygon;
  poly.polygon = {{0, 0}, {1, 1}};
  EXPECT_THROW(t.add_zone(poly), sweepline::Error);
}

TEST(TrackParams, TimeGoingBackwardsIsRefused) {
  Tracker t;
  OwnShip own;
  t.update({}, 0, 45, 10.0, own);
  EXPECT_THROW(t.update({}, 45, 90, 9.0, own), sweepline::Error);
}
