#pragma once
// A UDP socket bound for listening, shared by the radar video receiver (app/net/udp_receiver) and
// the navigation receiver (app/nav/nmea_udp): bound to a multicast group (and joined, on a chosen
// interface) or to a unicast address or any.
#include <cstdint>
#include <functional>
#include <string>

#include "app/net/unique_fd.hpp"

namespace sweepline::net {

struct UdpBindRequest {
  std::string address;    // IPv4 group or unicast address, "" for any
  int port = 0;           // 0: the kernel picks one
  std::string interface;  // multicast only: an interface name or its IPv4 address, "" for any
  std::string what;       // prefix of every message, e.g. "udp" or "nmea udp"
};

struct BoundUdp {
  UniqueFd fd;
  uint16_t port = 0;       // the bound port
  uint32_t address = 0;    // host order; 0 for any
  bool multicast = false;  // joined a multicast group
};

// Checks the request (port range, address syntax, an interface only with a group), creates the
// socket, lets `before_bind` set its options, binds it and joins the group. Throws
// sweepline::Error with the reason (the system's text for a failed call).
BoundUdp bind_udp(const UdpBindRequest& request,
                  const std::function<void(int fd, bool multicast)>& before_bind = {});

}  // namespace sweepline::net
