#pragma once
// The scorecard as text (the table `sweepline eval` prints) and as JSON (eval.json).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/eval/eval_run.hpp"

namespace sweepline::eval {

// One row per scene: vessels found (all; SCR >= 10 dB), unmatched plots per rotation, centroid
// errors; then each scene's targets, PASS or FAIL with the measured value.
std::string scorecard_table(const std::vector<SceneRun>& runs);

// One scene's numbers, targets and per-rotation scores (NaN values are null); with tracking
// (RunConfig::track) a "tracking" object (track_result_json).
nlohmann::ordered_json scene_json(const SceneRun& run, const RunConfig* config = nullptr);

// The tracking scorecard of the scenes run with RunConfig::track: one row per scene, then each
// scene's targets (issue 29), PASS or FAIL.
std::string tracking_table(const std::vector<SceneRun>& runs);

}  // namespace sweepline::eval
