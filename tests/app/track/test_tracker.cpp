// Track life, acquisition (automatic in zones, manual), capacity, alarms, outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/common/check.hpp"
#include "app/track/tracker.hpp"
#include "tests/app/track/track_sim.hpp"

using namespace sweepline::track;
using namespace sweepline::tracktest;

namespace {

SimTarget at_polar(double range_m, double bearing_deg, double course_deg = 0, double kn = 0) {
  SimTarget s;
  s.x = range_m * std::sin(bearing_deg * kDeg);
  s.y = range_m * std::cos(bearing_deg * kDeg);
  s.vx = kn * kKnot * std::sin(course_deg * kDeg);
  s.vy = kn * kKnot * std::cos(course_deg * kDeg);
  return s;
}

int count_alarms(const Tracker& t, Alarm::Kind k) {
  return int(std::count_if(t.alarms().begin(), t.alarms().end(),
                           [&](const Alarm& a) { return a.kind == k; }));
}

}  // namespace

TEST(TrackLife, ConfirmsOnThirdScanWithStableId) {
  SimRadar radar;
  radar.targets = {at_polar(4000, 100, 270, 15)};
  Tracker tr;
  radar.rotate(tr, 2);
  ASSERT_EQ(tr.size(), 1u);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  EXPECT_EQ(tracks[0].status, Track::Status::Acquiring);
  const int id = tracks[0].id;
  radar.rotate(tr, 2);
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_EQ(tracks[0].status, Track::Status::Tracked);
  EXPECT_EQ(tracks[0].id, id);
}

TEST(TrackLife, ATrackFasterThanAnyShipIsNotConfirmed) {
  // 100 kn (plots of neighbours joined, in dense traffic) stays acquiring; 40 kn is confirmed.
  SimRadar radar;
  radar.targets = {at_polar(4000, 100, 0, 100), at_polar(4000, 250, 0, 40)};
  Tracker tr;
  radar.rotate(tr, 8);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  int fast = 0, slow = 0;
  for (const Track& t : tracks) {
    const double kn = t.speed_mps / kKnot;
    if (kn > 80) {
      ++fast;
      EXPECT_EQ(t.status, Track::Status::Acquiring) << kn;
    } else if (kn > 30) {
      ++slow;
      EXPECT_EQ(t.status, Track::Status::Tracked) << kn;
    }
  }
  EXPECT_EQ(fast, 1);
  EXPECT_EQ(slow, 1);
}

TEST(TrackLife, VanishedTargetIsLostOnceThenDeleted) {
  SimRadar radar;
  radar.targets = {at_polar(6000, 30, 180, 10)};
  TrackerParams p;
  p.delete_lost_scans = 3;
  p.delete_lost_s = 1000;
  Tracker tr(p);
  radar.rotate(tr, 12);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  ASSERT_EQ(tracks[0].status, Track::Status::Tracked);
  const int id = tracks[0].id;
  radar.targets[0].visible = false;
  // Kept while seen in 5 of the last 10 scans: lost on the 6th miss.
  for (int miss = 1; miss <= 5; ++miss) {
    radar.rotate(tr, 1);
    auto t = tr.find(id);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->status, Track::Status::Tracked) << "miss " << miss;
  }
  radar.rotate(tr, 1);
  auto t = tr.find(id);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->status, Track::Status::Lost);
  EXPECT_EQ(count_alarms(tr, Alarm::Kind::LostTarget), 1);
  radar.rotate(tr, 2);
  EXPECT_TRUE(tr.find(id));  // still shown for delete_lost_scans (3) more scans
  radar.rotate(tr, 1);
  EXPECT_FALSE(tr.find(id));
  radar.rotate(tr, 5);
  EXPECT_EQ(count_alarms(tr, Alarm::Kind::LostTarget), 1);
  EXPECT_EQ(tr.size(), 0u);
}

TEST(TrackLife, IdsAreNeverReused) {
  SimRadar radar;
  radar.targets = {at_polar(3000, 200)};
  Tracker tr;
  radar.rotate(tr, 4);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  const int first = tracks[0].id;
  EXPECT_TRUE(tr.cancel(first));
  EXPECT_FALSE(tr.cancel(first));
  radar.rotate(tr, 4);
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_GT(tracks[0].id, first);
  tr.cancel_all();
  EXPECT_EQ(tr.size(), 0u);
}

