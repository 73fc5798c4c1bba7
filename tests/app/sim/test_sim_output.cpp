// Determinism, scenario parameters, producer styles and the sim:// URI parser.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <set>

#include "app/common/check.hpp"
#include "app/sim/scene.hpp"
#include "app/sim/sim_source.hpp"
#include "sim_test_util.hpp"

namespace sweepline::simtest {
namespace {

sim::Scenario small(const char* name = "harbour", uint64_t seed = 1) {
  sim::Scenario s = sim::make_scenario(name);
  s.seed = seed;
  s.radar.radials = 1024;
  s.radar.cells = 512;
  return s;
}

std::string simulate(const sim::Scenario& s, const std::string& file, uint64_t rotations = 2) {
  sim::SimRunOptions o;
  o.scenario = s;
  o.rotations = rotations;
  o.out_path = temp_path(file);
  o.truth_path = temp_path(file + ".truth");
  sim::run_simulation(o);
  return o.out_path;
}

TEST(SimDeterminism, SameSeedSameBytesOtherSeedOtherBytes) {
  for (const char* name : {"harbour", "stress"}) {
    const auto a = read_bytes(simulate(small(name, 5), std::string(name) + "_a.pcap"));
    const auto b = read_bytes(simulate(small(name, 5), std::string(name) + "_b.pcap"));
    const auto c = read_bytes(simulate(small(name, 6), std::string(name) + "_c.pcap"));
    ASSERT_GT(a.size(), 100000u);
    EXPECT_TRUE(a == b) << name << ": same seed, different bytes";
    EXPECT_FALSE(a == c) << name << ": different seeds, same bytes";
    EXPECT_EQ(read_bytes(temp_path(std::string(name) + "_a.pcap.truth")),
              read_bytes(temp_path(std::string(name) + "_b.pcap.truth")));
  }
}

TEST(SimDeterminism, ChunkedRenderEqualsWholeRotation) {
  sim::Scenario s = small("stress", 9);
  sim::Scene scene(s);
  scene.seek(3);
  std::vector<uint8_t> whole, parts(size_t(s.radar.radials) * s.radar.cells);
  scene.render_rotation(whole);
  for (int first = 0; first < s.radar.radials; first += 37) {
    const int n = std::min(37, s.radar.radials - first);
    scene.render(first, n, parts.data() + size_t(first) * s.radar.cells);
  }
  EXPECT_TRUE(whole == parts);
  // seek(n) from scratch equals stepping there one rotation at a time.
  sim::Scene stepped(s);
  for (int i = 0; i < 3; ++i) stepped.next_rotation();
  std::vector<uint8_t> again;
  stepped.render_rotation(again);
  EXPECT_TRUE(whole == again);
  // Consecutive rotations differ (noise is fresh, vessels move).
  stepped.next_rotation();
  stepped.render_rotation(again);
  EXPECT_FALSE(whole == again);
}

TEST(SimParameters, GeometryRateResolutionAndCompressionAreHonoured) {
  sim::Scenario s = small("open-sea", 2);
  s.radar.radials = 720;
  s.radar.cells = 300;
  s.radar.range_nm = 3;
  s.radar.rpm = 40;
  s.radar.res_bits = 2;
  s.radar.compress = true;
  s.vessels.count = 7;
  const Replayed rp = replay(simulate(s, "params.pcap", 3), s);
  EXPECT_EQ(rp.decode_errors, 0u);
  int video = 0;
  std::vector<double> summary_times;
  std::set<uint16_t> azimuths;
  for (const auto& r : rp.records) {
    if (r.type == cat240::MessageType::Summary) {
      summary_times.push_back(r.capture_time);
      continue;
    }
    ++video;
    ASSERT_TRUE(r.header.has_value());
    EXPECT_EQ(r.nb_cells, 300u);
    EXPECT_EQ(r.res_bits, 2);
    EXPECT_TRUE(r.compressed);
    EXPECT_EQ(r.header->unit, cat240::CellDurUnit::Femto);
    // Range: 300 cells of CELL_DUR reach the instrumented range.
    const double range = 300.0 * double(r.header->cell_dur) * 1e-15 * 299792458.0 / 2;
    EXPECT_NEAR(range, 3 * 1852.0, 1e-3);
    azimuths.insert(r.header->start_az);
  }
  EXPECT_EQ(video, 3 * 720);
  EXPECT_EQ(azimuths.size(), 720u);
  ASSERT_EQ(summary_times.size(), 3u);
  EXPECT_NEAR(summary_times[1] - summary_times[0], 60.0 / 40, 1e-6);
  EXPECT_NEAR(summary_times[2] - summary_times[1], 60.0 / 40, 1e-6);
  const auto truth = read_truth(temp_path("params.pcap.truth"));
  EXPECT_EQ(truth.size(), 3u * 7u);
  for (const auto& t : truth) {
    EXPECT_LE(t.range_m, 3 * 1852.0);
    EXPECT_NEAR(std::hypot(t.x_m, t.y_m), t.range_m, 0.02);
  }
}

TEST(SimParameters, PartsSwitchOnAndOff) {
  // Mean level of a rotation with each part alone: noise only is dim, land is bright.
  auto mean_of = [](const sim::Scenario& s) {
    sim::Scene scene(s);
    std::vector<uint8_t> f;
    scene.render_rotation(f);
    double m = 0;
    for (uint8_t v : f) m += v;
    return m / double(f.size());
  };
  sim::Scenario base = small("harbour");
  base.clutter.enabled = base.rain.enabled = base.coast.enabled = false;
  base.vessels.count = 0;
  const double noise = mean_of(base);
  EXPECT_NEAR(noise, base.noise.mean, 1.0);
  sim::Scenario off = base;
  off.noise.enabled = false;
  EXPECT_EQ(mean_of(off), 0.0);
  sim::Scenario coast = base;
  coast.coast.enabled = true;
  EXPECT_GT(mean_of(coast), noise + 10);
  sim::Scenario clutter = base;
  clutter.clutter.enabled = true;
  EXPECT_GT(mean_of(clutter), noise + 0.2);
  sim::Scenario rain = base;
  rain.rain.enabled = true;
  EXPECT_GT(mean_of(rain), noise + 0.2);
}

TEST(SimStyles, RecordsAndDatagramsFollowTheStyle) {
  for (sim::Style st : {sim::Style::NextAz, sim::Style::ZeroWidth, sim::Style::MultiRecord,
                        sim::Style::Split1400}) {
    sim::Scenario s = small("vessels50");
    s.radar.cells = 4096;
    s.style = st;
    const Replayed rp =
        replay(simulate(s, std::string("style_") + sim::to_string(st) + ".pcap", 1), s);
    EXPECT_EQ(rp.decode_errors, 0u);
    std::map<uint16_t, std::set<uint32_t>> start_rg;  // per START_AZ
    for (size_t i = 0; i < rp.records.size(); ++i) {
      const auto& r = rp.records[i];
      if (r.type != cat240::MessageType::Video) continue;
      const int a = r.header->start_az * s.radar.radials / 65536;
      start_rg[r.header->start_az].insert(r.header->start_rg);
      if (st == sim::Style::ZeroWidth) {
        EXPECT_EQ(r.header->start_az, r.header->end_az);
        EXPECT_FALSE(r.tod.has_value());
      } else {
        EXPECT_EQ(r.header->end_az, uint16_t((a + 1) * 65536 / s.radar.radials));
        EXPECT_TRUE(r.tod.has_value());
      }
    }
    EXPECT_EQ(start_rg.size(), size_t(s.radar.radials));
    size_t max_dgram = 0, max_recs = 0;
    for (size_t i = 0; i < rp.datagram_sizes.size(); ++i) {
      max_dgram = std::max(max_dgram, rp.datagram_sizes[i]);
      max_recs = std::max(max_recs, rp.records_per_datagram[i]);
    }
    const size_t split = start_rg.begin()->second.size();
    switch (st) {
      case sim::Style::MultiRecord:
        EXPECT_GT(max_recs, 1u);
        EXPECT_EQ(split, 1u);
        break;
      case sim::Style::Split1400:
        EXPECT_LE(max_dgram, 1400u);
        EXPECT_GT(split, 1u);
        EXPECT_EQ(max_recs, 1u);
        break;
      default:
        EXPECT_EQ(max_recs, 1u);
        EXPECT_EQ(split, 1u);
    }
  }
}

TEST(SimUri, ParsesScenarioAndKeys) {
  const auto s =
      sim::parse_sim_uri("sim://vessels1869?seed=42&rpm=30&radials=2048&range_nm=6&res=4");
  EXPECT_EQ(s.name, "vessels1869");
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.radar.rpm, 30);
  EXPECT_EQ(s.radar.radials, 2048);
  EXPECT_EQ(s.radar.range_nm, 6);
  EXPECT_EQ(s.radar.res_bits, 4);
  EXPECT_EQ(s.vessels.count, 1869);
  EXPECT_EQ(sim::parse_sim_uri(kDefaultSourceUri).name, "harbour");
  EXPECT_EQ(sim::parse_sim_uri("sim://").name, "harbour");
}

TEST(SimUri, BadUrisThrow) {
  for (const char* bad : {"sim://nowhere", "sim://harbour?seed=abc", "sim://harbour?bogus=1",
                          "sim://harbour?radials=3", "sim://harbour?seed", "sim://harbour?rpm=-4",
                          "sim://harbour?res=3", "file://x", "sim://harbour?cells=100000000",
                          "sim://harbour?style=odd", "sim://harbour?compress=maybe",
                          "sim://harbour?vessels=-1", "sim://harbour?range_nm=nan"}) {
    EXPECT_THROW(open_sim_source(bad, {}), Error) << bad;
  }
}

}  // namespace
}  // namespace sweepline::simtest

