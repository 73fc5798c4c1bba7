#include "app/engine/track_feed.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace sweepline::engine {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
// A time of day falling back by more than this is the next day (CAT240 I240/140 wraps).
constexpr double kDayS = 86400.0;

double wrap360(double d) {
  d = std::fmod(d, 360.0);
  if (d < 0) d += 360.0;
  return d >= 360.0 ? 0.0 : d;
}

// Clockwise distance from a to b, [0, 360).
double cw(double a, double b) {
  return wrap360(b - a);
}

}  // namespace

double roll_spread_deg(double roll_deg) {
  if (roll_deg == 0) return 0;
  // Sampled over one roll cycle: the error is atan2(sin b cos roll, cos b) - b at b = 045.
  constexpr int kSamples = 720;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double roll = roll_deg * kDeg * std::sin(2.0 * std::numbers::pi * i / kSamples);
    const double b = 45.0 * kDeg;
    const double err = (std::atan2(std::sin(b) * std::cos(roll), std::cos(b)) - b) / kDeg;
    sum += err;
    sum2 += err * err;
  }
  const double mean = sum / kSamples;
  return std::sqrt(std::max(0.0, sum2 / kSamples - mean * mean));
}

RadarAccuracy plot_accuracy(const PlotErrors& e) {
  RadarAccuracy a;
  const double roll = roll_spread_deg(e.roll_deg);
  double b2 = e.beam_sigma_deg * e.beam_sigma_deg + e.encoder_sigma_deg * e.encoder_sigma_deg +
              e.backlash_deg * e.backlash_deg / 3.0 + e.gyro_sigma_deg * e.gyro_sigma_deg +
              roll * roll;
  if (e.azimuth_step_deg > 0) b2 += e.azimuth_step_deg * e.azimuth_step_deg / 12.0;
  const double along2 = e.glint_along_m * e.glint_along_m / 2.0;
  double r2 = e.range_sigma_m * e.range_sigma_m + along2;
  if (e.range_step_m > 0) r2 += e.range_step_m * e.range_step_m / 12.0;
  a.range_sigma_m = std::sqrt(r2);
  a.bearing_sigma_deg = std::sqrt(b2);
  a.cross_sigma_m = std::sqrt(along2 + e.glint_across_m * e.glint_across_m);
  return a;
}

double plot_bearing_sigma_deg(const RadarAccuracy& acc, double range_m) {
  if (acc.cross_sigma_m <= 0 || range_m <= 0) return acc.bearing_sigma_deg;
  const double cross_deg = std::atan2(acc.cross_sigma_m, range_m) / kDeg;
  return std::sqrt(acc.bearing_sigma_deg * acc.bearing_sigma_deg + cross_deg * cross_deg);
}

RadarAccuracy radar_accuracy(const gpu::PlotParams& radar, int azimuths, int range_bins,
                             double range_m) {
  PlotErrors e;
  e.range_sigma_m = kRangeSigmaPerPulse * radar.pulse_m;
  e.beam_sigma_deg = kBearingSigmaPerBeam * radar.beamwidth_deg;
  e.encoder_sigma_deg = kEncoderSigmaDeg;
  e.backlash_deg = kBacklashDeg;
  if (azimuths > 0) e.azimuth_step_deg = 360.0 / azimuths;
  if (range_bins > 0 && range_m > 0) e.range_step_m = range_m / range_bins;
  return plot_accuracy(e);
}

track::OwnShip to_track_own_ship(const nav::OwnShipState& own) {
  track::OwnShip o;
  if (!own.valid) return o;
  o.valid = true;
  o.time_s = own.time_s;
  o.x_m = own.x_m;
  o.y_m = own.y_m;
  o.speed_mps = own.speed_mps;
  // In the plane: the velocity's own direction when it has one (it is already in the plane).
  o.course_deg = own.speed_mps > 0 && (own.vx_mps != 0 || own.vy_mps != 0)
                     ? wrap360(std::atan2(own.vx_mps, own.vy_mps) / kDeg)
                     : wrap360(own.course_deg + own.true_to_grid_deg);
  o.heading_deg = wrap360(own.heading_deg + own.true_to_grid_deg);
  return o;
}

