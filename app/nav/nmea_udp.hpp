#pragma once
// Navigation sentences over UDP (NMEA 0183 over IP, IEC 61162-450 framing understood): one
// socket, unicast or a joined multicast group, read either by the receiver's own thread or by
// the caller through poll(). Every datagram is stamped with its arrival on the wall clock (the
// clock the radar video's datagrams are stamped with), split into lines, parsed and fed to the
// own-ship estimator. Hostile datagrams cost counters, never an exception on the receive path.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/nav/nmea_parser.hpp"
#include "app/nav/own_ship.hpp"
#include "app/net/unique_fd.hpp"

namespace sweepline::nav {

struct NmeaUdpConfig {
  // A multicast group (224.0.0.0/4, joined), a local unicast address, or "" / "0.0.0.0".
  std::string address;
  int port = 0;  // 0: any free port (tests), see NmeaUdpReceiver::port()
  // Multicast only: the interface to join on, by IPv4 address or name; "" = the kernel's choice.
  std::string interface;
  // true: a thread of the receiver's own reads the socket; false: the caller calls poll().
  bool own_thread = true;
  NmeaParserConfig parser;
  OwnShipConfig own_ship;
  // Arrival time of a datagram in seconds; unset: the wall clock (system_clock since the epoch).
  std::function<double()> clock;
};

struct NmeaUdpStats {
  uint64_t datagrams = 0;
  uint64_t bytes = 0;
  uint64_t truncated = 0;    // over 64 KB: not parsed
  uint64_t recv_errors = 0;  // recv failed other than by having nothing to read
};

// Owns the socket and the thread; neither copyable nor movable (the thread holds `this`).
class NmeaUdpReceiver {
 public:
  // Opens, binds, joins and (with own_thread) starts. Throws sweepline::Error with a message for
  // the user (bad address, unknown interface, port in use, join refused).
  explicit NmeaUdpReceiver(const NmeaUdpConfig& config);
  ~NmeaUdpReceiver();
  NmeaUdpReceiver(const NmeaUdpReceiver&) = delete;
  NmeaUdpReceiver& operator=(const NmeaUdpReceiver&) = delete;

  // Without own_thread: waits up to `timeout` for data, then takes in every datagram queued.
  // Returns the sentences accepted. Throws sweepline::Error when the receiver has its own thread.
  std::size_t poll(std::chrono::milliseconds timeout);
  // Waits until `accepted` sentences in all have been accepted, or `timeout` passes.
  bool wait_for_accepted(uint64_t accepted, std::chrono::milliseconds timeout) const;

  OwnShipState state(double t_s) const;
  OwnShipState state_now() const { return state(now()); }
  NmeaCounters counters() const;
  NmeaUdpStats stats() const;
  uint16_t port() const { return port_; }
  double now() const;

  // Ends the thread (what the socket holds is taken in first). Idempotent.
  void stop();

 private:
  void run();
  std::size_t receive_all();

  NmeaUdpConfig config_;
  net::UniqueFd fd_;
  uint16_t port_ = 0;
  std::vector<char> buf_;  // used only by the reading side
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  mutable std::condition_variable accepted_cv_;
  NmeaParser parser_;           // guarded by mu_
  OwnShipEstimator estimator_;  // guarded by mu_
  NmeaUdpStats stats_;          // guarded by mu_
  std::thread thread_;
};

}  // namespace sweepline::nav
