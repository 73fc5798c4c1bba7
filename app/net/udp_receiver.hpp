#pragma once
// Live CAT240 over UDP: a socket (unicast or multicast, joined on a chosen interface) read by its
// own thread, which stamps each datagram with its arrival time, records it (when a recording is
// on) and queues it for the consumer. Recording happens here, before the queue, so a recording
// holds every datagram received even when the consumer falls behind. The queue is bounded; when
// the consumer falls behind, new datagrams are dropped from the queue and counted (the receiver
// never waits for the consumer, so the kernel buffer keeps draining).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/capture/capture_reader.hpp"
#include "app/capture/capture_writer.hpp"
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
  // Asked for; the kernel grants at most net.core.rmem_max unless the process may force more
  // (both logged). 32 MiB holds about half a second of the stress scene at 10x.
  int rcvbuf_bytes = 32 << 20;
  std::size_t max_queued_datagrams = 65536;   // then drops
  std::size_t max_queued_bytes = 256u << 20;  // then drops
};

struct UdpStats {
  uint64_t datagrams = 0;  // received (including dropped ones)
  uint64_t bytes = 0;      // received payload bytes
  uint64_t dropped = 0;    // queue full: the consumer was too slow
  // Dropped by the kernel before the receiver read them (its buffer was full), as the kernel
  // reports it with the next datagram read (SO_RXQ_OVFL).
  uint64_t kernel_dropped = 0;
  std::map<std::string, uint64_t> errors;  // by reason: "truncated" (over 64 KB), "recv"
  int rcvbuf_granted = 0;                  // usable receive buffer the kernel granted (bytes)
};

// A recording made by the receiver thread (every datagram received, before the queue).
struct RecordingStats {
  bool active = false;
  std::string path;
  capture::CaptureFormat format = capture::CaptureFormat::Pcap;
  uint64_t written = 0;  // datagrams in the file
  // Received but not written, by reason: a raw ASTERIX file takes only whole ASTERIX data blocks
  // (capture::raw_asterix_refusal's reasons); "truncated": over 64 KB, not whole.
  std::map<std::string, uint64_t> not_written;
  std::string error;  // a write error (full disk) stopped the recording
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
  // Waits until a datagram is queued or `timeout` passes; true when one is queued.
  bool wait_for_data(std::chrono::milliseconds timeout);
  UdpStats stats() const;
  uint16_t port() const { return port_; }  // the bound port
  bool multicast() const { return multicast_; }
  const UdpConfig& config() const { return config_; }

  // Stops receiving: takes in what the socket holds now (recording it), then ends the thread.
  // The recording stays open until stop_recording() or destruction. Idempotent.
  void stop();

  // Records every datagram received from now on to `path` (a recording in progress is stopped
  // first). Throws sweepline::Error when the file cannot be created. The file is flushed
  // whenever the socket has been drained, so it lags the wire by at most one burst.
  void start_recording(const std::string& path, capture::CaptureFormat format);
  // Flushes and closes the recording (nothing when none is on). A write error is kept in
  // recording().error rather than thrown.
  void stop_recording();
  RecordingStats recording() const;

 private:
  void run();
  // Takes every datagram the kernel holds now: records and queues each.
  void receive_all(std::vector<uint8_t>& buf);
  void record(const capture::Datagram& d, bool truncated);  // rec_mu_ held
  void flush_recording();                                   // rec_mu_ held
  void close_recording();                                   // rec_mu_ held

  UdpConfig config_;
  UniqueFd fd_;
  uint16_t port_ = 0;
  bool multicast_ = false;
  uint32_t bound_ip_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::condition_variable data_cv_;
  std::vector<capture::Datagram> queue_;  // guarded by mu_
  std::size_t queued_bytes_ = 0;          // guarded by mu_
  UdpStats stats_;                        // guarded by mu_
  // The recording, written by the receiver thread; never locked together with mu_.
  mutable std::mutex rec_mu_;
  std::unique_ptr<capture::CaptureWriter> recorder_;  // guarded by rec_mu_
  RecordingStats rec_;                                // guarded by rec_mu_
  bool rec_dirty_ = false;                            // written since the last flush
  std::thread thread_;
};

// True for 224.0.0.0/4 (host byte order).
inline bool is_multicast(uint32_t ip) {
  return (ip >> 28) == 0xE;
}

}  // namespace sweepline::net
