// A display client's tracks in the console (ui/track_view.hpp): each source's colour, the track
// number as a track's label, the Targets panel's source lines and the PPI's "no data" lines.
#include <gtest/gtest.h>

#include "app/engine/remote_track_view.hpp"
#include "ui/track_view.hpp"

namespace sweepline::ui {
namespace {

TEST(RemoteTrackView, ColoursLabelsAndIds) {
  const Rgb a = source_colour(0), b = source_colour(1);
  EXPECT_FALSE(a.r == b.r && a.g == b.g && a.b == b.b);
  const int id = engine::remote_track_id(1, 4095);
  EXPECT_EQ(engine::remote_source_of(id), 1);
  EXPECT_EQ(engine::remote_track_number(id), 4095);
  EXPECT_NE(engine::remote_track_id(0, 12), engine::remote_track_id(1, 12));
  track::Track t;
  t.id = id;
  EXPECT_EQ(track_label(t, true), "4095");
  EXPECT_EQ(track_label(t, false), std::to_string(id));
}

TEST(RemoteTrackView, NoDataWithTheSecondsSinceTheLastUpdate) {
  engine::TrackingView v;
  v.remote = true;
  net::RemoteSourceStatus live, gone, never;
  live.endpoint = "239.0.2.3:8612";
  live.seen = true;
  live.stale = false;
  live.sac = 0;
  live.sic = 1;
  live.tracks = 41;
  gone = live;
  gone.endpoint = "239.0.3.3:8612";
  gone.sic = 2;
  gone.stale = true;
  gone.since_update_s = 12.4;
  never.endpoint = "239.0.4.3:8612";
  never.since_update_s = 3;
  v.remote_sources = {live, gone, never};
  EXPECT_EQ(source_line(live), "SAC/SIC 0/1  239.0.2.3:8612  41 tracks");
  EXPECT_EQ(source_line(gone), "SAC/SIC 0/2  239.0.3.3:8612  NO DATA 12 s");
  EXPECT_EQ(source_line(never), "239.0.4.3:8612  NO DATA yet (3 s)");
  const std::vector<std::string> lines = no_data_lines(v);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "NO DATA  0/2 239.0.3.3:8612  12 S SINCE LAST UPDATE");
  EXPECT_EQ(lines[1], "NO DATA  239.0.4.3:8612  (waiting 3 S)");
  v.remote_sources[1].stale = false;  // it came back
  v.remote_sources[2].seen = true;
  v.remote_sources[2].stale = false;
  EXPECT_TRUE(no_data_lines(v).empty());
}

TEST(RemoteTrackView, ReportBecomesATrackOfTheDisplaysPlane) {
  cat048::TargetReport r;
  r.sic = 1;
  r.tod_s = 100;
  r.rho_nm = 1.0;
  r.theta_deg = 90;
  r.track_number = 7;
  r.x_nm = 1.0;
  r.y_nm = 0.0;
  r.ground_speed_nm_s = 10.0 / 3600.0;  // 10 kn
  r.heading_deg = 270;                  // straight at the radar
  const nav::OwnShipState none;
  const track::Track t = engine::to_remote_track(r, 0, none, 1852.0, 720.0);
  EXPECT_EQ(engine::remote_track_number(t.id), 7);
  EXPECT_NEAR(t.x_m, 1852.0, 1e-6);
  EXPECT_NEAR(t.y_m, 0.0, 1e-6);
  EXPECT_NEAR(t.speed_mps, 10 * 1852.0 / 3600.0, 1e-9);
  EXPECT_NEAR(t.vx_mps, -t.speed_mps, 1e-9);
  EXPECT_EQ(t.status, track::Track::Status::Tracked);
  EXPECT_NEAR(t.cpa_m, 0.0, 1e-6);
  EXPECT_NEAR(t.tcpa_s, 360.0, 1e-6);  // 1 NM at 10 kn
  EXPECT_TRUE(t.dangerous);
  cat048::TrackStatus st;
  st.tentative = true;
  r.status = st;
  EXPECT_EQ(engine::to_remote_track(r, 0, none, 1852.0, 720.0).status,
            track::Track::Status::Acquiring);
}

}  // namespace
}  // namespace sweepline::ui
