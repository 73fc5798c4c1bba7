#pragma once
// ARPA target tracker: radar plots in, tracks with identity, motion, CPA/TCPA, trails and alarms
// out. CPU only, no GL or UI. Maintainers' notes: docs/tracking-internals.md.
//
// Frame: a ground-stabilised local plane, x east, y north, metres, origin fixed; the caller
// converts. Time: seconds, any monotonic epoch. Bearings: true, clockwise from north, degrees.
//
// Feeding: call update() as the sweep passes, with the plots the sweep has just finished (final)
// and the sector it swept since the previous call. A track whose bearing the sweep passed had a
// detection opportunity (a "scan"); its life (confirm M of N, keep K of W, lost, deleted) counts
// those. Tracks are associated association_lag_deg behind the sweep, so a plot and its track may
// arrive in different calls; feeding one full rotation per call works too.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "app/track/cpa.hpp"
#include "app/track/params.hpp"
#include "app/track/zones.hpp"

namespace sweepline::track {

// One detection (a plot from the detection stage), converted by the caller.
struct TrackPlot {
  double time_s = 0.0;             // when the beam saw it
  double x_m = 0.0, y_m = 0.0;     // absolute, ground plane
  double range_m = 0.0;            // from own ship at time_s
  double bearing_deg = 0.0;        // true, from own ship at time_s
  double range_sigma_m = 20.0;     // radar accuracy, 1 sigma
  double bearing_sigma_deg = 0.1;  // radar accuracy, 1 sigma
  double range_extent_m = 0.0;     // the plot's size; beyond a point target's, adds noise
  double azimuth_extent_deg = 0.0;
  int peak = 0;  // strongest cell (informational)
  // Land lies next to the echo (gpu::Plot::near_land): it updates tracks and can be acquired by
  // hand, but starts no track by itself (automatic acquisition leaves coasts and islands alone).
  bool near_land = false;
  // Whether land is next to it is not known yet (gpu::Plot::land_unknown: the clutter map's first
  // rotations). Such a plot starts a track, which is confirmed only once a plot known to be clear
  // of land feeds it, and dropped if one next to land does first.
  bool land_unknown = false;
};

// Own ship. When !valid, plots are relative to the radar as if own ship sat still at the origin;
// tracks and CPA are then relative only (Tracker::relative_only()).
struct OwnShip {
  bool valid = false;
  double time_s = 0.0;
  double x_m = 0.0, y_m = 0.0;
  double course_deg = 0.0, speed_mps = 0.0;  // over ground
  double heading_deg = 0.0;
};

struct TrailPoint {
  double time_s = 0.0, x_m = 0.0, y_m = 0.0;
};

struct Track {
  enum class Status { Acquiring, Tracked, Lost };
  int id = 0;  // > 0, never reused by one Tracker
  Status status = Status::Acquiring;
  double time_s = 0.0;          // the time of this snapshot (the latest update's now_s)
  double last_plot_s = 0.0;     // time of the latest associated plot
  double x_m = 0.0, y_m = 0.0;  // estimate at time_s
  double vx_mps = 0.0, vy_mps = 0.0;
  double pos_cov[3] = {0, 0, 0};             // position covariance xx, xy, yy (m^2)
  double vel_cov[3] = {0, 0, 0};             // velocity covariance xx, xy, yy (m^2/s^2)
  double turn_prob = 0.0;                    // IMM probability of the coordinated-turn model
  double range_m = 0.0, bearing_deg = 0.0;   // from own ship at time_s
  double course_deg = 0.0, speed_mps = 0.0;  // true, over ground
  double rel_course_deg = 0.0, rel_speed_mps = 0.0;
  double cpa_m = 0.0, tcpa_s = 0.0;  // negative tcpa: closest point passed
  bool cpa_moving = true;            // false: no relative motion, cpa = range, tcpa = 0
  std::vector<TrailPoint> trail;     // past positions, oldest first
  uint32_t scans_seen = 0;           // bit i: detected i scans ago (bit 0 = latest scan)
  int scans = 0;                     // scans since the track started
  bool dangerous = false;            // tracked, 0 <= tcpa <= limit and cpa <= limit (at its scan)
  bool in_zone = false;              // inside an acquisition zone (at its latest scan)
  bool manual = false;               // acquired by the operator
};

struct Alarm {
  enum class Kind { Cpa, NewTargetInZone, LostTarget };
  int id = 0;  // > 0, increasing
  Kind kind = Kind::Cpa;
  int track_id = 0;
  double time_s = 0.0;
  bool acknowledged = false;
};

struct TrackerStats {
  uint64_t plots = 0;             // plots received
  uint64_t plots_associated = 0;  // used to update a track
  uint64_t tracks_started = 0;
  uint64_t tracks_confirmed = 0;
  uint64_t tracks_lost = 0;
  uint64_t tracks_deleted = 0;
  uint64_t refused_capacity = 0;  // tracks not started because capacity was reached
  uint64_t greedy_clusters = 0;   // clusters above exact_cluster_max (greedy assignment)
  uint64_t bad_plots = 0;         // non-finite or negative-sigma plots, skipped
  uint64_t near_land_plots = 0;   // unassociated plots next to land: not acquired automatically
  // Automatic tracks started before land was known and then found next to land: deleted.
  uint64_t land_tracks_dropped = 0;
};

class Tracker {
 public:
  explicit Tracker(const TrackerParams& params = {});  // validates params
  ~Tracker();
  Tracker(Tracker&&) noexcept;
  Tracker& operator=(Tracker&&) noexcept;

