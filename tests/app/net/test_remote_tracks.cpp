// A display client's tracks (app/net/remote_tracks): scans grouped by time of day, tracks ended
// by TRE or left out of a complete scan, several sources kept apart, malformed datagrams counted
// and skipped, a silent source going stale ("no data") and recovering; the URI's tracks= option.
#include <gtest/gtest.h>

#include <thread>

#include "app/asterix/cat048_encoder.hpp"
#include "app/common/check.hpp"
#include "app/net/remote_tracks.hpp"
#include "app/sim/udp_sender.hpp"
#include "app/source/source_uri.hpp"

namespace sweepline {
namespace {

cat048::TargetReport report(uint16_t tn, double tod, double rho_nm = 2.0, bool tre = false,
                            uint8_t sic = 1) {
  cat048::TargetReport r;
  r.sac = 0;
  r.sic = sic;
  r.tod_s = tod;
  r.rho_nm = rho_nm;
  r.theta_deg = 45;
  r.track_number = tn;
  r.x_nm = rho_nm * 0.70710678;
  r.y_nm = rho_nm * 0.70710678;
  r.ground_speed_nm_s = 10.0 / 3600.0;
  r.heading_deg = 90;
  cat048::TrackStatus st;
  st.tre = tre;
  r.status = st;
  return r;
}

std::vector<uint8_t> block(std::vector<cat048::TargetReport> reports) {
  return cat048::encode_block(std::span<const cat048::TargetReport>(reports));
}

std::vector<int> numbers(const net::RemoteTrackPicture& p, int source = -1) {
  std::vector<int> out;
  for (const net::RemoteTrack& t : p.tracks())
    if (source < 0 || t.source == source) out.push_back(*t.report.track_number);
  return out;
}

TEST(RemoteTracks, ScansReplaceEachOtherAndTreEnds) {
  net::RemoteTrackPicture p({"239.0.2.3:8612"}, 0.0);
  EXPECT_TRUE(p.sources()[0].stale);  // nothing yet
  EXPECT_FALSE(p.sources()[0].seen);
  p.ingest(0, block({report(1, 100.0), report(2, 100.0)}), 0.1);
  p.ingest(0, block({report(3, 100.0)}), 0.11);  // the same scan, a second datagram
  EXPECT_EQ(numbers(p), (std::vector<int>{1, 2, 3}));
  EXPECT_FALSE(p.sources()[0].stale);
  EXPECT_EQ(p.sources()[0].scans, 1u);
  // The next scan: track 2 ends (TRE), track 3 is not reported again. While the scan arrives the
  // previous one's tracks stay; the scan after it leaves 3 out for good.
  p.ingest(0, block({report(1, 102.5), report(2, 102.5, 2.0, true)}), 2.6);
  EXPECT_EQ(numbers(p), (std::vector<int>{1, 3}));
  p.ingest(0, block({report(1, 105.0)}), 5.1);
  EXPECT_EQ(numbers(p), (std::vector<int>{1}));
  EXPECT_DOUBLE_EQ(p.sources()[0].scan_period_s, 2.5);
  ASSERT_EQ(p.scans(0).size(), 3u);
  EXPECT_EQ(p.scans(0)[1].ended, (std::vector<uint16_t>{2}));
  EXPECT_EQ(p.scans(0)[0].tracks.size(), 3u);
  EXPECT_EQ(p.sources()[0].track_reports, 6u);
}

TEST(RemoteTracks, SilentSourceGoesStaleAndRecovers) {
  net::RemoteTrackPicture p({"a:1", "b:2"}, 0.0);
  p.ingest(0, block({report(7, 10.0)}), 1.0);
  p.ingest(1, block({report(7, 10.0, 3.0, false, 2)}), 1.0);
  p.ingest(0, block({report(7, 12.5)}), 3.5);
  p.ingest(1, block({report(7, 12.5, 3.0, false, 2)}), 3.5);
  EXPECT_EQ(p.tracks().size(), 2u);  // the same track number from two radars: two tracks
  EXPECT_EQ(p.sources()[1].sic, 2);
  // Source 1 goes silent: stale after 2.5 scan periods (6.25 s), its tracks leave.
  p.ingest(0, block({report(7, 15.0)}), 6.0);
  p.age(9.0);
  EXPECT_FALSE(p.sources()[1].stale);
  p.ingest(0, block({report(7, 17.5)}), 8.5);
  p.age(10.0);
  EXPECT_TRUE(p.sources()[1].stale);
  EXPECT_NEAR(p.sources()[1].since_update_s, 6.5, 1e-9);
  EXPECT_EQ(numbers(p, 1), std::vector<int>{});
  EXPECT_EQ(numbers(p, 0), std::vector<int>{7});
  EXPECT_EQ(p.sources()[1].tracks, 0u);
  // It comes back (a restarted server): its new scan alone, none of the old picture.
  p.ingest(1, block({report(9, 40.0, 3.0, false, 2)}), 30.0);
  EXPECT_FALSE(p.sources()[1].stale);
  EXPECT_EQ(numbers(p, 1), std::vector<int>{9});
}

TEST(RemoteTracks, StaleNeverBeforeTheMinimum) {
  net::RemoteTrackPicture p({"a:1"}, 0.0);
  p.ingest(0, block({report(1, 10.0)}), 1.0);
  p.ingest(0, block({report(1, 10.25)}), 1.25);  // 10x: a quarter-second scan
  p.age(1.25 + net::kRemoteStaleMinS - 0.1);
  EXPECT_FALSE(p.sources()[0].stale);
  p.age(1.25 + net::kRemoteStaleMinS + 0.1);
  EXPECT_TRUE(p.sources()[0].stale);
}

TEST(RemoteTracks, MalformedDatagramsCountedAndSkipped) {
  net::RemoteTrackPicture p({"a:1"}, 0.0);
  std::vector<uint8_t> good = block({report(1, 10.0), report(2, 10.0)});
  std::vector<uint8_t> bad = good;
  bad[2] = uint8_t(bad.size() + 9);  // LEN past the datagram
  p.ingest(0, bad, 1.0);
  p.ingest(0, std::vector<uint8_t>{48, 0}, 1.0);  // too short for a block
  p.ingest(0, good, 1.1);
  EXPECT_EQ(numbers(p), (std::vector<int>{1, 2}));
  EXPECT_EQ(p.sources()[0].datagrams, 3u);
  uint64_t errors = 0;
  for (const auto& [why, n] : p.sources()[0].errors) errors += n;
  EXPECT_EQ(errors, 2u);
  // Plot reports (no track number) on a tracks group are skipped, counted.
  cat048::TargetReport plot = report(1, 11.0);
  plot.track_number.reset();
  plot.x_nm.reset();
  plot.y_nm.reset();
  plot.ground_speed_nm_s.reset();
  plot.heading_deg.reset();
  plot.status.reset();
  p.ingest(0, block({plot}), 1.2);
  EXPECT_EQ(p.sources()[0].other_reports, 1u);
  EXPECT_EQ(p.sources()[0].scans, 1u);
}

TEST(RemoteTracks, ReceivesOverLoopback) {
  net::UdpConfig c;
  c.address = "127.0.0.1";
  c.port = 0;
  c.rcvbuf_bytes = net::kRemoteRcvbufBytes;
  net::RemoteTracks rt({c});
  sim::UdpSender tx("127.0.0.1:" + std::to_string(rt.port(0)));
  tx.send(block({report(5, 200.0), report(6, 200.0)}));
  for (int k = 0; k < 200 && rt.picture().tracks().size() < 2; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    rt.poll();
  }
  EXPECT_EQ(numbers(rt.picture()), (std::vector<int>{5, 6}));
  EXPECT_EQ(rt.picture().sources()[0].kernel_dropped, 0u);
  EXPECT_EQ(rt.picture().sources()[0].endpoint, "127.0.0.1:0");
}

TEST(RemoteTracks, UriOption) {
  const std::string uri =
      "udp://239.0.2.1:8610?tracks=239.0.2.3:8612,239.0.3.3:8612&tracks=127.0.0.1:9000&iface=lo";
  const source::ParsedUri u = source::parse_uri(uri);
  const auto eps = source::remote_track_endpoints(u, uri);
  ASSERT_EQ(eps.size(), 3u);
  EXPECT_EQ(eps[0].address, "239.0.2.3");
  EXPECT_EQ(eps[0].port, 8612);
  EXPECT_EQ(eps[0].interface, "lo");
  EXPECT_EQ(eps[1].address, "239.0.3.3");
  EXPECT_EQ(eps[2].address, "127.0.0.1");
  EXPECT_EQ(eps[2].interface, "");  // iface= only for multicast groups
  EXPECT_NO_THROW(source::live_options(u, {}, uri));
  EXPECT_TRUE(
      source::remote_track_endpoints(source::parse_uri("udp://:8600"), "udp://:8600").empty());
  auto refused = [](const std::string& bad, const std::string& why) {
    try {
      const source::ParsedUri b = source::parse_uri(bad);
      source::live_options(b, {}, bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused("udp://239.0.2.1:8610?tracks=239.0.2.3", "tracks must be GROUP:PORT");
  refused("udp://239.0.2.1:8610?tracks=239.0.2.3:0", "the tracks port");
  refused("udp://239.0.2.1:8610?tracks=239.0.2.3:70000", "the tracks port");
  refused("udp://239.0.2.1:8610?tracks=nowhere:8612", "not an IPv4 address");
  refused("udp://239.0.2.1:8610?tracks=239.0.2.1:8610", "the video's own");
  refused("udp://239.0.2.1:8610?tracks=239.0.2.3:8612,239.0.2.3:8612", "given twice");
  refused("udp://239.0.2.1:8610?tracks=", "tracks must be GROUP:PORT");
}

}  // namespace
}  // namespace sweepline
