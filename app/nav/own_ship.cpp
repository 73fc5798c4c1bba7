#include "app/nav/own_ship.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace sweepline::nav {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
constexpr double kMpsPerKnot = 1852.0 / 3600.0;
// Two sentences of one epoch (RMC and GGA carry the same UTC time) arrive within this of each
// other; a repeat further apart is a new fix from a receiver whose clock stopped.
constexpr double kSameEpochWindowS = 0.5;

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

void add_warning(std::string& w, const std::string& text) {
  if (!w.empty()) w += "; ";
  w += text;
}

double wrap360(double deg) {
  double d = std::fmod(deg, 360.0);
  return d < 0 ? d + 360.0 : d;
}

}  // namespace

OwnShipEstimator::OwnShipEstimator(const OwnShipConfig& config) : config_(config) {
  if (config_.origin) plane_.emplace(config_.origin->lat_deg, config_.origin->lon_deg);
}

void OwnShipEstimator::set_origin(double lat_deg, double lon_deg) {
  plane_.emplace(lat_deg, lon_deg);
}

void OwnShipEstimator::update(const NmeaSentence& s, double arrival_s) {
  if (!std::isfinite(arrival_s)) return;
  const bool position_type = s.type == NmeaType::Rmc || s.type == NmeaType::Gga;
  if (position_type) {
    if (s.valid && s.lat_deg && s.lon_deg) {
      const bool same_epoch = have_fix_ && fix_utc_s_ && s.utc_s_of_day &&
                              *fix_utc_s_ == *s.utc_s_of_day && *s.lat_deg == lat_deg_ &&
                              *s.lon_deg == lon_deg_ &&
                              std::fabs(arrival_s - fix_time_s_) < kSameEpochWindowS;
      if (!same_epoch) fix_time_s_ = arrival_s;
      lat_deg_ = *s.lat_deg;
      lon_deg_ = *s.lon_deg;
      fix_utc_s_ = s.utc_s_of_day;
      have_fix_ = true;
      no_fix_reported_ = false;
      // A fix at a pole has no local plane; it stays a fix in lat/lon without one.
      if (!plane_ && std::fabs(lat_deg_) <= 89.9) plane_.emplace(lat_deg_, lon_deg_);
    } else if (!s.valid) {
      no_fix_reported_ = true;
      no_fix_time_s_ = arrival_s;
    }
  }
  if ((s.type == NmeaType::Rmc || s.type == NmeaType::Vtg) && s.valid && s.sog_kn) {
    sog_kn_ = *s.sog_kn;
    // Receivers leave the course empty when stopped: the last course stands.
    if (s.cog_deg) cog_deg_ = *s.cog_deg;
    motion_time_s_ = arrival_s;
    have_motion_ = true;
  }
  if (s.type == NmeaType::Hdt || s.type == NmeaType::Ths) {
    if (s.valid && s.heading_deg) {
      heading_deg_ = *s.heading_deg;
      heading_time_s_ = arrival_s;
      have_heading_ = true;
      heading_invalid_reported_ = false;
    } else {
      heading_invalid_reported_ = true;
    }
  }
}

OwnShipState OwnShipEstimator::state(double t_s) const {
  OwnShipState st;
  st.time_s = t_s;
  st.fix_age_s = -1;
  if (!have_fix_) {
    st.warning = no_fix_reported_ ? "own ship: the GNSS receiver reports no fix"
                                  : "own ship: no position received";
  } else {
    st.fix_age_s = t_s - fix_time_s_;
    st.lat_deg = lat_deg_;
    st.lon_deg = lon_deg_;
    if (plane_) {
      const LocalXY p = plane_->to_local(lat_deg_, lon_deg_);
      st.x_m = p.x_m;
      st.y_m = p.y_m;
      st.true_to_grid_deg = plane_->true_to_grid_deg(lat_deg_, lon_deg_);
    }
    const bool motion = have_motion_ && t_s - motion_time_s_ <= config_.stale_after_s;
    if (no_fix_reported_) {
      st.warning = "own ship: the GNSS receiver reports no fix (last fix " +
                   seconds_text(st.fix_age_s) + " ago)";
    } else if (st.fix_age_s > config_.stale_after_s) {
      st.warning = "own ship: position stale (last fix " + seconds_text(st.fix_age_s) + " ago)";
    } else if (!motion) {
      st.warning = "own ship: no course and speed over ground";
    } else if (!plane_) {
      st.warning = "own ship: no local plane at a pole";
    } else {
      st.valid = true;
    }
    if (motion) {
      st.course_deg = cog_deg_;
      st.speed_mps = sog_kn_ * kMpsPerKnot;
      const double grid = (cog_deg_ + st.true_to_grid_deg) * kDeg;
      st.vx_mps = st.speed_mps * std::sin(grid);
      st.vy_mps = st.speed_mps * std::cos(grid);
    }
    if (st.valid) {
      const double dt = std::clamp(st.fix_age_s, 0.0, config_.max_extrapolation_s);
      st.x_m += st.vx_mps * dt;
      st.y_m += st.vy_mps * dt;
      const LatLon g = plane_->to_geodetic(st.x_m, st.y_m);
      st.lat_deg = g.lat_deg;
      st.lon_deg = g.lon_deg;
    }
  }
  const bool heading_fresh =
      have_heading_ && !heading_invalid_reported_ && t_s - heading_time_s_ <= config_.stale_after_s;
  if (heading_fresh) {
    st.heading_valid = true;
    st.heading_deg = wrap360(heading_deg_);
  } else {
    if (st.valid) {
      st.heading_from_cog = true;
      st.heading_deg = st.course_deg;
    }
    add_warning(st.warning, heading_invalid_reported_ ? "heading sensor reports invalid data"
                            : have_heading_           ? "heading stale"
                                                      : "no heading received");
    if (st.heading_from_cog) st.warning += ": heading taken from course over ground";
  }
  return st;
}

}  // namespace sweepline::nav
