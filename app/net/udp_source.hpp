#pragma once
// The live udp:// source: a UdpReceiver (which also records, before its queue), the decoder and
// loss counting from I240/020.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/asterix/cat240_decoder.hpp"
#include "app/capture/capture_writer.hpp"
#include "app/net/msg_index_tracker.hpp"
#include "app/net/udp_receiver.hpp"
#include "app/source/source.hpp"

namespace sweepline::net {

struct LiveOptions {
  UdpConfig udp;
  std::string record_path;  // "" = no recording
  capture::CaptureFormat record_format = capture::CaptureFormat::Pcap;
  std::string uri;  // for status()
};

class UdpSource : public RecordSource {
 public:
  // Throws sweepline::Error when the socket cannot be opened or the recording created.
  explicit UdpSource(const LiveOptions& options);
  // Decodes everything received since the last call. Never blocks; a live source does not end.
  bool poll(std::vector<cat240::Record>& out) override;
  SourceStatus status() const override;
  bool live() const override { return true; }
  void wait_for_data(int max_ms) override;
  const UdpReceiver& receiver() const { return *receiver_; }
  // Datagrams written by the current (or last) recording.
  uint64_t recorded() const { return receiver_->recording().written; }
  bool start_raw_recording(const std::string& path, const std::string& format) override;
  void stop_raw_recording() override;
  bool raw_recording() const override { return receiver_->recording().active; }
  uint64_t raw_recorded() const override { return recorded(); }

 private:
  LiveOptions options_;
  std::unique_ptr<UdpReceiver> receiver_;
  cat240::Decoder decoder_;
  MsgIndexTracker tracker_;
  std::vector<capture::Datagram> batch_;
  uint64_t skipped_ = 0;
  // Rate over the last second or so.
  std::chrono::steady_clock::time_point rate_t0_ = std::chrono::steady_clock::now();
  uint64_t rate_bytes0_ = 0;
  double bytes_per_s_ = 0;
};

}  // namespace sweepline::net
