// pcap / pcapng / raw / FINAL writers (see capture_writer.hpp). Frames are built by hand (no
// libpcap needed for writing) so that tests can produce SLL, SLL2, VLAN and fragmented traffic.
#include "app/capture/capture_writer.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "app/capture/capture_internal.hpp"
#include "app/common/check.hpp"

namespace sweepline::capture {
namespace {

using detail::FilePtr;

constexpr size_t kMaxUdpPayload = 65507;  // 65535 - 20 (IPv4) - 8 (UDP)

void put16be(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v >> 8));
  o.push_back(static_cast<uint8_t>(v));
}
void put32be(std::vector<uint8_t>& o, uint32_t v) {
  put16be(o, v >> 16);
  put16be(o, v);
}
// pcap and pcapng headers are written in host (little-endian here) order, which readers detect
// from the magic number.
void put16le(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v));
  o.push_back(static_cast<uint8_t>(v >> 8));
}
void put32le(std::vector<uint8_t>& o, uint32_t v) {
  put16le(o, v);
  put16le(o, v >> 16);
}

FilePtr create_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  SWL_CHECK(f != nullptr, "cannot create '" + path + "': " + std::strerror(errno));
  return FilePtr(f);
}

void write_all(std::FILE* f, std::span<const uint8_t> b, const std::string& path) {
  SWL_CHECK(std::fwrite(b.data(), 1, b.size(), f) == b.size(),
            "write to '" + path + "' failed: " + std::strerror(errno));
}

uint16_t ip_checksum(const uint8_t* h, size_t n) {
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < n; i += 2) sum += (uint32_t{h[i]} << 8) | h[i + 1];
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum);
}

class PcapWriter final : public CaptureWriter {
 public:
  PcapWriter(const std::string& path, const PcapWriteOptions& o)
      : path_(path), opt_(o), file_(create_file(path)) {
    SWL_CHECK(o.vlan_id < 4096, "pcap writer: VLAN id over 4095");
    SWL_CHECK(o.vlan_id < 0 || o.link == LinkFraming::Ethernet,
              "pcap writer: VLAN tags need Ethernet framing");
    SWL_CHECK(o.mtu == 0 || o.mtu >= 68, "pcap writer: MTU below 68");
    const uint32_t link = o.link == LinkFraming::Ethernet   ? 1
                          : o.link == LinkFraming::LinuxSll ? 113
                                                            : 276;
    std::vector<uint8_t> h;
    if (!o.pcapng) {
      put32le(h, o.nanosecond ? 0xA1B23C4D : 0xA1B2C3D4);
      put16le(h, 2);
      put16le(h, 4);
      put32le(h, 0);       // thiszone
      put32le(h, 0);       // sigfigs
      put32le(h, 262144);  // snaplen
      put32le(h, link);
    } else {
      // Section Header Block, then one Interface Description Block with if_tsresol = 10^-9.
      put32le(h, 0x0A0D0D0A);
      put32le(h, 28);
      put32le(h, 0x1A2B3C4D);
      put16le(h, 1);
      put16le(h, 0);
      put32le(h, 0xFFFFFFFF);
      put32le(h, 0xFFFFFFFF);  // section length unknown
      put32le(h, 28);
      put32le(h, 1);
      put32le(h, 32);
      put16le(h, link);
      put16le(h, 0);
      put32le(h, 262144);
      put16le(h, 9);  // if_tsresol
      put16le(h, 1);
      h.push_back(9);
      h.insert(h.end(), 3, 0);
      put16le(h, 0);  // opt_endofopt
      put16le(h, 0);
      put32le(h, 32);
    }
    write_all(file_.get(), h, path_);
  }

  void write(const Datagram& d) override {
    SWL_CHECK(d.payload.size() <= kMaxUdpPayload, "pcap writer: UDP payload over 65507 bytes");
    // UDP header + payload form the IP payload, split into fragments when over the MTU.
    std::vector<uint8_t> udp;
    udp.reserve(8 + d.payload.size());
    put16be(udp, d.src_port);
    put16be(udp, d.dst_port);
    put16be(udp, static_cast<uint32_t>(8 + d.payload.size()));
    put16be(udp, 0);  // no checksum (allowed for IPv4)
    udp.insert(udp.end(), d.payload.begin(), d.payload.end());
    const size_t max_frag = opt_.mtu > 0 ? ((opt_.mtu - 20) / 8) * 8 : udp.size();
    ++ip_id_;
    size_t off = 0;
    do {
      const size_t n = std::min(max_frag, udp.size() - off);
      const bool more = off + n < udp.size();
      write_frame(d, {udp.data() + off, n}, off, more);
      off += n;
    } while (off < udp.size());
    ++count_;
  }

