// Capture writers and readers: pcap (us / ns), pcapng, Ethernet / VLAN / SLL / SLL2 framing, IP
// fragments, filters, non-CAT240 traffic, raw ASTERIX and FINAL files.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "app/asterix/cat240_decoder.hpp"
#include "app/asterix/cat240_encoder.hpp"
#include "app/capture/capture_reader.hpp"
#include "app/capture/capture_writer.hpp"
#include "app/capture/ip_reassembly.hpp"
#include "app/common/check.hpp"

namespace sweepline::capture {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& name)
      : path(fs::temp_directory_path() /
             ("sweepline_asterix_" + std::to_string(::getpid()) + "_" + name)) {}
  ~TempFile() { fs::remove(path); }
  std::string str() const { return path.string(); }
};

Bytes video_block(uint32_t idx, size_t cells) {
  cat240::Record r;
  r.sac = 1;
  r.sic = 2;
  r.msg_index = idx;
  r.header = cat240::VideoHeader{static_cast<uint16_t>(idx * 16), static_cast<uint16_t>(idx * 16),
                                 0, 100, cat240::CellDurUnit::Nano};
  r.cells.resize(cells);
  for (size_t i = 0; i < cells; ++i) r.cells[i] = static_cast<uint8_t>(i + idx);
  return cat240::encode_block(r);
}

Datagram dgram(double t, uint32_t dst, uint16_t port, Bytes payload) {
  Datagram d;
  d.time = t;
  d.src_ip = parse_ipv4("10.0.0.7");
  d.dst_ip = dst;
  d.src_port = 5000;
  d.dst_port = port;
  d.payload = std::move(payload);
  return d;
}

std::vector<Datagram> read_all(const std::string& path, const CaptureFilter& f = {},
                               CaptureStats* stats = nullptr) {
  auto r = open_capture(path, f);
  std::vector<Datagram> out;
  Datagram d;
  while (r->next(d)) out.push_back(d);
  if (stats) *stats = r->stats();
  return out;
}

void expect_same(const Datagram& a, const Datagram& b, double time_tol) {
  EXPECT_NEAR(a.time, b.time, time_tol);
  EXPECT_EQ(a.src_ip, b.src_ip);
  EXPECT_EQ(a.dst_ip, b.dst_ip);
  EXPECT_EQ(a.src_port, b.src_port);
  EXPECT_EQ(a.dst_port, b.dst_port);
  EXPECT_EQ(a.payload, b.payload);
}

// Three datagrams of 2000 cells to 239.1.2.3:8600 in a pcap with a 576-byte MTU: each is split
// into IP fragments.
void write_fragmented(const TempFile& file) {
  PcapWriteOptions o;
  o.mtu = 576;
  auto w = open_pcap_writer(file.str(), o);
  for (int i = 0; i < 3; ++i)
    w->write(dgram(i, parse_ipv4("239.1.2.3"), 8600, video_block(i, 2000)));
}

struct Framing {
  const char* name;
  PcapWriteOptions opt;
  CaptureFormat format;
  double tol;
};

