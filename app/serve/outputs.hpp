#pragma once
// Where `sweepline serve` sends: one UDP destination (multicast group or unicast address and
// port) per stream, and, with --record, every datagram sent also written to one pcap file with
// its stream's destination. The file is flushed after each datagram, so a server killed at any
// moment leaves a file readable up to the last whole datagram (tests/app/serve kill one).
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "app/capture/capture_writer.hpp"
#include "app/sim/udp_sender.hpp"

namespace sweepline::serve {

enum class Stream : uint8_t { Video, Plots, Tracks, Service, Nmea };
inline constexpr int kStreamCount = 5;
// "video" (CAT240), "plots" (CAT048 plots), "tracks" (CAT048 tracks), "service" (CAT034),
// "nmea" (TTM, TLL, OSD).
const char* to_string(Stream s);

struct StreamCounters {
  uint64_t datagrams = 0;
  uint64_t bytes = 0;        // UDP payload bytes
  uint64_t dropped = 0;      // the socket's buffer was full
  uint64_t send_errors = 0;  // sendto failed otherwise (no route, ...)
  std::string last_error;    // the latest send error's text
};

struct OutputConfig {
  // GROUP:PORT or HOST:PORT per stream (indexed by Stream); empty: the stream is off.
  std::array<std::string, kStreamCount> endpoints;
  int ttl = 1;              // multicast TTL (1: the local network only)
  std::string record_path;  // pcap of every datagram sent; empty: none
};

// Thread-safe: the video goes out from the thread that polls the source, the rest from the
// frame loop.
class Outputs {
 public:
  // Opens the sockets and the recording. Throws sweepline::Error naming the stream ("tracks
  // output 239.0.2.3:x: bad port") or the file.
  explicit Outputs(const OutputConfig& config);
  ~Outputs();
  Outputs(const Outputs&) = delete;
  Outputs& operator=(const Outputs&) = delete;

  bool enabled(Stream s) const { return senders_[size_t(s)] != nullptr; }
  const std::string& endpoint(Stream s) const { return config_.endpoints[size_t(s)]; }
  // Sends one datagram on `s` (nothing when the stream is off) and records it. Never throws: a
  // send error is counted, a recording error stops the recording (recording_error()).
  void send(Stream s, std::span<const uint8_t> payload);

  StreamCounters counters(Stream s) const;
  bool recording() const;
  uint64_t recorded() const;
  std::string recording_error() const;
  // Flushes and closes the recording (also done by the destructor).
  void close_recording();

 private:
  OutputConfig config_;
  std::array<std::unique_ptr<sim::UdpSender>, kStreamCount> senders_;
  mutable std::mutex mu_;
  std::array<StreamCounters, kStreamCount> counters_;
  std::unique_ptr<capture::CaptureWriter> recorder_;
  uint64_t recorded_ = 0;
  std::string recording_error_;
};

}  // namespace sweepline::serve
