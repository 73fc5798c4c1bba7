#pragma once
// A small deterministic radar for the tracker tests and benchmark: targets moving in straight
// lines or constant-rate turns, a moving own ship, and a sweep fed in sectors; each target gives
// one plot per rotation, with Gaussian range/bearing noise, when the sweep has passed it.
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "app/track/tracker.hpp"

namespace sweepline::tracktest {

constexpr double kDeg = std::numbers::pi / 180.0;
constexpr double kKnot = 1852.0 / 3600.0;

struct SimTarget {
  double x = 0, y = 0, vx = 0, vy = 0;  // at time 0
  double turn_rad_s = 0.0;              // constant turn rate from turn_start_s
  double turn_start_s = 1e30;
  bool visible = true;
  bool near_land = false;     // its plots say land is next to them
  bool land_unknown = false;  // its plots say land is not known yet
};

// Truth at time t (straight, then a constant-rate turn from turn_start_s).
inline void truth_at(const SimTarget& s, double t, double& x, double& y, double& vx, double& vy) {
  const double t1 = std::min(t, s.turn_start_s);
  x = s.x + s.vx * t1;
  y = s.y + s.vy * t1;
  vx = s.vx;
  vy = s.vy;
  const double dt = t - t1;
  if (dt <= 0.0) return;
  const double w = s.turn_rad_s;
  if (std::abs(w) < 1e-12) {
    x += vx * dt;
    y += vy * dt;
    return;
  }
  const double sn = std::sin(w * dt), cs = std::cos(w * dt);
  x += (vx * sn - vy * (1 - cs)) / w;
  y += (vx * (1 - cs) + vy * sn) / w;
  const double nvx = vx * cs - vy * sn, nvy = vx * sn + vy * cs;
  vx = nvx;
  vy = nvy;
}

struct SimRadar {
  double period_s = 2.5;
  int calls_per_rotation = 8;
  double range_sigma_m = 20.0;
  double bearing_sigma_deg = 0.1;
  double clutter_fraction = 0.0;  // clutter plots per rotation, as a fraction of targets
  double clutter_range_m = 20000.0;
  // Own ship: straight line from the origin.
  bool own_valid = true;
  double own_course_deg = 0.0, own_speed_mps = 0.0, own_heading_deg = 0.0;
  std::vector<SimTarget> targets;
  std::mt19937_64 rng{1};
  double t = 0.0;                       // time of the sweep's position
  double sweep = 0.0;                   // bearing of the sweep
  std::vector<track::TrackPlot> plots;  // scratch

  track::OwnShip own_at(double tt) const {
    track::OwnShip o;
    o.valid = own_valid;
    o.time_s = tt;
    if (!own_valid) return o;
    o.course_deg = own_course_deg;
    o.speed_mps = own_speed_mps;
    o.heading_deg = own_heading_deg;
    o.x_m = own_speed_mps * std::sin(own_course_deg * kDeg) * tt;
    o.y_m = own_speed_mps * std::cos(own_course_deg * kDeg) * tt;
    return o;
  }

  track::TrackPlot make_plot(double tt, double x, double y) {
    const track::OwnShip o = own_at(tt);
    const double dx = x - o.x_m, dy = y - o.y_m;
    std::normal_distribution<double> n(0.0, 1.0);
    const double r = std::hypot(dx, dy) + range_sigma_m * n(rng);
    const double b = std::atan2(dx, dy) / kDeg + bearing_sigma_deg * n(rng);
    track::TrackPlot p;
    p.time_s = tt;
    p.range_m = r;
    p.bearing_deg = std::fmod(b + 360.0, 360.0);
    p.x_m = o.x_m + r * std::sin(b * kDeg);
    p.y_m = o.y_m + r * std::cos(b * kDeg);
    p.range_sigma_m = range_sigma_m;
    p.bearing_sigma_deg = bearing_sigma_deg;
    p.range_extent_m = 30.0;
    p.azimuth_extent_deg = 1.2;
    p.peak = 200;
    return p;
  }

  // Plots of the next sector (one call's worth), and the sector itself.
  void next_sector(double& from, double& to, double& now) {
    const double width = 360.0 / calls_per_rotation;
    const double dt = period_s / calls_per_rotation;
    from = sweep;
    to = std::fmod(sweep + width, 360.0);
    plots.clear();
    for (const SimTarget& s : targets) {
      if (!s.visible) continue;
      // The bearing at the start of the sector decides when the beam meets the target.
      double x, y, vx, vy;
      truth_at(s, t, x, y, vx, vy);
      const track::OwnShip o = own_at(t);
      const double b = std::fmod(std::atan2(x - o.x_m, y - o.y_m) / kDeg + 360.0, 360.0);
      const double off = std::fmod(b - from + 360.0, 360.0);
      if (off >= width) continue;
      const double tt = t + dt * off / width;
      truth_at(s, tt, x, y, vx, vy);
      plots.push_back(make_plot(tt, x, y));
      plots.back().near_land = s.near_land;
      plots.back().land_unknown = s.land_unknown;
    }
    const int clutter =
        int(std::lround(clutter_fraction * double(targets.size()) / calls_per_rotation));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int c = 0; c < clutter; ++c) {
      const double b = from + width * u(rng);
      const double r = 500.0 + (clutter_range_m - 500.0) * std::sqrt(u(rng));
      const double tt = t + dt * (b - from) / width;
      const track::OwnShip o = own_at(tt);
      plots.push_back(
          make_plot(tt, o.x_m + r * std::sin(b * kDeg), o.y_m + r * std::cos(b * kDeg)));
    }
    t += dt;
    sweep = to;
    now = t;
  }

  void step(track::Tracker& tr) {
    double from, to, now;
    next_sector(from, to, now);
    tr.update(plots, from, to, now, own_at(now));
  }

  void rotate(track::Tracker& tr, int rotations = 1) {
    for (int i = 0; i < rotations * calls_per_rotation; ++i) step(tr);
  }
};

// Nearest track (any status unless tracked_only) to a point; nullptr when none within max_m.
inline const track::Track* nearest(const std::vector<track::Track>& tracks, double x, double y,
                                   double max_m, bool tracked_only = true) {
  const track::Track* best = nullptr;
  double bd = max_m;
  for (const track::Track& t : tracks) {
    if (tracked_only && t.status != track::Track::Status::Tracked) continue;
    const double d = std::hypot(t.x_m - x, t.y_m - y);
    if (d < bd) {
      bd = d;
      best = &t;
    }
  }
  return best;
}

}  // namespace sweepline::tracktest
