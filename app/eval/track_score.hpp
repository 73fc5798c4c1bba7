#pragma once
// The tracking scorecard of the busy scenes: confirmed tracks against the simulator's vessels,
// rotation after rotation (docs/eval.md, "Tracking"). Time to confirm, false confirmed tracks,
// id changes and losses, and GOSPA (Rahmathullah, Garcia-Fernandez, Svensson, "Generalized
// optimal sub-pattern assignment metric", FUSION 2017).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/sim/scene.hpp"
#include "app/track/tracker.hpp"

namespace sweepline::eval {

struct Point2 {
  double x = 0, y = 0;
};

// A track as scored: its position carried (constant velocity) to the truth's time.
struct ScoredTrack {
  int id = 0;
  double x_m = 0, y_m = 0;
  bool confirmed = false;  // status Tracked
  double speed_mps = 0;    // over ground (diagnostics)
  double range_m = 0;      // from own ship (diagnostics)
  int scans = 0;           // scans since the track started (diagnostics)
};

// A track matches a vessel when its position lies within max(min_m, the hull's length) of the
// vessel's; one to one, closest pairs first (ties: lower track, then vessel, index).
struct TrackGates {
  double min_m = 150;  // a 0.3 deg bearing error at 12 NM is 120 m
};

struct TrackPair {
  int track = 0, vessel = 0;  // indices
  double distance_m = 0;
};
std::vector<TrackPair> match_tracks(const std::vector<ScoredTrack>& tracks,
                                    const std::vector<sim::VesselTruth>& truth,
                                    const TrackGates& gates = {});

// GOSPA with alpha = 2 between point sets X (truth) and Y (estimates) in the plane:
// d = ( min over assignments of sum d(x,y)^p over assigned pairs + c^p / 2 (|X| + |Y| - 2 |pairs|)
// )^(1/p), pairs only closer than c. Solved exactly (the Hungarian algorithm per connected
// group of pairs closer than c).
struct Gospa {
  double distance = 0;      // d above
  double localisation = 0;  // sum d^p over the pairs (before the 1/p root)
  int missed = 0, false_tracks = 0, pairs = 0;
};
Gospa gospa(const std::vector<Point2>& truth, const std::vector<Point2>& estimates, double c,
            double p);

struct TrackTargets {                      // issue 29, "Done when"
  double confirmed_within_pct = 99;        // of SCR >= 10 dB vessels, within confirm_scans
  int confirm_scans = 10;                  // of appearing
  double false_per_10min = 1;              // false confirmed tracks
  double id_events_per_track_hour = 0.01;  // id changes and losses: <= 1 % of tracks per hour
  int false_after_scans = 3;               // a confirmed track unmatched this many scans in a row
  double gospa_c_m = 200, gospa_p = 2;
};

// Feeds per rotation, scores at the end. Rotations before `first_scored` run the tracker (and
// its clock) but are not scored: the detection stages' warm-up.
class TrackScorer {
 public:
  TrackScorer(const TrackTargets& targets, const TrackGates& gates, double period_s);
  // One rotation: its confirmed (and other) tracks, and its vessels on the display.
  // `plots`: the rotation's plots (the detection stage's output as the tracker got it), for the
  // diagnosis of the vessels not confirmed in time; may be empty.
  void add_rotation(uint64_t rotation, bool scored, const std::vector<ScoredTrack>& tracks,
                    const std::vector<sim::VesselTruth>& truth,
                    const std::vector<Point2>& plots = {});

