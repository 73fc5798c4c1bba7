// The engine's target tracking: own ship's navigation, the tracker fed at each collected frame,
// the operator's commands and the snapshot the console reads (engine.hpp, tracking.hpp).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/common/check.hpp"
#include "app/engine/engine.hpp"
#include "app/source/source_uri.hpp"

namespace sweepline::engine {

namespace {

constexpr double kMetresPerNm = 1852.0;
// Own ship is sampled this often across a frame's sweep times and interpolated between for
// each plot: a 45 deg/min turn moves the heading 0.19 deg in that time, linearly.
constexpr double kOwnSampleS = 0.25;
// A plot is final once the sweep is this many beamwidths past its trailing edge (a weak skirt
// of the echo may still be added by the next rows).
constexpr double kFinalMarginBeams = 0.5;

double elapsed_ms(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double wrap360(double d) {
  d = std::fmod(d, 360.0);
  if (d < 0) d += 360.0;
  return d >= 360.0 ? 0.0 : d;
}

double wrap180(double d) {
  d = wrap360(d);
  return d > 180.0 ? d - 360.0 : d;
}

track::TrackerParams tracker_params(const TrackingSettings& t, const gpu::PlotParams& radar) {
  track::TrackerParams p;
  p.confirm_hits = t.confirm_hits;
  p.confirm_window = t.confirm_window;
  p.keep_hits = t.keep_hits;
  p.keep_window = t.keep_window;
  p.delete_lost_scans = t.delete_lost_scans;
  p.delete_lost_s = t.delete_lost_s;
  p.auto_acquire_everywhere = t.auto_acquire;
  p.capacity = t.capacity;
  p.cpa_limit_m = t.cpa_limit_nm * kMetresPerNm;
  p.tcpa_limit_s = t.tcpa_limit_min * 60.0;
  p.trail_interval_s = t.trail_interval_s;
  p.trail_points = std::max(1, int(std::lround(t.trail_minutes * 60.0 / t.trail_interval_s)));
  p.beamwidth_deg = radar.beamwidth_deg;
  p.range_resolution_m = radar.pulse_m;
  return p;
}

// Own ship sampled across a frame and interpolated for each plot's time.
class OwnSamples {
 public:
  void clear() { s_.clear(); }
  void add(const nav::OwnShipState& st) { s_.push_back(st); }
  bool empty() const { return s_.empty(); }
  const nav::OwnShipState& last() const { return s_.back(); }
  const nav::OwnShipState& first() const { return s_.front(); }

  nav::OwnShipState at(double t) const {
    if (s_.size() == 1 || t <= s_.front().time_s) return s_.front();
    if (t >= s_.back().time_s) return s_.back();
    const auto it = std::upper_bound(
        s_.begin(), s_.end(), t, [](double v, const nav::OwnShipState& s) { return v < s.time_s; });
    const nav::OwnShipState& b = *it;
    const nav::OwnShipState& a = *(it - 1);
    if (a.valid != b.valid || a.heading_valid != b.heading_valid)
      return t - a.time_s < b.time_s - t ? a : b;
    const double f = (t - a.time_s) / (b.time_s - a.time_s);
    nav::OwnShipState o = a;
    o.time_s = t;
    o.x_m = a.x_m + f * (b.x_m - a.x_m);
    o.y_m = a.y_m + f * (b.y_m - a.y_m);
    o.vx_mps = a.vx_mps + f * (b.vx_mps - a.vx_mps);
    o.vy_mps = a.vy_mps + f * (b.vy_mps - a.vy_mps);
    o.speed_mps = a.speed_mps + f * (b.speed_mps - a.speed_mps);
    o.heading_deg = wrap360(a.heading_deg + f * wrap180(b.heading_deg - a.heading_deg));
    o.course_deg = wrap360(a.course_deg + f * wrap180(b.course_deg - a.course_deg));
    return o;
  }

 private:
  std::vector<nav::OwnShipState> s_;
};

}  // namespace

const char* to_string(OwnShipSource s) {
  switch (s) {
    case OwnShipSource::Nmea:
      return "nmea";
    case OwnShipSource::Simulator:
      return "simulator";
    case OwnShipSource::None:
      break;
  }
  return "none";
}

void Engine::make_tracker() {
  const uint64_t resets = tracking_.resets + (tracker_fed_ ? 1 : 0);
  TrackingView v;
  v.settings = settings_.tracking;
  v.enabled = settings_.tracking.enabled;
  v.resets = resets;
  v.nmea_active = nmea_ != nullptr;
  v.nmea_error = tracking_.nmea_error;
  tracker_.reset();
  tracker_fed_ = false;
  tracker_now_s_ = 0;
  clock_.reset();
  if (settings_.tracking.enabled && !remote_) {
    try {
      tracker_ = std::make_unique<track::Tracker>(
          tracker_params(settings_.tracking, settings_.processing.params.plot));
      for (const auto& z : settings_.tracking.zones) tracker_->add_zone(z);
    } catch (const std::exception& e) {
      // The settings were checked when read; a bad combination left is shown, never fatal.
      v.command_error = std::string("tracking off: ") + e.what();
      spdlog::error("{}", v.command_error);
      tracker_.reset();
      v.enabled = false;
    }
  }
  tracking_ = std::move(v);
  refresh_tracking_view();
}

void Engine::reset_tracking() {
  make_tracker();
}

void Engine::start_nmea() {
  nmea_.reset();
  nmea_offset_known_ = false;
  tracking_.nmea_error.clear();
  tracking_.nmea_active = false;
  const NavigationSettings& n = settings_.navigation;
  if (n.udp.empty()) return;
  try {
    const source::ParsedUri u = source::parse_uri(n.udp);
    if (u.scheme != "udp") throw Error("navigation.udp must be udp://GROUP:PORT, not " + n.udp);
    const net::LiveOptions lo = source::live_options(u, SourceOptions{}, n.udp);
    nav::NmeaUdpConfig c;
    c.address = lo.udp.address;
    c.port = lo.udp.port;
    c.interface = lo.udp.interface;
    c.own_ship.stale_after_s = n.stale_s;
    c.own_ship.max_extrapolation_s = std::min(c.own_ship.max_extrapolation_s, n.stale_s);
    nmea_ = std::make_unique<nav::NmeaUdpReceiver>(c);
    tracking_.nmea_active = true;
    spdlog::info("navigation: NMEA 0183 from {}", n.udp);
  } catch (const std::exception& e) {
    tracking_.nmea_error = std::string("NMEA ") + n.udp + ": " + e.what();
    spdlog::error("{}", tracking_.nmea_error);
    nmea_.reset();
  }
}

bool Engine::set_navigation_settings(const NavigationSettings& s) {
  try {
    check_navigation(s);
  } catch (const std::exception& e) {
    tracking_.nmea_error = e.what();
    return false;
  }
  settings_.navigation = s;
  start_nmea();
  refresh_tracking_view();
  return tracking_.nmea_error.empty();
}

bool Engine::set_tracking_settings(const TrackingSettings& s) {
  try {
    check_tracking(s);
    if (s.enabled) track::validate(tracker_params(s, settings_.processing.params.plot));
  } catch (const std::exception& e) {
    tracking_.command_error = e.what();
    return false;
  }
  const bool zones_changed =
      tracking_json(s)["zones"] != tracking_json(settings_.tracking)["zones"];
  settings_.tracking = s;
  if (!s.enabled || !tracker_) {
    make_tracker();
    return true;
  }
  tracker_->set_params(tracker_params(s, settings_.processing.params.plot));
  if (zones_changed) {
    for (const auto& [id, z] : tracker_->zones()) tracker_->remove_zone(id);
    for (const auto& z : s.zones) tracker_->add_zone(z);
  }
  tracking_.settings = s;
  tracking_.command_error.clear();
  refresh_tracking_view();
  return true;
}

std::optional<int> Engine::acquire(double x_m, double y_m) {
  if (!tracker_) {
    tracking_.command_error = "acquire: tracking is off";
    return std::nullopt;
  }
  const std::optional<int> id = tracker_->acquire(x_m, y_m);
  tracking_.command_error = id ? "" : "acquire: no echo near the point, or capacity reached";
  refresh_tracking_view();
  return id;
}

bool Engine::cancel_track(int track_id) {
  if (!tracker_) return false;
  const bool ok = tracker_->cancel(track_id);
  refresh_tracking_view();
  return ok;
}

void Engine::cancel_all_tracks() {
  if (!tracker_) return;
  tracker_->cancel_all();
  refresh_tracking_view();
}

std::optional<int> Engine::add_zone(const track::AcquisitionZone& zone) {
  if (!tracker_) {
    tracking_.command_error = "add zone: tracking is off";
    return std::nullopt;
  }
  int id = 0;
  try {
    id = tracker_->add_zone(zone);
  } catch (const std::exception& e) {
    tracking_.command_error = std::string("add zone: ") + e.what();
    return std::nullopt;
  }
  settings_.tracking.zones.push_back(zone);
  tracking_.settings.zones = settings_.tracking.zones;
  tracking_.command_error.clear();
  refresh_tracking_view();
  return id;
}

bool Engine::remove_zone(int zone_id) {
  if (!tracker_ || !tracker_->remove_zone(zone_id)) return false;
  store_zones();
  refresh_tracking_view();
  return true;
}

void Engine::store_zones() {
  settings_.tracking.zones.clear();
  for (const auto& [id, z] : tracker_->zones()) settings_.tracking.zones.push_back(z);
  tracking_.settings.zones = settings_.tracking.zones;
}

std::optional<int> Engine::replace_zone(int zone_id, const track::AcquisitionZone& zone) {
  if (!tracker_) {
    tracking_.command_error = "replace zone: tracking is off";
    return std::nullopt;
  }
  try {
    if (!tracker_->replace_zone(zone_id, zone)) {
      tracking_.command_error = "replace zone: no zone " + std::to_string(zone_id);
      return std::nullopt;
    }
  } catch (const std::exception& e) {
    tracking_.command_error = std::string("replace zone: ") + e.what();
    return std::nullopt;
  }
  store_zones();
  tracking_.command_error.clear();
  refresh_tracking_view();
  return zone_id;
}

bool Engine::acknowledge_alarm(int alarm_id) {
  if (!tracker_) return false;
  const bool ok = tracker_->acknowledge(alarm_id);
  refresh_tracking_view();
  return ok;
}

void Engine::acknowledge_all_alarms() {
  if (!tracker_) return;
  tracker_->acknowledge_all();
  refresh_tracking_view();
}

nav::OwnShipState Engine::own_ship_at(double frame_t_s, OwnShipSource& from) {
  if (nmea_) {
    from = OwnShipSource::Nmea;
    nav::OwnShipState st = nmea_->state(frame_t_s + (nmea_offset_known_ ? nmea_offset_s_ : 0.0));
    st.time_s = frame_t_s;  // back on the video's clock
    return st;
  }
  if (source_) {
    if (auto st = source_->navigation(frame_t_s)) {
      from = OwnShipSource::Simulator;
      return *st;
    }
  }
  from = OwnShipSource::None;
  nav::OwnShipState st;
  st.time_s = frame_t_s;
  st.fix_age_s = -1;
  st.warning = settings_.navigation.udp.empty()
                   ? "no own-ship navigation (the source carries none and navigation.udp is not "
                     "set): tracks are relative to the radar"
                   : "no own-ship navigation: tracks are relative to the radar";
  return st;
}

void Engine::feed_tracker(const InFlight& f) {
  if (!tracker_) return;
  const auto t0 = std::chrono::steady_clock::now();
  feed_error_.clear();
  if (!f.latest_s) {
    feed_error_ = "the video carries no sweep times: tracking needs them";
    refresh_tracking_view();
    return;
  }
  double offset = clock_.offset_for(*f.latest_s);
  double now = *f.latest_s + offset;
  if (tracker_fed_ && now < tracker_now_s_) {
    // The video's clock fell back (a replay looped, a source restarted its clock).
    spdlog::info("tracking: the video's clock went back {:.3f} s; tracks dropped",
                 tracker_now_s_ - now);
    make_tracker();
    offset = clock_.offset_for(*f.latest_s);
    now = *f.latest_s + offset;
  }

  // Own ship across the frame's sweep times.
  const double t_first = f.earliest_s ? std::min(*f.earliest_s, *f.latest_s) : *f.latest_s;
  const double t_last = *f.latest_s;
  const int steps = std::clamp(int(std::ceil((t_last - t_first) / kOwnSampleS)), 1, 64);
  OwnSamples own;
  OwnShipSource from = OwnShipSource::None;
  for (int i = 0; i <= steps; ++i)
    own.add(own_ship_at(t_first + (t_last - t_first) * i / steps, from));
  const nav::OwnShipState& own_end = own.last();
  auto heading_of = [](const nav::OwnShipState& s) {
    return s.valid || s.heading_valid ? s.heading_deg + (s.valid ? s.true_to_grid_deg : 0.0) : 0.0;
  };
  const SweepSector sector = true_sector(f.sector, heading_of(own.first()), heading_of(own_end));

  const gpu::PlotParams& radar = settings_.processing.params.plot;
  RadarAccuracy acc = radar_accuracy(radar, f.azimuths, f.range_bins, f.range_m);
  if (settings_.tracking.range_sigma_m > 0) acc.range_sigma_m = settings_.tracking.range_sigma_m;
  if (settings_.tracking.bearing_sigma_deg > 0) {
    // The operator's figure is the whole bearing accuracy: no glint added at each plot's range.
    acc.bearing_sigma_deg = settings_.tracking.bearing_sigma_deg;
    acc.cross_sigma_m = 0;
  }
  track_plots_.clear();
  const double margin = kFinalMarginBeams * radar.beamwidth_deg;
  for (const gpu::Plot& p : result_.plots) {
    if (!plot_completed(p, f.sector, margin)) continue;
    track_plots_.push_back(to_track_plot(p, own.at(p.time_s), acc, offset));
  }

  track::OwnShip o = to_track_own_ship(own_end);
  o.time_s = now;
  if (!sector.empty) {
    try {
      tracker_->update(track_plots_, sector.from_deg, sector.to_deg, now, o);
      tracker_fed_ = true;
      tracker_now_s_ = now;
      ++tracking_.updates;
    } catch (const std::exception& e) {
      feed_error_ = std::string("tracking: ") + e.what();
      spdlog::error("{}", feed_error_);
    }
  }
  tracking_.own_ship = own_end;
  tracking_.own_ship_source = from;
  tracking_.plots_fed = track_plots_.size();
  tracking_.time_s = now;
  refresh_tracking_view();
  tracking_.update_ms = elapsed_ms(t0);
  tracking_.update_ms_max = std::max(tracking_.update_ms_max, tracking_.update_ms);
}

void Engine::refresh_tracking_view() {
  if (remote_) {
    refresh_remote_view();
    return;
  }
  TrackingView& v = tracking_;
  v.enabled = tracker_ != nullptr;
  v.settings = settings_.tracking;
  v.nmea_active = nmea_ != nullptr;
  if (nmea_) {
    v.nmea = nmea_->counters();
    v.nmea_udp = nmea_->stats();
  }
  if (!tracker_) {
    v.tracks.clear();
    v.alarms.clear();
    v.zones.clear();
    v.unacknowledged = 0;
    v.relative_only = true;
    v.warning.clear();
    return;
  }
  tracker_->tracks(v.tracks);
  v.alarms = tracker_->alarms();
  v.unacknowledged = int(std::count_if(v.alarms.begin(), v.alarms.end(),
                                       [](const track::Alarm& a) { return !a.acknowledged; }));
  v.zones = tracker_->zones();
  v.stats = tracker_->stats();
  v.relative_only = !tracker_fed_ || tracker_->relative_only();
  std::string w = v.nmea_error;
  auto add = [&w](const std::string& text) {
    if (text.empty()) return;
    if (!w.empty()) w += "; ";
    w += text;
  };
  add(feed_error_);
  if (tracker_fed_) add(v.own_ship.warning);
  v.warning = w;
}

}  // namespace sweepline::engine
