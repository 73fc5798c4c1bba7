// Plots to tracker input (app/engine/track_feed.hpp), the tracking settings' JSON, and the
// simulator's own-ship navigation through the source interface (app/source/sim_navigation.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/common/check.hpp"
#include "app/engine/engine_settings.hpp"
#include "app/engine/track_feed.hpp"
#include "app/sim/own_ship.hpp"
#include "app/sim/radial_producer.hpp"
#include "app/sim/scenario.hpp"
#include "app/sim/sensor_errors.hpp"
#include "app/source/sim_navigation.hpp"

using namespace sweepline;
using namespace sweepline::engine;

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

nav::OwnShipState moving_own(double heading_deg) {
  nav::OwnShipState o;
  o.valid = true;
  o.heading_valid = true;
  o.time_s = 100;
  o.x_m = 1000;
  o.y_m = -500;
  o.course_deg = 0;
  o.speed_mps = 5;
  o.vx_mps = 0;
  o.vy_mps = 5;
  o.heading_deg = heading_deg;
  return o;
}

}  // namespace

TEST(TrackFeed, RelativeBearingTurnsByTheHeadingAndOwnShipMovesToThePlotsTime) {
  gpu::Plot p;
  p.range_m = 2000;
  p.bearing_deg = 30;  // from the bow
  p.time_s = 102;      // own ship has moved 10 m north since its state
  p.range_extent_m = 40;
  p.azimuth_extent_deg = 1.5;
  p.peak = 200;
  const RadarAccuracy acc{25, 0.1};
  const track::TrackPlot t = to_track_plot(p, moving_own(60), acc, 5.0);
  EXPECT_DOUBLE_EQ(t.time_s, 107);
  EXPECT_NEAR(t.bearing_deg, 90, 1e-9);
  EXPECT_NEAR(t.x_m, 1000 + 2000, 1e-6);
  EXPECT_NEAR(t.y_m, -500 + 10, 1e-6);
  EXPECT_EQ(t.range_sigma_m, 25);
  EXPECT_EQ(t.bearing_sigma_deg, 0.1);
  EXPECT_EQ(t.range_extent_m, 40);
  EXPECT_EQ(t.peak, 200);
}

TEST(TrackFeed, WithoutOwnShipThePlotIsPlacedAboutTheRadar) {
  gpu::Plot p;
  p.range_m = 1000;
  p.bearing_deg = 90;
  p.time_s = 5;
  nav::OwnShipState none;  // not valid, no heading: the video is taken as north-up
  track::TrackPlot t = to_track_plot(p, none, {});
  EXPECT_NEAR(t.x_m, 1000, 1e-9);
  EXPECT_NEAR(t.y_m, 0, 1e-9);
  EXPECT_FALSE(to_track_own_ship(none).valid);
  // A heading but no position: north-up about the radar.
  none.heading_valid = true;
  none.heading_deg = 90;
  t = to_track_plot(p, none, {});
  EXPECT_NEAR(t.bearing_deg, 180, 1e-9);
  EXPECT_NEAR(t.x_m, 0, 1e-6);
  EXPECT_NEAR(t.y_m, -1000, 1e-6);
}

TEST(TrackFeed, OwnShipTakesItsCourseFromTheVelocityInThePlane) {
  nav::OwnShipState s = moving_own(10);
  s.vx_mps = 5 * std::sin(3 * kDeg);  // the plane's grid is 3 deg off true north here
  s.vy_mps = 5 * std::cos(3 * kDeg);
  s.true_to_grid_deg = 3;
  const track::OwnShip o = to_track_own_ship(s);
  EXPECT_TRUE(o.valid);
  EXPECT_NEAR(o.course_deg, 3, 1e-9);
  EXPECT_NEAR(o.heading_deg, 13, 1e-9);
  EXPECT_EQ(o.speed_mps, 5);
  EXPECT_EQ(o.x_m, 1000);
}