TEST(CaptureFiles, PcapAndPcapngWithEveryFramingRoundTrip) {
  std::vector<Framing> framings;
  framings.push_back({"eth_us", {}, CaptureFormat::Pcap, 1e-6});
  PcapWriteOptions o;
  o.nanosecond = true;
  framings.push_back({"eth_ns", o, CaptureFormat::Pcap, 5e-7});  // double at 1.7e9 s
  o = {};
  o.vlan_id = 100;
  framings.push_back({"vlan", o, CaptureFormat::Pcap, 1e-6});
  o = {};
  o.link = LinkFraming::LinuxSll;
  framings.push_back({"sll", o, CaptureFormat::Pcap, 1e-6});
  o = {};
  o.link = LinkFraming::LinuxSll2;
  o.pcapng = true;
  framings.push_back({"sll2_ng", o, CaptureFormat::Pcapng, 5e-7});
  o = {};
  o.pcapng = true;
  o.vlan_id = 7;
  framings.push_back({"vlan_ng", o, CaptureFormat::Pcapng, 5e-7});
  o = {};
  o.mtu = 1500;  // 9000-byte datagrams become 7 fragments
  framings.push_back({"frag", o, CaptureFormat::Pcap, 1e-6});

  for (const auto& fr : framings) {
    SCOPED_TRACE(fr.name);
    TempFile tmp(std::string(fr.name) + ".cap");
    std::vector<Datagram> sent;
    for (int i = 0; i < 20; ++i)
      sent.push_back(dgram(1700000000.25 + i * 0.001, parse_ipv4("239.1.2.3"), 8600,
                           video_block(i, i % 2 ? 9000 : 100)));
    {
      auto w = open_pcap_writer(tmp.str(), fr.opt);
      for (const auto& d : sent) w->write(d);
      EXPECT_EQ(w->datagrams_written(), sent.size());
    }
    EXPECT_EQ(detect_capture_format(tmp.str()), fr.format);
    const auto got = read_all(tmp.str());
    ASSERT_EQ(got.size(), sent.size());
    for (size_t i = 0; i < got.size(); ++i) expect_same(got[i], sent[i], fr.tol);
  }
}

TEST(CaptureFiles, FiltersAndNonCat240TrafficAreCounted) {
  TempFile tmp("mixed.pcap");
  {
    auto w = open_pcap_writer(tmp.str());
    w->write(dgram(1, parse_ipv4("239.1.2.3"), 8600, video_block(1, 50)));
    w->write(dgram(2, parse_ipv4("239.1.2.3"), 4433, video_block(2, 50)));        // other port
    w->write(dgram(3, parse_ipv4("239.0.0.1"), 8600, video_block(3, 50)));        // other group
    w->write(dgram(4, parse_ipv4("239.1.2.3"), 8600, Bytes{48, 0, 5, 0x80, 1}));  // CAT048
    w->write(dgram(5, parse_ipv4("239.1.2.3"), 8600, Bytes{'h', 'e', 'l', 'l', 'o'}));
  }
  CaptureStats st;
  EXPECT_EQ(read_all(tmp.str(), {}, &st).size(), 3u);
  EXPECT_EQ(st.non_cat240, 2u);
  CaptureFilter f;
  f.port = 8600;
  f.group = "239.1.2.3";
  const auto got = read_all(tmp.str(), f, &st);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_DOUBLE_EQ(got[0].time, 1.0);
  EXPECT_EQ(st.skipped.at("filtered"), 2u);
  EXPECT_EQ(st.non_cat240, 2u);
  f.group = "";
  EXPECT_EQ(read_all(tmp.str(), f).size(), 2u);
  CaptureFilter bad;
  bad.group = "239.1.2";
  EXPECT_THROW(open_capture(tmp.str(), bad), Error);
}

