// Capture format detection, raw ASTERIX and Eurocontrol FINAL readers (see capture_reader.hpp).
#include "app/capture/capture_reader.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <span>

#include <fcntl.h>
#include <unistd.h>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_internal.hpp"
#include "app/common/check.hpp"
#include "app/common/name_table.hpp"

namespace sweepline::capture {
namespace {

using detail::CaptureInput;
using detail::FilePtr;

uint16_t be16(const uint8_t* p) {
  return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

// What the raw and FINAL readers share: the input, the counters, and ending for good once the
// framing is lost (nothing after it can be trusted).
class FileReader : public CaptureReader {
 public:
  explicit FileReader(std::unique_ptr<CaptureInput> input)
      : input_(std::move(input)), file_(input_->stream()) {}
  const CaptureStats& stats() const override { return stats_; }
  void rewind() override {
    SWL_CHECK(input_->seekable(),
              "capture '" + input_->name() + "' is a pipe: it cannot be rewound");
    std::rewind(file_.get());
    ended_ = false;
  }

 protected:
  bool end(const char* why) {
    if (why) ++stats_.skipped[why];
    ended_ = true;
    return false;
  }
  // The next record's head, whole: false at the end of the file, and after a part of a head
  // (counted as "truncated").
  bool read_head(std::span<uint8_t> head) {
    if (ended_) return false;
    const size_t got = std::fread(head.data(), 1, head.size(), file_.get());
    if (got == head.size()) return true;
    return end(got == 0 ? nullptr : "truncated");
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
  std::unique_ptr<CaptureInput> input_;
  FilePtr file_;
  CaptureStats stats_;
  bool ended_ = false;
};

// Raw ASTERIX: data blocks back to back; one Datagram per block.
class RawReader final : public FileReader {
 public:
  explicit RawReader(std::unique_ptr<CaptureInput> input) : FileReader(std::move(input)) {}
  bool next(Datagram& out) override {
    for (;;) {
      std::array<uint8_t, 3> head{};
      if (!read_head(head)) return false;
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
  explicit FinalReader(std::unique_ptr<CaptureInput> input) : FileReader(std::move(input)) {}
  bool next(Datagram& out) override {
    for (;;) {
      std::array<uint8_t, 8> head{};
      if (!read_head(head)) return false;
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

constexpr NameTable<CaptureFormat, 4> kFormatNames{{{CaptureFormat::Raw, "raw"},
                                                    {CaptureFormat::Pcap, "pcap"},
                                                    {CaptureFormat::Pcapng, "pcapng"},
                                                    {CaptureFormat::Final, "final"}}};

const char* to_string(CaptureFormat f) {
  return name_of(kFormatNames, f);
}

namespace {

// Bytes of a text file: printable ASCII and the usual white space.
bool is_text(std::span<const uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](uint8_t c) {
    return (c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  });
}

CaptureFormat detect(CaptureInput& in) {
  const std::string& path = in.name();
  // A copy: later peeks may move the input's buffer.
  const auto first = in.peek(16);
  SWL_CHECK(!first.empty(), "capture '" + path + "' is empty");
  const std::vector<uint8_t> head(first.begin(), first.end());
  if (head.size() >= 4) {
    const uint32_t m =
        (uint32_t{head[0]} << 24) | (uint32_t{head[1]} << 16) | (uint32_t{head[2]} << 8) | head[3];
    if (m == 0xA1B2C3D4 || m == 0xD4C3B2A1 || m == 0xA1B23C4D || m == 0x4D3CB2A1)
      return CaptureFormat::Pcap;
    if (m == 0x0A0D0D0A) return CaptureFormat::Pcapng;
  }
  // FINAL: the first record's byte count points just past four 0xA5 padding octets.
  if (head.size() >= 8) {
    const uint16_t count = be16(head.data());
    if (count >= 12) {
      const auto rec = in.peek(count);
      if (rec.size() == count && rec[count - 4] == 0xA5 && rec[count - 3] == 0xA5 &&
          rec[count - 2] == 0xA5 && rec[count - 1] == 0xA5)
        return CaptureFormat::Final;
    }
  }
  SWL_CHECK(!is_text(in.peek(4096)), "capture '" + path +
                                         "' is a text file, not raw ASTERIX, pcap, pcapng or "
                                         "FINAL");
  // Raw: an ASTERIX data block (category 1..255, LEN >= 3) that the input holds whole.
  if (head.size() >= 3 && head[0] != 0 && be16(head.data() + 1) >= 3) {
    const uint16_t len = be16(head.data() + 1);
    SWL_CHECK(in.peek(len).size() == len,
              "capture '" + path +
                  "': not pcap, pcapng or FINAL, and as raw ASTERIX its first "
                  "block (LEN " +
                  std::to_string(len) + ") runs past the end");
    return CaptureFormat::Raw;
  }
  SWL_CHECK(false, "capture '" + path + "': not raw ASTERIX, pcap, pcapng or FINAL");
  return CaptureFormat::Raw;
}

}  // namespace

CaptureFormat detect_capture_format(const std::string& path) {
  CaptureInput in(path);
  return detect(in);
}

namespace {

std::unique_ptr<CaptureReader> open_input(std::unique_ptr<CaptureInput> in,
                                          const CaptureFilter& filter) {
  if (!filter.group.empty()) parse_ipv4(filter.group);  // validates
  SWL_CHECK(filter.port >= 0 && filter.port <= 65535, "capture filter: port out of range");
  const CaptureFormat format = detect(*in);
  switch (format) {
    case CaptureFormat::Pcap:
    case CaptureFormat::Pcapng:
      return detail::make_pcap_reader(std::move(in), format, filter);
    case CaptureFormat::Final:
      return std::make_unique<FinalReader>(std::move(in));
    case CaptureFormat::Raw:
      break;
  }
  return std::make_unique<RawReader>(std::move(in));
}

// The whole of a non-seekable input, copied into an unlinked temporary file.
std::unique_ptr<CaptureInput> spool(CaptureInput& in) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  std::string tmpl = dir + "/sweepline-capture-XXXXXX";
  const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  SWL_CHECK(fd >= 0, "capture '" + in.name() + "': cannot create a temporary file in " + dir +
                         ": " + std::strerror(errno));
  ::unlink(tmpl.c_str());                                     // gone with its last descriptor
  auto copy = std::make_unique<CaptureInput>(fd, in.name());  // owns fd
  FilePtr src = in.stream();
  std::vector<uint8_t> buf(1 << 20);
  for (;;) {
    const size_t n = std::fread(buf.data(), 1, buf.size(), src.get());
    for (size_t off = 0; off < n;) {
      const ssize_t w = ::write(fd, buf.data() + off, n - off);
      if (w < 0 && errno == EINTR) continue;
      SWL_CHECK(w > 0, "capture '" + in.name() + "': cannot copy it to a temporary file in " + dir +
                           ": " + std::strerror(errno));
      off += size_t(w);
    }
    if (n < buf.size()) break;
  }
  SWL_CHECK(!std::ferror(src.get()), "cannot read capture '" + in.name() + "'");
  return copy;  // its readers start from the first byte
}

}  // namespace

std::unique_ptr<CaptureReader> open_capture(const std::string& path, const CaptureFilter& filter) {
  return open_input(std::make_unique<CaptureInput>(path), filter);
}

std::unique_ptr<CaptureReader> open_capture_rewindable(const std::string& path,
                                                       const CaptureFilter& filter) {
  auto in = std::make_unique<CaptureInput>(path);
  if (!in->seekable()) in = spool(*in);
  return open_input(std::move(in), filter);
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
