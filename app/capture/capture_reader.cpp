// Capture format detection, raw ASTERIX and Eurocontrol FINAL readers (see capture_reader.hpp).
#include "app/capture/capture_reader.hpp"

#include <array>
#include <cerrno>
#include <cstring>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_internal.hpp"
#include "app/common/check.hpp"

namespace sweepline::capture {
namespace {

using detail::FilePtr;

FilePtr open_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  SWL_CHECK(f != nullptr, "cannot open capture '" + path + "': " + std::strerror(errno));
  return FilePtr(f);
}

uint16_t be16(const uint8_t* p) {
  return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

// What the raw and FINAL readers share: the file, the counters, and ending for good once the
// framing is lost (nothing after it can be trusted).
class FileReader : public CaptureReader {
 public:
  explicit FileReader(const std::string& path) : file_(open_file(path)) {}
  const CaptureStats& stats() const override { return stats_; }
  void rewind() override {
    std::rewind(file_.get());
    ended_ = false;
  }

 protected:
  bool end(const char* why) {
    if (why) ++stats_.skipped[why];
    ended_ = true;
    return false;
  }
  // A payload read whole: counts it and hands it out, or skips it when it is not CAT240.
  bool accept(Datagram& out, double time) {
    if (!cat240::looks_like_cat240(out.payload)) {
      ++stats_.non_cat240;
      return false;
    }
    out.time = time;
    out.src_ip = out.dst_ip = 0;
    out.src_port = out.dst_port = 0;
    ++stats_.datagrams;
    stats_.bytes += out.payload.size();
    return true;
  }
  FilePtr file_;
  CaptureStats stats_;
  bool ended_ = false;
};

// Raw ASTERIX: data blocks back to back; one Datagram per block.
class RawReader final : public FileReader {
 public:
  explicit RawReader(const std::string& path) : FileReader(path) {}
  bool next(Datagram& out) override {
    for (;;) {
      if (ended_) return false;
      std::array<uint8_t, 3> head{};
      const size_t got = std::fread(head.data(), 1, 3, file_.get());
      if (got == 0) return end(nullptr);
      if (got < 3) return end("truncated");
      const uint16_t len = be16(head.data() + 1);
      if (len < 3) return end("truncated");  // framing lost: nothing after it can be trusted
      out.payload.resize(len);
      std::memcpy(out.payload.data(), head.data(), 3);
      if (std::fread(out.payload.data() + 3, 1, len - 3u, file_.get()) != len - 3u)
        return end("truncated");
      if (accept(out, 0)) return true;
    }
  }
  CaptureFormat format() const override { return CaptureFormat::Raw; }
};

// Eurocontrol FINAL: per record a 2-byte byte count (header + data + padding), board, line,
// recording day, 24-bit time of day in 10 ms, the data, then 4 padding octets 0xA5.
class FinalReader final : public FileReader {
 public:
  explicit FinalReader(const std::string& path) : FileReader(path) {}
  bool next(Datagram& out) override {
    for (;;) {
      if (ended_) return false;
      std::array<uint8_t, 8> head{};
      const size_t got = std::fread(head.data(), 1, head.size(), file_.get());
      if (got == 0) return end(nullptr);
      if (got < head.size()) return end("truncated");
      const uint16_t count = be16(head.data());
      if (count < 12) return end("final_bad_record");
      const size_t n = count - 12u;
      out.payload.resize(n);
      std::array<uint8_t, 4> pad{};
      if (std::fread(out.payload.data(), 1, n, file_.get()) != n ||
          std::fread(pad.data(), 1, 4, file_.get()) != 4)
        return end("truncated");
      if (pad != std::array<uint8_t, 4>{0xA5, 0xA5, 0xA5, 0xA5}) {
        return end("final_bad_record");  // wrong byte count: framing is lost
      }
      const uint32_t t10ms = (uint32_t{head[5]} << 16) | (uint32_t{head[6]} << 8) | head[7];
      if (accept(out, t10ms * 0.01)) return true;
    }
  }
  CaptureFormat format() const override { return CaptureFormat::Final; }
};

}  // namespace

const char* to_string(CaptureFormat f) {
  switch (f) {
    case CaptureFormat::Raw:
      return "raw";
    case CaptureFormat::Pcap:
      return "pcap";
    case CaptureFormat::Pcapng:
      return "pcapng";
    case CaptureFormat::Final:
      return "final";
  }
  return "?";
}

CaptureFormat detect_capture_format(const std::string& path) {
  FilePtr f = open_file(path);
  std::array<uint8_t, 16> head{};
  const size_t got = std::fread(head.data(), 1, head.size(), f.get());
  SWL_CHECK(!std::ferror(f.get()), "cannot read capture '" + path + "'");
  SWL_CHECK(got > 0, "capture '" + path + "' is empty");
  if (got >= 4) {
    const uint32_t m =
        (uint32_t{head[0]} << 24) | (uint32_t{head[1]} << 16) | (uint32_t{head[2]} << 8) | head[3];
    if (m == 0xA1B2C3D4 || m == 0xD4C3B2A1 || m == 0xA1B23C4D || m == 0x4D3CB2A1)
      return CaptureFormat::Pcap;
    if (m == 0x0A0D0D0A) return CaptureFormat::Pcapng;
  }
  // FINAL: the first record's byte count points just past four 0xA5 padding octets.
  if (got >= 8) {
    const uint16_t count = be16(head.data());
    if (count >= 12 && std::fseek(f.get(), count - 4, SEEK_SET) == 0) {
      std::array<uint8_t, 4> pad{};
      if (std::fread(pad.data(), 1, 4, f.get()) == 4 &&
          pad == std::array<uint8_t, 4>{0xA5, 0xA5, 0xA5, 0xA5})
        return CaptureFormat::Final;
    }
  }
  // Raw: an ASTERIX data block header (category, LEN >= 3) at the start.
  if (got >= 3 && be16(head.data() + 1) >= 3) return CaptureFormat::Raw;
  SWL_CHECK(false, "capture '" + path + "': not raw ASTERIX, pcap, pcapng or FINAL");
  return CaptureFormat::Raw;
}

std::unique_ptr<CaptureReader> open_capture(const std::string& path, const CaptureFilter& filter) {
  if (!filter.group.empty()) parse_ipv4(filter.group);  // validates
  SWL_CHECK(filter.port >= 0 && filter.port <= 65535, "capture filter: port out of range");
  switch (detect_capture_format(path)) {
    case CaptureFormat::Pcap:
    case CaptureFormat::Pcapng:
      return detail::make_pcap_reader(path, filter);
    case CaptureFormat::Final:
      return std::make_unique<FinalReader>(path);
    case CaptureFormat::Raw:
      break;
  }
  return std::make_unique<RawReader>(path);
}

uint32_t parse_ipv4(const std::string& s) {
  uint32_t ip = 0;
  int parts = 0;
  size_t i = 0;
  while (parts < 4) {
    size_t start = i;
    uint32_t v = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 3) v = v * 10 + (s[i++] - '0');
    SWL_CHECK(i > start && v <= 255, "bad IPv4 address '" + s + "'");
    ip = (ip << 8) | v;
    ++parts;
    if (parts < 4) {
      SWL_CHECK(i < s.size() && s[i] == '.', "bad IPv4 address '" + s + "'");
      ++i;
    }
  }
  SWL_CHECK(i == s.size(), "bad IPv4 address '" + s + "'");
  return ip;
}

std::string format_ipv4(uint32_t ip) {
  return std::to_string(ip >> 24) + "." + std::to_string((ip >> 16) & 255) + "." +
         std::to_string((ip >> 8) & 255) + "." + std::to_string(ip & 255);
}

}  // namespace sweepline::capture
