// Live UDP on loopback (127.0.0.1 only): ten times a real radar's rate without loss, recording
// with arrival times at the receiver (before the queue, ASTERIX only in raw files, complete up to
// a stop), drops when the consumer stalls, multicast join when the kernel allows.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "app/asterix/cat240_encoder.hpp"
#include "app/capture/capture_reader.hpp"
#include "app/capture/capture_writer.hpp"
#include "app/common/check.hpp"
#include "app/net/msg_index_tracker.hpp"
#include "app/net/udp_receiver.hpp"
#include "app/net/udp_source.hpp"

using namespace sweepline;
using namespace std::chrono;

namespace {

class Sender {
 public:
  Sender() : fd_(::socket(AF_INET, SOCK_DGRAM, 0)) {}
  ~Sender() { ::close(fd_); }
  int fd() const { return fd_; }
  bool send_to(const char* ip, uint16_t port, const std::vector<uint8_t>& bytes) {
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(port);
    ::inet_pton(AF_INET, ip, &sa.sin_addr);
    return ::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<sockaddr*>(&sa),
                    sizeof sa) == ssize_t(bytes.size());
  }

 private:
  int fd_;
};

// A DSPNOR-like message: 1024 cells of 8 bits, femto header, zero-width radial.
std::vector<uint8_t> radar_message(uint32_t index) {
  cat240::Record r;
  r.sac = 1;
  r.sic = 2;
  r.msg_index = index;
  cat240::VideoHeader h;
  h.start_az = h.end_az = uint16_t((index % 2000) * 65536 / 2000);
  h.cell_dur = 130666656;
  h.unit = cat240::CellDurUnit::Femto;
  r.header = h;
  r.cells.assign(1024, uint8_t(index));
  r.nb_cells = 1024;
  return cat240::encode_block(r);
}

