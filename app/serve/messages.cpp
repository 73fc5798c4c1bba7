#include "app/serve/messages.hpp"

#include <algorithm>
#include <cmath>

#include "app/nav/geodesy.hpp"
#include "app/nav/nmea_writer.hpp"

namespace sweepline::serve {

namespace {

constexpr double kDayS = 86400.0;
constexpr double kMetresPerNm = 1852.0;
constexpr double kMpsPerKnot = kMetresPerNm / 3600.0;
constexpr double kDegToRad = M_PI / 180.0;

double wrap360(double deg) {
  const double d = std::fmod(deg, 360.0);
  return d < 0 ? d + 360.0 : d;
}

nav::TargetStatus nmea_status(track::Track::Status s) {
  switch (s) {
    case track::Track::Status::Acquiring:
      return nav::TargetStatus::Query;
    case track::Track::Status::Lost:
      return nav::TargetStatus::Lost;
    case track::Track::Status::Tracked:
      break;
  }
  return nav::TargetStatus::Tracking;
}

// TTM and TLL number targets 0..999: the tracker's id folded into 1..999.
int nmea_number(int track_id) {
  return (std::max(track_id, 1) - 1) % 999 + 1;
}

cat048::TargetReport track_report(const track::Track& t, double tod, bool ended,
                                  const RadarIdentity& id) {
  cat048::TargetReport r;
  r.sac = id.sac;
  r.sic = id.sic;
  r.tod_s = tod;
  r.rho_nm = std::min(t.range_m / kMetresPerNm, cat048::kMaxRhoNm);
  r.theta_deg = wrap360(t.bearing_deg);
  r.track_number = track_number(t.id);
  const double b = t.bearing_deg * kDegToRad;
  const double lim = cat048::kMaxCartesianNm;
  r.x_nm = std::clamp(t.range_m * std::sin(b) / kMetresPerNm, -lim, lim);
  r.y_nm = std::clamp(t.range_m * std::cos(b) / kMetresPerNm, -lim, lim);
  r.ground_speed_nm_s = std::min(t.speed_mps / kMetresPerNm, cat048::kMaxSpeedNmPerS);
  r.heading_deg = wrap360(t.course_deg);
  cat048::TrackStatus st;
  st.tentative = t.status == track::Track::Status::Acquiring;
  st.dou = t.status == track::Track::Status::Lost;
  st.tre = ended;
  r.status = st;
  return r;
}

}  // namespace

double time_of_day(double t_s) {
  const double d = std::fmod(t_s, kDayS);
  return d < 0 ? d + kDayS : d;
}

uint16_t track_number(int track_id) {
  return uint16_t((std::max(track_id, 1) - 1) % cat048::kMaxTrackNumber + 1);
}

std::vector<cat048::TargetReport> plot_reports(const std::vector<gpu::Plot>& plots,
                                               const RadarIdentity& id) {
  std::vector<cat048::TargetReport> out;
  out.reserve(plots.size());
  // The widest plot run length I048/130 PRL holds.
  constexpr double kMaxPrlDeg = 255.0 * cat048::kRunLengthLsbDeg;
  for (const gpu::Plot& p : plots) {
    cat048::TargetReport r;
    r.sac = id.sac;
    r.sic = id.sic;
    r.tod_s = time_of_day(p.time_s);
    r.rho_nm = std::min(p.range_m / kMetresPerNm, cat048::kMaxRhoNm);
    r.theta_deg = wrap360(p.bearing_deg);
    cat048::PlotCharacteristics c;
    c.prl_deg = std::clamp(p.azimuth_extent_deg, 0.0, kMaxPrlDeg);
    r.plot = c;
    out.push_back(r);
  }
  return out;
}

std::vector<cat048::TargetReport> track_reports(const std::vector<track::Track>& tracks,
                                                const std::vector<track::Track>& ended,
                                                double time_s, const RadarIdentity& id) {
  const double tod = time_of_day(time_s);
  std::vector<cat048::TargetReport> out;
  out.reserve(tracks.size() + ended.size());
  for (const track::Track& t : tracks) out.push_back(track_report(t, tod, false, id));
  for (const track::Track& t : ended) out.push_back(track_report(t, tod, true, id));
  return out;
}

std::vector<std::string> nmea_datagrams(const std::vector<track::Track>& tracks,
                                        const nav::OwnShipState& own, bool relative_only,
                                        double time_s) {
  std::vector<std::string> sentences;
  const double tod = time_of_day(time_s);
  if (own.valid || own.heading_valid) {
    nav::OwnShipData o;
    o.heading_deg = wrap360(own.heading_deg);
    o.valid = own.valid;
    o.course_deg = wrap360(own.course_deg);
    o.speed = own.speed_mps / kMpsPerKnot;
    sentences.push_back(nav::format_osd(o));
  }
  // Bearings are true when the tracker's plane is north-up: own ship's position or a heading.
  const bool bearings_true = !relative_only || own.heading_valid;
  std::optional<nav::LocalTangentPlane> plane;
  if (own.valid && std::abs(own.lat_deg) < 89.9) plane.emplace(own.lat_deg, own.lon_deg);
  for (const track::Track& t : tracks) {
    nav::TrackedTarget m;
    m.number = nmea_number(t.id);
    m.distance = t.range_m / kMetresPerNm;
    m.bearing_deg = wrap360(t.bearing_deg);
    m.bearing_true = bearings_true;
    m.speed = t.speed_mps / kMpsPerKnot;
    m.course_deg = wrap360(t.course_deg);
    m.course_true = bearings_true;
    m.cpa_distance = t.cpa_m / kMetresPerNm;
    m.tcpa_min = t.tcpa_s / 60.0;
    m.status = nmea_status(t.status);
    m.utc_s_of_day = tod;
    m.acquisition = t.manual ? 'M' : 'A';
    sentences.push_back(nav::format_ttm(m));
    if (plane) {
      // The track's range and true bearing from own ship, in a plane about own ship (distance
      // and bearing from its origin are exact there).
      const double b = t.bearing_deg * kDegToRad;
      const nav::LatLon ll = plane->to_geodetic(t.range_m * std::sin(b), t.range_m * std::cos(b));
      nav::TargetPosition p;
      p.number = m.number;
      p.lat_deg = ll.lat_deg;
      p.lon_deg = ll.lon_deg;
      p.utc_s_of_day = tod;
      p.status = m.status;
      sentences.push_back(nav::format_tll(p));
    }
  }
  std::vector<std::string> out;
  for (const std::string& s : sentences) {
    if (out.empty() || out.back().size() + s.size() > kMessageDatagramMax) out.emplace_back();
    out.back() += s;
  }
  return out;
}

std::vector<cat034::ServiceMessage> ServiceClock::on_radial(double azimuth_deg, double tod_s) {
  std::vector<cat034::ServiceMessage> out;
  const double az = wrap360(azimuth_deg);
  if (!last_az_) {
    last_az_ = az;
    return out;
  }
  const double step = 360.0 / kSectorsPerRotation;
  double from = *last_az_;
  double to = az;
  // Clockwise from the previous radial; a small step back (a producer's jitter) is ignored, a
  // large one is the antenna passing north.
  if (to < from) {
    if (from - to < 180.0) return out;
    to += 360.0;
  }
  last_az_ = az;
  for (int k = int(std::floor(from / step)) + 1; k * step <= to; ++k) {
    const int sector = k % kSectorsPerRotation;
    cat034::ServiceMessage m;
    m.sac = id_.sac;
    m.sic = id_.sic;
    m.tod_s = time_of_day(tod_s);
    if (sector == 0) {
      m.type = cat034::MessageType::NorthMarker;
      if (last_north_tod_) {
        double p = m.tod_s - *last_north_tod_;
        if (p < 0) p += 86400.0;
        if (p > 0 && p < cat034::kMaxRotationPeriodS) period_s_ = p;
      }
      last_north_tod_ = m.tod_s;
      m.rotation_period_s = period_s_;
      cat034::SystemStatus st;
      st.ovl_rdp = overloaded_;
      m.status = st;
      m.mode = cat034::ProcessingMode{};
      m.position = position_;
    } else {
      m.type = cat034::MessageType::SectorCrossing;
      m.sector_deg = sector * step;
    }
    out.push_back(m);
  }
  return out;
}

}  // namespace sweepline::serve