TEST(TrackAcquire, ArcZoneAcrossNorthOnly) {
  SimRadar radar;
  radar.targets = {at_polar(3000, 2), at_polar(3000, 355), at_polar(3000, 20), at_polar(6000, 0)};
  TrackerParams p;
  p.auto_acquire_everywhere = false;
  Tracker tr(p);
  AcquisitionZone z;
  z.range_min_m = 1000;
  z.range_max_m = 5000;
  z.bearing_from_deg = 350;
  z.bearing_to_deg = 10;
  tr.add_zone(z);
  radar.rotate(tr, 5);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 2u);
  for (const Track& t : tracks) {
    EXPECT_EQ(t.status, Track::Status::Tracked);
    EXPECT_TRUE(t.in_zone);
    EXPECT_NEAR(t.range_m, 3000, 100);
    EXPECT_TRUE(t.bearing_deg < 10 || t.bearing_deg > 350);
  }
  EXPECT_EQ(count_alarms(tr, Alarm::Kind::NewTargetInZone), 2);
}

TEST(TrackAcquire, ArcRelativeToHeading) {
  SimRadar radar;
  radar.own_heading_deg = 90;
  radar.targets = {at_polar(3000, 90), at_polar(3000, 0)};
  TrackerParams p;
  p.auto_acquire_everywhere = false;
  Tracker tr(p);
  AcquisitionZone z;
  z.range_min_m = 1000;
  z.range_max_m = 5000;
  z.bearing_from_deg = 350;
  z.bearing_to_deg = 10;
  z.relative_to_heading = true;  // dead ahead: true 080-100
  tr.add_zone(z);
  radar.rotate(tr, 5);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_NEAR(tracks[0].bearing_deg, 90, 2);
}

TEST(TrackAcquire, PolygonZoneOnly) {
  SimRadar radar;
  radar.targets = {at_polar(3000, 45), at_polar(3000, 225)};
  TrackerParams p;
  p.auto_acquire_everywhere = false;
  Tracker tr(p);
  AcquisitionZone z;
  z.kind = AcquisitionZone::Kind::Polygon;
  z.polygon = {{1000, 1000}, {4000, 1000}, {4000, 4000}, {1000, 4000}};
  const int zid = tr.add_zone(z);
  radar.rotate(tr, 5);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_GT(tracks[0].x_m, 1000);
  EXPECT_GT(tracks[0].y_m, 1000);
  // Moved over the other target, the zone keeps its number; a malformed edit changes nothing.
  AcquisitionZone moved = z;
  for (ZonePoint& v : moved.polygon) {
    v.x_m = -v.x_m;
    v.y_m = -v.y_m;
  }
  EXPECT_TRUE(tr.replace_zone(zid, moved));
  ASSERT_EQ(tr.zones().size(), 1u);
  EXPECT_EQ(tr.zones()[0].first, zid);
  EXPECT_LT(tr.zones()[0].second.polygon[0].x_m, 0);
  AcquisitionZone bad = moved;
  bad.polygon.resize(2);
  EXPECT_THROW(tr.replace_zone(zid, bad), sweepline::Error);
  EXPECT_EQ(tr.zones()[0].second.polygon.size(), 4u);
  EXPECT_FALSE(tr.replace_zone(zid + 1, moved));
  radar.rotate(tr, 5);
  tr.tracks(tracks);
  EXPECT_EQ(tracks.size(), 2u);
  EXPECT_TRUE(tr.remove_zone(zid));
  EXPECT_FALSE(tr.remove_zone(zid));
  EXPECT_TRUE(tr.zones().empty());
}

TEST(TrackAcquire, ManualAcquireWithoutZones) {
  SimRadar radar;
  radar.targets = {at_polar(5000, 300, 90, 8), at_polar(7000, 120)};
  TrackerParams p;
  p.auto_acquire_everywhere = false;
  Tracker tr(p);
  radar.rotate(tr, 2);
  EXPECT_EQ(tr.size(), 0u);
  double x, y, vx, vy;
  truth_at(radar.targets[0], radar.t, x, y, vx, vy);
  EXPECT_FALSE(tr.acquire(x + 2000, y));  // nothing there
  const auto id = tr.acquire(x + 50, y - 50);
  ASSERT_TRUE(id);
  radar.rotate(tr, 4);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_EQ(tracks[0].id, *id);
  EXPECT_EQ(tracks[0].status, Track::Status::Tracked);
  EXPECT_TRUE(tracks[0].manual);
  // Acquiring the same target again returns the same track.
  EXPECT_EQ(tr.acquire(tracks[0].x_m, tracks[0].y_m), id);
}

