#pragma once
// The detection scorecard's numbers: per rotation what was found, per scene the summary and the
// issue's targets (docs/eval.md explains each).
#include <cstdint>
#include <string>
#include <vector>

#include "app/eval/match.hpp"
#include "app/sim/scenario.hpp"

namespace sweepline::eval {

// The truth's definition of a vessel the radar should see: its echo this far above the local
// clutter-plus-noise mean.
inline constexpr double kDetectableScrDb = 10;

// The acceptance targets (issue 28, "Done when").
struct Targets {
  double detectable_found_pct = 99;  // of SCR >= 10 dB vessels, in every rotation
  double all_found_pct = 90;         // of all vessels, overall
  double max_unmatched = 5;          // plots matching no vessel, in every rotation
  // Median centroid errors: half a beamwidth in bearing, one pulse length in range.
  double bearing_beamwidths = 0.5;
  double range_pulses = 1;
};

struct RotationScore {
  uint64_t rotation = 0;
  int vessels = 0;     // truth vessels on the display
  int found = 0;       // of them matched by a detection
  int detectable = 0;  // vessels with SCR >= kDetectableScrDb
  int detectable_found = 0;
  int detections = 0;                     // plots (or components)
  int unmatched = 0;                      // detections matching no vessel
  std::vector<double> range_error_m;      // signed, per matched pair
  std::vector<double> bearing_error_deg;  // signed, per matched pair
  // The vessels no detection matched, for finding out why (id, where, how detectable).
  struct Miss {
    int id = 0;
    double range_m = 0, bearing_deg = 0, scr_db = 0;
  };
  std::vector<Miss> missed;
};

// Scores one rotation's match (`truth` as given to match_rotation).
RotationScore score_rotation(uint64_t rotation, const RotationMatch& match,
                             const std::vector<sim::VesselTruth>& truth, int detections);

// Linear interpolation between closest ranks (numpy's default): p in [0, 100]; NaN when empty.
double percentile(std::vector<double> values, double p);

struct TargetCheck {
  std::string name;      // "detectable found", "all found", "unmatched", "range error", ...
  double value = 0;      // what was measured (NaN: nothing to measure)
  double limit = 0;      // the target
  bool at_least = true;  // value >= limit passes (else value <= limit)
  bool pass = false;
};

struct SceneScore {
  int rotations = 0;
  int vessels = 0, found = 0;  // summed over rotations
  int detectable = 0, detectable_found = 0;
  double found_pct = 0, worst_found_pct = 0;  // overall, and the worst rotation's
  double detectable_pct = 0, worst_detectable_pct = 0;
  double unmatched_mean = 0;
  int unmatched_max = 0;
  int pairs = 0;  // matched pairs the errors are over
  // Absolute centroid errors over all matched pairs (NaN without pairs).
  double range_error_median_m = 0, range_error_p95_m = 0;
  double bearing_error_median_deg = 0, bearing_error_p95_deg = 0;
  std::vector<TargetCheck> targets;
  bool pass = false;  // every target
};

// Percentages of an empty set are 100 (nothing to miss). The targets' limits in metres and
// degrees come from the radar's beamwidth and pulse length.
SceneScore score_scene(const std::vector<RotationScore>& rotations, const sim::RadarConfig& radar,
                       const Targets& targets = {});

}  // namespace sweepline::eval
