#pragma once
// A UDP socket that sends datagrams to one address (unicast or multicast): the simulator's live
// output. Multicast goes out with TTL 1 and loopback on, so a receiver on the same host sees it.
#include <cstdint>
#include <span>
#include <string>

namespace sweepline::sim {

// "GROUP:PORT" -> host-order address and port; throws sweepline::Error when malformed.
void parse_endpoint(const std::string& text, uint32_t& ip, uint16_t& port);

class UdpSender {
 public:
  // Throws sweepline::Error when the socket cannot be created or the endpoint is malformed.
  explicit UdpSender(const std::string& endpoint, int ttl = 1);
  ~UdpSender();
  UdpSender(UdpSender&& other) noexcept;
  UdpSender& operator=(UdpSender&& other) noexcept;
  UdpSender(const UdpSender&) = delete;
  UdpSender& operator=(const UdpSender&) = delete;

  // Sends one datagram; throws sweepline::Error on a send error other than a full buffer
  // (a full buffer drops the datagram, as the network would, and counts it).
  void send(std::span<const uint8_t> payload);
  uint64_t sent() const { return sent_; }
  uint64_t dropped() const { return dropped_; }
  uint32_t ip() const { return ip_; }
  uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  uint32_t ip_ = 0;
  uint16_t port_ = 0;
  uint64_t sent_ = 0, dropped_ = 0;
};

}  // namespace sweepline::sim