TEST(CaptureFiles, HandWrittenPcapWithNonUdpFrames) {
  // Classic pcap, little-endian, Ethernet: an ARP frame, a TCP packet and one UDP datagram to
  // 239.1.2.3:8600 carrying a CAT240 summary, all written byte by byte.
  const Bytes summary = {0xF0, 0x00, 0x0A, 0xD0, 0x01, 0x02, 0x01, 0x02, 'h', 'i'};
  Bytes f;
  auto le32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) f.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  le32(0xA1B2C3D4);
  f.insert(f.end(), {2, 0, 4, 0});
  le32(0);
  le32(0);
  le32(65535);
  le32(1);
  auto frame = [&](uint32_t sec, const Bytes& bytes) {
    le32(sec);
    le32(500000);
    le32(static_cast<uint32_t>(bytes.size()));
    le32(static_cast<uint32_t>(bytes.size()));
    f.insert(f.end(), bytes.begin(), bytes.end());
  };
  const Bytes eth = {0x01, 0x00, 0x5E, 0x01, 0x02, 0x03, 0x02, 0, 0, 0, 0, 1};
  Bytes arp = eth;
  arp.insert(arp.end(), {0x08, 0x06});
  arp.resize(arp.size() + 28, 0);
  frame(10, arp);
  Bytes tcp = eth;
  tcp.insert(tcp.end(),
             {0x08, 0x00, 0x45, 0, 0, 40, 0, 1, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 239, 1, 2, 3});
  tcp.resize(tcp.size() + 20, 0);
  frame(11, tcp);
  Bytes udp = eth;
  const uint16_t ip_len = static_cast<uint16_t>(20 + 8 + summary.size());
  const uint16_t udp_len = static_cast<uint16_t>(8 + summary.size());
  udp.insert(udp.end(), {0x08,
                         0x00,
                         0x45,
                         0,
                         static_cast<uint8_t>(ip_len >> 8),
                         static_cast<uint8_t>(ip_len),
                         0,
                         2,
                         0,
                         0,
                         64,
                         17,
                         0,
                         0,
                         10,
                         0,
                         0,
                         1,
                         239,
                         1,
                         2,
                         3,
                         0x13,
                         0x88,
                         0x21,
                         0x98,
                         static_cast<uint8_t>(udp_len >> 8),
                         static_cast<uint8_t>(udp_len),
                         0,
                         0});
  udp.insert(udp.end(), summary.begin(), summary.end());
  frame(12, udp);
  TempFile tmp("hand.pcap");
  std::ofstream(tmp.path, std::ios::binary)
      .write(reinterpret_cast<const char*>(f.data()), static_cast<std::streamsize>(f.size()));
  CaptureStats st;
  const auto got = read_all(tmp.str(), {}, &st);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_DOUBLE_EQ(got[0].time, 12.5);
  EXPECT_EQ(got[0].dst_port, 8600);
  EXPECT_EQ(got[0].src_port, 5000);
  EXPECT_EQ(format_ipv4(got[0].dst_ip), "239.1.2.3");
  EXPECT_EQ(got[0].payload, summary);
  EXPECT_EQ(st.skipped.at("not_ipv4"), 1u);
  EXPECT_EQ(st.skipped.at("not_udp"), 1u);
}

TEST(CaptureFiles, FragmentReassemblyIsBoundedAndTimesOut) {
  IpReassembler r(5.0);
  std::map<std::string, uint64_t> skipped;
  Bytes whole;
  const Bytes a(16, 1), b(8, 2);
  // Out of order: last fragment first.
  EXPECT_FALSE(r.add(1, 2, 7, 17, 16, false, b, 0.0, whole, skipped));
  EXPECT_TRUE(r.add(1, 2, 7, 17, 0, true, a, 0.1, whole, skipped));
  ASSERT_EQ(whole.size(), 24u);
  EXPECT_EQ(whole[0], 1);
  EXPECT_EQ(whole[23], 2);
  // A datagram whose first fragment never comes expires.
  EXPECT_FALSE(r.add(1, 2, 8, 17, 16, false, b, 1.0, whole, skipped));
  EXPECT_EQ(r.pending(), 1u);
  EXPECT_FALSE(r.add(1, 2, 9, 17, 0, true, a, 10.0, whole, skipped));
  EXPECT_EQ(skipped["fragment_timeout"], 1u);
  // Past 65535 bytes: dropped.
  EXPECT_FALSE(r.add(1, 2, 10, 17, 65528, false, Bytes(16, 0), 10.0, whole, skipped));
  EXPECT_EQ(skipped["fragment_overflow"], 1u);
  // At most kMaxPending datagrams in progress.
  for (uint16_t id = 100; id < 100 + IpReassembler::kMaxPending + 10; ++id)
    r.add(1, 2, id, 17, 0, true, a, 10.0 + id * 1e-3, whole, skipped);
  EXPECT_LE(r.pending(), IpReassembler::kMaxPending);
  EXPECT_GE(skipped["fragment_overflow"], 11u);
}

