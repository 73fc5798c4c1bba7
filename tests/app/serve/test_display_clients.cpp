// Issue 30's loopback load test: one `sweepline serve` on the stress scene at real time, eight
// headless display clients (`sweepline view --headless`, Mesa's surfaceless EGL on a machine
// without a GPU) subscribed to its video and its CAT048 tracks by multicast looped back on this
// host (TTL 0: nothing leaves the machine). Every client must count every datagram the server
// sent (video and tracks, none dropped by the kernel or its queue, no CAT240 message index gap)
// and hold, for every rotation the server reported, the very track list the server sent. The
// 10x figure is a manual run (docs/perf/serve.md). Skips with the reason when multicast cannot
// loop back here, or when this build's `view` cannot run headless (no GUI, no EGL).
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "app/asterix/cat048_record.hpp"
#include "app/common/check.hpp"
#include "app/net/udp_receiver.hpp"
#include "app/sim/udp_sender.hpp"
#include "tests/support/child_process.hpp"
#include "tests/support/free_port.hpp"

namespace sweepline {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kClients = 8;
constexpr int kRotations = 5;  // at 24 rpm: 12.5 s of radar time
const char* const kVideoGroup = "239.255.83.1";
const char* const kTracksGroup = "239.255.83.3";

// Whether a datagram sent to a group with TTL 0 (as the server is told to send) comes back to a
// socket of this host that joined the group; the reason when not.
std::string multicast_loopback_refusal() {
  try {
    net::UdpConfig c;
    c.address = kTracksGroup;
    c.port = test::free_udp_port();
    net::UdpReceiver rx(c);
    sim::UdpSender tx(std::string(kTracksGroup) + ":" + std::to_string(rx.port()), 0);
    tx.send(std::vector<uint8_t>{48, 0, 3});
    std::vector<capture::Datagram> got;
    for (int k = 0; k < 100 && got.empty(); ++k) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      rx.drain(got);
    }
    if (got.empty()) return "a multicast datagram sent with TTL 0 did not loop back";
  } catch (const std::exception& e) {
    return std::string("multicast on this host: ") + e.what();
  }
  return "";
}

json read_json(const fs::path& p) {
  std::ifstream f(p);
  return json::parse(f);
}

double bearing_diff(double a, double b) {
  return std::abs(std::remainder(a - b, 360.0));
}