namespace sweepline::simtest {
namespace {

// Live output over loopback: every datagram arrives, identical to the capture file's payloads.
TEST(SimUdp, StreamsEveryDatagramOverLoopback) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  ASSERT_GE(fd, 0);
  const int rcvbuf = 16 << 20;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const int port = ntohs(addr.sin_port);
  timeval tv{0, 200000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);

  sim::Scenario s = sim::make_scenario("vessels50");
  s.radar.radials = 256;
  s.radar.cells = 256;
  s.radar.rpm = 600;  // 0.1 s per rotation: paced at real time, the run takes 0.2 s
  sim::SimRunOptions o;
  o.scenario = s;
  o.rotations = 2;
  o.udp = "127.0.0.1:" + std::to_string(port);
  o.out_path = temp_path("udp.ast");
  o.speed = 1;
  const auto t0 = std::chrono::steady_clock::now();
  const auto p = sim::run_simulation(o);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(took, 0.15) << "not paced";
  std::vector<uint8_t> got, buf(70000);
  uint64_t n = 0;
  for (;;) {
    const ssize_t k = ::recv(fd, buf.data(), buf.size(), 0);
    if (k <= 0) break;
    got.insert(got.end(), buf.begin(), buf.begin() + k);
    ++n;
  }
  ::close(fd);
  EXPECT_EQ(p.udp_dropped, 0u);
  EXPECT_EQ(n, p.datagrams);
  EXPECT_TRUE(got == read_bytes(o.out_path)) << "UDP payloads differ from the raw capture";
}

}  // namespace
}  // namespace sweepline::simtest

