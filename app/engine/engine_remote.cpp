// A display client's tracks: the servers' CAT048 instead of a tracker of the engine's own
// (engine.hpp, remote_track_view.hpp).
#include <spdlog/spdlog.h>

#include <cmath>

#include "app/engine/engine.hpp"
#include "app/engine/remote_track_view.hpp"
#include "app/engine/report.hpp"
#include "app/source/source_uri.hpp"
#include "app/track/cpa.hpp"

namespace sweepline::engine {

namespace {

constexpr double kMetresPerNm = 1852.0;
constexpr double kDeg = M_PI / 180.0;
constexpr double kKnotsPerNmPerS = 3600.0;
// With nothing new from the servers, the remote view is rebuilt this often (seconds): the "no
// data" age in the Targets panel is shown in whole seconds.
constexpr double kRemoteViewRefreshS = 0.25;

}  // namespace

track::Track to_remote_track(const cat048::TargetReport& r, int source,
                             const nav::OwnShipState& own, double cpa_limit_m,
                             double tcpa_limit_s) {
  track::Track t;
  t.id = remote_track_id(source, r.track_number.value_or(0));
  t.status = track::Track::Status::Tracked;
  if (r.status && r.status->tentative) t.status = track::Track::Status::Acquiring;
  if (r.status && r.status->dou) t.status = track::Track::Status::Lost;
  t.time_s = t.last_plot_s = r.tod_s;
  t.range_m = r.rho_nm * kMetresPerNm;
  t.bearing_deg = r.theta_deg;
  // About the radar: I048/042 when present, else from RHO/THETA.
  const double dx = r.x_nm ? *r.x_nm * kMetresPerNm : t.range_m * std::sin(r.theta_deg * kDeg);
  const double dy = r.y_nm ? *r.y_nm * kMetresPerNm : t.range_m * std::cos(r.theta_deg * kDeg);
  const double ox = own.valid ? own.x_m : 0.0, oy = own.valid ? own.y_m : 0.0;
  t.x_m = ox + dx;
  t.y_m = oy + dy;
  if (r.ground_speed_nm_s && r.heading_deg) {
    t.speed_mps = *r.ground_speed_nm_s * kMetresPerNm;
    t.course_deg = *r.heading_deg;
    t.vx_mps = t.speed_mps * std::sin(t.course_deg * kDeg);
    t.vy_mps = t.speed_mps * std::cos(t.course_deg * kDeg);
  }
  const double ovx = own.valid ? own.vx_mps : 0.0, ovy = own.valid ? own.vy_mps : 0.0;
  const double rvx = t.vx_mps - ovx, rvy = t.vy_mps - ovy;
  t.rel_speed_mps = std::hypot(rvx, rvy);
  t.rel_course_deg = std::fmod(std::atan2(rvx, rvy) / kDeg + 360.0, 360.0);
  const track::Cpa c = track::compute_cpa(ox, oy, ovx, ovy, t.x_m, t.y_m, t.vx_mps, t.vy_mps);
  t.cpa_m = c.cpa_m;
  t.tcpa_s = c.tcpa_s;
  t.cpa_moving = c.moving;
  t.dangerous = t.status == track::Track::Status::Tracked && c.tcpa_s >= 0 &&
                c.tcpa_s <= tcpa_limit_s && c.cpa_m <= cpa_limit_m;
  return t;
}

nlohmann::json remote_tracks_report(const net::RemoteTrackPicture& picture) {
  using nlohmann::json;
  json sources = json::array();
  for (size_t i = 0; i < picture.sources().size(); ++i) {
    const net::RemoteSourceStatus& s = picture.sources()[i];
    json errors = json::object();
    for (const auto& [k, n] : s.errors) errors[k] = n;
    json scans = json::array();
    const nav::OwnShipState none;
    for (const net::RemoteScan& sc : picture.scans(int(i))) {
      json tracks = json::array();
      for (const cat048::TargetReport& r : sc.tracks) {
        const track::Track t = to_remote_track(r, int(i), none, 0, 0);
        tracks.push_back({{"track_number", *r.track_number},
                          {"status", track_status_name(t.status)},
                          {"range_m", t.range_m},
                          {"bearing_deg", t.bearing_deg},
                          {"x_m", t.x_m},
                          {"y_m", t.y_m},
                          {"course_deg", t.course_deg},
                          {"speed_kn", t.speed_mps / kMetresPerNm * kKnotsPerNmPerS}});
      }
      scans.push_back({{"tod_s", sc.tod_s}, {"tracks", tracks}, {"ended", sc.ended}});
    }
    sources.push_back({{"endpoint", s.endpoint},
                       {"seen", s.seen},
                       {"sac", s.sac},
                       {"sic", s.sic},
                       {"stale", s.stale},
                       {"since_update_s", s.since_update_s},
                       {"scan_period_s", s.scan_period_s},
                       {"datagrams", s.datagrams},
                       {"bytes", s.bytes},
                       {"track_reports", s.track_reports},
                       {"other_reports", s.other_reports},
                       {"scans_received", s.scans},
                       {"kernel_dropped", s.kernel_dropped},
                       {"queue_dropped", s.queue_dropped},
                       {"errors", errors},
                       {"scans", scans}});
  }
  return {{"sources", sources}};
}

std::unique_ptr<net::RemoteTracks> Engine::open_remote_tracks(const std::string& uri) {
  const source::ParsedUri u = source::parse_uri(uri);
  const std::vector<net::UdpConfig> endpoints = source::remote_track_endpoints(u, uri);
  if (endpoints.empty()) return nullptr;
  auto r = std::make_unique<net::RemoteTracks>(endpoints);
  for (const net::UdpConfig& c : endpoints)
    spdlog::info("tracks: CAT048 from {}:{} (no local tracker)", c.address, c.port);
  return r;
}

void Engine::poll_remote_tracks() {
  if (!remote_) return;
  remote_->poll();
  // update() and refresh_status() both poll, so a window frame polls twice: the view is rebuilt
  // only when a datagram came or a source went stale or came back, and otherwise at
  // kRemoteViewRefreshS (the "no data" seconds count on).
  RemoteViewStamp now;
  for (const net::RemoteSourceStatus& s : remote_->picture().sources()) {
    now.datagrams += s.datagrams;
    now.stale += s.stale ? 1 : 0;
  }
  now.at = std::chrono::steady_clock::now();
  if (remote_view_ && remote_view_->datagrams == now.datagrams &&
      remote_view_->stale == now.stale &&
      now.at - remote_view_->at < std::chrono::duration<double>(kRemoteViewRefreshS))
    return;
  remote_view_ = now;
  refresh_tracking_view();
}

void Engine::refresh_remote_view() {
  TrackingView& v = tracking_;
  const net::RemoteTrackPicture& p = remote_->picture();
  v.remote = true;
  v.enabled = settings_.tracking.enabled;
  v.settings = settings_.tracking;
  v.nmea_active = nmea_ != nullptr;
  v.alarms.clear();
  v.zones.clear();
  v.unacknowledged = 0;
  v.remote_sources = p.sources();
  // Own ship from the display's own NMEA (navigation.udp) when it has one: positions over ground.
  v.own_ship = nav::OwnShipState{};
  v.own_ship_source = OwnShipSource::None;
  if (nmea_) {
    v.nmea = nmea_->counters();
    v.nmea_udp = nmea_->stats();
    v.own_ship = nmea_->state_now();
    v.own_ship_source = OwnShipSource::Nmea;
  }
  v.relative_only = !v.own_ship.valid;
  if (const auto tod = p.latest_tod()) v.time_s = *tod;
  v.tracks.clear();
  if (v.enabled) {
    const double cpa_m = settings_.tracking.cpa_limit_nm * kMetresPerNm;
    const double tcpa_s = settings_.tracking.tcpa_limit_min * 60.0;
    for (const net::RemoteTrack& rt : p.tracks())
      v.tracks.push_back(to_remote_track(rt.report, rt.source, v.own_ship, cpa_m, tcpa_s));
  }
  std::string w = v.nmea_error;
  for (const net::RemoteSourceStatus& s : v.remote_sources) {
    if (!s.stale) continue;
    if (!w.empty()) w += "; ";
    w += "no data from " + s.endpoint;
  }
  v.warning = w;
}

}  // namespace sweepline::engine
