#include "app/sim/own_ship.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sweepline::sim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;
constexpr double kKnot = 1852.0 / 3600.0;

double wrap360(double d) {
  d = std::fmod(d, 360.0);
  return d < 0 ? d + 360.0 : d;
}

// sin and cos of an angle in degrees, exact at multiples of 90 deg, so that a ship heading due
// north or a target due south has no stray east component (a bearing of 360.0000 in the truth).
double sin_deg(double d) {
  const double w = wrap360(d);
  if (w == 0 || w == 180) return 0.0;
  if (w == 90) return 1.0;
  if (w == 270) return -1.0;
  return std::sin(w * kDeg);
}

double cos_deg(double d) {
  return sin_deg(d + 90);
}

// The turn from a to b the shorter way round, in (-180, 180]: a reversal goes to starboard.
double turn_to(double from_deg, double to_deg) {
  double d = wrap360(to_deg - from_deg);
  return d > 180 ? d - 360 : d;
}

}  // namespace

double OwnState::vx_mps() const {
  return speed_mps * sin_deg(course_deg);
}

double OwnState::vy_mps() const {
  return speed_mps * cos_deg(course_deg);
}

OwnShipTrack::OwnShipTrack(const OwnShipConfig& c) : c_(c) {
  std::stable_sort(c_.manoeuvres.begin(), c_.manoeuvres.end(),
                   [](const Manoeuvre& a, const Manoeuvre& b) { return a.at_s < b.at_s; });
  OwnState s;
  if (c_.enabled) {
    s.x_m = c_.x_m;
    s.y_m = c_.y_m;
    s.course_deg = wrap360(c_.course_deg);
    s.speed_mps = c_.speed_kn * kKnot;
    heading_offset_deg_ = c_.heading_deg ? turn_to(c_.course_deg, *c_.heading_deg) : 0.0;
    s.heading_deg = wrap360(s.course_deg + heading_offset_deg_);
  }
  samples_.push_back(s);
}

void OwnShipTrack::step(OwnState& s, double h) const {
  // The commands in force at the start of the step: the latest manoeuvre of each kind.
  const Manoeuvre* turn = nullptr;
  const Manoeuvre* speed = nullptr;
  for (const Manoeuvre& m : c_.manoeuvres) {
    if (m.at_s > s.t_s) break;
    if (m.course_deg) turn = &m;
    if (m.speed_kn) speed = &m;
  }
  double dc = 0, dv = 0;
  if (turn) {
    const double want = turn_to(s.course_deg, *turn->course_deg);
    const double most = turn->turn_dpm > 0 ? turn->turn_dpm / 60 * h : 360.0;
    dc = std::clamp(want, -most, most);
  }
  if (speed) {
    const double want = *speed->speed_kn * kKnot - s.speed_mps;
    const double most = speed->accel_kn_per_min > 0 ? speed->accel_kn_per_min * kKnot / 60 * h
                                                    : std::numeric_limits<double>::infinity();
    dv = std::clamp(want, -most, most);
  }
  // Midpoint course and speed: exact for a steady turn's chord direction.
  const double c_mid = s.course_deg + 0.5 * dc, v_mid = s.speed_mps + 0.5 * dv;
  s.x_m += v_mid * h * sin_deg(c_mid);
  s.y_m += v_mid * h * cos_deg(c_mid);
  s.course_deg = wrap360(s.course_deg + dc);
  s.speed_mps = std::max(0.0, s.speed_mps + dv);
  s.heading_deg = wrap360(s.course_deg + heading_offset_deg_);
  s.t_s += h;
}

OwnState OwnShipTrack::advance(OwnState s, double t_end) const {
  while (s.t_s < t_end - 1e-12) {
    double h = std::min(kStepS, t_end - s.t_s);
    for (const Manoeuvre& m : c_.manoeuvres)
      if (m.at_s > s.t_s + 1e-12 && m.at_s < s.t_s + h) h = m.at_s - s.t_s;
    step(s, h);
  }
  s.t_s = t_end;
  return s;
}

OwnState OwnShipTrack::at(double t_s) {
  t_s = std::max(0.0, t_s);
  if (!c_.enabled) {
    OwnState s;
    s.t_s = t_s;
    return s;
  }
  const size_t k = size_t(std::floor(t_s / kStepS));
  while (samples_.size() <= k)
    samples_.push_back(advance(samples_.back(), double(samples_.size()) * kStepS));
  return advance(samples_[k], t_s);
}

double GroundTarget::course_deg() const {
  return vx_mps == 0 && vy_mps == 0 ? 0.0 : wrap360(std::atan2(vx_mps, vy_mps) / kDeg);
}

double GroundTarget::speed_mps() const {
  return std::hypot(vx_mps, vy_mps);
}

std::vector<GroundTarget> resolve_targets(const Scenario& s, OwnShipTrack& own) {
  std::vector<GroundTarget> out;
  int id = std::max(0, s.vessels.count);
  for (const RelativeTarget& r : s.targets) {
    const OwnState o = own.at(r.at_s);
    GroundTarget g;
    g.id = id++;
    g.vx_mps = o.vx_mps() + r.rel_speed_kn * kKnot * sin_deg(r.rel_course_deg);
    g.vy_mps = o.vy_mps() + r.rel_speed_kn * kKnot * cos_deg(r.rel_course_deg);
    const double x = o.x_m + r.range_m * sin_deg(r.bearing_deg);
    const double y = o.y_m + r.range_m * cos_deg(r.bearing_deg);
    g.x0_m = x - g.vx_mps * r.at_s;
    g.y0_m = y - g.vy_mps * r.at_s;
    g.length_m = r.length_m;
    g.strength = r.strength;
    out.push_back(g);
  }
  return out;
}

Cpa closest_approach(double rx, double ry, double vx, double vy) {
  Cpa c;
  const double v2 = vx * vx + vy * vy;
  c.tcpa_s = v2 > 0 ? -(rx * vx + ry * vy) / v2 : 0.0;
  c.cpa_m = std::hypot(rx + vx * c.tcpa_s, ry + vy * c.tcpa_s);
  return c;
}

}  // namespace sweepline::sim