namespace sweepline::simtest {
namespace {

// Beamwidth and pulse length: a point-like vessel's echo is as wide as the beam (half-power of
// the two-way pattern, in amplitude here) and as long as the pulse, measured on the rendered
// rotation.
TEST(SimParameters, BeamwidthAndPulseLengthShapeTheEcho) {
  for (double bw : {1.2, 2.5}) {
    for (double pulse : {30.0, 90.0}) {
      sim::Scenario s = sim::make_scenario("vessels50");
      s.noise.enabled = false;
      s.radar.beamwidth_deg = bw;
      s.radar.pulse_m = pulse;
      s.vessels.count = 20;
      s.vessels.length_min_m = s.vessels.length_max_m = 2;
      sim::Scene scene(s);
      std::vector<uint8_t> f;
      scene.render_rotation(f);
      const int n = s.radar.radials, cells = s.radar.cells;
      int checked = 0;
      for (const auto& t : scene.truth()) {
        if (t.range_m < 6000) continue;  // far enough that the hull is a point
        ++checked;
        const int a0 = int(t.bearing_deg / 360.0 * n), c0 = int(t.range_m / s.radar.cell_m());
        int pa = a0, pc = c0, peak = 0;
        for (int da = -5; da <= 5; ++da)
          for (int dc = -5; dc <= 5; ++dc) {
            const int a = (a0 + da + n) % n, c = c0 + dc;
            if (f[size_t(a) * cells + c] > peak) {
              peak = f[size_t(a) * cells + c];
              pa = a;
              pc = c;
            }
          }
        ASSERT_GT(peak, 100);
        // The contiguous run at or above half the peak through the peak, in each direction.
        auto at = [&](int a, int c) { return int(f[size_t((a % n + n) % n) * cells + c]); };
        int wa = 1, wc = 1;
        for (int a = pa + 1; at(a, pc) * 2 >= peak; ++a) ++wa;
        for (int a = pa - 1; at(a, pc) * 2 >= peak; --a) ++wa;
        for (int c = pc + 1; c < cells && at(pa, c) * 2 >= peak; ++c) ++wc;
        for (int c = pc - 1; c >= 0 && at(pa, c) * 2 >= peak; --c) ++wc;
        EXPECT_NEAR(wa * s.radar.radial_deg(), bw, 2.5 * s.radar.radial_deg()) << "vessel " << t.id;
        EXPECT_NEAR(wc * s.radar.cell_m(), pulse, 2.5 * s.radar.cell_m()) << "vessel " << t.id;
      }
      EXPECT_GE(checked, 10);
    }
  }
}

}  // namespace
}  // namespace sweepline::simtest