TEST(DisplayClients, EightHeadlessClientsGetEveryDatagramAndTheServersTracks) {
  if (!SWEEPLINE_EXE_HAS_GUI)
    GTEST_SKIP() << "this build's sweepline has no GUI: no display client";
  if (const std::string why = multicast_loopback_refusal(); !why.empty()) GTEST_SKIP() << why;
  const fs::path dir = fs::temp_directory_path() / ("swl_clients_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string video = std::string(kVideoGroup) + ":" + std::to_string(test::free_udp_port());
  const std::string tracks =
      std::string(kTracksGroup) + ":" + std::to_string(test::free_udp_port());

  std::vector<std::unique_ptr<test::Child>> clients;
  for (int k = 0; k < kClients; ++k) {
    const std::string n = std::to_string(k);
    clients.push_back(std::make_unique<test::Child>(
        std::vector<std::string>{"view", "--headless", "--egl", "surfaceless", "--source",
                                 "udp://" + video + "?tracks=" + tracks, "--frames", "1000",
                                 "--size", "128", "--backend", "cpu", "--timeout", "60",
                                 "--no-save", "--config", (dir / "settings.json").string(),
                                 "--report", (dir / ("client" + n + ".json")).string()},
        dir / ("client" + n + ".out"), dir / ("client" + n + ".err")));
    ASSERT_TRUE(clients.back()->started());
  }
  for (auto& c : clients) {
    if (!c->wait_for_stderr("source opened", 60)) {
      const std::string err = c->err();
      if (c->wait(0) != -2 &&
          (err.find("EGL") != std::string::npos || err.find("no GUI") != std::string::npos))
        GTEST_SKIP() << "headless view cannot run here: " << err;
      FAIL() << "a display did not open its source: " << err;
    }
  }

  test::Child server({"serve",
                      "--source",
                      "sim://stress?seed=1&rpm=24",
                      "--rotations",
                      std::to_string(kRotations),
                      "--speed",
                      "1",
                      "--backend",
                      "cpu",
                      "--video-out",
                      video,
                      "--tracks-out",
                      tracks,
                      "--plots-out",
                      "off",
                      "--service-out",
                      "off",
                      "--nmea-out",
                      "off",
                      "--ttl",
                      "0",
                      "--video-range-decimation",
                      "4",
                      "--video-azimuth-decimation",
                      "4",
                      "--report",
                      (dir / "server.json").string(),
                      "--quiet"},
                     dir / "server.out", dir / "server.err");
  ASSERT_TRUE(server.started());
  ASSERT_EQ(server.wait(100), 0) << server.err();
  // The last rotation's tracks follow its video by a few milliseconds: give them time to land,
  // then stop the displays as an operator would (their reports are complete up to the stop).
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  for (auto& c : clients) c->signal(SIGTERM);
  for (auto& c : clients) ASSERT_EQ(c->wait(30), 0) << c->err();

  const json s = read_json(dir / "server.json");
  const uint64_t video_sent = s["outputs"]["video"]["datagrams"];
  const uint64_t tracks_sent = s["outputs"]["tracks"]["datagrams"];
  ASSERT_EQ(s["rotations_processed"], kRotations);
  ASSERT_GT(tracks_sent, 0u);
  size_t rotations_with_tracks = 0;
  for (const json& r : s["rotations"]) rotations_with_tracks += r["tracks"].empty() ? 0 : 1;
  ASSERT_GE(rotations_with_tracks, size_t(kRotations - 2)) << "the stress scene made no tracks";

  for (int k = 0; k < kClients; ++k) {
    SCOPED_TRACE("client " + std::to_string(k));
    const json c = read_json(dir / ("client" + std::to_string(k) + ".json"));
    const json& in = c["input"];
    EXPECT_EQ(in["datagrams"], video_sent);
    EXPECT_EQ(in["lost_messages"], 0);
    EXPECT_EQ(in["kernel_dropped"], 0);
    EXPECT_EQ(in["queue_full"], 0);
    ASSERT_TRUE(c.contains("remote_tracks"));
    const json& src = c["remote_tracks"]["sources"][0];
    EXPECT_EQ(src["datagrams"], tracks_sent);
    EXPECT_EQ(src["kernel_dropped"], 0);
    EXPECT_EQ(src["queue_dropped"], 0);
    EXPECT_TRUE(src["errors"].empty()) << src["errors"].dump();
    EXPECT_EQ(src["sic"], 1);
    // No local tracker ran: the frames' tracks are the servers'.
    EXPECT_EQ(c["tracking"]["updates"], 0);

    for (const json& r : s["rotations"]) {
      if (r["tracks"].empty() && r["ended"].empty()) continue;  // nothing was sent
      const double tod = r["track_tod_s"];
      const json* scan = nullptr;
      for (const json& sc : src["scans"])
        if (std::abs(double(sc["tod_s"]) - tod) < cat048::kTodLsbS) scan = &sc;
      ASSERT_NE(scan, nullptr) << "rotation " << r["rotation"] << ": no scan at " << tod;
      std::map<int, const json*> got;
      for (const json& t : (*scan)["tracks"]) got[t["track_number"]] = &t;
      ASSERT_EQ(got.size(), r["tracks"].size()) << "rotation " << r["rotation"];
      for (const json& t : r["tracks"]) {
        const auto it = got.find(t["track_number"]);
        ASSERT_NE(it, got.end()) << "rotation " << r["rotation"] << " track " << t["track_number"];
        // Equal within the items' LSBs (I048/040: 1/256 NM, 360/65536 deg).
        EXPECT_NEAR(double((*it->second)["range_m"]), double(t["range_m"]),
                    1852.0 * cat048::kRhoLsbNm);
        EXPECT_LE(bearing_diff((*it->second)["bearing_deg"], t["bearing_deg"]),
                  cat048::kThetaLsbDeg);
      }
      std::set<int> ended_sent(r["ended"].begin(), r["ended"].end());
      std::set<int> ended_got((*scan)["ended"].begin(), (*scan)["ended"].end());
      EXPECT_EQ(ended_got, ended_sent) << "rotation " << r["rotation"];
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sweepline
