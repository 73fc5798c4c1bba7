#pragma once
// Every knob of the ARPA tracker in one struct, with defaults for a 24 rpm, 1.2 deg beam, 30 m
// pulse marine radar. validate() refuses a bad set, naming the field.
namespace sweepline::track {

struct TrackerParams {
  // --- Track life, counted in scans (a scan = the sweep passed the track's predicted bearing).
  int confirm_hits = 3;    // tentative -> tracked when seen in confirm_hits ...
  int confirm_window = 5;  // ... of the last confirm_window scans (M of N)
  int keep_hits = 5;       // tracked while seen in keep_hits ...
  int keep_window = 10;    // ... of the last keep_window scans (IMO MSC.192(79) 5.25); else lost
  int delete_lost_scans = 10;   // a lost track is deleted after this many further scans ...
  double delete_lost_s = 60.0;  // ... or this many seconds, whichever comes first

  // --- Filter (IMM of constant velocity + coordinated turn, per target).
  double max_speed_mps = 25.72;  // 50 kn: bounds the two-plot initialisation (velocity prior)
  // CV model white acceleration, m^2/s^3: a steady ship's speed wanders by centimetres per
  // second over minutes; more noise only shortens the filter's memory (the IMO accuracy table,
  // docs/tracking-internals.md "Tuning", is set by the CV model's memory on straight targets).
  double cv_accel_psd = 0.00005;
  double ct_accel_psd = 0.05;  // CT model white acceleration, m^2/s^3
  double ct_turn_psd = 1e-5;   // CT model turn-rate noise, rad^2/s^3
  // Mean times in each mode (Markov chain): ships go straight for hours and turn for tens of
  // seconds; a shorter CV sojourn keeps CT's weight (and its noisier velocity) on straight tracks.
  double cv_sojourn_s = 7200.0;
  double ct_sojourn_s = 30.0;

  // --- Measurement model (plots carry their own 1-sigma range/bearing accuracy).
  double beamwidth_deg = 1.2;        // azimuth extent of a point target: not added as noise
  double range_resolution_m = 30.0;  // range extent of a point target: not added as noise

  // --- Gating and association.
  double gate_chi2 = 18.4;           // chi-square gate on the 2-D innovation (18.4 = 99.99 %)
  double max_gate_m = 1500.0;        // cap on a gate's radius (coasting tracks grow)
  int exact_cluster_max = 24;        // clusters with more tracks or plots use the greedy fallback
  double association_lag_deg = 8.0;  // tracks are associated once the sweep is this far past them

  // --- Acquisition.
  bool auto_acquire_everywhere =
      true;                         // unassociated plots start tracks anywhere, not only in zones
  int capacity = 2000;              // live tracks of every status; more are refused (counted)
  double acquire_radius_m = 300.0;  // manual acquire: nearest plot/tentative within this

  // --- Output.
  int trail_points = 16;           // past positions kept per track
  double trail_interval_s = 15.0;  // minimum spacing of past positions

  // --- Alarms.
  double cpa_limit_m = 926.0;   // 0.5 NM
  double tcpa_limit_s = 720.0;  // 12 min
  int max_alarms = 256;         // oldest acknowledged alarms are dropped beyond this

  // --- Sweep.
  double rotation_period_s = 2.5;  // first guess (24 rpm) until measured from the sweep feed
};

// Throws sweepline::Error naming the first bad field.
void validate(const TrackerParams& p);

}  // namespace sweepline::track