std::filesystem::path temp_dir() {
  auto p = std::filesystem::temp_directory_path() / ("swl_udp_" + std::to_string(::getpid()));
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace

TEST(UdpMsgIndex, CountsGapsPerSourceAndIgnoresReorderAndRestart) {
  net::MsgIndexTracker t;
  EXPECT_EQ(t.observe(1, 2, 10), 0u);
  EXPECT_EQ(t.observe(1, 2, 11), 0u);
  EXPECT_EQ(t.observe(1, 2, 15), 3u);
  EXPECT_EQ(t.observe(3, 4, 100), 0u);  // another source starts its own count
  EXPECT_EQ(t.observe(1, 2, 14), 0u);   // late
  EXPECT_EQ(t.observe(1, 2, 16), 0u);
  EXPECT_EQ(t.observe(1, 2, 16 + (1u << 24)), 0u);  // a restarted source, far ahead
  EXPECT_EQ(t.observe(5, 6, 0xFFFFFFFEu), 0u);
  EXPECT_EQ(t.observe(5, 6, 1), 2u);  // wraps at 2^32: 0xFFFFFFFF and 0 were lost
  EXPECT_EQ(t.lost(), 5u);
  EXPECT_EQ(t.out_of_order(), 1u);
  EXPECT_EQ(t.restarts(), 1u);
}

TEST(UdpReceiver, TenTimesRadarRateOnLoopbackLosesNothingAndRecords) {
  // A naval radar sends 500 messages/s (2000 radials per 4 s); ten times that for 2 s.
  const int rate = 5000, total = 10000;
  const auto dir = temp_dir();
  net::LiveOptions opt;
  opt.udp.address = "127.0.0.1";
  opt.udp.port = 0;
  opt.record_path = (dir / "live.pcap").string();
  opt.uri = "udp://127.0.0.1:0";
  net::UdpSource src(opt);
  const uint16_t port = src.receiver().port();
  ASSERT_NE(port, 0);
  std::vector<std::vector<uint8_t>> msgs;
  for (int i = 0; i < total; ++i) msgs.push_back(radar_message(uint32_t(1000 + i)));

  std::thread sender([&] {
    Sender s;
    const auto t0 = steady_clock::now();
    for (int i = 0; i < total; ++i) {
      if (i % 10 == 0)
        std::this_thread::sleep_until(t0 + microseconds(int64_t(i) * 1000000 / rate));
      ASSERT_TRUE(s.send_to("127.0.0.1", port, msgs[size_t(i)]));
    }
  });
  std::vector<cat240::Record> recs;
  const auto deadline = steady_clock::now() + seconds(3);
  while (recs.size() < size_t(total) && steady_clock::now() < deadline) {
    src.poll(recs);
    std::this_thread::sleep_for(milliseconds(5));  // a display's frame loop
  }
  sender.join();
  src.poll(recs);
  ASSERT_EQ(recs.size(), size_t(total));
  for (int i = 0; i < total; ++i) ASSERT_EQ(*recs[size_t(i)].msg_index, uint32_t(1000 + i));
  const SourceStatus st = src.status();
  EXPECT_EQ(st.datagrams, uint64_t(total));
  EXPECT_EQ(st.records, uint64_t(total));
  EXPECT_EQ(st.lost_messages, 0u);
  EXPECT_EQ(st.bytes, uint64_t(total) * msgs[0].size());
  EXPECT_TRUE(st.errors.empty()) << st.errors.begin()->first;
  EXPECT_GE(src.receiver().stats().rcvbuf_granted, 1 << 20);
  EXPECT_EQ(src.recorded(), uint64_t(total));
  // Arrival times are wall-clock and spread over the ~2 s of sending.
  EXPECT_GT(recs.back().capture_time - recs.front().capture_time, 1.5);

  // The recording reads back with the original times and addresses.
  auto reader = capture::open_capture(opt.record_path);
  capture::Datagram d;
  size_t n = 0;
  double last_t = 0;
  while (reader->next(d)) {
    ASSERT_LT(n, size_t(total));
    EXPECT_EQ(d.payload, msgs[n]);
    EXPECT_EQ(d.dst_port, port);
    EXPECT_EQ(d.dst_ip, 0x7F000001u);
    EXPECT_NEAR(d.time, recs[n].capture_time, 1e-5);
    EXPECT_GE(d.time, last_t);
    last_t = d.time;
    ++n;
  }
  EXPECT_EQ(n, size_t(total));
  std::filesystem::remove_all(dir);
}

TEST(UdpReceiver, RawRecordingStartsAndStopsOnAStreamKeepingEveryDatagramAsReceived) {
  // What the viewer's Record button does on a live feed: only the datagrams between start and
  // stop, byte for byte, the one that is not ASTERIX included.
  const auto dir = temp_dir();
  net::LiveOptions opt;
  opt.udp.address = "127.0.0.1";
  opt.uri = "udp://127.0.0.1:0";
  net::UdpSource src(opt);
  RecordSource& source = src;
  const uint16_t port = src.receiver().port();
  Sender s;
  std::vector<cat240::Record> recs;
  auto deliver = [&](const std::vector<uint8_t>& bytes, uint64_t datagrams_after) {
    ASSERT_TRUE(s.send_to("127.0.0.1", port, bytes));
    const auto deadline = steady_clock::now() + seconds(2);
    while (src.status().datagrams < datagrams_after && steady_clock::now() < deadline) {
      source.poll(recs);
      std::this_thread::sleep_for(milliseconds(1));
    }
    source.poll(recs);
    ASSERT_EQ(src.status().datagrams, datagrams_after);
  };
  deliver(radar_message(1), 1);  // before the recording
  EXPECT_FALSE(source.raw_recording());
  const std::string path = (dir / "tap.pcapng").string();
  ASSERT_TRUE(source.start_raw_recording(path, "pcapng"));
  EXPECT_TRUE(source.raw_recording());
  const std::vector<uint8_t> junk = {0x30, 0x00, 0x02, 0xFF, 0x01};  // CAT48, not video
  const std::vector<std::vector<uint8_t>> kept = {radar_message(2), junk, radar_message(3)};
  for (size_t i = 0; i < kept.size(); ++i) deliver(kept[i], 2 + i);
  source.stop_raw_recording();
  EXPECT_FALSE(source.raw_recording());
  deliver(radar_message(4), 5);  // after it
  EXPECT_EQ(source.raw_recorded(), 3u);
  EXPECT_EQ(src.status().skipped, 1u);
  EXPECT_EQ(recs.size(), 4u);

  // The reader hands out the CAT240 datagrams and counts the other one: all three were written.
  auto reader = capture::open_capture(path);
  capture::Datagram d;
  std::vector<std::vector<uint8_t>> read;
  while (reader->next(d)) {
    read.push_back(d.payload);
    EXPECT_EQ(d.dst_port, port);
  }
  EXPECT_EQ(read, (std::vector<std::vector<uint8_t>>{kept[0], kept[2]}));
  EXPECT_EQ(reader->stats().non_cat240, 1u);
  EXPECT_THROW(source.start_raw_recording((dir / "x.pcap").string(), "mp4"), Error);
  EXPECT_THROW(source.start_raw_recording((dir / "no/such/dir/x.pcap").string(), "pcap"), Error);
  EXPECT_FALSE(source.raw_recording());
  std::filesystem::remove_all(dir);
}

// A small video message (64 cells): many fit in the kernel's default receive buffer.
std::vector<uint8_t> small_message(uint32_t index) {
  cat240::Record r;
  r.sac = 1;
  r.sic = 2;
  r.msg_index = index;
  cat240::VideoHeader h;
  h.start_az = h.end_az = uint16_t(index * 64);
  h.cell_dur = 130666656;
  h.unit = cat240::CellDurUnit::Femto;
  r.header = h;
  r.cells.assign(64, uint8_t(index));
  r.nb_cells = 64;
  return cat240::encode_block(r);
}

// Waits until the receiver has taken `n` datagrams in (at most 2 s).
void wait_received(const net::UdpReceiver& rx, uint64_t n) {
  const auto deadline = steady_clock::now() + seconds(2);
  while (rx.stats().datagrams < n && steady_clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(2));
}

TEST(UdpReceiver, RecordingIsMadeBeforeTheQueueSoQueueDropsAreStillRecorded) {
  const auto dir = temp_dir();
  net::UdpConfig cfg;
  cfg.address = "127.0.0.1";
  cfg.max_queued_datagrams = 10;  // a consumer that never drains: 90 of 100 dropped from the queue
  net::UdpReceiver rx(cfg);
  const std::string path = (dir / "before_queue.pcap").string();
  rx.start_recording(path, capture::CaptureFormat::Pcap);
  Sender s;
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(s.send_to("127.0.0.1", rx.port(), small_message(uint32_t(i))));
  wait_received(rx, 100);
  rx.stop_recording();
  EXPECT_EQ(rx.stats().dropped, 90u);
  const net::RecordingStats rec = rx.recording();
  EXPECT_FALSE(rec.active);
  EXPECT_EQ(rec.written, 100u);
  EXPECT_TRUE(rec.error.empty()) << rec.error;
  auto reader = capture::open_capture(path);
  capture::Datagram d;
  uint32_t n = 0;
  while (reader->next(d)) EXPECT_EQ(d.payload, small_message(n++));
  EXPECT_EQ(n, 100u);
  std::filesystem::remove_all(dir);
}

TEST(UdpReceiver, RawRecordingWritesOnlyAsterixAndCountsTheRestByReason) {
  const auto dir = temp_dir();
  net::UdpConfig cfg;
  cfg.address = "127.0.0.1";
  net::UdpReceiver rx(cfg);
  const std::string path = (dir / "feed.ast").string();
  rx.start_recording(path, capture::CaptureFormat::Raw);
  const std::vector<uint8_t> cat48 = {0x30, 0x00, 0x05, 0xFF, 0x01};  // ASTERIX, not video
  const std::vector<std::vector<uint8_t>> junk = {
      {},                              // empty
      {'h', 'e', 'l', 'l', 'o'},       // text: LEN 0x656c runs off the datagram
      {0xF0, 0x00, 0x01, 0xAA},        // LEN below 3
      {0xF0, 0x00, 0x08, 0x01, 0x02},  // LEN beyond the datagram
  };
  Sender s;
  uint64_t sent = 0;
  for (uint32_t i = 0; i < 20; ++i) {
    ASSERT_TRUE(s.send_to("127.0.0.1", rx.port(), small_message(i)));
    ++sent;
    if (i % 5 == 0) {
      ASSERT_TRUE(s.send_to("127.0.0.1", rx.port(), junk[(i / 5) % junk.size()]));
      ++sent;
    }
  }
  ASSERT_TRUE(s.send_to("127.0.0.1", rx.port(), cat48));
  ++sent;
  wait_received(rx, sent);
  rx.stop_recording();
  const net::RecordingStats rec = rx.recording();
  EXPECT_EQ(rec.written, 21u);  // 20 video messages and the CAT48 block
  EXPECT_EQ(rec.not_written, (std::map<std::string, uint64_t>{
                                 {"empty", 1}, {"block_truncated", 2}, {"bad_block_len", 1}}));
  // The file decodes from its first block to its last.
  auto reader = capture::open_capture(path);
  EXPECT_EQ(reader->format(), capture::CaptureFormat::Raw);
  capture::Datagram d;
  uint32_t n = 0;
  while (reader->next(d)) EXPECT_EQ(d.payload, small_message(n++));
  EXPECT_EQ(n, 20u);
  EXPECT_EQ(reader->stats().non_cat240, 1u);
  EXPECT_TRUE(reader->stats().skipped.empty());
  std::filesystem::remove_all(dir);
}

TEST(UdpReceiver, StoppingTakesInWhatTheSocketHoldsFirst) {
  // A stop (SIGINT in a command) right after the sender: everything the host had received is
  // recorded, whether or not the receiver thread had got to it.
  const auto dir = temp_dir();
  net::UdpConfig cfg;
  cfg.address = "127.0.0.1";
  net::UdpReceiver rx(cfg);
  const std::string path = (dir / "stop.pcap").string();
  rx.start_recording(path, capture::CaptureFormat::Pcap);
  Sender s;
  const int n = 50;  // small datagrams: they fit in the kernel's default buffer
  for (int i = 0; i < n; ++i)
    ASSERT_TRUE(s.send_to("127.0.0.1", rx.port(), small_message(uint32_t(i))));
  rx.stop();
  rx.stop_recording();
  EXPECT_EQ(rx.stats().datagrams, uint64_t(n));
  EXPECT_EQ(rx.recording().written, uint64_t(n));
  std::vector<capture::Datagram> got;
  EXPECT_EQ(rx.drain(got), size_t(n));
  std::filesystem::remove_all(dir);
}

TEST(UdpReceiver, SlowConsumerDropsAreCountedNotBlocking) {
  net::UdpConfig cfg;
  cfg.address = "127.0.0.1";
  cfg.max_queued_datagrams = 10;
  net::UdpReceiver rx(cfg);
  Sender s;
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(s.send_to("127.0.0.1", rx.port(), radar_message(uint32_t(i))));
  const auto deadline = steady_clock::now() + seconds(2);
  while (rx.stats().datagrams < 100 && steady_clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(5));
  std::vector<capture::Datagram> got;
  EXPECT_EQ(rx.drain(got), 10u);
  const net::UdpStats st = rx.stats();
  EXPECT_EQ(st.datagrams, 100u);
  EXPECT_EQ(st.dropped, 90u);
  // The queue has room again.
  ASSERT_TRUE(s.send_to("127.0.0.1", rx.port(), radar_message(7)));
  std::vector<capture::Datagram> more;
  for (int k = 0; k < 200 && more.empty(); ++k) {
    rx.drain(more);
    std::this_thread::sleep_for(milliseconds(5));
  }
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].payload, radar_message(7));
}