TEST(TrackFeed, DefaultAccuracyIsTheStandardsForA30mPulseAndA12DegBeam) {
  const RadarAccuracy a = radar_accuracy(gpu::PlotParams{});
  // Pulse 20 m and half the 30 m glint along the hull: sqrt(20^2 + 30^2 / 2) = 29.2 m.
  EXPECT_NEAR(a.range_sigma_m, std::sqrt(400.0 + 450.0), 1e-9);
  // Beam 0.05, encoder 0.03, backlash 0.05 / sqrt 3, gyro 0.12, roll (10 deg: a 0.22 deg sine
  // at 045, 0.156 deg rms): 0.207 deg; the glint across the line of sight 21.2 m.
  EXPECT_NEAR(roll_spread_deg(10), 0.22 / std::sqrt(2.0), 0.005);
  EXPECT_NEAR(a.bearing_sigma_deg, 0.207, 0.003);
  EXPECT_NEAR(a.cross_sigma_m, std::sqrt(451.0), 1e-9);
  // In bearing: 0.66 deg more at 1 NM, little at 8 NM.
  EXPECT_NEAR(plot_bearing_sigma_deg(a, 1852), std::hypot(0.207, 0.657), 0.01);
  EXPECT_NEAR(plot_bearing_sigma_deg(a, 8 * 1852), std::hypot(0.207, 0.0821), 0.003);
  // The grid adds its quantisation: 4096 rows and 4096 cells over 12 NM.
  const RadarAccuracy g = radar_accuracy(gpu::PlotParams{}, 4096, 4096, 12 * 1852.0);
  EXPECT_GT(g.range_sigma_m, a.range_sigma_m);
  EXPECT_GT(g.bearing_sigma_deg, a.bearing_sigma_deg);
  EXPECT_LT(g.bearing_sigma_deg, 0.22);
  // A plot gets the sigma at its own range.
  gpu::Plot p;
  p.range_m = 1852;
  nav::OwnShipState own;
  const track::TrackPlot t = to_track_plot(p, own, a);
  EXPECT_NEAR(t.bearing_sigma_deg, plot_bearing_sigma_deg(a, 1852), 1e-12);
  EXPECT_EQ(t.range_sigma_m, a.range_sigma_m);
}

TEST(TrackFeed, FrameSectorAndFinishedPlots) {
  PolarFrame f(360, 8, 1000);
  f.dirty = {350, 20};  // rows 350..9: across north
  SweepSector s = frame_sector(f);
  EXPECT_FALSE(s.empty);
  EXPECT_FALSE(s.full);
  EXPECT_DOUBLE_EQ(s.from_deg, 350);
  EXPECT_DOUBLE_EQ(s.to_deg, 10);
  gpu::Plot p;
  p.bearing_deg = 355;
  p.azimuth_extent_deg = 2;
  EXPECT_TRUE(plot_completed(p, s, 0.5));  // trailing edge 356.5
  p.bearing_deg = 9;
  EXPECT_FALSE(plot_completed(p, s, 0.5));  // trailing edge 10.5: the sweep is still on it
  p.bearing_deg = 100;
  EXPECT_FALSE(plot_completed(p, s, 0.5));
  // True bearings: heading 20 at the start, 22 at the end (turning to starboard).
  const SweepSector t = true_sector(s, 20, 22);
  EXPECT_DOUBLE_EQ(t.from_deg, 10);
  EXPECT_DOUBLE_EQ(t.to_deg, 32);
  // A whole rotation ends at the sweep; nothing changed is empty.
  f.dirty = {0, 360};
  f.sweep_azimuth_deg = 123;
  s = frame_sector(f);
  EXPECT_TRUE(s.full);
  EXPECT_DOUBLE_EQ(s.from_deg, 123);
  EXPECT_TRUE(plot_completed(p, s, 0.5));
  f.dirty = {0, 0};
  EXPECT_TRUE(frame_sector(f).empty);
  EXPECT_TRUE(true_sector(frame_sector(f), 0, 0).empty);
}

