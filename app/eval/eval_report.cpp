#include "app/eval/eval_report.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdio>

#include "app/eval/report_format.hpp"

namespace sweepline::eval {

std::string scorecard_table(const std::vector<SceneRun>& runs) {
  std::string out;
  appendf(out, "%-12s %4s %8s %7s %7s %8s %7s %7s %9s %5s %7s %7s %6s %6s\n", "", "", "", "found",
          "", "SCR>=10", "found", "", "unmatched", "", "range", "err m", "bear.", "err deg");
  appendf(out, "%-12s %4s %8s %7s %7s %8s %7s %7s %9s %5s %7s %7s %6s %6s\n", "scene", "rot",
          "vessels", "%", "worst%", "vessels", "%", "worst%", "mean", "max", "median", "p95",
          "median", "p95");
  for (const SceneRun& r : runs) {
    const SceneScore& s = r.score;
    appendf(out, "%-12s %4d %8d %7s %7s %8d %7s %7s %9s %5d %7s %7s %6s %6s\n", r.name.c_str(),
            s.rotations, s.vessels, num(s.found_pct, 1).c_str(), num(s.worst_found_pct, 1).c_str(),
            s.detectable, num(s.detectable_pct, 1).c_str(), num(s.worst_detectable_pct, 1).c_str(),
            num(s.unmatched_mean, 1).c_str(), s.unmatched_max,
            num(s.range_error_median_m, 1).c_str(), num(s.range_error_p95_m, 1).c_str(),
            num(s.bearing_error_median_deg, 2).c_str(), num(s.bearing_error_p95_deg, 2).c_str());
  }
  out += "\ntargets (issue 28):\n";
  for (const SceneRun& r : runs) {
    appendf(out, "  %-12s %s\n", r.name.c_str(), r.score.pass ? "PASS" : "FAIL");
    for (const TargetCheck& t : r.score.targets)
      appendf(out, "    %-4s %-38s %8s  (%s %s)\n", t.pass ? "PASS" : "FAIL", t.name.c_str(),
              num(t.value, 2).c_str(), t.at_least ? ">=" : "<=", num(t.limit, 2).c_str());
  }
  return out;
}

std::string tracking_table(const std::vector<SceneRun>& runs) {
  std::string out;
  appendf(out, "%-12s %4s %7s %7s %5s %5s %6s %7s %5s %5s %7s %8s %7s %6s %6s %7s\n", "", "",
          "SCR>=10", "conf.", "scans", "", "false", "", "id", "", "track", "events", "GOSPA",
          "GOSPA", "GOSPA", "GOSPA");
  appendf(out, "%-12s %4s %7s %7s %5s %5s %6s %7s %5s %5s %7s %8s %7s %6s %6s %7s\n", "scene",
          "rot", "vessels", "<=10 %", "med", "p95", "tracks", "/10 min", "chg", "lost", "hours",
          "/trk-h", "mean m", "missed", "false", "loc m");
  for (const SceneRun& r : runs) {
    if (!r.tracked) continue;
    const TrackScorer::Result& t = r.tracking;
    appendf(out, "%-12s %4d %7d %7s %5s %5s %6d %7s %5d %5d %7s %8s %7s %6s %6s %7s\n",
            r.name.c_str(), t.rotations, t.judged, num(t.confirmed_pct, 1).c_str(),
            num(t.scans_median, 0).c_str(), num(t.scans_p95, 0).c_str(), t.false_tracks,
            num(t.false_per_10min, 2).c_str(), t.id_changes, t.id_losses,
            num(t.track_hours, 2).c_str(), num(t.events_per_track_hour, 2).c_str(),
            num(t.gospa_mean_m, 0).c_str(), num(t.gospa_missed_mean, 1).c_str(),
            num(t.gospa_false_mean, 1).c_str(), num(t.gospa_loc_rms_m, 1).c_str());
  }
  out += "\ntracking targets (issue 29):\n";
  for (const SceneRun& r : runs) {
    if (!r.tracked) continue;
    appendf(out, "  %-12s %s\n", r.name.c_str(), r.tracking.pass ? "PASS" : "FAIL");
    for (const auto& c : r.tracking.targets)
      appendf(out, "    %-4s %-38s %8s  (%s %s)\n", c.pass ? "PASS" : "FAIL", c.name.c_str(),
              num(c.value, 2).c_str(), c.at_least ? ">=" : "<=", num(c.limit, 2).c_str());
  }
  return out;
}

nlohmann::ordered_json scene_json(const SceneRun& r, const RunConfig* config) {
  const SceneScore& s = r.score;
  nlohmann::ordered_json j;
  j["scene"] = r.name;
  j["detections_from"] = to_string(r.detections_from);
  j["rotations"] = s.rotations;
  j["warmup"] = r.warmup_done;
  j["seconds"] = r.seconds;
  j["radar"] = {{"beamwidth_deg", r.radar.beamwidth_deg}, {"pulse_m", r.radar.pulse_m}};
  j["vessels"] = s.vessels;
  j["vessels_off_display"] = r.vessels_off_display;
  j["found"] = s.found;
  j["found_pct"] = s.found_pct;
  j["worst_found_pct"] = s.worst_found_pct;
  j["detectable_scr_db"] = kDetectableScrDb;
  j["detectable"] = s.detectable;
  j["detectable_found"] = s.detectable_found;
  j["detectable_found_pct"] = s.detectable_pct;
  j["worst_detectable_found_pct"] = s.worst_detectable_pct;
  j["unmatched_mean"] = s.unmatched_mean;
  j["unmatched_max"] = s.unmatched_max;
  j["matched_pairs"] = s.pairs;
  j["range_error_m"] = {{"median", number(s.range_error_median_m)},
                        {"p95", number(s.range_error_p95_m)}};
  j["bearing_error_deg"] = {{"median", number(s.bearing_error_median_deg)},
                            {"p95", number(s.bearing_error_p95_deg)}};
  nlohmann::ordered_json targets = nlohmann::ordered_json::array();
  for (const TargetCheck& t : s.targets)
    targets.push_back({{"target", t.name},
                       {"value", number(t.value)},
                       {"limit", t.limit},
                       {"at_least", t.at_least},
                       {"pass", t.pass}});
  j["targets"] = targets;
  j["pass"] = s.pass;
  nlohmann::ordered_json rots = nlohmann::ordered_json::array();
  for (const RotationScore& rs : r.rotations) {
    nlohmann::ordered_json missed = nlohmann::ordered_json::array();
    for (const RotationScore::Miss& m : rs.missed)
      missed.push_back({{"id", m.id},
                        {"range_m", m.range_m},
                        {"bearing_deg", m.bearing_deg},
                        {"scr_db", m.scr_db}});
    rots.push_back({{"rotation", rs.rotation},
                    {"vessels", rs.vessels},
                    {"found", rs.found},
                    {"detectable", rs.detectable},
                    {"detectable_found", rs.detectable_found},
                    {"detections", rs.detections},
                    {"unmatched", rs.unmatched},
                    {"missed", missed}});
  }
  j["per_rotation"] = rots;
  if (r.tracked) {
    const RunConfig defaults;
    const RunConfig& c = config ? *config : defaults;
    j["tracking"] = track_result_json(r.tracking, c.track_targets, c.track_gates);
    j["tracking"]["tracks_live_end"] = r.tracks_live_end;
    j["tracking"]["tracks_confirmed_end"] = r.tracks_confirmed_end;
  }
  return j;
}

}  // namespace sweepline::eval