TEST(TrackAcquire, PlotsNextToLandStartNoTrackButFeedOne) {
  SimRadar radar;
  radar.targets = {at_polar(5000, 300, 90, 8), at_polar(7000, 120, 0, 10)};
  radar.targets[1].near_land = true;
  Tracker tr;
  radar.rotate(tr, 5);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);  // the open-water target only
  double x, y, vx, vy;
  truth_at(radar.targets[0], radar.t, x, y, vx, vy);
  EXPECT_LT(std::hypot(tracks[0].x_m - x, tracks[0].y_m - y), 200);
  EXPECT_GT(tr.stats().near_land_plots, 0u);
  // By hand it is acquired, and then its plots (still next to land) keep it.
  truth_at(radar.targets[1], radar.t, x, y, vx, vy);
  const auto id = tr.acquire(x, y);
  ASSERT_TRUE(id);
  radar.rotate(tr, 6);
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 2u);
  for (const Track& t : tracks) EXPECT_EQ(t.status, Track::Status::Tracked) << t.id;
  // A target that moves next to land keeps its track.
  radar.targets[0].near_land = true;
  radar.rotate(tr, 6);
  tr.tracks(tracks);
  EXPECT_EQ(tracks.size(), 2u);
  for (const Track& t : tracks) EXPECT_EQ(t.status, Track::Status::Tracked) << t.id;
}

TEST(TrackAcquire, ATrackStartedBeforeLandWasKnownIsDroppedAtLand) {
  // Both start while land is unknown (the clutter map's first rotations), and stay acquiring
  // however often they are seen. Then the map knows: one is next to land (a coast): dropped;
  // the other in open water: confirmed, and kept when it later passes next to land.
  SimRadar radar;
  radar.targets = {at_polar(5000, 300, 90, 8), at_polar(7000, 120, 0, 10)};
  for (SimTarget& s : radar.targets) s.land_unknown = true;
  Tracker tr;
  radar.rotate(tr, 6);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 2u);
  for (const Track& t : tracks) EXPECT_EQ(t.status, Track::Status::Acquiring) << t.id;
  for (SimTarget& s : radar.targets) s.land_unknown = false;
  radar.targets[1].near_land = true;
  radar.rotate(tr, 2);
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_NEAR(tracks[0].bearing_deg, 300, 2);
  EXPECT_EQ(tr.stats().land_tracks_dropped, 1u);
  const int id = tracks[0].id;
  radar.targets[0].near_land = true;
  radar.rotate(tr, 4);
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_EQ(tracks[0].id, id);
  EXPECT_EQ(tracks[0].status, Track::Status::Tracked);
  EXPECT_EQ(tr.stats().land_tracks_dropped, 1u);
}

TEST(TrackAcquire, CapacityIsEnforcedAndCounted) {
  SimRadar radar;
  for (int i = 0; i < 10; ++i) radar.targets.push_back(at_polar(2000 + 500 * i, 36 * i));
  TrackerParams p;
  p.capacity = 5;
  Tracker tr(p);
  radar.rotate(tr, 6);
  EXPECT_EQ(tr.size(), 5u);
  EXPECT_GT(tr.stats().refused_capacity, 0u);
}

TEST(TrackOutput, MotionCpaAndDangerAlarm) {
  // Own ship north at 10 kn; a target 4 NM north coming south at 10 kn: collision course.
  SimRadar radar;
  radar.own_speed_mps = 10 * kKnot;
  radar.targets = {at_polar(4 * 1852, 0, 180, 10)};
  TrackerParams p;
  p.cpa_limit_m = 926;
  p.tcpa_limit_s = 1200;
  Tracker tr(p);
  radar.rotate(tr, 40);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  const Track& t = tracks[0];
  EXPECT_NEAR(t.speed_mps, 10 * kKnot, 0.5 * kKnot);
  EXPECT_NEAR(std::remainder(t.course_deg - 180, 360), 0, 3);
  EXPECT_NEAR(t.rel_speed_mps, 20 * kKnot, 0.8 * kKnot);
  EXPECT_NEAR(t.cpa_m, 0, 150);
  const double range = t.range_m;
  EXPECT_NEAR(t.tcpa_s, range / (20 * kKnot), 15);
  EXPECT_TRUE(t.dangerous);
  // One alarm while it stays dangerous (an early, still noisy estimate may have raised one more
  // before the track settled: only a new alarm after it cleared is allowed).
  const int alarms = count_alarms(tr, Alarm::Kind::Cpa);
  EXPECT_GE(alarms, 1);
  for (int r = 0; r < 20; ++r) {
    radar.rotate(tr, 1);
    ASSERT_TRUE(tr.find(t.id)->dangerous);
  }
  EXPECT_EQ(count_alarms(tr, Alarm::Kind::Cpa), alarms);
  EXPECT_FALSE(tr.relative_only());
  EXPECT_GE(t.trail.size(), 2u);
  EXPECT_TRUE(
      std::is_sorted(t.trail.begin(), t.trail.end(),
                     [](const TrailPoint& a, const TrailPoint& b) { return a.time_s < b.time_s; }));
  const int alarm = tr.alarms().back().id;
  EXPECT_TRUE(tr.acknowledge(alarm));
  EXPECT_TRUE(tr.alarms().back().acknowledged);
  EXPECT_FALSE(tr.acknowledge(alarm + 100));
}

