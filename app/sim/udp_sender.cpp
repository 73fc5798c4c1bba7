#include "app/sim/udp_sender.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "app/capture/capture_reader.hpp"
#include "app/common/check.hpp"

namespace sweepline::sim {

void parse_endpoint(const std::string& text, uint32_t& ip, uint16_t& port) {
  const auto colon = text.rfind(':');
  SWL_CHECK(colon != std::string::npos && colon > 0,
            "sim: endpoint '" + text + "' must be GROUP:PORT (e.g. 239.0.1.2:8600)");
  ip = capture::parse_ipv4(text.substr(0, colon));
  const std::string p = text.substr(colon + 1);
  unsigned v = 0;
  auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
  SWL_CHECK(!p.empty() && ec == std::errc() && end == p.data() + p.size() && v >= 1 && v <= 65535,
            "sim: bad port in endpoint '" + text + "'");
  port = uint16_t(v);
}

UdpSender::UdpSender(const std::string& endpoint, int ttl) {
  parse_endpoint(endpoint, ip_, port_);
  fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  SWL_CHECK(fd_ >= 0, std::string("sim: cannot create a UDP socket: ") + std::strerror(errno));
  if ((ip_ >> 28) == 0xE) {  // multicast
    const unsigned char t = static_cast<unsigned char>(ttl), loop = 1;
    ::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_TTL, &t, sizeof t);
    ::setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop);
  }
  const int sndbuf = 4 << 20;
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
}

UdpSender::~UdpSender() {
  if (fd_ >= 0) ::close(fd_);
}

UdpSender::UdpSender(UdpSender&& o) noexcept
    : fd_(o.fd_), ip_(o.ip_), port_(o.port_), sent_(o.sent_), dropped_(o.dropped_) {
  o.fd_ = -1;
}

UdpSender& UdpSender::operator=(UdpSender&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    ip_ = o.ip_;
    port_ = o.port_;
    sent_ = o.sent_;
    dropped_ = o.dropped_;
    o.fd_ = -1;
  }
  return *this;
}

void UdpSender::send(std::span<const uint8_t> payload) {
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_addr.s_addr = htonl(ip_);
  to.sin_port = htons(port_);
  const ssize_t n = ::sendto(fd_, payload.data(), payload.size(), 0,
                             reinterpret_cast<const sockaddr*>(&to), sizeof to);
  if (n < 0 && (errno == ENOBUFS || errno == EAGAIN || errno == EWOULDBLOCK)) {
    ++dropped_;
    return;
  }
  SWL_CHECK(n == static_cast<ssize_t>(payload.size()),
            std::string("sim: UDP send failed: ") + std::strerror(errno));
  ++sent_;
}

}  // namespace sweepline::sim
