#include "app/net/remote_tracks.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/common/check.hpp"

namespace sweepline::net {

namespace {

constexpr double kDayS = 86400.0;
// Two reports belong to one scan when their times of day are this close (I048/140's LSB is
// 1/128 s; a server stamps every report of a scan with one time).
constexpr double kSameScanS = 0.5 * cat048::kTodLsbS;
// A scan period outside this is a restart or a gap, not the radar's rotation.
constexpr double kMaxScanPeriodS = 60.0;

std::vector<std::string> endpoint_names(const std::vector<UdpConfig>& endpoints) {
  std::vector<std::string> names;
  for (const UdpConfig& c : endpoints) names.push_back(c.address + ":" + std::to_string(c.port));
  return names;
}

double wall_now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

double steady_now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

RemoteTrackPicture::RemoteTrackPicture(std::vector<std::string> endpoints, double now_s) {
  status_.resize(endpoints.size());
  state_.resize(endpoints.size());
  for (size_t i = 0; i < endpoints.size(); ++i) {
    status_[i].endpoint = std::move(endpoints[i]);
    state_[i].opened_s = now_s;
  }
}

void RemoteTrackPicture::start_scan(State& st, RemoteSourceStatus& s, double tod_s) {
  if (st.tod) {
    double dt = tod_s - *st.tod;
    if (dt < -kDayS / 2) dt += kDayS;  // past midnight
    if (dt > 0 && dt < kMaxScanPeriodS) s.scan_period_s = dt;
  }
  st.previous = std::move(st.current);
  st.current.clear();
  st.tod = tod_s;
  s.tod_s = tod_s;
  ++s.scans;
  st.log.push_back(RemoteScan{tod_s, {}, {}});
  if (st.log.size() > kRemoteScanLog) st.log.pop_front();
}

void RemoteTrackPicture::ingest(int source, std::span<const uint8_t> datagram, double now_s) {
  SWL_CHECK(source >= 0 && size_t(source) < state_.size(), "remote tracks: no such source");
  State& st = state_[size_t(source)];
  RemoteSourceStatus& s = status_[size_t(source)];
  age(now_s);  // a source back after a silence starts afresh, not from its old picture
  ++s.datagrams;
  s.bytes += datagram.size();
  scratch_.clear();
  st.decoder.decode(datagram, now_s, scratch_);
  for (const auto& [why, n] : st.decoder.stats().errors) s.errors[why] = n;
  bool any = false;
  for (const cat048::TargetReport& r : scratch_) {
    if (!r.is_track()) {
      ++s.other_reports;
      continue;
    }
    ++s.track_reports;
    any = true;
    if (!st.tod || std::abs(r.tod_s - *st.tod) > kSameScanS) start_scan(st, s, r.tod_s);
    const uint16_t tn = *r.track_number;
    if (r.status && r.status->tre) {
      st.current.erase(tn);
      st.previous.erase(tn);
      st.log.back().ended.push_back(tn);
    } else {
      st.current[tn] = r;
      st.log.back().tracks.push_back(r);
    }
    s.sac = r.sac;
    s.sic = r.sic;
  }
  if (any) {
    s.seen = true;
    st.last_update_s = now_s;
  }
  age(now_s);
}

void RemoteTrackPicture::age(double now_s) {
  for (size_t i = 0; i < state_.size(); ++i) {
    State& st = state_[i];
    RemoteSourceStatus& s = status_[i];
    s.since_update_s = std::max(0.0, now_s - (s.seen ? st.last_update_s : st.opened_s));
    s.stale_after_s = std::max(kRemoteStaleMinS, kRemoteStaleScans * s.scan_period_s);
    s.stale = !s.seen || s.since_update_s > s.stale_after_s;
    if (s.stale && (st.tod || !st.current.empty() || !st.previous.empty())) {
      // Gone: its picture leaves, and what comes back starts a fresh scan.
      st.current.clear();
      st.previous.clear();
      st.tod.reset();
    }
    size_t n = st.current.size();
    for (const auto& [tn, r] : st.previous) n += st.current.count(tn) ? 0 : 1;
    s.tracks = s.stale ? 0 : n;
  }
}

std::vector<RemoteTrack> RemoteTrackPicture::tracks() const {
  std::vector<RemoteTrack> out;
  for (size_t i = 0; i < state_.size(); ++i) {
    if (status_[i].stale) continue;
    const State& st = state_[i];
    // The scan being received, completed by the previous scan's tracks it has not reached yet.
    std::map<uint16_t, const cat048::TargetReport*> merged;
    for (const auto& [tn, r] : st.previous) merged[tn] = &r;
    for (const auto& [tn, r] : st.current) merged[tn] = &r;
    for (const auto& [tn, r] : merged) out.push_back(RemoteTrack{int(i), *r});
  }
  return out;
}

std::optional<double> RemoteTrackPicture::latest_tod() const {
  std::optional<double> t;
  for (size_t i = 0; i < state_.size(); ++i)
    if (!status_[i].stale && state_[i].tod) t = t ? std::max(*t, *state_[i].tod) : *state_[i].tod;
  return t;
}

RemoteTracks::RemoteTracks(const std::vector<UdpConfig>& endpoints)
    : picture_(endpoint_names(endpoints), steady_now_s()) {
  for (const UdpConfig& c : endpoints) {
    try {
      receivers_.push_back(std::make_unique<UdpReceiver>(c));
    } catch (const Error& e) {
      throw Error("tracks " + c.address + ":" + std::to_string(c.port) + ": " + e.what());
    }
  }
}

void RemoteTracks::poll() {
  poll(steady_now_s());
}

void RemoteTracks::poll(double now_s) {
  for (size_t i = 0; i < receivers_.size(); ++i) {
    scratch_.clear();
    receivers_[i]->drain(scratch_);
    // The receiver stamps each datagram with the wall clock as it arrives; the picture's clock
    // is steady: the arrival time carried across, never later than now.
    const double wall_now = wall_now_s();
    for (const capture::Datagram& d : scratch_)
      picture_.ingest(int(i), d.payload, now_s - std::max(0.0, wall_now - d.time));
    const UdpStats u = receivers_[i]->stats();
    RemoteSourceStatus& s = picture_.status(int(i));
    s.kernel_dropped = u.kernel_dropped;
    s.queue_dropped = u.dropped;
    for (const auto& [why, n] : u.errors) s.errors[why] = n;
  }
  picture_.age(now_s);
}

}  // namespace sweepline::net
