#pragma once
// Plot-level simulation of a scenario's relative targets (the IMO ARPA test scenarios): per
// antenna scan, what a plot extractor would report for each target, what the own ship's NMEA
// would say, and the truth, without rendering video. `sweepline eval` runs it over many seeds
// (Monte Carlo of the tracker against MSC.192(79)'s accuracy table). The rendered video of the
// same scenario and seed carries the same radar errors on the same scans (the draws are keyed
// by seed, scan and target, sensor_errors.hpp).
#include <cstdint>
#include <vector>

#include "app/sim/own_ship.hpp"
#include "app/sim/scenario.hpp"

namespace sweepline::sim {

// One target on one scan. Times in seconds from the run's start (rotation n starts at n antenna
// periods, at kSimEpoch + n periods on the wire); positions metres east and north of the scene
// origin; bearings and courses degrees clockwise from true north, [0, 360); speeds m/s.
struct ImoMeasurement {
  uint64_t scan = 0;  // the antenna's pass over the target (rotation n's pass; draws keyed by it)
  int target_id = 0;  // the target's id in the truth file
  double scan_start_s = 0;
  double t_s = 0;  // when the beam passed the target: the plot's time
  // The plot: the radar's measurement with the sensor errors, rounded to the radar's grid.
  double range_m = 0;
  double rel_bearing_deg = 0;  // from the bow, as the video carries it
  double bearing_deg = 0;      // rel_bearing_deg + nav_heading_deg: the plot stabilised by the gyro
  // Own ship's navigation at t_s as its NMEA says it: heading from the gyro (bias and noise);
  // position, speed and course over ground from the GNSS (exact: the standard gives them no
  // error); the log's speed through water (bias and noise), which the tracker does not use.
  double nav_heading_deg = 0;
  double nav_sog_mps = 0;
  double nav_cog_deg = 0;
  double nav_log_speed_mps = 0;
  double nav_x_m = 0, nav_y_m = 0;
  double nav_lat_deg = 0, nav_lon_deg = 0;
  // Truth at t_s.
  OwnState own;
  double target_x_m = 0, target_y_m = 0;
  double target_vx_mps = 0, target_vy_mps = 0;
  double target_course_deg = 0, target_speed_mps = 0;
  double true_range_m = 0, true_bearing_deg = 0;
  double true_rel_bearing_deg = 0;               // from the bow
  double rel_course_deg = 0, rel_speed_mps = 0;  // the target's motion relative to own ship
  double cpa_m = 0, tcpa_s = 0;                  // against own ship's present motion
};

// Every target of `s` on every scan that starts before `duration_s`, in scan order then target
// order, one plot per meeting of beam and target: where a target's true bearing crosses the bow
// clockwise, the scan after the crossing gives none (its meeting is the previous scan's, a
// moment before). Known gap: a crossing anticlockwise leaves out the one meeting at the
// crossing (a single missed scan; the IMO scenarios have no such crossing). `seed` replaces s.seed
// (the Monte Carlo draw); the same arguments give the same result. Throws sweepline::Error when the
// scenario does not validate.
std::vector<ImoMeasurement> imo_measurements(const Scenario& s, uint64_t seed, double duration_s);

// One target on one scan (the antenna's pass over the target: see observe_target's definition
// of a pass in imo_plots.cpp; one plot per pass, even for a target dead ahead): the beam's time
// (the moment the antenna points at where the target is measured to be, a little before the
// scan's start for a measurement just west of a target just east of the bow), own ship and the
// target's true relative position then, and the radar's measurement (on the radar's grid with
// `grid`, else exact). The video draws the target's echo at the measurement of this very call, so
// plots and video agree.
struct TargetScan {
  double t_s = 0;
  OwnState own;
  double rel_x_m = 0, rel_y_m = 0;  // target minus own ship, east and north
  double true_range_m = 0, true_bearing_deg = 0, true_rel_bearing_deg = 0;
  TargetMeasurement measured;
};
TargetScan observe_target(const Scenario& s, uint64_t seed, OwnShipTrack& own,
                          const GroundTarget& target, uint64_t scan,
                          const RadarConfig* grid = nullptr);

}  // namespace sweepline::sim
