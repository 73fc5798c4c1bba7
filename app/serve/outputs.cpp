#include "app/serve/outputs.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "app/common/check.hpp"

namespace sweepline::serve {

const char* to_string(Stream s) {
  switch (s) {
    case Stream::Video:
      return "video";
    case Stream::Plots:
      return "plots";
    case Stream::Tracks:
      return "tracks";
    case Stream::Service:
      return "service";
    case Stream::Nmea:
      return "nmea";
  }
  return "?";
}

Outputs::Outputs(const OutputConfig& config) : config_(config) {
  for (int i = 0; i < kStreamCount; ++i) {
    const std::string& ep = config_.endpoints[size_t(i)];
    if (ep.empty()) continue;
    try {
      senders_[size_t(i)] = std::make_unique<sim::UdpSender>(ep, config_.ttl);
    } catch (const Error& e) {
      throw Error(std::string(to_string(Stream(i))) + " output " + ep + ": " + e.what());
    }
  }
  if (!config_.record_path.empty()) {
    recorder_ = capture::open_pcap_writer(config_.record_path);
    recorder_->flush();  // the file header on disk before the first datagram
  }
}

Outputs::~Outputs() {
  close_recording();
}

void Outputs::send(Stream s, std::span<const uint8_t> payload) {
  sim::UdpSender* sender = senders_[size_t(s)].get();
  if (!sender) return;
  std::lock_guard lock(mu_);
  StreamCounters& c = counters_[size_t(s)];
  const uint64_t dropped_before = sender->dropped();
  try {
    sender->send(payload);
  } catch (const std::exception& e) {
    if (c.send_errors++ == 0) spdlog::warn("{} output {}: {}", to_string(s), endpoint(s), e.what());
    c.last_error = e.what();
    return;
  }
  if (sender->dropped() != dropped_before) {
    ++c.dropped;
    return;
  }
  ++c.datagrams;
  c.bytes += payload.size();
  if (!recorder_) return;
  capture::Datagram d;
  d.time =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  d.dst_ip = sender->ip();
  d.dst_port = sender->port();
  d.payload.assign(payload.begin(), payload.end());
  try {
    recorder_->write(d);
    recorder_->flush();  // whole datagrams on disk, whatever ends the process
    ++recorded_;
  } catch (const std::exception& e) {
    recording_error_ = std::string("recording stopped: ") + e.what();
    spdlog::error("{}", recording_error_);
    recorder_.reset();
  }
}

StreamCounters Outputs::counters(Stream s) const {
  std::lock_guard lock(mu_);
  return counters_[size_t(s)];
}

bool Outputs::recording() const {
  std::lock_guard lock(mu_);
  return recorder_ != nullptr;
}

uint64_t Outputs::recorded() const {
  std::lock_guard lock(mu_);
  return recorded_;
}

std::string Outputs::recording_error() const {
  std::lock_guard lock(mu_);
  return recording_error_;
}

void Outputs::close_recording() {
  std::lock_guard lock(mu_);
  if (!recorder_) return;
  try {
    recorder_->flush();
  } catch (const std::exception& e) {
    recording_error_ = e.what();
  }
  recorder_.reset();
}

}  // namespace sweepline::serve