  void flush() override { std::fflush(file_.get()); }
  uint64_t datagrams_written() const override { return count_; }

 private:
  void write_frame(const Datagram& d, std::span<const uint8_t> ip_payload, size_t offset,
                   bool more) {
    std::vector<uint8_t> f;
    f.reserve(64 + ip_payload.size());
    switch (opt_.link) {
      case LinkFraming::Ethernet: {
        const bool mcast = (d.dst_ip >> 28) == 0xE;
        if (mcast) {  // RFC 1112 mapping of the group to a MAC address
          f.insert(f.end(), {0x01, 0x00, 0x5E, static_cast<uint8_t>((d.dst_ip >> 16) & 0x7F),
                             static_cast<uint8_t>(d.dst_ip >> 8), static_cast<uint8_t>(d.dst_ip)});
        } else {
          f.insert(f.end(), {0x02, 0, 0, 0, 0, 0x01});
        }
        f.insert(f.end(), {0x02, 0, 0, 0, 0, 0x02});
        if (opt_.vlan_id >= 0) {
          put16be(f, 0x8100);
          put16be(f, static_cast<uint32_t>(opt_.vlan_id));
        }
        put16be(f, 0x0800);
        break;
      }
      case LinkFraming::LinuxSll:
        put16be(f, 0);  // packet type: to us
        put16be(f, 1);  // ARPHRD_ETHER
        put16be(f, 6);
        f.insert(f.end(), {0x02, 0, 0, 0, 0, 0x02, 0, 0});
        put16be(f, 0x0800);
        break;
      case LinkFraming::LinuxSll2:
        put16be(f, 0x0800);
        put16be(f, 0);  // reserved
        put32be(f, 1);  // interface index
        put16be(f, 1);  // ARPHRD_ETHER
        f.push_back(0);
        f.push_back(6);
        f.insert(f.end(), {0x02, 0, 0, 0, 0, 0x02, 0, 0});
        break;
    }
    const size_t ip_at = f.size();
    f.push_back(0x45);
    f.push_back(0);
    put16be(f, static_cast<uint32_t>(20 + ip_payload.size()));
    put16be(f, ip_id_);
    put16be(f, static_cast<uint32_t>((more ? 0x2000 : 0) | (offset / 8)));
    f.push_back(opt_.ttl);
    f.push_back(17);
    put16be(f, 0);
    put32be(f, d.src_ip);
    put32be(f, d.dst_ip);
    const uint16_t sum = ip_checksum(f.data() + ip_at, 20);
    f[ip_at + 10] = static_cast<uint8_t>(sum >> 8);
    f[ip_at + 11] = static_cast<uint8_t>(sum);
    f.insert(f.end(), ip_payload.begin(), ip_payload.end());
    write_record(d.time, f);
  }

  void write_record(double time, const std::vector<uint8_t>& frame) {
    const double t = time < 0 ? 0 : time;
    const auto sec = static_cast<uint64_t>(std::floor(t));
    std::vector<uint8_t> h;
    if (!opt_.pcapng) {
      const double frac = t - static_cast<double>(sec);
      const auto sub =
          static_cast<uint32_t>(std::min(std::llround(frac * (opt_.nanosecond ? 1e9 : 1e6)),
                                         opt_.nanosecond ? 999999999LL : 999999LL));
      put32le(h, static_cast<uint32_t>(sec));
      put32le(h, sub);
      put32le(h, static_cast<uint32_t>(frame.size()));
      put32le(h, static_cast<uint32_t>(frame.size()));
      write_all(file_.get(), h, path_);
      write_all(file_.get(), frame, path_);
    } else {
      // Whole seconds and the fraction apart: t * 1e9 alone would lose the nanoseconds.
      const auto ns = sec * 1000000000ull +
                      static_cast<uint64_t>(std::llround((t - static_cast<double>(sec)) * 1e9));
      const size_t padded = (frame.size() + 3) / 4 * 4;
      const auto total = static_cast<uint32_t>(32 + padded);
      put32le(h, 6);  // Enhanced Packet Block
      put32le(h, total);
      put32le(h, 0);  // interface 0
      put32le(h, static_cast<uint32_t>(ns >> 32));
      put32le(h, static_cast<uint32_t>(ns));
      put32le(h, static_cast<uint32_t>(frame.size()));
      put32le(h, static_cast<uint32_t>(frame.size()));
      std::vector<uint8_t> body = frame;
      body.resize(padded, 0);
      put32le(body, total);
      write_all(file_.get(), h, path_);
      write_all(file_.get(), body, path_);
    }
  }