TEST(UdpReceiver, BadConfigurationsFailWithAMessage) {
  net::UdpConfig cfg;
  cfg.address = "239.1.2.3";
  cfg.interface = "no-such-interface0";
  EXPECT_THROW(net::UdpReceiver{cfg}, Error);
  cfg.address = "300.1.2.3";
  cfg.interface.clear();
  EXPECT_THROW(net::UdpReceiver{cfg}, Error);
  cfg.address = "127.0.0.1";
  cfg.interface = "lo";
  EXPECT_THROW(net::UdpReceiver{cfg}, Error);  // an interface only for multicast
  cfg.interface.clear();
  cfg.port = 70000;
  EXPECT_THROW(net::UdpReceiver{cfg}, Error);
  // A port already taken (unicast, no SO_REUSEADDR).
  cfg.port = 0;
  net::UdpReceiver first(cfg);
  cfg.port = first.port();
  try {
    net::UdpReceiver second(cfg);
    ADD_FAILURE() << "second bind to the same port succeeded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot listen"), std::string::npos) << e.what();
  }
}

TEST(UdpReceiver, MulticastJoinOnLoopback) {
  for (const char* ifc : {"127.0.0.1", "lo"}) {
    net::UdpConfig cfg;
    cfg.address = "239.255.77.1";
    cfg.interface = ifc;
    std::unique_ptr<net::UdpReceiver> rx;
    try {
      rx = std::make_unique<net::UdpReceiver>(cfg);
    } catch (const Error& e) {
      GTEST_SKIP() << "the kernel refused a multicast join on loopback: " << e.what();
    }
    Sender s;
    in_addr lo{};
    ::inet_pton(AF_INET, "127.0.0.1", &lo);
    ::setsockopt(s.fd(), IPPROTO_IP, IP_MULTICAST_IF, &lo, sizeof lo);
    const unsigned char loop = 1;
    ::setsockopt(s.fd(), IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop);
    if (!s.send_to("239.255.77.1", rx->port(), radar_message(5)))
      GTEST_SKIP() << "cannot send multicast on loopback (no route): " << std::strerror(errno);
    std::vector<capture::Datagram> got;
    for (int k = 0; k < 200 && got.empty(); ++k) {
      rx->drain(got);
      std::this_thread::sleep_for(milliseconds(5));
    }
    if (got.empty()) GTEST_SKIP() << "joined, but the kernel did not loop multicast back on lo";
    EXPECT_EQ(got[0].payload, radar_message(5)) << ifc;
    EXPECT_EQ(got[0].dst_ip, 0xEFFF4D01u) << ifc;
    EXPECT_TRUE(rx->multicast());
  }
}