TEST(TrackFeed, FrameTimesComeFromTheChangedRows) {
  PolarFrame f(8, 4, 1000);
  EXPECT_FALSE(frame_latest_time(f));  // no row times
  f.row_time_s = {10, 11, 12, 13, 14, 15, 16, 9};
  f.dirty = {6, 3};  // rows 6, 7, 0
  EXPECT_DOUBLE_EQ(*frame_latest_time(f), 16);
  EXPECT_DOUBLE_EQ(*frame_earliest_time(f), 9);
}

TEST(TrackFeed, ClockUnwrapperCarriesATimeOfDayPastMidnight) {
  ClockUnwrapper c;
  EXPECT_EQ(c.offset_for(86399.0), 0.0);
  EXPECT_EQ(c.offset_for(86399.9), 0.0);
  EXPECT_EQ(c.offset_for(0.5), 86400.0);
  EXPECT_EQ(c.offset_for(1.5), 86400.0);
  // A small step back (a replay loop) is not a new day: the engine resets the tracker instead.
  EXPECT_EQ(c.offset_for(1.0), 86400.0);
  c.reset();
  EXPECT_EQ(c.offset_for(5.0), 0.0);
}

TEST(TrackingSettings, JsonRoundTrip) {
  TrackingSettings t;
  t.cpa_limit_nm = 0.5;
  t.vector_mode = "relative";
  track::AcquisitionZone arc;
  arc.range_min_m = 500;
  arc.range_max_m = 3000;
  arc.bearing_from_deg = 300;
  arc.bearing_to_deg = 60;
  arc.relative_to_heading = true;
  track::AcquisitionZone poly;
  poly.kind = track::AcquisitionZone::Kind::Polygon;
  poly.polygon = {{0, 0}, {1000, 0}, {1000, 1000}};
  t.zones = {arc, poly};
  TrackingSettings back;
  read_tracking(tracking_json(t), back);
  EXPECT_EQ(tracking_json(back), tracking_json(t));
  ASSERT_EQ(back.zones.size(), 2u);
  EXPECT_TRUE(back.zones[0].relative_to_heading);
  EXPECT_EQ(back.zones[1].polygon.size(), 3u);

  NavigationSettings n;
  n.udp = "udp://239.0.0.5:10110";
  n.stale_s = 3;
  NavigationSettings nb;
  read_navigation(navigation_json(n), nb);
  EXPECT_EQ(navigation_json(nb), navigation_json(n));
  // Missing keys keep their defaults.
  TrackingSettings d;
  read_tracking(nlohmann::json::parse(R"({"cpa_limit_nm": 2})"), d);
  EXPECT_EQ(d.cpa_limit_nm, 2);
  EXPECT_EQ(d.tcpa_limit_min, 12);
  EXPECT_TRUE(d.enabled);
}

