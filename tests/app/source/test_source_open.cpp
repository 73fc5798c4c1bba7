// open_source: URIs to sources, and clear errors for malformed ones.
#include "tests/support/shared_data.hpp"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "app/capture/capture_reader.hpp"
#include "app/sweep/sweep_assembler.hpp"

#include "app/common/check.hpp"
#include "app/net/udp_receiver.hpp"
#include "app/replay/replay_source.hpp"
#include "app/source/source.hpp"
#include "app/source/source_uri.hpp"

using namespace sweepline;

namespace {
std::string sample(const char* name) {
  return std::string(SWEEPLINE_SHARED_DIR) + "/data/" + name;
}

// The message of the Error open_source throws, or "" when it does not throw.
std::string error_of(const std::string& uri, const SourceOptions& o = {}) {
  try {
    open_source(uri, o);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(SourceUri, ParsesSchemesAndQueries) {
  auto u = source::parse_uri("udp://239.0.0.1:4433?iface=eth0&record=/tmp/a%20b.pcap");
  EXPECT_EQ(u.scheme, "udp");
  EXPECT_EQ(u.body, "239.0.0.1:4433");
  EXPECT_EQ(u.query.at("iface"), "eth0");
  EXPECT_EQ(u.query.at("record"), "/tmp/a b.pcap");
  u = source::parse_uri("/data/x?.pcap");
  EXPECT_EQ(u.scheme, "file");
  EXPECT_EQ(u.body, "/data/x?.pcap");
  const auto live = source::live_options(source::parse_uri("udp://:8600?format=raw"), {}, "x");
  EXPECT_EQ(live.udp.address, "");
  EXPECT_EQ(live.udp.port, 8600);
  EXPECT_EQ(live.record_format, capture::CaptureFormat::Raw);
  SourceOptions so;
  so.speed = 3;
  so.port = 8600;
  const auto rep = source::replay_options(
      source::parse_uri("file:///x.pcap?speed=0.5&loop=0&pacing=tod&group=239.1.2.3"), so, "x");
  EXPECT_EQ(rep.speed, 0.5);
  EXPECT_FALSE(rep.loop);
  EXPECT_EQ(rep.pacing, replay::Pacing::TimeOfDay);
  EXPECT_EQ(rep.filter.port, 8600);
  EXPECT_EQ(rep.filter.group, "239.1.2.3");
}

TEST(SourceOpen, MalformedUrisGiveMessagesForTheUser) {
  struct Case {
    const char* uri;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {"", "empty URI"},
           {"http://x", "unknown scheme 'http'"},
           {"udp://239.0.0.1", "udp://GROUP:PORT"},
           {"udp://239.0.0.1:0", "port"},
           {"udp://239.0.0.1:99999", "port"},
           {"udp://239.0.0.1:http", "port"},
           {"udp://1.2.3.400:8600", "not an IPv4 address"},
           {"udp://239.0.0.1:8600?bogus=1", "unknown option 'bogus'"},
           {"udp://239.0.0.1:8600?format=txt", "pcap, pcapng or raw"},
           {"udp://239.0.0.1:8600?iface=x&iface=y", "given twice"},
           {"udp://239.0.0.1:8600?iface", "key=value"},
           {"file://", "no file name"},
           {"file:///nonexistent/sweepline.pcap", "nonexistent"},
           {"file://x.pcap?speed=fast", "speed must be a number"},
           {"file://x.pcap?pacing=moon", "pacing must be"},
           {"file://x.pcap?loop=maybe", "loop must be 0 or 1"},
           {"file://x.pcap?period=-1", "period must be positive"},
       }) {
    const std::string msg = error_of(c.uri);
    EXPECT_NE(msg.find(c.says), std::string::npos) << c.uri << " -> '" << msg << "'";
  }
}

TEST(SourceOpen, FilesOpenAsReplaySources) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  SourceOptions o;
  o.speed = 0;
  o.loop = false;
  for (const std::string& uri :
       {sample("basic_8bit_nano.pcap"), "file://" + sample("basic_8bit_nano.pcap") + "?port=8600",
        "file://" + sample("compressed_4bit_femto.ast")}) {
    auto src = open_source(uri, o);
    ASSERT_NE(src->replay(), nullptr) << uri;
    std::vector<cat240::Record> recs;
    while (src->poll(recs)) {
    }
    EXPECT_GE(recs.size(), 512u) << uri;
    EXPECT_EQ(src->status().state, "ended") << uri;
    EXPECT_EQ(src->status().uri, uri);
  }
  // A port filter that matches nothing is an error, not an empty replay.
  EXPECT_NE(error_of("file://" + sample("basic_8bit_nano.pcap") + "?port=1"), "");
}

TEST(SourceOpen, UdpOpensALiveSource) {
  int port = 0;
  {
    net::UdpConfig probe;
    probe.address = "127.0.0.1";
    port = net::UdpReceiver(probe).port();  // a port free a moment ago
  }
  auto src = open_source("udp://127.0.0.1:" + std::to_string(port));
  EXPECT_EQ(src->replay(), nullptr);
  std::vector<cat240::Record> recs;
  EXPECT_TRUE(src->poll(recs));
  EXPECT_EQ(src->status().state, "running");
}

TEST(SourceOpen, ReplayedSampleAssemblesWithRotationStatistics) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  SourceOptions o;
  o.speed = 0;
  o.loop = false;
  auto src = open_source(sample("basic_8bit_nano.pcap"), o);
  sweep::SweepConfig cfg;
  cfg.range_bins = 64;
  sweep::SweepAssembler assembler(cfg);
  PolarFrame frame;
  std::vector<cat240::Record> recs;
  uint64_t handed_rows = 0;
  while (src->poll(recs)) {
    assembler.add(recs);
    recs.clear();
    assembler.hand_off(frame);
    handed_rows += uint64_t(frame.dirty.count);
  }
  EXPECT_EQ(frame.cells, assembler.frame().cells);
  EXPECT_GE(handed_rows, 4096u);
  EXPECT_EQ(frame.rotation, 1u);
  ASSERT_EQ(assembler.rotation_stats().size(), 1u);
  const auto& r0 = assembler.rotation_stats()[0];
  EXPECT_EQ(r0.radials, 256u);
  EXPECT_EQ(r0.rows_empty, 0);
  // The second rotation starts about one rotation period after the first (from I240/140).
  EXPECT_GT(assembler.current_rotation().start_time, 0);
  EXPECT_EQ(assembler.current_rotation().radials, 256u);
}

