#pragma once
// Live CAT240 over UDP: a socket (unicast or multicast, joined on a chosen interface) read by its
// own thread, which stamps each datagram with its arrival time and queues it for the consumer.
// The queue is bounded; when the consumer falls behind, new datagrams are dropped and counted
// (the receiver never waits for the consumer, so the kernel buffer keeps draining).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/capture/capture_reader.hpp"
#include "app/net/unique_fd.hpp"

namespace sweepline::net {

struct UdpConfig {
  // Address to listen on: a multicast group (224.0.0.0/4, joined), a local unicast address, or
  // "" / "0.0.0.0" for any.
  std::string address;
  int port = 0;  // 0: any free port (tests), see UdpReceiver::port()
  // Multicast only: the interface to join on, by IPv4 address or name ("eth0"); "" = the kernel's
  // choice.
  std::string interface;
  int rcvbuf_bytes = 16 << 20;                // asked for; the kernel may grant less (logged)
  std::size_t max_queued_datagrams = 65536;   // then drops
  std::size_t max_queued_bytes = 256u << 20;  // then drops
};

struct UdpStats {
  uint64_t datagrams = 0;                  // received (including dropped ones)
  uint64_t bytes = 0;                      // received payload bytes
  uint64_t dropped = 0;                    // queue full: the consumer was too slow
  std::map<std::string, uint64_t> errors;  // by reason: "truncated" (over 64 KB), "recv"
  int rcvbuf_granted = 0;                  // SO_RCVBUF as the kernel reports it
};

// Owns the socket (UniqueFd) and the thread. Neither copyable nor movable: the thread holds
// `this`; hold it by unique_ptr to move it.
class UdpReceiver {
 public:
  // Opens, binds, joins and starts receiving. Throws sweepline::Error with a message for the
  // user (bad address, unknown interface, port in use, join refused).
  explicit UdpReceiver(const UdpConfig& config);
  ~UdpReceiver();
  UdpReceiver(const UdpReceiver&) = delete;
  UdpReceiver& operator=(const UdpReceiver&) = delete;

  // Moves every queued datagram to the end of `out`; never blocks for long. Returns how many.
  std::size_t drain(std::vector<capture::Datagram>& out);
  UdpStats stats() const;
  uint16_t port() const { return port_; }  // the bound port
  bool multicast() const { return multicast_; }
  const UdpConfig& config() const { return config_; }

 private:
  void run();

  UdpConfig config_;
  UniqueFd fd_;
  uint16_t port_ = 0;
  bool multicast_ = false;
  uint32_t bound_ip_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<capture::Datagram> queue_;  // guarded by mu_
  std::size_t queued_bytes_ = 0;          // guarded by mu_
  UdpStats stats_;                        // guarded by mu_
  std::thread thread_;
};

// True for 224.0.0.0/4 (host byte order).
inline bool is_multicast(uint32_t ip) {
  return (ip >> 28) == 0xE;
}

}  // namespace sweepline::net