  // Plots the sweep has finished; the sector swept since the previous call, clockwise from
  // sweep_from_deg to sweep_to_deg (wraps; equal values = a full rotation). now_s: the time the
  // sweep reached sweep_to_deg, not decreasing. A gap between the previous call's sweep_to and
  // this sweep_from is a sector not observed: tracks there are not counted as missed (one
  // narrower than half a beamwidth is the heading's jitter, and counts as swept). Calls should
  // be smaller than a rotation (docs/tracking-internals.md, "Feeding and scans").
  void update(std::span<const TrackPlot> plots, double sweep_from_deg, double sweep_to_deg,
              double now_s, const OwnShip& own);

  // Manual acquisition (MARPA): the nearest live track (any status) or else the nearest recent
  // unassociated plot within acquire_radius_m of (x, y) becomes an operator track (manual); its
  // id, or nullopt when nothing is near
  // or capacity is reached. Works where automatic acquisition is off (no zone, flag off): the
  // last rotation's unassociated plots are kept for it.
  std::optional<int> acquire(double x_m, double y_m);
  bool cancel(int track_id);  // false when no such track
  void cancel_all();

  int add_zone(const AcquisitionZone& zone);  // validates; returns its id (> 0)
  bool remove_zone(int zone_id);
  // Validates, then puts `zone` in place of zone_id keeping its id; false when there is no such
  // zone (a malformed zone throws and leaves the old one).
  bool replace_zone(int zone_id, const AcquisitionZone& zone);
  std::vector<std::pair<int, AcquisitionZone>> zones() const;

  // Limits, flags and life rules take effect at the next update; validated.
  void set_params(const TrackerParams& params);
  const TrackerParams& params() const;

  // Every live track, extrapolated to the latest update's now_s (ids ascending). Reuses `out`.
  void tracks(std::vector<Track>& out) const;
  std::optional<Track> find(int track_id) const;
  std::size_t size() const;

  const std::vector<Alarm>& alarms() const;  // oldest first
  bool acknowledge(int alarm_id);            // false when no such alarm
  void acknowledge_all();

  bool relative_only() const;  // the latest update had no valid own ship
  const TrackerStats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sweepline::track