TEST(SourceOpen, UdpUriRecordsRawAsReceived) {
  SWL_SKIP_WITHOUT_SHARED_DATA();
  int port = 0;
  {
    net::UdpConfig probe;
    probe.address = "127.0.0.1";
    port = net::UdpReceiver(probe).port();
  }
  const std::string path =
      (std::filesystem::temp_directory_path() / ("swl_rec_" + std::to_string(::getpid()) + ".ast"))
          .string();
  auto src =
      open_source("udp://127.0.0.1:" + std::to_string(port) + "?record=" + path + "&format=raw");
  // Send the femto sample's blocks over loopback.
  auto reader = capture::open_capture(sample("compressed_4bit_femto.ast"));
  std::vector<std::vector<uint8_t>> sent;
  capture::Datagram d;
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(uint16_t(port));
  sa.sin_addr.s_addr = htonl(0x7F000001);
  while (reader->next(d) && sent.size() < 100) {
    ASSERT_EQ(::sendto(fd, d.payload.data(), d.payload.size(), 0, reinterpret_cast<sockaddr*>(&sa),
                       sizeof sa),
              ssize_t(d.payload.size()));
    sent.push_back(d.payload);
  }
  ::close(fd);
  std::vector<cat240::Record> recs;
  for (int k = 0; k < 400 && recs.size() < sent.size(); ++k) {
    src->poll(recs);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(recs.size(), sent.size());
  src.reset();  // closes the recording
  std::ifstream f(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint8_t> want;
  for (const auto& s : sent) want.insert(want.end(), s.begin(), s.end());
  EXPECT_EQ(bytes, want);
  std::filesystem::remove(path);
}
