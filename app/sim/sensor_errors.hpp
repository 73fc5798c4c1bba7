#pragma once
// The sensor errors an ARPA's accuracy is specified against, in one place: IMO A.823(19)
// Appendix Annex 3 (the errors MSC.192(79) 5.25.4.7 refers to, and IEC 62388 tests with),
// docs/simulator.md has the table and its source. The same functions displace the echo of a
// scenario target in the rendered video and make the plots of the plot-level Monte Carlo
// (imo_plots.hpp), so both see one error model.
//
// Every draw is a pure function of (seed, scan or time, what is measured): the same call gives
// the same answer, and different scans, times or targets get independent draws.
#include <cstdint>

namespace sweepline::sim {

struct SensorErrors {
  bool enabled = false;  // off: every measurement is the truth
  // Radar bearing (degrees, per plot).
  double beam_sigma_deg = 0.05;     // beam shape: normal
  double encoder_sigma_deg = 0.03;  // bearing encoder from a remote synchro: normal
  double backlash_deg = 0.05;       // antenna backlash: rectangular, +-this
  // Radar range (metres, per plot).
  double range_sigma_m = 20;  // pulse shape: normal
  // Target glint for a 200 m target: the echo's centre wanders along the hull and across the
  // beam (metres, normal).
  double glint_along_m = 30;
  double glint_across_m = 1;
  // Quantisation: a plot's position is rounded to the radar's grid (one radial, one range cell;
  // measure_target's `grid`). The rendered video is on the grid already, so the render never
  // asks for it.
  // Roll (and pitch) of the antenna platform: roll = roll_deg x sin(2 pi t / roll_period_s +
  // phase), the phase drawn from the seed. It tilts the antenna's plane, so a target at relative
  // bearing b is seen at atan2(sin b cos roll, cos b): no error at 0/90/180/270 deg, most at
  // 045/135/225/315; for 10 deg a mean of 0.22 deg with a 0.22 deg sine at twice the roll
  // frequency, as the standard states.
  double roll_deg = 10;
  double roll_period_s = 10;
  // Gyro compass: a calibration error, then normal noise about it (degrees).
  double gyro_bias_deg = 0.5;
  double gyro_sigma_deg = 0.12;
  // Log (own ship's speed through water, NavMeasurement::log_speed_mps): a calibration error,
  // then normal noise about it (3 sigma = 0.2 kn). The GNSS speed and course over ground carry
  // no error (the standard gives the EPFS none).
  double log_bias_kn = 0.5;
  double log_sigma_kn = 0.2 / 3;
};

struct RadarConfig;
// The standard's errors, enabled.
SensorErrors imo_sensor_errors();

// A target as the radar measures it.
struct TargetMeasurement {
  double range_m = 0;
  double rel_bearing_deg = 0;  // clockwise from the bow, [0, 360)
  // The parts (for tests and diagnostics): what each error added.
  double roll_error_deg = 0;      // the roll's deterministic bearing error
  double random_bearing_deg = 0;  // beam + encoder + backlash + glint across
  double random_range_m = 0;      // pulse + glint along
};

// The radar's measurement on antenna scan `scan` of a target at true `range_m` and
// `rel_bearing_deg` (from the bow), swept at time `t_s` (seconds from the run's start; the roll
// then). `aspect_deg` is the target's heading minus its true bearing (which way its hull lies
// across the line of sight, for the glint). The random draws are keyed by (seed, scan, target),
// so the video and the plot-level generator see the same errors on the same scan. With a `grid`,
// the result is rounded to the centres of its radials and range cells, as a plot extractor on
// that radar reports it.
TargetMeasurement measure_target(const SensorErrors& e, uint64_t seed, uint64_t scan, double t_s,
                                 double range_m, double rel_bearing_deg, double aspect_deg,
                                 uint64_t target = 0, const RadarConfig* grid = nullptr);

// The roll angle (degrees) at t_s, and the bearing error it causes at a relative bearing.
double roll_angle_deg(const SensorErrors& e, uint64_t seed, double t_s);
double roll_bearing_error_deg(double roll_deg, double rel_bearing_deg);

// Own ship's navigation sensors at time t_s. Two speeds, from two sensors, kept apart:
// - the GNSS receiver's speed and course over ground (the EPFS: what RMC/VTG carry). The
//   standard gives them no error, and MSC.192(79) lets an ARPA take SOG/COG from the EPFS for
//   ground stabilisation, so the tracker computes own ship's velocity from these;
// - the log's speed through water (VBW), with its calibration error and noise. Nothing in the
//   tracker reads it; it is modelled so that the error stays where the standard puts it.
struct NavMeasurement {
  double heading_deg = 0;    // the gyro, [0, 360)
  double sog_mps = 0;        // GNSS speed over ground, never negative
  double cog_deg = 0;        // GNSS course over ground, [0, 360)
  double log_speed_mps = 0;  // the log's speed through water, never negative
};
NavMeasurement measure_nav(const SensorErrors& e, uint64_t seed, double t_s, double heading_deg,
                           double course_deg, double speed_mps);

}  // namespace sweepline::sim
