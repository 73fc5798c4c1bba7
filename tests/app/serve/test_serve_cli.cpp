// `sweepline serve` as a user runs it (loopback only, 127.0.0.1): a finite simulated source with
// --record and --report, stopped by SIGTERM, killed by SIGKILL, and refused options.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/asterix/cat034_decoder.hpp"
#include "app/asterix/cat048_decoder.hpp"
#include "app/asterix/cat240_decoder.hpp"
#include "app/serve/pcap_scan.hpp"
#include "tests/support/child_process.hpp"
#include "tests/support/free_port.hpp"
#include "tests/support/run_command.hpp"

namespace fs = std::filesystem;
using namespace std::chrono;
using sweepline::serve::scan_pcap;

namespace {

// Small and fast: 1024 x 1024 cells a rotation, processed at 512 pixels on the CPU.
const std::string kScene = "sim://harbour?seed=1&rpm=24&radials=1024&cells=1024";

fs::path scratch_dir() {
  const fs::path d = fs::temp_directory_path() / ("swl_serve_" + std::to_string(getpid()));
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct Ports {
  int video = sweepline::test::free_udp_port(), plots = sweepline::test::free_udp_port(),
      tracks = sweepline::test::free_udp_port(), service = sweepline::test::free_udp_port(),
      nmea = sweepline::test::free_udp_port();
  std::vector<std::string> args() const {
    auto ep = [](int p) { return "127.0.0.1:" + std::to_string(p); };
    return {"--video-out", ep(video),       "--plots-out", ep(plots),    "--tracks-out",
            ep(tracks),    "--service-out", ep(service),   "--nmea-out", ep(nmea)};
  }
};

std::vector<std::string> serve_args(const std::string& source, const Ports& ports,
                                    const fs::path& pcap, const fs::path& report) {
  std::vector<std::string> a = {"serve", "--source", source, "--backend", "cpu", "--size", "512"};
  for (const auto& s : ports.args()) a.push_back(s);
  a.insert(a.end(), {"--record", pcap.string(), "--report", report.string()});
  return a;
}

using sweepline::test::Child;

// Every datagram of the recording by destination port, each checked to decode with no error.
struct Decoded {
  std::map<int, int> datagrams;  // by port
  std::vector<sweepline::cat240::Record> video;
  std::vector<sweepline::cat048::TargetReport> plots, tracks;
  std::vector<sweepline::cat034::ServiceMessage> service;
  std::string nmea;
};

Decoded decode_recording(const sweepline::serve::PcapScan& scan, const Ports& p) {
  Decoded d;
  sweepline::cat240::Decoder v;
  sweepline::cat048::Decoder c48;
  sweepline::cat034::Decoder c34;
  for (const auto& g : scan.datagrams) {
    EXPECT_EQ(g.dst_ip, 0x7F000001u);
    ++d.datagrams[g.dst_port];
    if (g.dst_port == p.video) {
      std::vector<sweepline::cat240::Record> recs;
      v.decode(g.payload, g.time, recs);
      for (auto& r : recs)  // the video summaries the producer sends aside
        if (r.type == sweepline::cat240::MessageType::Video) d.video.push_back(std::move(r));
    }
    if (g.dst_port == p.plots) c48.decode(g.payload, g.time, d.plots);
    if (g.dst_port == p.tracks) c48.decode(g.payload, g.time, d.tracks);
    if (g.dst_port == p.service) c34.decode(g.payload, g.time, d.service);
    if (g.dst_port == p.nmea) d.nmea.append(g.payload.begin(), g.payload.end());
  }
  EXPECT_EQ(v.stats().error_count(), 0u);
  EXPECT_EQ(c48.stats().error_count(), 0u);
  EXPECT_EQ(c34.stats().error_count(), 0u);
  return d;
}

TEST(ServeCli, FiniteSourceStreamsEveryOutputAndEndsWithTheSource) {
  const fs::path dir = scratch_dir();
  const fs::path pcap = dir / "finite.pcap", report = dir / "finite.json";
  const Ports ports;
  // Tracks are reported from the sixth rotation on (the tracker's confirmation): 8 rotations at
  // 24 rpm paced 4x faster than the radar, 5 s.
  auto args = serve_args(kScene + "&rotations=8", ports, pcap, report);
  args.insert(args.end(), {"--speed", "4"});
  Child c(args, dir / "finite.out", dir / "finite.err");
  ASSERT_TRUE(c.started());
  const int rc = c.wait(50);
  ASSERT_EQ(rc, 0) << c.err();
  EXPECT_NE(slurp(dir / "finite.out").find("the source ended"), std::string::npos);

  const auto scan = scan_pcap(pcap.string());
  EXPECT_FALSE(scan.truncated);
  const Decoded d = decode_recording(scan, ports);
  const auto j = nlohmann::json::parse(slurp(report));
  const auto& rots = j["rotations"];
  ASSERT_EQ(rots.size(), 8u);
  EXPECT_EQ(j["recorded_datagrams"].get<size_t>(), scan.datagrams.size());

  // Video: every radial of every rotation, re-sent.
  EXPECT_EQ(d.video.size(), 8u * 1024u);
  // CAT034: a north marker per rotation after the first, sector crossings between.
  int north = 0;
  for (const auto& m : d.service) north += m.type == sweepline::cat034::MessageType::NorthMarker;
  EXPECT_GE(north, 7);
  EXPECT_GT(d.service.size(), size_t(north) * 10);
  // CAT048 plots: as many as the report lists.
  size_t plots = 0;
  for (const auto& r : rots) plots += r["plots"].get<size_t>();
  EXPECT_EQ(d.plots.size(), plots);
  EXPECT_GT(plots, 0u);
  for (const auto& r : d.plots) EXPECT_FALSE(r.is_track());

  // CAT048 tracks: grouped by their time of day, one group per rotation; each group's track
  // numbers (end-of-track reports aside) are the report's list for that rotation.
  std::map<long, std::set<int>> by_tod;
  std::map<long, std::set<int>> ended_by_tod;
  for (const auto& r : d.tracks) {
    ASSERT_TRUE(r.is_track());
    const long key = std::lround(r.tod_s * 128);
    (r.status && r.status->tre ? ended_by_tod : by_tod)[key].insert(*r.track_number);
  }
  size_t tracks_total = 0;
  size_t last_count = 0;
  for (const auto& r : rots) {
    std::set<int> want;
    for (const auto& t : r["tracks"]) want.insert(t["track_number"].get<int>());
    tracks_total += want.size();
    last_count = want.size();
    if (want.empty()) continue;
    const long key = std::lround(r["track_tod_s"].get<double>() * 128);
    EXPECT_EQ(by_tod[key], want) << "rotation " << r["rotation"];
  }
  EXPECT_GT(last_count, 0u) << "the harbour has tracks after 8 rotations";
  size_t sent = 0;
  for (const auto& [k, s] : by_tod) sent += s.size();
  EXPECT_EQ(sent, tracks_total);
  // NMEA: a TTM per track per rotation.
  size_t ttm = 0;
  for (size_t p = d.nmea.find("$RATTM"); p != std::string::npos; p = d.nmea.find("$RATTM", p + 1))
    ++ttm;
  EXPECT_EQ(ttm, tracks_total);
  // Bandwidth per stream in the report.
  EXPECT_GT(j["outputs"]["video"]["bytes_per_rotation"].get<double>(), 1024.0 * 1024);
  EXPECT_GT(j["outputs"]["tracks"]["kbit_s_at_24rpm"].get<double>(), 0.0);
}

TEST(ServeCli, ReducedVideoIsSmallerAndDecodes) {
  const fs::path dir = scratch_dir();
  const fs::path pcap = dir / "reduced.pcap", report = dir / "reduced.json";
  const Ports ports;
  auto args = serve_args(kScene + "&rotations=2", ports, pcap, report);
  args.insert(args.end(), {"--speed", "0", "--video-range-decimation", "4",
                           "--video-azimuth-decimation", "2", "--video-bits", "4", "--video-zlib"});
  Child c(args, dir / "reduced.out", dir / "reduced.err");
  ASSERT_EQ(c.wait(50), 0) << c.err();
  const Decoded d = decode_recording(scan_pcap(pcap.string()), ports);
  EXPECT_EQ(d.video.size(), 2u * 512u);
  for (const auto& r : d.video) {
    EXPECT_EQ(r.nb_cells, 256u);
    EXPECT_EQ(r.res_bits, 4);
    EXPECT_TRUE(r.compressed);
  }
  const auto j = nlohmann::json::parse(slurp(report));
  // 8x fewer cells, 2x fewer bits, compressed: well under a tenth of the full video's 1 MB.
  EXPECT_LT(j["outputs"]["video"]["bytes_per_rotation"].get<double>(), 1024.0 * 1024 / 10);
  EXPECT_EQ(j["video_reduction"], "range/4, azimuth/2, 4-bit, zlib");
}

TEST(ServeCli, SigtermStopsCleanlyWithAValidRecording) {
  const fs::path dir = scratch_dir();
  const fs::path pcap = dir / "term.pcap", report = dir / "term.json";
  const Ports ports;
  Child c(serve_args(kScene, ports, pcap, report), dir / "term.out", dir / "term.err");
  ASSERT_TRUE(c.started());
  ASSERT_TRUE(c.wait_until([&] { return c.err().find("serving") != std::string::npos; }, 20));
  std::this_thread::sleep_for(seconds(6));  // two rotations and more
  c.signal(SIGTERM);
  ASSERT_EQ(c.wait(30), 0) << c.err();
  EXPECT_NE(slurp(dir / "term.out").find("stopped by SIGTERM"), std::string::npos);
  const auto scan = scan_pcap(pcap.string());
  EXPECT_FALSE(scan.truncated);
  const auto j = nlohmann::json::parse(slurp(report));
  EXPECT_TRUE(j["stopped"].get<bool>());
  EXPECT_EQ(j["recorded_datagrams"].get<size_t>(), scan.datagrams.size());
  EXPECT_GE(j["rotations"].size(), 1u);
  const Decoded d = decode_recording(scan, ports);
  EXPECT_GT(d.video.size(), 1024u);
}

TEST(ServeCli, SigkillLeavesARecordingReadableToTheLastWholeDatagram) {
  const fs::path dir = scratch_dir();
  const fs::path pcap = dir / "kill.pcap", report = dir / "kill.json";
  const Ports ports;
  Child c(serve_args(kScene, ports, pcap, report), dir / "kill.out", dir / "kill.err");
  ASSERT_TRUE(c.started());
  // Killed while the video streams (about 430 datagrams a second at this size).
  ASSERT_TRUE(c.wait_until(
      [&] {
        std::error_code ec;
        const auto size = fs::file_size(pcap, ec);
        return !ec && size > 3'000'000;
      },
      30));
  c.signal(SIGKILL);
  int sig = 0;
  c.wait(10, &sig);
  EXPECT_EQ(sig, SIGKILL);
  EXPECT_FALSE(fs::exists(report));  // never written: the process had no chance
  const auto scan = scan_pcap(pcap.string());
  // Flushed per datagram: what was written is whole, bar at most the record being written.
  EXPECT_LT(scan.trailing_bytes, 8192u);
  const Decoded d = decode_recording(scan, ports);
  EXPECT_GT(d.video.size(), 2000u);
}

TEST(ServeCli, BadOptionsAreRefusedNamingTheOption) {
  using sweepline::test::run_sweepline;
  struct Case {
    std::string args, option;
  };
  const std::vector<Case> cases = {
      {"serve --video-bits 3", "--video-bits"},
      {"serve --plots-out nowhere", "--plots-out"},
      {"serve --tracks-out 127.0.0.1:0", "--tracks-out"},
      {"serve --video-range-decimation 0", "--video-range-decimation"},
      {"serve --video-azimuth-decimation 65", "--video-azimuth-decimation"},
      {"serve --backend opencl", "--backend"},
      {"serve --source bogus://x", "--source"},
      {"serve --ttl 300", "--ttl"},
      {"serve --speed -1", "--speed"},
      {"serve --config /nonexistent/settings.json", "--config"},
      {"serve --nmea-in tcp://1.2.3.4:5", "--nmea-in"},
  };
  for (const auto& k : cases) {
    const auto r = run_sweepline(k.args);
    EXPECT_EQ(r.status, 2) << k.args << "\n" << r.output;
    EXPECT_NE(r.output.find(k.option), std::string::npos) << k.args << "\n" << r.output;
  }
}

TEST(ServeCli, ASourceThatCannotOpenIsAnError) {
  const auto r = sweepline::test::run_sweepline(
      "serve --source /nonexistent/capture.pcap --video-out off --plots-out off --tracks-out off "
      "--service-out off --nmea-out off");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("capture.pcap"), std::string::npos) << r.output;
}

TEST(ServeCli, ABadSettingsFileIsRefusedNamingTheKey) {
  const fs::path dir = scratch_dir();
  const fs::path cfg = dir / "bad.json";
  std::ofstream(cfg) << R"({"serve": {"video_bits": 3}})";
  const auto r = sweepline::test::run_sweepline("serve --config " + cfg.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("bits"), std::string::npos) << r.output;
  std::ofstream(cfg) << R"({"serve": {"plots": "not-an-endpoint"}})";
  const auto r2 = sweepline::test::run_sweepline("serve --config " + cfg.string());
  EXPECT_EQ(r2.status, 1) << r2.output;
  EXPECT_NE(r2.output.find("serve.plots"), std::string::npos) << r2.output;
}

}  // namespace