  std::string path_;
  PcapWriteOptions opt_;
  FilePtr file_;
  uint16_t ip_id_ = 0;
  uint64_t count_ = 0;
};

// A headerless file of records: the writers below differ only in how a datagram is framed.
class RecordFileWriter : public CaptureWriter {
 public:
  void write(const Datagram& d) override {
    write_all(file_.get(), frame(d, buffer_), path_);
    ++count_;
  }
  void flush() override { std::fflush(file_.get()); }
  uint64_t datagrams_written() const override { return count_; }

 protected:
  explicit RecordFileWriter(const std::string& path) : path_(path), file_(create_file(path)) {}
  // The bytes to write for `d`: its payload, or the framed record built in `buf`.
  virtual std::span<const uint8_t> frame(const Datagram& d, std::vector<uint8_t>& buf) const = 0;

 private:
  std::vector<uint8_t> buffer_;
  std::string path_;
  FilePtr file_;
  uint64_t count_ = 0;
};

class RawWriter final : public RecordFileWriter {
 public:
  explicit RawWriter(const std::string& path) : RecordFileWriter(path) {}

 private:
  std::span<const uint8_t> frame(const Datagram& d, std::vector<uint8_t>&) const override {
    return d.payload;
  }
};

class FinalWriter final : public RecordFileWriter {
 public:
  explicit FinalWriter(const std::string& path) : RecordFileWriter(path) {}

 private:
  std::span<const uint8_t> frame(const Datagram& d, std::vector<uint8_t>& r) const override {
    SWL_CHECK(d.payload.size() <= 65535 - 12, "FINAL writer: record over 65523 bytes");
    r.clear();
    r.reserve(d.payload.size() + 12);
    put16be(r, static_cast<uint32_t>(d.payload.size() + 12));
    r.push_back(0);  // board
    r.push_back(0);  // line
    r.push_back(0);  // recording day
    const auto t10 =
        static_cast<uint32_t>(std::llround(std::fmod(std::max(d.time, 0.0), 86400.0) * 100));
    r.push_back(static_cast<uint8_t>(t10 >> 16));
    put16be(r, t10);
    r.insert(r.end(), d.payload.begin(), d.payload.end());
    r.insert(r.end(), 4, 0xA5);
    return r;
  }
};

}  // namespace

std::unique_ptr<CaptureWriter> open_pcap_writer(const std::string& path,
                                                const PcapWriteOptions& options) {
  return std::make_unique<PcapWriter>(path, options);
}
std::unique_ptr<CaptureWriter> open_raw_writer(const std::string& path) {
  return std::make_unique<RawWriter>(path);
}
std::unique_ptr<CaptureWriter> open_final_writer(const std::string& path) {
  return std::make_unique<FinalWriter>(path);
}
const char* raw_asterix_refusal(std::span<const uint8_t> payload) {
  if (payload.empty()) return "empty";
  size_t at = 0;
  while (at < payload.size()) {
    if (payload.size() - at < 3) return "block_truncated";
    const size_t len = (size_t(payload[at + 1]) << 8) | payload[at + 2];
    if (len < 3) return "bad_block_len";
    if (len > payload.size() - at) return "block_truncated";
    at += len;
  }
  return nullptr;
}

CaptureFormat recording_format_from_string(const std::string& name) {
  if (name == "pcap" || name.empty()) return CaptureFormat::Pcap;
  if (name == "pcapng") return CaptureFormat::Pcapng;
  if (name == "raw") return CaptureFormat::Raw;
  throw Error("recording format must be pcap, pcapng or raw, not '" + name + "'");
}

std::unique_ptr<CaptureWriter> open_capture_writer(const std::string& path, CaptureFormat format) {
  switch (format) {
    case CaptureFormat::Pcap:
      return open_pcap_writer(path);
    case CaptureFormat::Pcapng: {
      PcapWriteOptions o;
      o.pcapng = true;
      return open_pcap_writer(path, o);
    }
    case CaptureFormat::Final:
      return open_final_writer(path);
    case CaptureFormat::Raw:
      break;
  }
  return open_raw_writer(path);
}

}  // namespace sweepline::capture