TEST(TrackingSettings, RefusesBadValuesNamingTheKey) {
  auto refused = [](const char* text, const char* key) {
    TrackingSettings t;
    t.cpa_limit_nm = 0.7;
    try {
      read_tracking(nlohmann::json::parse(text), t);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_EQ(t.cpa_limit_nm, 0.7) << "a refused group changes nothing";
      return;
    }
    ADD_FAILURE() << text << " was accepted";
  };
  refused(R"({"cpa_limit_nm": -1})", "tracking.cpa_limit_nm");
  refused(R"({"confirm_hits": 6, "confirm_window": 5})", "tracking.confirm_hits");
  refused(R"({"keep_window": 40})", "tracking.keep_window");
  refused(R"({"vector_mode": "sideways"})", "tracking.vector_mode");
  refused(R"({"tcpa_limit_min": 1e9})", "tracking.tcpa_limit_min");
  refused(R"({"capacity": 0})", "tracking.capacity");
  refused(R"({"zones": [{"kind": "arc", "range_min_m": 100, "range_max_m": 50}]})",
          "tracking.zones");
  refused(R"({"zones": [{"kind": "circle"}]})", "tracking.zones");
  refused(R"({"zones": [{"kind": "polygon", "points": [[0, 0], [1, 1]]}]})", "tracking.zones");
  TrackingSettings t;
  EXPECT_THROW(read_tracking(nlohmann::json::parse(R"({"cpa_limit_nm": "near"})"), t),
               std::exception);

  NavigationSettings n;
  EXPECT_THROW(read_navigation(nlohmann::json::parse(R"({"udp": "tcp://1.2.3.4:5"})"), n), Error);
  try {
    read_navigation(nlohmann::json::parse(R"({"stale_s": 0})"), n);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("navigation.stale_s"), std::string::npos);
  }
}

TEST(SimNavigation, NavOptionIsStrippedFromTheUri) {
  bool nav = false;
  EXPECT_EQ(source::strip_nav_option("sim://imo1?seed=3&nav=0&rpm=12", nav),
            "sim://imo1?seed=3&rpm=12");
  EXPECT_FALSE(nav);
  EXPECT_EQ(source::strip_nav_option("sim://imo1?nav=on", nav), "sim://imo1");
  EXPECT_TRUE(nav);
  EXPECT_EQ(source::strip_nav_option("sim://harbour", nav), "sim://harbour");
  EXPECT_TRUE(nav);
  EXPECT_THROW(source::strip_nav_option("sim://imo1?nav=maybe", nav), Error);
}

TEST(SimNavigation, TheSimulatorGivesItsOwnShipAsItsSensorsMeasureIt) {
  const std::string uri = "sim://imo4?seed=5&radials=256&cells=64";
  SourceOptions o;
  o.speed = 0;
  auto src = source::open_sim_with_navigation(uri, o);
  EXPECT_FALSE(src->navigation(0)) << "no clock before the first record";
  std::vector<cat240::Record> recs;
  for (int i = 0; i < 8; ++i) src->poll(recs);  // a few rotations
  ASSERT_FALSE(recs.empty());
  const cat240::Record& r = recs.back();
  ASSERT_TRUE(r.tod) << "imo scenarios stamp the time of day";
  const double frame_t = double(*r.tod) / 128.0;
  const double run_t = r.capture_time - sim::kSimEpoch;
  auto st = src->navigation(frame_t);
  ASSERT_TRUE(st);
  EXPECT_TRUE(st->valid);
  EXPECT_TRUE(st->heading_valid);
  EXPECT_EQ(st->time_s, frame_t);
  const sim::Scenario s = sim::parse_sim_uri(uri);
  sim::OwnShipTrack track(s.own);
  const sim::OwnState truth = track.at(run_t);
  EXPECT_NEAR(st->x_m, truth.x_m, 0.2);  // the time of day's 1/128 s at 25 kn
  EXPECT_NEAR(st->y_m, truth.y_m, 0.2);
  EXPECT_NEAR(st->course_deg, truth.course_deg, 1e-6);
  // Heading measured, not true: the gyro's 0.5 deg calibration error. Speed over ground is the
  // GNSS's (exact), not the log's speed through water with its 0.5 kn calibration error.
  EXPECT_GT(std::abs(st->heading_deg - truth.heading_deg), 0.1);
  EXPECT_NEAR(st->heading_deg, truth.heading_deg + 0.5, 0.6);
  EXPECT_NEAR(st->speed_mps, truth.speed_mps, 0.01);
  // A time one rotation earlier is the ship one rotation back along its track.
  auto earlier = src->navigation(frame_t - s.radar.period_s());
  ASSERT_TRUE(earlier);
  EXPECT_NEAR(st->y_m - earlier->y_m, truth.speed_mps * s.radar.period_s(), 0.3);
  // nav=0: the same scene without navigation.
  auto bare = source::open_sim_with_navigation(uri + "&nav=0", o);
  bare->poll(recs);
  EXPECT_FALSE(bare->navigation(frame_t));
}