  struct Result {
    int rotations = 0;   // scored
    double seconds = 0;  // scored time (rotations x period)
    // Confirmation: detectable vessels judged (appeared at least confirm_scans before the end,
    // or confirmed), of them confirmed within confirm_scans; scans to confirm (median, p95,
    // max; from appearing, 0 when confirmed already).
    int judged = 0, confirmed_in_time = 0;
    double confirmed_pct = 100;
    double scans_median = 0, scans_p95 = 0, scans_max = 0;
    std::vector<int> late;  // vessel ids not confirmed within confirm_scans
    // Why each late vessel was late, from its scans between appearing and confirm_scans later.
    // Per scan, the plots within its match gate: none; shared (a plot there also lies within the
    // gate of another vessel: merged echoes); split (two or more, none shared); clean (one).
    // The confirmation rule needs 3 hits in 5 scans: the cause is "tracking" when some 5
    // consecutive scans held 3 clean ones (the plots were there), else "split" when clean and
    // split scans did, else "merged" when any plot did, else "missed" (no plot: detection).
    struct LateVessel {
      int id = 0;
      double range_m = 0, scr_db = 0;  // when it appeared
      int scans = 0, none = 0, shared = 0, split = 0, clean = 0;
      int tentative = 0;       // scans with an unconfirmed track within the gate
      double neighbour_m = 0;  // closest other vessel (any SCR) over those scans
      std::string cause;
    };
    std::vector<LateVessel> late_detail;
    int late_missed = 0, late_merged = 0, late_split = 0, late_tracking = 0;
    // False confirmed tracks: ids unmatched for false_after_scans consecutive scored scans.
    int false_tracks = 0;
    double false_per_10min = 0;
    std::vector<int> false_ids;
    // Where each false confirmed track was when it was flagged, and the nearest vessel (any
    // SCR): a second track on a vessel sits within a few hull lengths of it; clutter and land
    // tracks far from every vessel.
    struct FalseTrack {
      int id = 0;
      double x_m = 0, y_m = 0, range_m = 0, speed_kn = 0;
      int scans = 0;
      int nearest_vessel = 0;  // 0: none on the display
      double nearest_m = 0, nearest_length_m = 0;
    };
    std::vector<FalseTrack> false_detail;
    // Id continuity: while a vessel stays detectable after its first confirmed match, a match
    // to another id (a change) or no match with its track no longer confirmed (a loss).
    int id_changes = 0, id_losses = 0;
    double track_hours = 0;  // detectable vessel-time with a current id
    double events_per_track_hour = 0;
    // GOSPA per scored scan (truth: SCR >= 10 dB vessels; estimates: confirmed tracks not
    // matched to a vessel below 10 dB), mean and the parts' means.
    double gospa_mean_m = 0, gospa_max_m = 0;
    double gospa_missed_mean = 0, gospa_false_mean = 0, gospa_loc_rms_m = 0;
    std::vector<double> gospa_per_scan;
    struct Check {
      std::string name;
      double value = 0, limit = 0;
      bool at_least = true, pass = false;
    };
    std::vector<Check> targets;
    bool pass = false;
  };
  Result result() const;

 private:
  struct Vessel;
  void diagnose(int64_t s, const std::vector<ScoredTrack>& tracks,
                const std::vector<sim::VesselTruth>& truth, const std::vector<Point2>& plots);
  Result::LateVessel late_vessel(int id, const Vessel& v) const;
  TrackTargets tg_;
  TrackGates gates_;
  double period_s_;
  int scored_ = 0;
  uint64_t last_rotation_ = 0;
  struct Vessel {
    int64_t appear = -1;     // scored index of its first detectable scored rotation
    int64_t confirmed = -1;  // scored index of its first confirmed match
    int current_id = 0;      // the last confirmed track that matched it
    bool lost = false;       // the current id was lost (counted once)
    int64_t detectable_with_id = 0;
    // Its first confirm_scans + 1 scans from appearing (diagnosis of a late confirmation): per
    // scan a category (0 none, 1 shared, 2 split, 3 clean), and the rest.
    std::vector<uint8_t> window;
    int tentative = 0;
    double range_m = 0, scr_db = 0, neighbour_m = 0;
  };
  std::map<int, Vessel> vessels_;
  struct TrackState {
    int64_t last_scan = -1;  // the scored index it was last seen confirmed
    int unmatched_run = 0;   // consecutive scans, reset by a scan without it
    bool flagged = false;
  };
  std::map<int, TrackState> tracks_;
  Result r_;
  std::vector<int> gospa_missed_, gospa_false_;
  double gospa_loc_sum_ = 0;
  int gospa_pairs_ = 0;
};

nlohmann::ordered_json track_result_json(const TrackScorer::Result& r, const TrackTargets& tg,
                                         const TrackGates& gates);

}  // namespace sweepline::eval
