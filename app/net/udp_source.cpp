#include "app/net/udp_source.hpp"

#include <spdlog/spdlog.h>

#include "app/common/check.hpp"

namespace sweepline::net {

UdpSource::UdpSource(const LiveOptions& options)
    : options_(options), receiver_(std::make_unique<UdpReceiver>(options.udp)) {
  if (!options_.record_path.empty()) {
    receiver_->start_recording(options_.record_path, options_.record_format);
    spdlog::info("recording {} to {} ({})", options_.uri, options_.record_path,
                 capture::to_string(options_.record_format));
  }
}

bool UdpSource::poll(std::vector<cat240::Record>& out) {
  batch_.clear();
  receiver_->drain(batch_);
  for (const capture::Datagram& d : batch_) {
    if (!cat240::looks_like_cat240(d.payload)) {
      ++skipped_;
      continue;
    }
    const std::size_t first = out.size();
    decoder_.decode(d.payload, d.time, out);
    for (std::size_t i = first; i < out.size(); ++i) {
      const cat240::Record& r = out[i];
      if (r.msg_index) tracker_.observe(r.sac, r.sic, *r.msg_index);
    }
  }
  const auto now = std::chrono::steady_clock::now();
  const double dt = std::chrono::duration<double>(now - rate_t0_).count();
  if (dt >= 1.0) {
    const uint64_t bytes = decoder_.stats().bytes;
    bytes_per_s_ = double(bytes - rate_bytes0_) / dt;
    rate_bytes0_ = bytes;
    rate_t0_ = now;
  }
  return true;
}

void UdpSource::wait_for_data(int max_ms) {
  receiver_->wait_for_data(std::chrono::milliseconds(max_ms));
}

bool UdpSource::start_raw_recording(const std::string& path, const std::string& format) {
  const capture::CaptureFormat f = capture::recording_format_from_string(format);
  receiver_->start_recording(path, f);
  spdlog::info("recording {} to {} ({})", options_.uri, path, format);
  return true;
}

void UdpSource::stop_raw_recording() {
  receiver_->stop_recording();
}

SourceStatus UdpSource::status() const {
  SourceStatus s;
  s.uri = options_.uri;
  const RecordingStats rec = receiver_->recording();
  // A full disk stops the recording, not the display.
  s.state = rec.error.empty() ? "running" : "error: recording stopped: " + rec.error;
  const UdpStats u = receiver_->stats();
  s.datagrams = u.datagrams;
  s.bytes = u.bytes;
  s.records = decoder_.stats().records;
  s.bytes_per_s = bytes_per_s_;
  s.lost_messages = tracker_.lost();
  s.errors = decoder_.stats().errors;
  for (const auto& [k, v] : u.errors) s.errors["udp_" + k] += v;
  if (u.dropped) s.errors["queue_full"] += u.dropped;
  if (tracker_.out_of_order()) s.errors["msg_index_out_of_order"] += tracker_.out_of_order();
  if (tracker_.restarts()) s.errors["msg_index_restart"] += tracker_.restarts();
  s.skipped = skipped_;
  s.kernel_dropped = u.kernel_dropped;
  s.recording = rec.active;
  s.recorded = rec.written;
  s.not_recorded = rec.not_written;
  return s;
}

}  // namespace sweepline::net