TEST(TrackOutput, RelativeOnlyWithoutOwnShip) {
  SimRadar radar;
  radar.own_valid = false;
  radar.targets = {at_polar(3000, 60, 0, 5)};
  Tracker tr;
  radar.rotate(tr, 5);
  EXPECT_TRUE(tr.relative_only());
  std::vector<Track> tracks;
  tr.tracks(tracks);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_NEAR(tracks[0].range_m, std::hypot(tracks[0].x_m, tracks[0].y_m), 1e-6);
}

TEST(TrackFeed, SmallSectorsAndFullRotationsAgree) {
  // Feeding 1 degree per call or a whole rotation per call tracks the same target.
  for (int calls : {1, 8, 360}) {
    SimRadar radar;
    radar.calls_per_rotation = calls;
    radar.targets = {at_polar(5000, 359.5, 90, 20)};  // crosses north, the sector seam
    Tracker tr;
    radar.rotate(tr, 20);
    std::vector<Track> tracks;
    tr.tracks(tracks);
    ASSERT_EQ(tracks.size(), 1u) << calls << " calls per rotation";
    EXPECT_EQ(tracks[0].status, Track::Status::Tracked) << calls;
    EXPECT_NEAR(tracks[0].speed_mps, 20 * kKnot, 1.0 * kKnot) << calls;
    EXPECT_EQ(tracks[0].scans_seen & 0x3ffu, 0x3ffu) << calls;
  }
}

// A whole rotation a call (a frame a rotation) and a target dead ahead: its measured bearing
// jitters across north, where the calls meet, so by bearing its echo is swept at a call's end one
// rotation and at the next call's start the one after. The track, due once a rotation, must still
// take every echo (it started a new track from each one swept at the start).
TEST(TrackLife, HeadingJitterBetweenCallsMissesNoScan) {
  // Eight calls a rotation, each sector stabilised with the heading of its own moment: a gyro's
  // noise moves where one call ends and the next starts, opening a tenth of a degree between
  // them every other rotation. A target on that bearing was swept all the same and must get its
  // plot every scan, not every other one.
  Tracker tr;
  const double period = 2.5, range = 10000.0, bearing = 90.05;
  const int sectors = 8;
  for (int k = 0; k < 24; ++k) {
    for (int s = 0; s < sectors; ++s) {
      const double from = 45.0 * s, to = 45.0 * (s + 1);
      // The call after the one ending at 090 starts 0.1 deg on, every other rotation.
      const double shift = s == 2 && k % 2 == 1 ? 0.1 : 0.0;
      const double now = period * (k + double(s + 1) / sectors);
      std::vector<TrackPlot> plots;
      if (s == 2) {
        TrackPlot p;
        p.time_s = period * (k + bearing / 360.0);
        p.range_m = range;
        p.bearing_deg = bearing;
        p.x_m = range * std::sin(bearing * kDeg);
        p.y_m = range * std::cos(bearing * kDeg);
        plots.push_back(p);
      }
      tr.update(plots, from + shift, to, now, OwnShip{});
    }
  }
  std::vector<Track> tracks;
  tr.tracks(tracks);
  EXPECT_EQ(tr.stats().tracks_started, 1u);
  ASSERT_EQ(tracks.size(), 1u);
  // Every plot but the first, which started the track, went to it, one a scan.
  EXPECT_EQ(tr.stats().plots_associated, 23u);
  EXPECT_EQ(tracks[0].scans_seen & 0xFFFFFu, 0xFFFFFu);
}

TEST(TrackLife, AnEchoJitteringAcrossTheEdgeOfWholeRotationCallsKeepsOneTrack) {
  Tracker tr;
  const double period = 2.5, range = 10000.0;
  for (int k = 0; k < 24; ++k) {
    const double now = period * (k + 1);
    const double bearing = k % 2 == 0 ? 359.97 : 0.03;  // west, then east of the edge
    TrackPlot p;
    // An echo across north is timed by its east half: the start of the frame.
    p.time_s = now - period + 0.001;
    p.range_m = range;
    p.bearing_deg = bearing;
    p.x_m = range * std::sin(bearing * kDeg);
    p.y_m = range * std::cos(bearing * kDeg);
    const std::vector<TrackPlot> plots{p};
    tr.update(plots, 0.0, 0.0, now, OwnShip{});
  }
  std::vector<Track> tracks;
  tr.tracks(tracks);
  EXPECT_EQ(tr.stats().tracks_started, 1u);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_EQ(tracks[0].status, Track::Status::Tracked);
}