track::TrackPlot to_track_plot(const gpu::Plot& p, const nav::OwnShipState& own,
                               const RadarAccuracy& acc, double time_offset_s) {
  track::TrackPlot t;
  t.time_s = p.time_s + time_offset_s;
  t.range_m = p.range_m;
  t.range_sigma_m = acc.range_sigma_m;
  t.bearing_sigma_deg = plot_bearing_sigma_deg(acc, p.range_m);
  t.range_extent_m = p.range_extent_m;
  t.azimuth_extent_deg = p.azimuth_extent_deg;
  t.peak = p.peak;
  t.near_land = p.near_land;
  t.land_unknown = p.land_unknown;
  // Heading: a heading sensor's, or the course over ground the estimator stands in with; none
  // at all: the video is taken as north-up.
  const bool heading = own.valid || own.heading_valid;
  const double grid = own.valid ? own.true_to_grid_deg : 0.0;
  const double b = wrap360(p.bearing_deg + (heading ? own.heading_deg + grid : 0.0));
  t.bearing_deg = b;
  double ox = 0, oy = 0;
  if (own.valid) {
    const double dt = p.time_s - own.time_s;
    ox = own.x_m + own.vx_mps * dt;
    oy = own.y_m + own.vy_mps * dt;
  }
  t.x_m = ox + p.range_m * std::sin(b * kDeg);
  t.y_m = oy + p.range_m * std::cos(b * kDeg);
  return t;
}

SweepSector frame_sector(const PolarFrame& f) {
  SweepSector s;
  if (f.azimuths <= 0 || f.dirty.count <= 0) return s;
  s.empty = false;
  if (f.dirty.count >= f.azimuths) {
    s.full = true;
    s.from_deg = s.to_deg = wrap360(f.sweep_azimuth_deg);
    return s;
  }
  const double step = 360.0 / f.azimuths;
  s.from_deg = wrap360(f.dirty.first * step);
  s.to_deg = wrap360((f.dirty.first + f.dirty.count) * step);
  return s;
}

SweepSector true_sector(const SweepSector& rel, double heading_from_deg, double heading_to_deg) {
  SweepSector s = rel;
  if (rel.empty) return s;
  if (rel.full) {
    s.from_deg = s.to_deg = wrap360(rel.to_deg + heading_to_deg);
    return s;
  }
  s.from_deg = wrap360(rel.from_deg + heading_from_deg);
  s.to_deg = wrap360(rel.to_deg + heading_to_deg);
  // A turn against the sweep larger than the sector would turn it inside out: nothing swept.
  if (s.from_deg == s.to_deg) s.empty = true;
  return s;
}

namespace {

template <class Pick>
std::optional<double> frame_time(const PolarFrame& f, Pick pick) {
  if (f.azimuths <= 0 || f.row_time_s.size() != size_t(f.azimuths) || f.dirty.count <= 0)
    return std::nullopt;
  std::optional<double> out;
  const int n = std::min(f.dirty.count, f.azimuths);
  for (int k = 0; k < n; ++k) {
    const double t = f.row_time_s[size_t((f.dirty.first + k) % f.azimuths)];
    if (t > 0) out = out ? pick(*out, t) : t;
  }
  return out;
}

}  // namespace

std::optional<double> frame_latest_time(const PolarFrame& f) {
  return frame_time(f, [](double a, double b) { return std::max(a, b); });
}

std::optional<double> frame_earliest_time(const PolarFrame& f) {
  return frame_time(f, [](double a, double b) { return std::min(a, b); });
}

bool plot_completed(const gpu::Plot& p, const SweepSector& rel, double margin_deg) {
  if (rel.empty) return false;
  if (rel.full) return true;
  const double trailing = wrap360(p.bearing_deg + 0.5 * p.azimuth_extent_deg + margin_deg);
  return cw(rel.from_deg, trailing) < cw(rel.from_deg, rel.to_deg);
}

double ClockUnwrapper::offset_for(double t_s) {
  if (have_ && t_s + offset_ < last_ - 0.5 * kDayS) offset_ += kDayS;
  have_ = true;
  last_ = std::max(last_, t_s + offset_);
  return offset_;
}

}  // namespace sweepline::engine
