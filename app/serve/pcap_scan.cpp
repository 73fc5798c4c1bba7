#include "app/serve/pcap_scan.hpp"

#include <fstream>
#include <iterator>

#include "app/common/check.hpp"

namespace sweepline::serve {

namespace {

uint32_t le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint16_t be16(const uint8_t* p) {
  return uint16_t(p[0] << 8 | p[1]);
}
uint32_t be32(const uint8_t* p) {
  return uint32_t(be16(p)) << 16 | be16(p + 2);
}

constexpr size_t kFileHeader = 24, kRecordHeader = 16, kEthernet = 14;
constexpr uint32_t kLinkEthernet = 1;

}  // namespace

PcapScan scan_pcap(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  SWL_CHECK(in, "cannot open '" + path + "'");
  const std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), {});
  SWL_CHECK(b.size() >= kFileHeader, "'" + path + "' is shorter than a pcap file header");
  const uint32_t magic = le32(b.data());
  SWL_CHECK(magic == 0xA1B2C3D4 || magic == 0xA1B23C4D,
            "'" + path + "' is not a little-endian classic pcap file");
  SWL_CHECK(le32(b.data() + 20) == kLinkEthernet, "'" + path + "' is not an Ethernet capture");
  const double frac = magic == 0xA1B23C4D ? 1e-9 : 1e-6;
  PcapScan s;
  size_t pos = kFileHeader;
  while (pos < b.size()) {
    if (b.size() - pos < kRecordHeader) break;
    const uint8_t* h = b.data() + pos;
    const uint32_t incl = le32(h + 8);
    if (b.size() - pos - kRecordHeader < incl) break;
    const uint8_t* f = h + kRecordHeader;
    pos += kRecordHeader + incl;
    // Ethernet II with IPv4, a whole IPv4 datagram (no fragment), UDP.
    if (incl < kEthernet + 20 + 8 || be16(f + 12) != 0x0800) {
      ++s.skipped;
      continue;
    }
    const uint8_t* ip = f + kEthernet;
    const size_t ihl = size_t(ip[0] & 0x0F) * 4;
    const size_t ip_len = be16(ip + 2);
    const bool fragment = (be16(ip + 6) & 0x3FFF) != 0;
    if ((ip[0] >> 4) != 4 || ihl < 20 || ip[9] != 17 || fragment || ip_len < ihl + 8 ||
        kEthernet + ip_len > incl) {
      ++s.skipped;
      continue;
    }
    const uint8_t* udp = ip + ihl;
    const size_t udp_len = be16(udp + 4);
    if (udp_len < 8 || ihl + udp_len > ip_len) {
      ++s.skipped;
      continue;
    }
    capture::Datagram d;
    d.time = double(le32(h)) + double(le32(h + 4)) * frac;
    d.src_ip = be32(ip + 12);
    d.dst_ip = be32(ip + 16);
    d.src_port = be16(udp);
    d.dst_port = be16(udp + 2);
    d.payload.assign(udp + 8, udp + udp_len);
    s.datagrams.push_back(std::move(d));
  }
  s.trailing_bytes = b.size() - pos;
  s.truncated = s.trailing_bytes > 0;
  return s;
}

}  // namespace sweepline::serve
