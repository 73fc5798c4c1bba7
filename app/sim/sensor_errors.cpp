#include "app/sim/sensor_errors.hpp"

#include <algorithm>
#include <cmath>

#include "app/sim/rng.hpp"
#include "app/sim/scenario.hpp"

namespace sweepline::sim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;
constexpr double kKnot = 1852.0 / 3600.0;

// Stream keys for hash64, one per kind of draw.
constexpr uint64_t kTargetKey = 0x544752;  // radar measurement of a target
constexpr uint64_t kNavKey = 0x4E4156;     // gyro and log
constexpr uint64_t kRollKey = 0x524F4C;    // roll phase

double wrap360(double d) {
  d = std::fmod(d, 360.0);
  return d < 0 ? d + 360.0 : d;
}

double wrap180(double d) {
  d = wrap360(d);
  return d >= 180 ? d - 360 : d;
}

// Microseconds: times closer than that are one draw.
uint64_t time_key(double t_s) {
  return uint64_t(int64_t(std::llround(t_s * 1e6)));
}

// The centre of the grid step holding v (cells and radials are centred at (k + 0.5) steps).
double round_to(double v, double step) {
  return (std::floor(v / step) + 0.5) * step;
}

}  // namespace

SensorErrors imo_sensor_errors() {
  SensorErrors e;
  e.enabled = true;
  return e;
}

double roll_angle_deg(const SensorErrors& e, uint64_t seed, double t_s) {
  if (!e.enabled || e.roll_deg == 0 || e.roll_period_s <= 0) return 0;
  const double phase = double(hash64(seed, kRollKey) >> 11) * 0x1.0p-53 * 2 * kPi;
  return e.roll_deg * std::sin(2 * kPi * t_s / e.roll_period_s + phase);
}

double roll_bearing_error_deg(double roll_deg, double rel_bearing_deg) {
  const double b = rel_bearing_deg * kDeg;
  const double seen = std::atan2(std::sin(b) * std::cos(roll_deg * kDeg), std::cos(b)) / kDeg;
  return wrap180(seen - rel_bearing_deg);
}

TargetMeasurement measure_target(const SensorErrors& e, uint64_t seed, uint64_t scan, double t_s,
                                 double range_m, double rel_bearing_deg, double aspect_deg,
                                 uint64_t target, const RadarConfig* grid) {
  TargetMeasurement m;
  m.range_m = range_m;
  m.rel_bearing_deg = wrap360(rel_bearing_deg);
  if (e.enabled) {
    Rng rng(hash64(seed, kTargetKey, scan, target));
    const double beam = e.beam_sigma_deg * rng.normal();
    const double encoder = e.encoder_sigma_deg * rng.normal();
    const double backlash = rng.uniform(-e.backlash_deg, e.backlash_deg);
    const double pulse = e.range_sigma_m * rng.normal();
    const double along = e.glint_along_m * rng.normal();
    const double across = e.glint_across_m * rng.normal();
    // The glint moves the echo's centre along the hull and across the line of sight: the part
    // along the line of sight is range, the rest bearing.
    const double a = aspect_deg * kDeg;
    const double d_range = along * std::cos(a);
    const double d_cross = along * std::sin(a) + across;
    const double glint_deg = range_m > 1 ? std::atan2(d_cross, range_m) / kDeg : 0.0;
    m.roll_error_deg = roll_bearing_error_deg(roll_angle_deg(e, seed, t_s), rel_bearing_deg);
    m.random_bearing_deg = beam + encoder + backlash + glint_deg;
    m.random_range_m = pulse + d_range;
    m.range_m = std::max(0.0, range_m + m.random_range_m);
    const double b = rel_bearing_deg + m.roll_error_deg + m.random_bearing_deg;
    m.rel_bearing_deg = wrap360(b);
  }
  if (grid) {
    m.range_m = round_to(m.range_m, grid->cell_m());
    m.rel_bearing_deg = wrap360(round_to(m.rel_bearing_deg, grid->radial_deg()));
  }
  return m;
}

NavMeasurement measure_nav(const SensorErrors& e, uint64_t seed, double t_s, double heading_deg,
                           double course_deg, double speed_mps) {
  NavMeasurement n;
  n.heading_deg = wrap360(heading_deg);
  n.sog_mps = std::max(0.0, speed_mps);
  n.cog_deg = wrap360(course_deg);
  n.log_speed_mps = n.sog_mps;
  if (!e.enabled) return n;
  Rng rng(hash64(seed, kNavKey, time_key(t_s)));
  n.heading_deg = wrap360(heading_deg + e.gyro_bias_deg + e.gyro_sigma_deg * rng.normal());
  n.log_speed_mps =
      std::max(0.0, speed_mps + (e.log_bias_kn + e.log_sigma_kn * rng.normal()) * kKnot);
  return n;
}

}  // namespace sweepline::sim