TEST(CaptureFiles, MissingFragmentLosesOnlyThatDatagram) {
  TempFile full("frag_full.pcap");
  write_fragmented(full);
  // Drop the second frame of the file (a middle fragment of datagram 0) by rewriting it: read
  // records of the classic pcap by hand (24-byte header, 16-byte record headers).
  std::ifstream in(full.path, std::ios::binary);
  Bytes all((std::istreambuf_iterator<char>(in)), {});
  Bytes cut(all.begin(), all.begin() + 24);
  size_t pos = 24;
  int n = 0;
  while (pos + 16 <= all.size()) {
    const uint32_t len =
        all[pos + 8] | (all[pos + 9] << 8) | (all[pos + 10] << 16) | (all[pos + 11] << 24);
    if (n != 1) cut.insert(cut.end(), all.begin() + pos, all.begin() + pos + 16 + len);
    pos += 16 + len;
    ++n;
  }
  EXPECT_GT(n, 9);
  TempFile missing("frag_missing.pcap");
  std::ofstream(missing.path, std::ios::binary)
      .write(reinterpret_cast<const char*>(cut.data()), static_cast<std::streamsize>(cut.size()));
  const auto got = read_all(missing.str());
  ASSERT_EQ(got.size(), 2u);
  cat240::Decoder d;
  std::vector<cat240::Record> recs;
  for (const auto& g : got) d.decode(g.payload, g.time, recs);
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].msg_index, 1u);
  EXPECT_EQ(recs[1].msg_index, 2u);
}

TEST(CaptureFiles, RawAsterixFiles) {
  TempFile tmp("stream.ast");
  {
    auto w = open_raw_writer(tmp.str());
    w->write(dgram(0, 0, 0, video_block(1, 10)));
    w->write(dgram(0, 0, 0, Bytes{48, 0, 5, 0x80, 1}));  // another category: skipped
    w->write(dgram(0, 0, 0, video_block(2, 10)));
  }
  EXPECT_EQ(detect_capture_format(tmp.str()), CaptureFormat::Raw);
  CaptureStats st;
  auto got = read_all(tmp.str(), {}, &st);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].payload, video_block(2, 10));
  EXPECT_EQ(st.non_cat240, 1u);
  // A truncated last block is counted, the ones before it are kept.
  fs::resize_file(tmp.path, fs::file_size(tmp.path) - 3);
  got = read_all(tmp.str(), {}, &st);
  EXPECT_EQ(got.size(), 1u);
  EXPECT_EQ(st.skipped.at("truncated"), 1u);
  // Rewind gives the same datagrams again.
  auto r = open_capture(tmp.str());
  Datagram d;
  ASSERT_TRUE(r->next(d));
  r->rewind();
  Datagram d2;
  ASSERT_TRUE(r->next(d2));
  EXPECT_EQ(d.payload, d2.payload);
}

TEST(CaptureFiles, EurocontrolFinalFiles) {
  TempFile tmp("rec.final");
  {
    auto w = open_final_writer(tmp.str());
    w->write(dgram(3600.25, 0, 0, video_block(1, 10)));
    w->write(dgram(3600.5, 0, 0, video_block(2, 10)));
  }
  EXPECT_EQ(detect_capture_format(tmp.str()), CaptureFormat::Final);
  auto got = read_all(tmp.str());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_NEAR(got[0].time, 3600.25, 1e-9);
  EXPECT_NEAR(got[1].time, 3600.5, 1e-9);
  EXPECT_EQ(got[1].payload, video_block(2, 10));
  // Check the record layout by hand: byte count, 0xA5 padding.
  std::ifstream in(tmp.path, std::ios::binary);
  Bytes all((std::istreambuf_iterator<char>(in)), {});
  const size_t count = (all[0] << 8) | all[1];
  EXPECT_EQ(count, video_block(1, 10).size() + 12);
  EXPECT_EQ(all[count - 1], 0xA5);
  EXPECT_EQ(all[count - 4], 0xA5);
  EXPECT_EQ((all[5] << 16) | (all[6] << 8) | all[7], 360025);
  // Damaged padding of the second record: the first is kept, then the reason is counted.
  all[all.size() - 2] = 0;
  std::ofstream(tmp.path, std::ios::binary)
      .write(reinterpret_cast<const char*>(all.data()), static_cast<std::streamsize>(all.size()));
  CaptureStats st;
  EXPECT_EQ(read_all(tmp.str(), {}, &st).size(), 1u);
  EXPECT_EQ(st.skipped.at("final_bad_record"), 1u);
}

