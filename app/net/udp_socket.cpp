#include "app/net/udp_socket.hpp"

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "app/common/check.hpp"

namespace sweepline::net {

namespace {

std::string errno_text() {
  return std::strerror(errno);
}

}  // namespace

BoundUdp bind_udp(const UdpBindRequest& r,
                  const std::function<void(int fd, bool multicast)>& before_bind) {
  SWL_CHECK(r.port >= 0 && r.port <= 65535,
            r.what + ": port " + std::to_string(r.port) + " is outside 0..65535");
  in_addr ia{};
  if (!r.address.empty())
    SWL_CHECK(::inet_pton(AF_INET, r.address.c_str(), &ia) == 1,
              r.what + ": '" + r.address + "' is not an IPv4 address");
  BoundUdp b;
  b.address = ntohl(ia.s_addr);
  b.multicast = (b.address >> 28) == 0xE;
  SWL_CHECK(
      b.multicast || r.interface.empty(),
      r.what + ": an interface can only be chosen for a multicast group, not for " + r.address);

  UniqueFd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  SWL_CHECK(fd.valid(), r.what + ": cannot create a socket: " + errno_text());
  const int one = 1;
  // Several listeners on one host may share a multicast feed.
  if (b.multicast) ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (before_bind) before_bind(fd.get(), b.multicast);

  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(uint16_t(r.port));
  // Binding to the group keeps other groups on the same port out.
  sa.sin_addr.s_addr = htonl(b.address);
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0)
    throw_error(__FILE__, __LINE__,
                r.what + ": cannot listen on " + (r.address.empty() ? "*" : r.address) + ":" +
                    std::to_string(r.port) + ": " + errno_text());
  socklen_t slen = sizeof sa;
  ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&sa), &slen);
  b.port = ntohs(sa.sin_port);

  if (b.multicast) {
    ip_mreqn mreq{};
    mreq.imr_multiaddr.s_addr = htonl(b.address);
    if (!r.interface.empty()) {
      in_addr ifa{};
      if (::inet_pton(AF_INET, r.interface.c_str(), &ifa) == 1) {
        mreq.imr_address = ifa;
      } else {
        const unsigned idx = ::if_nametoindex(r.interface.c_str());
        SWL_CHECK(idx != 0, r.what + ": no network interface named '" + r.interface + "'");
        mreq.imr_ifindex = int(idx);
      }
    }
    if (::setsockopt(fd.get(), IPPROTO_IP, IP_ADD_MEMBERSHIP, &mreq, sizeof mreq) != 0)
      throw_error(__FILE__, __LINE__,
                  r.what + ": cannot join multicast group " + r.address +
                      (r.interface.empty() ? "" : " on " + r.interface) + ": " + errno_text());
  }
  b.fd = std::move(fd);
  return b;
}

}  // namespace sweepline::net
