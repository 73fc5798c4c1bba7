// pcap and pcapng capture reading through libpcap: link layer, IPv4 (with fragment reassembly)
// and UDP, then the port / group filter and the CAT240 check.
#include <pcap/pcap.h>

#include <optional>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_internal.hpp"
#include "app/capture/ip_reassembly.hpp"
#include "app/common/check.hpp"

namespace sweepline::capture::detail {
namespace {

// libpcap link types handled here (values from the tcpdump.org LINKTYPE list).
constexpr int kDltNull = 0;
constexpr int kDltEthernet = 1;
constexpr int kDltRaw = 12;
constexpr int kDltRawAlt = 14;
constexpr int kLinktypeRaw = 101;
constexpr int kDltLinuxSll = 113;
constexpr int kDltLinuxSll2 = 276;

uint16_t be16(const uint8_t* p) {
  return static_cast<uint16_t>((p[0] << 8) | p[1]);
}
uint32_t be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

struct PcapCloser {
  void operator()(pcap_t* p) const noexcept {
    if (p) pcap_close(p);
  }
};

class PcapReader final : public CaptureReader {
 public:
  PcapReader(std::unique_ptr<CaptureInput> input, CaptureFormat format, const CaptureFilter& filter)
      : input_(std::move(input)), filter_(filter), format_(format) {
    if (!filter.group.empty()) group_ = parse_ipv4(filter.group);
    open();
  }

  bool next(Datagram& out) override {
    for (;;) {
      if (!pcap_) return false;
      pcap_pkthdr* h = nullptr;
      const u_char* data = nullptr;
      const int rc = pcap_next_ex(pcap_.get(), &h, &data);
      if (rc == PCAP_ERROR_BREAK) {  // end of file
        finish();
        return false;
      }
      if (rc != 1) {  // a damaged file: libpcap cannot go on
        ++stats_.skipped["truncated"];
        finish();
        return false;
      }
      const double t = static_cast<double>(h->ts.tv_sec) + h->ts.tv_usec * 1e-9;
      if (handle_frame({data, h->caplen}, h->len, t, out)) return true;
    }
  }

  const CaptureStats& stats() const override { return stats_; }
  CaptureFormat format() const override { return format_; }
  void rewind() override {
    SWL_CHECK(input_->seekable(),
              "capture '" + input_->name() + "' is a pipe: it cannot be rewound");
    finish();
    open();
  }

 private:
  // From the input's first byte (a fresh stream each time for a file; a pipe is read once).
  void open() {
    char err[PCAP_ERRBUF_SIZE] = {};
    detail::FilePtr f = input_->stream();
    pcap_t* p = pcap_fopen_offline_with_tstamp_precision(f.get(), PCAP_TSTAMP_PRECISION_NANO, err);
    SWL_CHECK(p != nullptr, "cannot read capture '" + input_->name() + "': " + err);
    f.release();  // pcap_close closes it
    pcap_.reset(p);
    link_ = pcap_datalink(p);
  }

  // The end of the file (or of what libpcap could read): datagrams still missing fragments are
  // lost, and counted.
  void finish() {
    pcap_.reset();
    if (reassembler_.pending() > 0) stats_.skipped["fragment_incomplete"] += reassembler_.pending();
    reassembler_.clear();
  }

  bool skip(const char* why) {
    ++stats_.skipped[why];
    return false;
  }

  // Link layer to the IPv4 header.
  bool handle_frame(std::span<const uint8_t> f, uint32_t wire_len, double t, Datagram& out) {
    if (f.size() < wire_len) return skip("truncated");  // snaplen cut the frame
    size_t off = 0;
    uint16_t proto = 0;
    switch (link_) {
      case kDltEthernet: {
        if (f.size() < 14) return skip("truncated");
        proto = be16(f.data() + 12);
        off = 14;
        // 802.1Q / 802.1ad tags, possibly stacked.
        for (int tags = 0; (proto == 0x8100 || proto == 0x88A8) && tags < 4; ++tags) {
          if (f.size() < off + 4) return skip("truncated");
          proto = be16(f.data() + off + 2);
          off += 4;
        }
        break;
      }
      case kDltLinuxSll:
        if (f.size() < 16) return skip("truncated");
        proto = be16(f.data() + 14);
        off = 16;
        break;
      case kDltLinuxSll2:
        if (f.size() < 20) return skip("truncated");
        proto = be16(f.data());
        off = 20;
        break;
      case kDltNull:
        if (f.size() < 4) return skip("truncated");
        // AF_INET is 2 in either byte order of the 4-byte family.
        proto = (f[0] == 2 || f[3] == 2) ? 0x0800 : 0;
        off = 4;
        break;
      case kDltRaw:
      case kDltRawAlt:
      case kLinktypeRaw:
        proto = 0x0800;
        break;
      default:
        return skip("link_type");
    }
    if (proto != 0x0800) return skip("not_ipv4");
    return handle_ip(f.subspan(off), t, out);
  }

  bool handle_ip(std::span<const uint8_t> ip, double t, Datagram& out) {
    if (ip.size() < 20 || (ip[0] >> 4) != 4) return skip("not_ipv4");
    const size_t ihl = (ip[0] & 15u) * 4u;
    const size_t total = be16(ip.data() + 2);
    if (ihl < 20 || total < ihl || total > ip.size()) return skip("truncated");
    if (ip[9] != 17) return skip("not_udp");
    const uint32_t src = be32(ip.data() + 12);
    const uint32_t dst = be32(ip.data() + 16);
    const uint16_t frag = be16(ip.data() + 6);
    const bool more = (frag & 0x2000) != 0;
    const uint32_t offset = (frag & 0x1FFFu) * 8u;
    std::span<const uint8_t> udp = ip.subspan(ihl, total - ihl);
    if (more || offset != 0) {
      // Filter on the group early so unrelated fragments take no memory.
      if (group_ && dst != *group_) return skip("filtered");
      if (!reassembler_.add(src, dst, be16(ip.data() + 4), ip[9], offset, more, udp, t, whole_,
                            stats_.skipped))
        return false;
      udp = whole_;
    }
    if (udp.size() < 8) return skip("truncated");
    const size_t ulen = be16(udp.data() + 4);
    if (ulen < 8 || ulen > udp.size()) return skip("truncated");
    const uint16_t dport = be16(udp.data() + 2);
    if ((filter_.port && dport != filter_.port) || (group_ && dst != *group_))
      return skip("filtered");
    const auto payload = udp.subspan(8, ulen - 8);
    if (!cat240::looks_like_cat240(payload)) {
      ++stats_.non_cat240;
      return false;
    }
    out.time = t;
    out.src_ip = src;
    out.dst_ip = dst;
    out.src_port = be16(udp.data());
    out.dst_port = dport;
    out.payload.assign(payload.begin(), payload.end());
    ++stats_.datagrams;
    stats_.bytes += payload.size();
    return true;
  }

  std::unique_ptr<CaptureInput> input_;
  CaptureFilter filter_;
  std::optional<uint32_t> group_;
  std::unique_ptr<pcap_t, PcapCloser> pcap_;
  CaptureFormat format_;
  int link_ = 0;
  CaptureStats stats_;
  IpReassembler reassembler_;
  std::vector<uint8_t> whole_;
};

}  // namespace

std::unique_ptr<CaptureReader> make_pcap_reader(std::unique_ptr<CaptureInput> input,
                                                CaptureFormat format, const CaptureFilter& filter) {
  return std::make_unique<PcapReader>(std::move(input), format, filter);
}

}  // namespace sweepline::capture::detail
