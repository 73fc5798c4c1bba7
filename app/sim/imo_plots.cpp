#include "app/sim/imo_plots.hpp"

#include <cmath>

#include "app/nav/geodesy.hpp"

namespace sweepline::sim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;

double wrap360(double d) {
  d = std::fmod(d, 360.0);
  return d < 0 ? d + 360.0 : d;
}

double wrap180(double d) {
  d = wrap360(d);
  return d >= 180 ? d - 360 : d;
}

// The beam's time converges in two or three rounds: the bearing moves by hundredths of a
// degree during a scan.
constexpr int kSweepIterations = 6;

}  // namespace

TargetScan observe_target(const Scenario& s, uint64_t seed, OwnShipTrack& own,
                          const GroundTarget& g, uint64_t scan, const RadarConfig* grid) {
  const double period = s.radar.period_s();
  const double t0 = double(scan) * period;
  TargetScan o;
  o.t_s = t0;
  // The antenna points at azimuth a (from the bow) at t0 + a / 360 periods. Scan `scan` is the
  // antenna's pass over the target: the pass is chosen by the TRUE relative bearing (in
  // [0, 360): a target just west of the bow is passed at the end of the scan, with the geometry
  // of then), and the plot is timed by the measured bearing taken as a small offset from the
  // true one. A target dead ahead whose measured bearing jitters across 000 so gives one plot
  // per pass, a period apart, not two plots of one pass (one at each end of a rotation) and
  // then none. The true bearing at the scan's start decides the pass once; later rounds unwrap
  // about it, so that a target on the bow line cannot flip the time between the scan's ends.
  double pass_deg = -1;
  for (int i = 0; i < kSweepIterations; ++i) {
    o.own = own.at(o.t_s);
    o.rel_x_m = g.x_at(o.t_s) - o.own.x_m;
    o.rel_y_m = g.y_at(o.t_s) - o.own.y_m;
    o.true_range_m = std::hypot(o.rel_x_m, o.rel_y_m);
    o.true_bearing_deg = wrap360(std::atan2(o.rel_x_m, o.rel_y_m) / kDeg);
    o.true_rel_bearing_deg = wrap360(o.true_bearing_deg - o.own.heading_deg);
    const double aspect = g.course_deg() - o.true_bearing_deg;
    o.measured = measure_target(s.errors, seed, scan, o.t_s, o.true_range_m, o.true_rel_bearing_deg,
                                aspect, uint64_t(g.id));
    if (pass_deg < 0) pass_deg = o.true_rel_bearing_deg;
    const double true_deg = pass_deg + wrap180(o.true_rel_bearing_deg - pass_deg);
    const double seen = true_deg + wrap180(o.measured.rel_bearing_deg - o.true_rel_bearing_deg);
    const double t = t0 + period * seen / 360;
    if (std::abs(t - o.t_s) < 1e-7) break;
    o.t_s = t;
  }
  if (grid) {
    const double aspect = g.course_deg() - o.true_bearing_deg;
    o.measured = measure_target(s.errors, seed, scan, o.t_s, o.true_range_m, o.true_rel_bearing_deg,
                                aspect, uint64_t(g.id), grid);
  }
  return o;
}

std::vector<ImoMeasurement> imo_measurements(const Scenario& scenario, uint64_t seed,
                                             double duration_s) {
  validate(scenario);
  Scenario s = scenario;
  s.seed = seed;
  OwnShipTrack own(s.own);
  const std::vector<GroundTarget> targets = resolve_targets(s, own);
  const nav::LocalTangentPlane plane(s.own.lat_deg, s.own.lon_deg);
  const double period = s.radar.period_s();
  std::vector<ImoMeasurement> out;
  // The time of each target's last plot: a target whose true bearing crosses the bow clockwise
  // is passed at the end of one scan (just west of 000) and, by the next scan's own reckoning,
  // again at its start (just east): one meeting of beam and target, kept once.
  std::vector<double> last_t(targets.size(), -1e300);
  for (uint64_t scan = 0; double(scan) * period < duration_s; ++scan) {
    for (size_t k = 0; k < targets.size(); ++k) {
      const GroundTarget& g = targets[k];
      const TargetScan o = observe_target(s, seed, own, g, scan, &s.radar);
      if (o.t_s - last_t[k] < 0.5 * period) continue;
      last_t[k] = o.t_s;
      ImoMeasurement m;
      m.scan = scan;
      m.target_id = g.id;
      m.scan_start_s = double(scan) * period;
      m.t_s = o.t_s;
      m.range_m = o.measured.range_m;
      m.rel_bearing_deg = o.measured.rel_bearing_deg;
      const NavMeasurement nav =
          measure_nav(s.errors, seed, o.t_s, o.own.heading_deg, o.own.course_deg, o.own.speed_mps);
      m.nav_heading_deg = nav.heading_deg;
      m.nav_sog_mps = nav.sog_mps;
      m.nav_cog_deg = nav.cog_deg;
      m.nav_log_speed_mps = nav.log_speed_mps;
      m.nav_x_m = o.own.x_m;
      m.nav_y_m = o.own.y_m;
      const nav::LatLon ll = plane.to_geodetic(o.own.x_m, o.own.y_m);
      m.nav_lat_deg = ll.lat_deg;
      m.nav_lon_deg = ll.lon_deg;
      m.bearing_deg = wrap360(m.rel_bearing_deg + m.nav_heading_deg);
      m.own = o.own;
      m.target_x_m = g.x_at(o.t_s);
      m.target_y_m = g.y_at(o.t_s);
      m.target_vx_mps = g.vx_mps;
      m.target_vy_mps = g.vy_mps;
      m.target_course_deg = g.course_deg();
      m.target_speed_mps = g.speed_mps();
      m.true_range_m = o.true_range_m;
      m.true_bearing_deg = o.true_bearing_deg;
      m.true_rel_bearing_deg = o.true_rel_bearing_deg;
      const double rvx = g.vx_mps - o.own.vx_mps(), rvy = g.vy_mps - o.own.vy_mps();
      m.rel_speed_mps = std::hypot(rvx, rvy);
      m.rel_course_deg = m.rel_speed_mps > 0 ? wrap360(std::atan2(rvx, rvy) / kDeg) : 0.0;
      const Cpa c = closest_approach(o.rel_x_m, o.rel_y_m, rvx, rvy);
      m.cpa_m = c.cpa_m;
      m.tcpa_s = c.tcpa_s;
      out.push_back(m);
    }
  }
  return out;
}

}  // namespace sweepline::sim