TEST(CaptureFiles, MissingEmptyAndUnknownFilesThrow) {
  EXPECT_THROW(open_capture("/nonexistent/x.pcap"), Error);
  TempFile empty("empty.bin");
  std::ofstream(empty.path).close();
  EXPECT_THROW(open_capture(empty.str()), Error);
  TempFile junk("junk.bin");
  std::ofstream(junk.path) << "\x01\x00\x01garbage";
  EXPECT_THROW(open_capture(junk.str()), Error);
  // A pcap header cut short: libpcap refuses it with a message.
  TempFile shortp("short.pcap");
  std::ofstream(shortp.path, std::ios::binary).write("\xD4\xC3\xB2\xA1\x02\x00", 6);
  EXPECT_THROW(open_capture(shortp.str()), Error);
}

// Bytes of a file.
Bytes slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), {});
}

// A pipe whose read end is open as a path (/proc/self/fd/N) and whose write end a thread fills
// with `bytes`, then closes: what `cat file | sweepline dump /dev/stdin` gives the reader.
class FedPipe {
 public:
  explicit FedPipe(Bytes bytes) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    read_fd_ = fds[0];
    writer_ = std::thread([fd = fds[1], b = std::move(bytes)] {
      // A reader that stops early closes its end: EPIPE for this thread, not SIGPIPE.
      sigset_t pipe_signal;
      sigemptyset(&pipe_signal);
      sigaddset(&pipe_signal, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
      size_t off = 0;
      while (off < b.size()) {
        const ssize_t n = ::write(fd, b.data() + off, b.size() - off);
        if (n <= 0) break;
        off += size_t(n);
      }
      ::close(fd);
    });
  }
  ~FedPipe() {
    ::close(read_fd_);  // first, so a writer blocked on a full pipe returns
    writer_.join();
  }
  std::string path() const { return "/proc/self/fd/" + std::to_string(read_fd_); }

 private:
  int read_fd_ = -1;
  std::thread writer_;
};

TEST(CaptureFiles, PipesReadLikeFilesInEveryFormat) {
  std::vector<Datagram> sent;
  for (int i = 0; i < 12; ++i)
    sent.push_back(dgram(3600.0 + i * 0.01, parse_ipv4("239.1.2.3"), 8600,
                         video_block(i, i % 3 ? 3000 : 100)));
  struct Case {
    const char* name;
    CaptureFormat format;
  };
  for (const Case c : {Case{"p.pcap", CaptureFormat::Pcap}, Case{"p.pcapng", CaptureFormat::Pcapng},
                       Case{"p.ast", CaptureFormat::Raw}, Case{"p.final", CaptureFormat::Final}}) {
    SCOPED_TRACE(c.name);
    TempFile tmp(c.name);
    {
      std::unique_ptr<CaptureWriter> w;
      if (c.format == CaptureFormat::Pcap || c.format == CaptureFormat::Pcapng) {
        PcapWriteOptions o;
        o.pcapng = c.format == CaptureFormat::Pcapng;
        o.mtu = 1500;  // fragments too
        w = open_pcap_writer(tmp.str(), o);
      } else {
        w = open_capture_writer(tmp.str(), c.format);
      }
      for (const auto& d : sent) w->write(d);
    }
    const auto from_file = read_all(tmp.str());
    ASSERT_EQ(from_file.size(), sent.size());
    FedPipe pipe(slurp(tmp.path));
    auto reader = open_capture(pipe.path());
    EXPECT_EQ(reader->format(), c.format);
    std::vector<Datagram> from_pipe;
    Datagram d;
    while (reader->next(d)) from_pipe.push_back(d);
    ASSERT_EQ(from_pipe.size(), from_file.size());
    for (size_t i = 0; i < from_pipe.size(); ++i) expect_same(from_pipe[i], from_file[i], 0);
    try {
      reader->rewind();
      ADD_FAILURE() << "a pipe rewound";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("is a pipe"), std::string::npos) << e.what();
    }
  }
}

