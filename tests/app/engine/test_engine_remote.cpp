// A display client's engine (udp://...?tracks=): no tracker runs, the servers' CAT048 tracks fill
// the tracking snapshot, a bad tracks= refuses the source with the reason.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/asterix/cat048_encoder.hpp"
#include "app/engine/engine.hpp"
#include "app/engine/remote_track_view.hpp"
#include "app/sim/udp_sender.hpp"
#include "tests/support/free_port.hpp"

namespace sweepline::engine {
namespace {

EngineSettings settings() {
  EngineSettings s;
  s.processing.backend = "cpu";
  s.processing.size = 256;
  return s;
}

TEST(EngineRemote, ServersTracksReplaceTheTracker) {
  Engine eng(settings());
  const int video = test::free_udp_port(), tracks = test::free_udp_port();
  const std::string uri =
      "udp://127.0.0.1:" + std::to_string(video) + "?tracks=127.0.0.1:" + std::to_string(tracks);
  ASSERT_TRUE(eng.open_source(uri)) << eng.source_view().error;
  ASSERT_NE(eng.remote_tracks(), nullptr);
  EXPECT_TRUE(eng.tracking().remote);
  ASSERT_EQ(eng.tracking().remote_sources.size(), 1u);
  EXPECT_TRUE(eng.tracking().remote_sources[0].stale);  // nothing yet: no data

  cat048::TargetReport r;
  r.sac = 3;
  r.sic = 4;
  r.tod_s = 500;
  r.rho_nm = 2;
  r.theta_deg = 180;
  r.track_number = 77;
  r.x_nm = 0;
  r.y_nm = -2;
  r.ground_speed_nm_s = 0;
  r.heading_deg = 0;
  sim::UdpSender tx("127.0.0.1:" + std::to_string(tracks));
  tx.send(cat048::encode_block(r));
  for (int k = 0; k < 200 && eng.tracking().tracks.empty(); ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    eng.update();
  }
  const TrackingView& v = eng.tracking();
  ASSERT_EQ(v.tracks.size(), 1u);
  EXPECT_EQ(remote_track_number(v.tracks[0].id), 77);
  EXPECT_EQ(remote_source_of(v.tracks[0].id), 0);
  EXPECT_NEAR(v.tracks[0].y_m, -2 * 1852.0, 1.0);
  EXPECT_FALSE(v.remote_sources[0].stale);
  EXPECT_EQ(v.remote_sources[0].sac, 3);
  EXPECT_EQ(v.remote_sources[0].sic, 4);
  EXPECT_EQ(v.updates, 0u);  // no tracker of its own
  EXPECT_FALSE(eng.acquire(0, 0).has_value());

  // The server goes away: after the stale time the display says "no data" with the seconds since
  // the last update, its tracks leave; a new scan brings them back.
  std::this_thread::sleep_for(std::chrono::milliseconds(int(net::kRemoteStaleMinS * 1000) + 300));
  eng.update();
  EXPECT_TRUE(eng.tracking().remote_sources[0].stale);
  EXPECT_GT(eng.tracking().remote_sources[0].since_update_s, net::kRemoteStaleMinS);
  EXPECT_TRUE(eng.tracking().tracks.empty());
  EXPECT_NE(eng.tracking().warning.find("no data from 127.0.0.1:"), std::string::npos)
      << eng.tracking().warning;
  r.tod_s = 600;
  tx.send(cat048::encode_block(r));
  for (int k = 0; k < 200 && eng.tracking().tracks.empty(); ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    eng.update();
  }
  EXPECT_EQ(eng.tracking().tracks.size(), 1u);
  EXPECT_FALSE(eng.tracking().remote_sources[0].stale);
  EXPECT_TRUE(eng.tracking().warning.empty()) << eng.tracking().warning;

  // Another source without tracks=: the tracker is back.
  eng.close_source();
  EXPECT_EQ(eng.remote_tracks(), nullptr);
  EXPECT_FALSE(eng.tracking().remote);
  EXPECT_TRUE(eng.tracking().remote_sources.empty());
  EXPECT_TRUE(eng.tracking().enabled);
}

TEST(EngineRemote, BadTracksOptionRefusesTheSource) {
  Engine eng(settings());
  EXPECT_FALSE(eng.open_source("udp://127.0.0.1:9?tracks=127.0.0.1"));
  EXPECT_NE(eng.source_view().error.find("tracks must be GROUP:PORT"), std::string::npos)
      << eng.source_view().error;
  EXPECT_EQ(eng.remote_tracks(), nullptr);
}

}  // namespace
}  // namespace sweepline::engine