TEST(CaptureFiles, TextFilesAndCutFirstBlocksAreRefused) {
  auto message = [](const std::string& path) {
    try {
      open_capture(path);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  TempFile text("notes.txt");
  std::ofstream(text.path) << "Sweepline notes\n\tnot a capture at all\r\n";
  EXPECT_NE(message(text.str()).find("is a text file"), std::string::npos) << message(text.str());
  // Raw ASTERIX whose first block claims 258 bytes of a 5-byte file.
  TempFile cut("cut.ast");
  std::ofstream(cut.path, std::ios::binary).write("\xf0\x01\x02\x00\x00", 5);
  EXPECT_NE(message(cut.str()).find("runs past the end"), std::string::npos) << message(cut.str());
  // Category 0 does not exist.
  TempFile zero("zero.ast");
  std::ofstream(zero.path, std::ios::binary).write("\x00\x00\x05\x01\x02", 5);
  EXPECT_NE(message(zero.str()).find("not raw ASTERIX"), std::string::npos) << message(zero.str());
  // A folder.
  EXPECT_NE(message(fs::temp_directory_path().string()).find("is a directory"), std::string::npos);
}

TEST(CaptureFiles, FragmentsPendingAtTheEndAreCounted) {
  TempFile full("pending_full.pcap");
  write_fragmented(full);
  // Cut the file after the first fragment of the last datagram.
  const Bytes all = slurp(full.path);
  std::vector<size_t> starts;
  for (size_t pos = 24; pos + 16 <= all.size();) {
    starts.push_back(pos);
    const uint32_t len =
        all[pos + 8] | (all[pos + 9] << 8) | (all[pos + 10] << 16) | (all[pos + 11] << 24);
    pos += 16 + len;
  }
  const size_t per_datagram = starts.size() / 3;
  ASSERT_GT(per_datagram, 1u);
  TempFile cut("pending_cut.pcap");
  const size_t end = starts[2 * per_datagram + 1];
  std::ofstream(cut.path, std::ios::binary)
      .write(reinterpret_cast<const char*>(all.data()), static_cast<std::streamsize>(end));
  CaptureStats st;
  EXPECT_EQ(read_all(cut.str(), {}, &st).size(), 2u);
  EXPECT_EQ(st.skipped["fragment_incomplete"], 1u);
  // Stats keep counting across a rewind: a second pass counts the datagram again.
  auto r = open_capture(cut.str());
  Datagram d;
  while (r->next(d)) {
  }
  r->rewind();
  while (r->next(d)) {
  }
  EXPECT_EQ(r->stats().skipped.at("fragment_incomplete"), 2u);
}

TEST(CaptureFiles, Ipv4Parsing) {
  EXPECT_EQ(parse_ipv4("239.1.2.3"), 0xEF010203u);
  EXPECT_EQ(format_ipv4(0xEF010203u), "239.1.2.3");
  for (const char* bad : {"", "1.2.3", "1.2.3.4.5", "256.1.1.1", "a.b.c.d", "1..2.3", "1.2.3.4 "})
    EXPECT_THROW(parse_ipv4(bad), Error) << bad;
}

}  // namespace
}  // namespace sweepline::capture
